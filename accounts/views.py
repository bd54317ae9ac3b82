"""A logged-in person's own pages: their events, privacy, data, claim codes, organizer approval."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from tournaments.http import posted_id

from . import selectors, services
from .forms import OrganizerRequestForm
from .models import OrganizerApproval
from .permissions import has_verified_email


@login_required
def my_events(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/my_events.html", selectors.my_events(user=request.user))


def organizer_needed(request: HttpRequest) -> HttpResponse:
    """Shown instead of the new-event form to an account that may not create events yet (403)."""
    approval = OrganizerApproval.objects.filter(user=request.user).first()
    form = OrganizerRequestForm(request.POST or None, initial={"note": approval.note if approval else ""})
    asking = request.method == "POST" and "request_organizer" in request.POST
    may_ask = settings.EVENT_CREATION == "approved" and has_verified_email(request.user)
    if asking and may_ask and form.is_valid():
        services.organizer_request(user=request.user, note=form.cleaned_data["note"])
        messages.success(request, "Request sent. A site administrator will look at it.")
        return redirect("accounts:my_events")
    context = {
        "verified": has_verified_email(request.user),
        "needs_approval": settings.EVENT_CREATION == "approved",
        "approval": approval,
        "form": form,
    }
    return render(request, "accounts/organizer_needed.html", context, status=403)


def _site_admin(user) -> bool:
    return user.is_active and (user.is_staff or user.is_superuser)


@login_required
def organizer_approvals(request: HttpRequest) -> HttpResponse:
    """Site administrators approve the accounts that may create events (``EVENT_CREATION=approved``)."""
    if not _site_admin(request.user):
        raise PermissionDenied("Only site administrators approve organizers.")
    if request.method == "POST":
        approval = get_object_or_404(OrganizerApproval, pk=posted_id(request.POST.get("approval")) or 0)
        approve = request.POST.get("decision") == "approve"
        services.organizer_decide(approval=approval, by=request.user, approve=approve)
        verb = "may now create events" if approve else "was declined"
        messages.success(request, f"{approval.user.username} {verb}.")
        return redirect("accounts:organizer_approvals")
    approvals = OrganizerApproval.objects.select_related("user", "approved_by").order_by(
        F("approved_at").desc(nulls_first=True), "-requested_at"
    )
    return render(
        request,
        "accounts/organizer_approvals.html",
        {"approvals": approvals, "mode": settings.EVENT_CREATION},
    )
