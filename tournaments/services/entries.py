"""Players entering an event themselves: a place or the waitlist, withdrawing, promotion.

Every write locks the event's row first (``select_for_update``), so two registrations at once never
pass a full cap together and two withdrawals at once promote two different players. Each service
runs in ``transaction.atomic`` and raises ``ActionError`` for what a person can fix.

Who gets a place: while the number of players holding one (``Registration.objects.entered()``) is
below the event's cap. Staff adding a player at the desk always give a place (they see the cap on
the page and may go over it); only self-registration goes to the waitlist. A place freed before
the start (a withdrawal, a drop, a raised cap) goes to the first on the waitlist at once.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field

from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format

from ..errors import ActionError
from ..models import Event, Player, Registration, RegistrationChange
from ..roster import name_key
from .registration import next_round_number

log = logging.getLogger(__name__)

GUEST_SALT = "tournaments.guest-registration"
WITHDRAW_REASON = "Withdrew before the event"
NO_SHOW_NOTE = "Did not check in before check-in closed"
CLOSE_PROMOTE_NOTE = "Check-in closed: took an empty place"


# --- reading the cap --------------------------------------------------------------------------


def entered_count(event: Event) -> int:
    return Registration.objects.filter(event=event).entered().count()


def places_left(event: Event) -> int | None:
    """Empty places under the cap (never below 0); None when the event has no cap."""
    if event.player_cap is None:
        return None
    return max(event.player_cap - entered_count(event), 0)


def _locked(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def _log(registration: Registration, *, action: str, user=None, note: str = "", changes=None) -> None:
    account = user if user is not None and getattr(user, "is_authenticated", False) else None
    RegistrationChange.objects.create(
        registration=registration, user=account, action=action, note=note[:300], changes=changes or {}
    )


# --- self-registration ------------------------------------------------------------------------


def self_registration_refusal(event: Event, *, now=None) -> str:
    """Why a player cannot register themselves now, or "" when they can."""
    now = now or timezone.now()
    if event.status == Event.Status.FINISHED:
        return "This event is finished."
    if not event.in_registration:
        return "This event has started: registration is closed. Ask the organizer at the desk."
    if not event.self_registration_open:
        return "Registration for this event is not open. Ask the organizer at the desk."
    if event.registration_deadline is not None and now >= event.registration_deadline:
        when = date_format(timezone.localtime(event.registration_deadline), "DATETIME_FORMAT")
        return f"Registration closed on {when}. Ask the organizer at the desk."
    return ""


def _check_open(event: Event) -> None:
    refusal = self_registration_refusal(event)
    if refusal:
        raise ActionError(refusal)


def _check_not_taken(event: Event, *, name: str, email: str, own: set[int]) -> None:
    """Another player of this event with the same name or email: the organizer sorts it out."""
    for other in Registration.objects.filter(event=event).exclude(player_id__in=own).select_related("player"):
        if name_key(other.player.name) == name_key(name):
            raise ActionError(
                f"A player named {other.player.name} is already registered for this event. If that is you, "
                "ask the organizer to link it to your account; otherwise add something to tell you apart "
                "(a middle name or an initial)."
            )
        if email and other.player.email.casefold() == email.casefold():
            raise ActionError(
                f"{other.player.name} is already registered with the email {email}. If that is you, ask "
                "the organizer to link it to your account."
            )


def _enter(event: Event, player: Player, *, user, self_registered: bool = True) -> Registration:
    """Create the registration with a place or on the waitlist. The event row must be locked."""
    full = event.player_cap is not None and entered_count(event) >= event.player_cap
    now = timezone.now()
    try:
        with transaction.atomic():
            registration = Registration.objects.create(
                event=event,
                player=player,
                self_registered=self_registered,
                joined_round=next_round_number(event),
                waitlisted_at=now if full else None,
            )
    except IntegrityError as exc:
        raise ActionError(f"{player.name} is already registered for this event.") from exc
    _log(registration, action="register", user=user, note="Registered themselves")
    if full:
        _log(
            registration, action="waitlist", user=user, note=f"The event was full ({event.player_cap} places)"
        )
    return registration


def _reenter(event: Event, registration: Registration, *, user) -> Registration:
    """A player who withdrew before the start registers again: back in line like anyone new."""
    full = event.player_cap is not None and entered_count(event) >= event.player_cap
    registration.dropped_at = None
    registration.dropped_after_round = None
    registration.drop_reason = ""
    registration.checked_in = False
    registration.checked_in_at = None
    registration.waitlisted_at = timezone.now() if full else None
    registration.save(
        update_fields=[
            "dropped_at",
            "dropped_after_round",
            "drop_reason",
            "checked_in",
            "checked_in_at",
            "waitlisted_at",
        ]
    )
    _log(registration, action="register", user=user, note="Registered again after withdrawing")
    if full:
        _log(
            registration, action="waitlist", user=user, note=f"The event was full ({event.player_cap} places)"
        )
    return registration


def account_email(user) -> str:
    """The account's verified email address (primary first), or "" if it has none."""
    from allauth.account.models import EmailAddress

    address = (
        EmailAddress.objects.filter(user=user, verified=True)
        .order_by("-primary", "pk")
        .values_list("email", flat=True)
    ).first()
    return address or ""


