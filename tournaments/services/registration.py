"""Writes that span models: registration, check-in, drops, staff.

Each service runs inside ``transaction.atomic`` and either does the whole thing or
raises ``ActionError`` and leaves the data as it was.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models.functions import Lower
from django.utils import timezone

from ..errors import ActionError
from ..models import Event, EventStaff, Player, Registration, sort_name_for
from ..roster import Roster, name_key, parse_roster


class DuplicateEvent(ActionError):
    """The organizer already created an event of this name on this date (a form sent twice)."""

    def __init__(self, event: Event) -> None:
        super().__init__(
            f"You already created “{event.name}” on {event.date:%d %b %Y}. "
            "Give this one another name if it is a second event."
        )
        self.event = event


def event_create(*, user, **fields) -> Event:
    """Create an event; its creator becomes its organizer. The same organizer, name and date twice is
    refused (a form sent twice, or back and sent again): ``DuplicateEvent`` names the first."""
    with transaction.atomic():
        if user is not None and user.pk is not None:
            # One creation at a time per organizer, so two copies of one form cannot both pass the check.
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            same = Event.objects.filter(
                created_by=user, name__iexact=fields.get("name", "").strip(), date=fields.get("date")
            ).first()
            if same:
                raise DuplicateEvent(same)
        event = Event(created_by=user, **fields)
        event.save()
        EventStaff.objects.create(event=event, user=user, role=EventStaff.Role.ORGANIZER)
    return event


class SettingsConflict(ActionError):
    """Another organizer saved the event's settings after this form was loaded."""

    def __init__(self, event: Event, changed: list[str]) -> None:
        super().__init__(
            "Another organizer saved these settings while you were editing. Nothing of yours was saved: "
            "compare with the values saved now, then save again to keep yours."
        )
        self.event = event
        self.changed = changed


SETTINGS_LOCKED_AT_START = ("scoring", "tiebreakers")


def event_settings_save(*, event: Event, fields: dict, version: int | None) -> Event:
    """Save the settings form's fields, and only those (a round closing at the same moment keeps its
    status and results version). ``version`` is the settings version the form was loaded at: if the
    settings were saved since, nothing is written and ``SettingsConflict`` names the fields whose saved
    values differ from this form's."""
    with transaction.atomic():
        current = Event.objects.select_for_update().get(pk=event.pk)
        differs = [name for name, value in fields.items() if getattr(current, name) != value]
        if version is None or version != current.settings_version:
            raise SettingsConflict(current, differs)
        if current.status != Event.Status.REGISTRATION:
            locked = [name for name in SETTINGS_LOCKED_AT_START if name in differs]
            if locked:
                raise ActionError("The event has started: its points and tiebreakers can no longer change.")
        for name, value in fields.items():
            setattr(current, name, value)
        current.settings_version += 1
        current.save(update_fields=[*fields, "settings_version"])
    return current


def _player_for(*, name: str, email: str) -> Player:
    """The same email means the same person across events; otherwise a new player."""
    if email:
        existing = Player.objects.filter(email__iexact=email).order_by("pk").first()
        if existing:
            return existing
    return Player.objects.create(name=name, email=email)


