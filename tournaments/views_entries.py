"""Players entering an event themselves (with an account, or as a guest who confirms their email),
withdrawing, and the organizer's waitlist actions: promote one player, close check-in and fill places.

Thin views: parse, call a service from ``services.entries``, render. A service's ``ActionError`` is
shown on the page and nothing changes.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from config.ratelimits import limit_self_registration

from . import services
from .errors import ActionError
from .forms import GuestRegistrationForm, SelfRegistrationForm
from .models import Event, Registration
from .names import ordinal
from .permissions import event_staff_required
from .selectors import waitlist_positions


def _login_links(event: Event) -> dict[str, str]:
    back = urlencode({"next": event.get_absolute_url()})
    return {
        "login_url": f"{reverse('account_login')}?{back}",
        "signup_url": f"{reverse('account_signup')}?{back}",
    }


def _my_registrations(user, event: Event) -> list[Registration]:
    if not user.is_authenticated:
        return []
    return list(
        Registration.objects.filter(event=event, player__user=user).select_related("player").order_by("pk")
    )


def place_words(registration: Registration, positions: dict[int, int]) -> str:
    """What the player reads about their own registration on the event page."""
    if registration.disqualified:
        return "You were disqualified from this event (10.080)."
    if registration.dropped:
        return (
            "You withdrew from this event."
            if registration.dropped_after_round in (0, None)
            else "You dropped."
        )
    if registration.waitlisted:
        position = positions.get(registration.pk)
        line = f", {ordinal(position)} in line" if position else ""
        return f"You are on the waitlist{line}. We email you if a place comes free."
    if registration.checked_in:
        return f"You are registered as {registration.player.name} and checked in."
    return f"You are registered as {registration.player.name}. Check in at the desk when you arrive."


def entry_context(request: HttpRequest, event: Event, *, form=None) -> dict:
    """The event page's registration card: places, the player's own status, and the right form."""
    positions = waitlist_positions(event)
    entered = Registration.objects.filter(event=event).entered().count()
    mine = _my_registrations(request.user, event)
    for registration in mine:
        registration.place_words = place_words(registration, positions)
    active_mine = [r for r in mine if not r.dropped]
    refusal = services.self_registration_refusal(event)
    full = event.player_cap is not None and entered >= event.player_cap
    context = {
        "places": {
            "cap": event.player_cap,
            "entered": entered,
            "left": max(event.player_cap - entered, 0) if event.player_cap is not None else None,
            "waitlisted": len(positions),
            "full": full,
        },
        "my_registrations": mine,
        "can_withdraw": bool(active_mine) and event.in_registration,
        "registration_refusal": refusal,
        "self_form": None,
        "guest_form": None,
        **_login_links(event),
    }
    if (refusal or active_mine) and form is None:
        return context
    if request.user.is_authenticated:
        context["self_form"] = form or SelfRegistrationForm(
            initial={"name": services.account_player_name(request.user)}
        )
        context["account_email"] = services.account_email(request.user)
    elif event.self_registration_guests:
        context["guest_form"] = form or GuestRegistrationForm()
    return context


def _page_again(request: HttpRequest, event: Event, form) -> HttpResponse:
    """The event page with the form as typed and its error (400)."""
    from .views import event_page

    return event_page(request, event, entry_form=form, status=400)


@limit_self_registration
def self_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if request.method != "POST":
        # A log-in link or a reload that lands here: the form lives on the event page.
        return redirect(event)
    if not request.user.is_authenticated:
        if not event.self_registration_guests:
            messages.error(request, f"Log in or sign up to register for {event.name}.")
            return redirect(_login_links(event)["login_url"])
        return _guest_register(request, event)
    form = SelfRegistrationForm(request.POST)
    if not form.is_valid():
        return _page_again(request, event, form)
    try:
        registration = services.entry_register(event=event, user=request.user, name=form.cleaned_data["name"])
    except ActionError as exc:
        form.add_error("name", exc.message)
        return _page_again(request, event, form)
    if registration.waitlisted:
        position = waitlist_positions(event).get(registration.pk, 1)
        messages.warning(
            request,
            f"{event.name} is full: you are on the waitlist, {ordinal(position)} in line. "
            "We email you if a place comes free.",
        )
    else:
        messages.success(
            request,
            f"You are registered for {event.name} as {registration.player.name}. Check in at the desk "
            "when you arrive.",
        )
    return redirect(event)


def _guest_register(request: HttpRequest, event: Event) -> HttpResponse:
    form = GuestRegistrationForm(request.POST)
    if not form.is_valid():
        return _page_again(request, event, form)
    try:
        guest = services.guest_entry_request(
            event=event, name=form.cleaned_data["name"], email=form.cleaned_data["email"]
        )
        link = request.build_absolute_uri(
            reverse("tournaments:guest_confirm", kwargs={"slug": event.slug, "token": guest.token})
        )
        services.guest_confirmation_send(event=event, request=guest, link=link)
    except ActionError as exc:
        form.add_error(None, exc.message)
        return _page_again(request, event, form)
    messages.success(
        request,
        f"Almost done: we sent a link to {guest.email}. Open it within "
        f"{settings.GUEST_CONFIRMATION_HOURS} hours to confirm your registration; "
        "until then nothing is saved.",
    )
    return redirect(event)


def guest_confirm(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The link from the guest's email. Opening it shows what will be registered; the button
    registers (an email scanner following the link registers nobody). Opening it again is harmless."""
    event = get_object_or_404(Event, slug=slug)
    context: dict = {"event": event, "token": token}
    try:
        data = services.guest_token_read(event=event, token=token)
    except ActionError as exc:
        context["error"] = exc.message
        return render(request, "tournaments/guest_confirm.html", context, status=400)
    context.update(name=data["n"], email=data["m"])
    existing = (
        Registration.objects.filter(event=event, player__email__iexact=data["m"], dropped_at__isnull=True)
        .select_related("player")
        .first()
    )
    if request.method == "POST" or existing is not None:
        try:
            confirmation = services.guest_entry_confirm(event=event, token=token)
        except ActionError as exc:
            context["error"] = exc.message
            return render(request, "tournaments/guest_confirm.html", context, status=400)
        registration = confirmation.registration
        context["registration"] = registration
        context["created"] = confirmation.created
        context["place_words"] = place_words(registration, waitlist_positions(event)).replace(
            "You are registered as", "Registered as"
        )
        return render(request, "tournaments/guest_confirm.html", context)
    context["refusal"] = services.self_registration_refusal(event)
    return render(request, "tournaments/guest_confirm.html", context)


