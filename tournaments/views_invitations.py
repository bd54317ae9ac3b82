"""Staff invitations: the organizer's invite / resend / revoke on the Staff page, and the public page
the emailed link opens, where the invited person logs in or signs up and accepts."""

from __future__ import annotations

from urllib.parse import urlencode

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.invitations import SESSION_KEY as INVITATION_SESSION_KEY
from accounts.invitations import forget_invitation, remember_invitation

from . import services
from .errors import ActionError
from .forms import StaffForm
from .forms_invitations import StaffInviteForm
from .models import Event, EventStaff, StaffInvitation
from .permissions import event_staff_required


def _link_builder(request: HttpRequest):
    return lambda token: request.build_absolute_uri(
        reverse("tournaments:invitation", kwargs={"token": token})
    )


def staff_page(
    request: HttpRequest,
    event: Event,
    *,
    form: StaffForm | None = None,
    invite_form: StaffInviteForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The Staff page: who is on the staff, the open invitations, and the two ways to add someone."""
    link = _link_builder(request)
    invitations = list(
        StaffInvitation.objects.filter(event=event, accepted_at__isnull=True, revoked_at__isnull=True)
        .select_related("invited_by")
        .order_by("-sent_at")
    )
    for invitation in invitations:
        invitation.link = link(invitation.token)
    context = {
        "event": event,
        "form": form or StaffForm(),
        "invite_form": invite_form or StaffInviteForm(),
        "staff_list": EventStaff.objects.filter(event=event).select_related("user"),
        "invitations": invitations,
        "invitation_days": settings.INVITATION_DAYS,
    }
    return render(request, "tournaments/staff.html", context, status=status)


@require_POST
@event_staff_required("manage")
def staff_invite(request: HttpRequest, event: Event) -> HttpResponse:
    form = StaffInviteForm(request.POST)
    if form.is_valid():
        try:
            invitation = services.invitation_send(
                event=event, by=request.user, build_url=_link_builder(request), **form.cleaned_data
            )
        except ActionError as exc:
            form.add_error("email", exc.message)
        else:
            role, until = invitation.get_role_display().lower(), f"{invitation.expires_at:%d %b %Y}"
            if invitation.previous_role is None:
                text = f"Invitation sent to {invitation.email} ({role}), valid until {until}."
            elif invitation.previous_role == role:
                text = f"{invitation.email} was already invited: the same link was sent again, valid until {until}."
            else:
                text = (
                    f"{invitation.email} was already invited as {invitation.previous_role}: now invited as "
                    f"{role}, and the link was sent again, valid until {until}."
                )
            messages.success(request, text)
            return redirect("tournaments:staff", slug=event.slug)
    return staff_page(request, event, invite_form=form, status=400)


def _open_invitation(request: HttpRequest, event: Event, pk: int) -> StaffInvitation | None:
    invitation = StaffInvitation.objects.filter(event=event, pk=pk).first()
    if invitation is None:
        messages.error(request, "That invitation is not on this event's list any more.")
    return invitation


@require_POST
@event_staff_required("manage")
def invitation_resend(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    invitation = _open_invitation(request, event, pk)
    if invitation is not None:
        try:
            invitation = services.invitation_resend(
                invitation=invitation, by=request.user, build_url=_link_builder(request)
            )
        except ActionError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                f"Invitation sent again to {invitation.email}, valid until {invitation.expires_at:%d %b %Y}.",
            )
    return redirect("tournaments:staff", slug=event.slug)


@require_POST
@event_staff_required("manage")
def invitation_revoke(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    invitation = _open_invitation(request, event, pk)
    if invitation is not None:
        try:
            invitation = services.invitation_revoke(invitation=invitation)
        except ActionError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request, f"Invitation to {invitation.email} withdrawn; its link no longer works."
            )
    return redirect("tournaments:staff", slug=event.slug)


def _staff_message(staff: EventStaff, invitation: StaffInvitation) -> str:
    role = staff.get_role_display().lower()
    if staff.role != invitation.role:
        return f"You are already {role} of {invitation.event.name}; your role stays {role}."
    return f"You are now {role} of {invitation.event.name}."


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page an emailed invitation link opens. GET shows it; POST (logged in) accepts it."""
    invitation = StaffInvitation.objects.select_related("event", "invited_by").filter(token=token).first()
    if invitation is None:
        if request.session.get(INVITATION_SESSION_KEY) == token:
            forget_invitation(request)
        return render(request, "tournaments/invitation_unknown.html", status=404)
    user = request.user if request.user.is_authenticated else None
    problem = services.invitation_problem(invitation, user)
    here = reverse("tournaments:invitation", kwargs={"token": token})

    if request.method == "POST" and problem is None:
        if user is None:
            remember_invitation(request, token)
            return redirect(f"{reverse('account_login')}?{urlencode({'next': here})}")
        try:
            staff = services.invitation_accept(invitation=invitation, user=user)
        except ActionError as exc:
            problem = exc.message
        else:
            forget_invitation(request)
            get_adapter(request).unstash_verified_email(request)
            messages.success(request, _staff_message(staff, invitation))
            return redirect("tournaments:registrations", slug=invitation.event.slug)

    context = {"invitation": invitation, "event": invitation.event, "problem": problem}
    if problem is not None:
        forget_invitation(request)  # logging in later should not bring them back to a dead link
    elif user is None:
        # Logging in or signing up brings them back here (accounts.adapter); the link proves they read
        # mail at the invited address, so a sign-up with it needs no confirmation email.
        remember_invitation(request, token)
        get_adapter(request).stash_verified_email(request, invitation.email)
        context["login_url"] = f"{reverse('account_login')}?{urlencode({'next': here})}"
        context["signup_url"] = (
            f"{reverse('account_signup')}?{urlencode({'next': here, 'email': invitation.email})}"
        )
        context["has_account"] = EmailAddress.objects.filter(email__iexact=invitation.email).exists()
    else:
        context["accepted"] = invitation.accepted_at is not None
        context["other_address"] = (
            not EmailAddress.objects.filter(user=user, email__iexact=invitation.email).exists()
            and (user.email or "").lower() != invitation.email.lower()
        )
    return render(request, "tournaments/invitation.html", context, status=200 if problem is None else 410)