def _check_can_register(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise ActionError("This event is finished; no more players can be added.")
    if event.status == Event.Status.PLAYOFFS:
        raise ActionError("The play-offs have started; no more players can be added.")


def registration_add(
    *, event: Event, name: str, email: str = "", notes: str = "", self_registered: bool = False, user=None
) -> Registration:
    """Staff register a player. ``user`` is the account the desk links the player to: its own record (the
    one with this name, else its newest) is reused, so the person keeps one history. Players registering
    themselves go through ``entries.entry_register``."""
    name = " ".join(name.split())
    if not name:
        raise ActionError("Enter the player's name.")
    _check_can_register(event)
    with transaction.atomic():
        registrations = Registration.objects.filter(event=event).select_related("player")
        for other in registrations:
            if name_key(other.player.name) == name_key(name):
                raise ActionError(f"{name} is already registered for this event.")
            if email and other.player.email.casefold() == email.casefold():
                raise ActionError(f"{email} is already registered for this event (as {other.player.name}).")
        account = user if user is not None and user.is_authenticated else None
        owned = list(account.players.order_by("-created_at", "-pk")) if account else []
        player = next((p for p in owned if name_key(p.name) == name_key(name)), owned[0] if owned else None)
        if player is not None and registrations.filter(player=player).exists():
            raise ActionError(f"The account {account.username} is already registered for this event.")
        if player is None:
            # Staff vouch for who the player is: the same email is the same person.
            player = _player_for(name=name, email=email)
            if account and player.user_id is None:
                player.user = account
                player.save(update_fields=["user"])
            elif account and player.user_id != account.pk:
                raise ActionError(
                    f"{email} belongs to a player record of another account; leave the account empty or "
                    "check the email."
                )
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    event=event,
                    player=player,
                    notes=notes,
                    self_registered=self_registered,
                    joined_round=next_round_number(event),
                )
        except IntegrityError as exc:
            raise ActionError(f"{name} is already registered for this event.") from exc
        registration.player = _link_verified_owner(player)
        return registration


def _link_verified_owner(player: Player) -> Player:
    """An email an account has verified links the record to that account, at this event and later ones."""
    from accounts.services import player_link_verified_owner

    if player.email and player.user_id is None:
        return player_link_verified_owner(player=player)
    return player


def next_round_number(event: Event) -> int:
    """A player added after the event started joins at the next round (a late entry)."""
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def roster_preview(*, event: Event, text: str) -> Roster:
    players = Player.objects.filter(registrations__event=event).values_list("name", "email")
    names = [name for name, _ in players]
    emails = [email for _, email in players if email]
    return parse_roster(text, existing_names=names, existing_emails=emails)


def roster_import(*, event: Event, text: str) -> list[Registration]:
    """Import every row or none: the list is checked again inside the transaction.

    A fixed number of queries whatever the length of the list (a 10,000-row CSV answers well within
    gunicorn's timeout): the players an email already names are read at once, the new players and the
    registrations are inserted in batches, and the records whose email an account verified are linked to
    it as ``registration_add`` does one at a time (``accounts.services.players_link_verified_owners``, which
    tells the ratings once for the batch, as one record's link would)."""
    _check_can_register(event)
    with transaction.atomic():
        # One import or waitlist change at a time per event: two organizers sending the same list at
        # once get the second told that the players are already registered.
        Event.objects.select_for_update().filter(pk=event.pk).first()
        roster = roster_preview(event=event, text=text)
        if not roster.ok:
            bad = len(roster.bad_rows) + len(roster.errors)
            raise ActionError(
                f"Nothing was imported: {bad} problem(s) in the list. Fix them and preview again."
            )
        joined = next_round_number(event)
        known = _players_by_email([row.email for row in roster.rows if row.email])
        players = []
        for row in roster.rows:
            # The same email is the same person (the first record made with it); else a new player.
            player = known.get(row.email.casefold()) if row.email else None
            players.append(
                player or Player(name=row.name, sort_name=sort_name_for(row.name), email=row.email)
            )
        Player.objects.bulk_create([p for p in players if p.pk is None], batch_size=BATCH)
        registrations = [
            Registration(event=event, player=player, notes=row.notes, joined_round=joined)
            for row, player in zip(roster.rows, players, strict=True)
        ]
        try:
            with transaction.atomic():
                Registration.objects.bulk_create(registrations, batch_size=BATCH)
        except IntegrityError as exc:
            raise ActionError(
                "Nothing was imported: a player in the list was registered for this event meanwhile. "
                "Preview again."
            ) from exc
        from accounts.services import players_link_verified_owners

        linked = {p.pk: p for p in players_link_verified_owners(players=players)}
        for registration in registrations:
            registration.player = linked.get(registration.player_id, registration.player)
    return registrations