@login_required
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """A player withdraws before the start: a confirmation page, then the button."""
    event = get_object_or_404(Event, slug=slug)
    mine = [r for r in _my_registrations(request.user, event) if not r.dropped]
    if not mine:
        messages.info(request, f"You are not registered for {event.name}.")
        return redirect(event)
    if request.method == "POST":
        chosen = next((r for r in mine if str(r.pk) == request.POST.get("registration", "")), None)
        if chosen is None:
            messages.error(request, "Choose which registration to withdraw.")
            return redirect("tournaments:withdraw", slug=event.slug)
        try:
            services.entry_withdraw(registration=chosen, user=request.user)
        except ActionError as exc:
            messages.error(request, exc.message)
            return redirect(event)
        messages.success(request, f"You have withdrawn from {event.name} ({chosen.player.name}).")
        return redirect(event)
    positions = waitlist_positions(event)
    for registration in mine:
        registration.place_words = place_words(registration, positions)
    return render(request, "tournaments/withdraw.html", {"event": event, "mine": mine})


@require_POST
@event_staff_required("run")
def promote(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration.objects.select_related("player"), event=event, pk=pk)
    try:
        services.waitlist_promote(registration=registration, user=request.user)
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{registration.player} has a place now (emailed if we have an address).")
        entered = Registration.objects.filter(event=event).entered().count()
        if event.player_cap is not None and entered > event.player_cap:
            messages.warning(request, f"{entered} players have a place for a cap of {event.player_cap}.")
    return redirect("tournaments:registrations", slug=event.slug)


@event_staff_required("run")
def checkin_close(request: HttpRequest, event: Event) -> HttpResponse:
    """Close check-in: players with a place who have not checked in go to the end of the waitlist;
    the first waitlisted players take the empty places. A confirmation page says who moves."""
    plan = services.checkin_close_plan(event)
    error = ""
    if request.method == "POST":
        seen = (request.POST.get("no_shows", ""), request.POST.get("promoted", ""))
        if seen != (str(len(plan.no_shows)), str(len(plan.promoted))):
            error = "Players checked in or registered since you opened this page: check the lists again."
        else:
            try:
                done = services.checkin_close(event=event, user=request.user)
            except ActionError as exc:
                error = exc.message
            else:
                messages.success(
                    request,
                    f"Check-in closed: {len(done.no_shows)} moved to the waitlist, {len(done.promoted)} "
                    "promoted into places. Check in the promoted players when they come to the desk.",
                )
                return redirect("tournaments:registrations", slug=event.slug)
    context = {"event": event, "plan": plan, "error": error, "now": timezone.now()}
    return render(request, "tournaments/checkin_close.html", context, status=400 if error else 200)
