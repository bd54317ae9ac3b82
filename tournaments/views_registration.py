"""Staff pages for one registration: edit it (name, email, notes, account) with its history, unlink its
account, and the claim codes that let a player without an email take their record."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import services as account_services
from accounts.services import format_claim_code

from .errors import ActionError
from .forms_registration import RegistrationEditForm
from .models import Event, Registration
from .permissions import event_staff_required
from .services.registration_edit import (
    EDIT_FIELDS,
    RegistrationConflict,
    registration_values,
)
from .services.registration_edit import (
    registration_edit as registration_edit_save,
)


def _registration(event: Event, pk: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player__user", "event"), event=event, pk=pk)


def _edit_url(event: Event, registration: Registration) -> str:
    return reverse("tournaments:registration_edit", kwargs={"slug": event.slug, "pk": registration.pk})


@event_staff_required("run")
def registration_edit(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    registration = _registration(event, pk)
    saved_now: list[tuple[str, str]] = []
    status = 200
    if request.method == "POST":
        form = RegistrationEditForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                registration_edit_save(
                    registration=registration,
                    name=data["name"],
                    email=data["email"],
                    notes=data["notes"],
                    account=data["account"],
                    loaded=form.loaded(),
                    by=request.user,
                )
            except RegistrationConflict as conflict:
                # Keep what was typed; show what is saved now, and take it as the new "loaded" values so
                # that saving again (having compared) keeps this form's values.
                post = request.POST.copy()
                for field in EDIT_FIELDS:
                    post[f"loaded_{field}"] = conflict.current[field]
                form = RegistrationEditForm(post)
                form.is_valid()
                form.add_error(None, conflict.message)
                saved_now = [
                    (str(form.fields[f].label or f.capitalize()), conflict.current[f] or "(empty)")
                    for f in conflict.changed
                ]
                status = 409
            except ActionError as exc:
                form.add_error(None, exc.message)
                status = 400
            else:
                messages.success(request, "Registration saved.")
                return redirect(_edit_url(event, registration))
        else:
            status = 400
        registration = _registration(event, pk)
    else:
        form = RegistrationEditForm.for_values(registration_values(registration))
    player = registration.player
    context = {
        "event": event,
        "registration": registration,
        "player": player,
        "form": form,
        "saved_now": saved_now,
        "history": registration.changes.select_related("user"),
        "other_events": Registration.objects.filter(player=player)
        .exclude(pk=registration.pk)
        .select_related("event")
        .order_by("-event__date"),
        "claim_code": format_claim_code(player.claim_code)
        if player.claim_code and not player.user_id
        else "",
    }
    return render(request, "tournaments/registration_edit.html", context, status=status)


@require_POST
@event_staff_required("run")
def registration_unlink(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    registration = _registration(event, pk)
    player = registration.player
    shown = request.POST.get("account", "")
    current = player.user.username if player.user_id else ""
    if shown != current:
        messages.error(
            request,
            f"The account changed while you looked at it (now: {current or 'none'}). Nothing was unlinked.",
        )
    elif current:
        account_services.player_unlink(player=player, by=request.user, note=f"unlinked at {event.name}"[:300])
        messages.success(request, f"{player.name} is no longer linked to the account {current}.")
    return redirect(_edit_url(event, registration))


@event_staff_required("run")
def registration_claim_code(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    """POST: make the record's claim code (once) and show it. GET: the code as a printable card."""
    registration = _registration(event, pk)
    player = registration.player
    if request.method == "POST":
        try:
            account_services.claim_code_issue(player=player)
        except ActionError as exc:
            messages.error(request, exc.message)
        return redirect(_edit_url(event, registration))
    if player.user_id or not player.claim_code:
        messages.info(
            request,
            f"{player.name} is linked to an account: no code is needed."
            if player.user_id
            else "Make the claim code first.",
        )
        return redirect(_edit_url(event, registration))
    return render(
        request,
        "tournaments/claim_cards.html",
        {"event": event, "cards": [(player, format_claim_code(player.claim_code))], **_claim_links(request)},
    )


@event_staff_required("run")
def claim_codes(request: HttpRequest, event: Event) -> HttpResponse:
    """The desk's sheet: one card per player in the event whose record no account owns yet."""
    unlinked = (
        Registration.objects.filter(event=event, dropped_at__isnull=True, player__user__isnull=True)
        .select_related("player")
        .order_by("player__sort_name")
    )
    if request.method == "POST":
        made = 0
        for registration in unlinked:
            if not registration.player.claim_code:
                try:
                    account_services.claim_code_issue(player=registration.player)
                except ActionError:
                    continue  # linked meanwhile: no card needed
                made += 1
        messages.success(request, f"{made} claim code{'s' if made != 1 else ''} made.")
        return redirect("tournaments:claim_codes", slug=event.slug)
    players = [r.player for r in unlinked]
    cards = [(p, format_claim_code(p.claim_code)) for p in players if p.claim_code]
    return render(
        request,
        "tournaments/claim_cards.html",
        {
            "event": event,
            "cards": cards,
            "desk": True,
            "without_code": sum(1 for p in players if not p.claim_code),
            **_claim_links(request),
        },
    )


def _claim_links(request: HttpRequest) -> dict:
    return {"claim_url": request.build_absolute_uri(reverse("accounts:claim"))}