def account_player_name(user) -> str:
    """The name an account plays under: its most recent player record's, else its own full name, else
    nothing (a user name like "patm" is not a name for the pairings: the player types theirs)."""
    player = user.players.order_by("-created_at", "-pk").first()
    if player is not None:
        return player.name
    return user.get_full_name().strip()


def entry_register(*, event: Event, user, name: str) -> Registration:
    """A logged-in player registers for ``event`` under ``name``, with their verified email.

    Their own player record is used (the one with this name, else the most recent is kept and a
    new record is made for the new name), so their history follows them. Full: the waitlist."""
    name = " ".join(name.split())
    if not name:
        raise ActionError("Enter the name you play under.")
    email = account_email(user)
    if not email:
        raise ActionError("Confirm your email address first (My account → Email), then register.")
    with transaction.atomic():
        event = _locked(event)
        _check_open(event)
        own = list(user.players.order_by("-created_at", "-pk"))
        own_ids = {p.pk for p in own}
        mine = (
            Registration.objects.filter(event=event, player_id__in=own_ids).select_related("player").first()
            if own_ids
            else None
        )
        if mine is not None:
            if mine.dropped and not mine.disqualified and mine.dropped_after_round in (0, None):
                if name_key(mine.player.name) != name_key(name):
                    # Back under another name (the first one was a slip): the record with that name, as
                    # for a first registration. Nothing was played under the old one at this event.
                    _check_not_taken(event, name=name, email=email, own=own_ids)
                    player = next((p for p in own if name_key(p.name) == name_key(name)), None)
                    if player is None:
                        player = Player.objects.create(name=name, email=email, user=user)
                    old, was = mine.player, mine.player.name
                    mine.player = player
                    mine.save(update_fields=["player"])
                    if not old.registrations.exists():  # made for this registration alone: not a person
                        old.delete()
                    _log(
                        mine, action="edit", user=user, changes={"name": [was, name]}, note="Registered again"
                    )
                return _reenter(event, mine, user=user)
            raise ActionError(f"You are already registered for this event (as {mine.player.name}).")
        _check_not_taken(event, name=name, email=email, own=own_ids)
        player = next((p for p in own if name_key(p.name) == name_key(name)), None)
        if player is None:
            player = Player.objects.create(name=name, email=email, user=user)
        return _enter(event, player, user=user)


# --- guests -----------------------------------------------------------------------------------


@dataclass
class GuestRequest:
    name: str
    email: str
    token: str


def guest_entry_request(*, event: Event, name: str, email: str) -> GuestRequest:
    """Check that a guest could register, and sign what they typed into a link. Nothing is stored:
    the registration is made when they open the link from their email (``guest_entry_confirm``)."""
    from accounts.services import verified_user_for_email

    name, email = " ".join(name.split()), email.strip()
    if not name:
        raise ActionError("Enter the name you play under.")
    if not email:
        raise ActionError("Enter your email address: we send you a link to confirm it.")
    _check_open(event)
    if not event.self_registration_guests:
        raise ActionError("Log in or sign up to register for this event.")
    if verified_user_for_email(email) is not None:
        raise ActionError(f"{email} belongs to an account: log in to register.")
    _check_not_taken(event, name=name, email=email, own=set())
    token = signing.dumps({"e": event.pk, "n": name, "m": email}, salt=GUEST_SALT, compress=True)
    return GuestRequest(name=name, email=email, token=token)