# Rows per INSERT or IN (...) list: well under SQLite's limit of host parameters in one statement.
BATCH = 500


def _players_by_email(emails: list[str]) -> dict[str, Player]:
    """The player record each address already names (the oldest one, as ``_player_for`` picks), by the
    address casefolded."""
    wanted = sorted({email.lower() for email in emails})
    found: dict[str, Player] = {}
    for start in range(0, len(wanted), BATCH):
        chunk = wanted[start : start + BATCH]
        for player in (
            Player.objects.annotate(email_lower=Lower("email")).filter(email_lower__in=chunk).order_by("pk")
        ):
            found.setdefault(player.email.casefold(), player)
    return found


def registration_set_checked_in(*, registration: Registration, checked_in: bool) -> Registration:
    """Set (not toggle) the state, so a repeated click does the same thing twice."""
    with transaction.atomic():
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if checked_in and registration.waitlisted:
            raise ActionError(
                f"{registration.player} is on the waitlist: give them a place (Promote) before checking in."
            )
        if registration.checked_in != checked_in:
            registration.checked_in = checked_in
            registration.checked_in_at = timezone.now() if checked_in else None
            registration.save(update_fields=["checked_in", "checked_in_at"])
    return registration


def registrations_check_in_all(*, event: Event) -> int:
    """Check in every active player not checked in yet; returns how many."""
    with transaction.atomic():
        return (
            Registration.objects.filter(event=event, checked_in=False)
            .entered()
            .update(checked_in=True, checked_in_at=timezone.now())
        )


def registration_drop(
    *, registration: Registration, reason: str = "", after_round: int | None = None
) -> Registration:
    """9.030: the player leaves the event; results so far stay, no further pairings."""
    with transaction.atomic():
        # The event first, as every waitlist change locks it: a freed place is given once.
        Event.objects.select_for_update().filter(pk=registration.event_id).first()
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.dropped_at is None:
            registration.dropped_at = timezone.now()
            registration.dropped_after_round = after_round if after_round is not None else 0
            registration.drop_reason = reason[:200]
            registration.save(update_fields=["dropped_at", "dropped_after_round", "drop_reason"])
            if not registration.waitlisted:
                # Before the start, the place goes to the first on the waitlist.
                from .entries import waitlist_fill

                waitlist_fill(event=registration.event)
    return registration


def registration_undrop(*, registration: Registration) -> Registration:
    with transaction.atomic():
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.disqualified:
            raise ActionError(
                f"{registration.player} was disqualified (10.080); a disqualification cannot be undone here."
            )
        registration.dropped_at = None
        registration.dropped_after_round = None
        registration.drop_reason = ""
        registration.save(update_fields=["dropped_at", "dropped_after_round", "drop_reason"])
    return registration


def staff_add(*, event: Event, username: str, role: str) -> EventStaff:
    User = get_user_model()
    user = User.objects.filter(username__iexact=username.strip()).first()
    if user is None:
        raise ActionError(f"No account with the user name {username!r}. Ask them to get an account first.")
    with transaction.atomic():
        staff, created = EventStaff.objects.select_for_update().get_or_create(
            event=event, user=user, defaults={"role": role}
        )
        if not created and staff.role != role:
            _keep_an_organizer(event, leaving=staff)
            staff.role = role
            staff.save(update_fields=["role"])
    return staff


def staff_remove(*, staff: EventStaff) -> None:
    with transaction.atomic():
        _keep_an_organizer(staff.event, leaving=staff)
        staff.delete()


def _keep_an_organizer(event: Event, *, leaving: EventStaff) -> None:
    if leaving.role != EventStaff.Role.ORGANIZER:
        return
    others = EventStaff.objects.filter(event=event, role=EventStaff.Role.ORGANIZER).exclude(pk=leaving.pk)
    if not others.exists():
        raise ActionError("An event needs at least one organizer: add another organizer first.")