@dataclass
class GuestConfirmation:
    registration: Registration
    created: bool = True
    notes: list[str] = field(default_factory=list)


def guest_token_read(*, event: Event, token: str) -> dict:
    """What a confirmation link carries, or ``ActionError`` saying why it cannot be used."""
    hours = settings.GUEST_CONFIRMATION_HOURS
    try:
        data = signing.loads(token, salt=GUEST_SALT, max_age=hours * 3600)
    except signing.SignatureExpired:
        raise ActionError(
            f"This link has expired (links work for {hours} hours). Register again on the event page."
        ) from None
    except signing.BadSignature:
        raise ActionError(
            "This link is not valid. Copy the whole link from the email, or register again on the event page."
        ) from None
    if not isinstance(data, dict) or data.get("e") != event.pk or not data.get("n") or not data.get("m"):
        raise ActionError("This link is not for this event. Register again on the event page.")
    return data


def guest_entry_confirm(*, event: Event, token: str) -> GuestConfirmation:
    """Register the guest a confirmation link names. Opening it again finds the same registration."""
    data = guest_token_read(event=event, token=token)
    name, email = data["n"], data["m"]
    with transaction.atomic():
        event = _locked(event)
        existing = (
            Registration.objects.filter(event=event, player__email__iexact=email)
            .select_related("player")
            .first()
        )
        if existing is not None:
            if existing.dropped:
                raise ActionError(
                    "You withdrew from this event. To register again, use the form on the event page."
                )
            return GuestConfirmation(existing, created=False)
        _check_open(event)
        _check_not_taken(event, name=name, email=email, own=set())
        # The guest proved they read this address: their earlier record with it (and this name) is theirs.
        candidates = Player.objects.filter(email__iexact=email, user__isnull=True).order_by(
            "-created_at", "-pk"
        )
        player = next((p for p in candidates if name_key(p.name) == name_key(name)), None)
        if player is None:
            player = Player.objects.create(name=name, email=email)
        return GuestConfirmation(_enter(event, player, user=None))


def guest_confirmation_send(*, event: Event, request: GuestRequest, link: str) -> None:
    """The email with the confirmation link. Raises ``ActionError`` if it could not be sent."""
    context = {
        "event": event,
        "name": request.name,
        "link": link,
        "hours": settings.GUEST_CONFIRMATION_HOURS,
    }
    body = render_to_string("emails/guest_registration_confirm.txt", context)
    try:
        send_mail(f"Confirm your registration for {event.name}", body, None, [request.email])
    except Exception as exc:  # SMTP down, refused address...: the guest can try again
        log.warning("guest confirmation email to %s failed: %s", request.email, exc)
        raise ActionError("We could not send the email just now. Try again in a few minutes.") from exc


# --- withdrawing and promotion ----------------------------------------------------------------


def entry_withdraw(*, registration: Registration, user=None) -> list[Registration]:
    """The player withdraws before the event starts. Their place goes to the first on the waitlist.
    Returns who was promoted."""
    with transaction.atomic():
        event = _locked(registration.event)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.dropped:
            raise ActionError("You have already withdrawn from this event.")
        if not event.in_registration:
            raise ActionError(
                "The event has started: you can no longer withdraw here. Tell a judge or the organizer "
                "that you are dropping (9.030); your results so far stay."
            )
        had_place = not registration.waitlisted
        registration.dropped_at = timezone.now()
        registration.dropped_after_round = 0
        registration.drop_reason = WITHDRAW_REASON
        registration.checked_in = False
        registration.checked_in_at = None
        registration.save(
            update_fields=["dropped_at", "dropped_after_round", "drop_reason", "checked_in", "checked_in_at"]
        )
        _log(registration, action="withdraw", user=user, note=WITHDRAW_REASON)
        return waitlist_fill(event=event, user=user) if had_place else []


def waitlist_fill(*, event: Event, user=None) -> list[Registration]:
    """Before the start, give the empty places under the cap to the first on the waitlist, in order.
    Each promoted player is emailed. Returns them."""
    with transaction.atomic():
        event = _locked(event)
        if not event.in_registration:
            return []
        waitlist = Registration.objects.filter(event=event).waitlist().select_related("player")
        if event.player_cap is None:
            promoted = list(waitlist)  # the cap was removed: everyone has a place
        else:
            empty = event.player_cap - entered_count(event)
            promoted = list(waitlist[:empty]) if empty > 0 else []
        for registration in promoted:
            _promote(registration, user=user, note="A place came free")
    return promoted


def waitlist_promote(*, registration: Registration, user=None) -> Registration:
    """The organizer gives a waitlisted player a place, even over the cap (they decide)."""
    with transaction.atomic():
        event = _locked(registration.event)
        registration = (
            Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        )
        if registration.dropped:
            raise ActionError(f"{registration.player} has withdrawn or dropped; undo that first.")
        if not registration.waitlisted:
            raise ActionError(f"{registration.player} already has a place.")
        if event.status in (Event.Status.PLAYOFFS, Event.Status.FINISHED):
            raise ActionError("The Swiss rounds are over: nobody can join now.")
        if not event.in_registration:
            # A late entry: they join at the next round and score 0 in the rounds they missed.
            registration.joined_round = next_round_number(event)
        _promote(registration, user=user, note="Promoted by the organizer")
    return registration


def _promote(registration: Registration, *, user, note: str) -> None:
    registration.waitlisted_at = None
    registration.save(update_fields=["waitlisted_at", "joined_round"])
    _log(registration, action="promote", user=user, note=note)
    pk = registration.pk
    transaction.on_commit(lambda: promotion_notify(registration_id=pk), robust=True)


def promotion_notify(*, registration_id: int) -> None:
    """Email a promoted player that they have a place (if the record has an address)."""
    registration = Registration.objects.select_related("event", "player", "player__user").get(
        pk=registration_id
    )
    player = registration.player
    email = player.email or (player.user.email if player.user else "")
    if not email:
        return
    event = registration.event
    context = {
        "event": event,
        "registration": registration,
        "link": f"{settings.SITE_URL}{event.get_absolute_url()}",
    }
    body = render_to_string("emails/waitlist_promoted.txt", context)
    send_mail(f"You have a place at {event.name}", body, None, [email])


# --- closing check-in -------------------------------------------------------------------------


@dataclass
class CheckInClose:
    """What closing check-in does: who gives up their place, who takes one."""

    no_shows: list[Registration]
    promoted: list[Registration]


def checkin_close_plan(event: Event) -> CheckInClose:
    """Players with a place who have not checked in move to the end of the waitlist; the first
    waitlisted players take the places that frees (and any place still empty under the cap)."""
    if event.player_cap is None:
        return CheckInClose(no_shows=[], promoted=[])
    entered = list(Registration.objects.filter(event=event).entered().select_related("player"))
    # Players who took a place when check-in closed had no time to check in: closing again keeps them.
    just_in = set(
        RegistrationChange.objects.filter(
            registration__event=event, action="promote", note=CLOSE_PROMOTE_NOTE
        ).values_list("registration_id", flat=True)
    )
    no_shows = [r for r in entered if not r.checked_in and r.pk not in just_in]
    waitlist = list(Registration.objects.filter(event=event).waitlist().select_related("player"))
    staying = len(entered) - len(no_shows)
    free = min(max(event.player_cap - staying, 0), len(waitlist))
    return CheckInClose(no_shows=no_shows, promoted=waitlist[:free])


def checkin_close(*, event: Event, user=None) -> CheckInClose:
    """Close check-in as planned by ``checkin_close_plan`` (computed again under the lock)."""
    with transaction.atomic():
        event = _locked(event)
        if not event.in_registration:
            raise ActionError("The event has started: check-in is already closed.")
        if event.player_cap is None:
            raise ActionError("This event has no player cap, so nobody is waiting for a place.")
        plan = checkin_close_plan(event)
        if not plan.no_shows and not plan.promoted:
            raise ActionError(
                "Nothing to do: every player with a place has checked in and no place is empty."
            )
        for registration in plan.promoted:
            _promote(registration, user=user, note=CLOSE_PROMOTE_NOTE)
        # After the promotions, so the no-shows queue behind everyone already waiting.
        now = timezone.now()
        for offset, registration in enumerate(plan.no_shows):
            registration.waitlisted_at = now + datetime.timedelta(microseconds=offset)
            registration.save(update_fields=["waitlisted_at"])
            _log(registration, action="waitlist", user=user, note=NO_SHOW_NOTE)
    return plan
