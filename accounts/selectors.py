"""Reads about one account: its events as a player and as staff, and everything it owns (data export)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.models import Event, EventStaff, Registration, Seat
from tournaments.names import ordinal
from tournaments.selectors import waitlist_positions_for
from tournaments.selectors_table import YourTable, your_tables


@dataclass
class MyEntry:
    registration: Registration
    status: (
        str  # words for the player: "Registered", "Waitlisted (2nd)", "Checked in", "Dropped", "3rd place"
    )
    now: YourTable | None = None  # "Your table now" while a published round runs

    @property
    def event(self) -> Event:
        return self.registration.event


@dataclass
class StatusFacts:
    """What the status words of a list of registrations need, read once for the whole list."""

    waitlist_positions: dict[int, int] = field(default_factory=dict)  # registration id -> place in line
    played: set[int] = field(default_factory=set)  # registration ids ever seated
    final_places: dict[int, int] = field(default_factory=dict)  # registration id -> final place


def status_facts(registrations: list[Registration]) -> StatusFacts:
    """Two queries, plus one final ranking per finished event among them."""
    from tournaments.services.rounds import final_ranking

    events = {r.event_id: r.event for r in registrations}
    waiting = [e for e in events if any(r.event_id == e and r.waitlisted for r in registrations)]
    facts = StatusFacts(
        waitlist_positions=waitlist_positions_for(waiting),
        played=set(
            Seat.objects.filter(registration__in=registrations).values_list("registration_id", flat=True)
        ),
    )
    for event in events.values():
        if event.status == Event.Status.FINISHED:
            facts.final_places.update({r.pk: i for i, r in enumerate(final_ranking(event), start=1)})
    return facts


def registration_status(registration: Registration, facts: StatusFacts) -> str:
    """The registration in a player's words: "Waitlisted (2nd in line)", "Checked in", "3rd place" ..."""
    event = registration.event
    if registration.disqualified:
        return "Disqualified"
    if registration.dropped:
        if registration.dropped_after_round:
            return f"Dropped after round {registration.dropped_after_round}"
        # Left before playing a game: withdrew (themselves, or the desk for them); else dropped in round 1.
        return "Dropped" if registration.pk in facts.played else "Withdrawn"
    if not event.in_registration:
        if registration.waitlisted:
            return "Not playing: still on the waitlist when the event started"
        if not registration.checked_in:
            return "Not playing: not checked in when the event started"
    position = facts.waitlist_positions.get(registration.pk)
    if position is not None:
        return f"Waitlisted ({ordinal(position)} in line)"
    place = facts.final_places.get(registration.pk)
    if event.status == Event.Status.FINISHED and place:
        return f"{ordinal(place)} place"
    if registration.checked_in:
        return "Checked in"
    return "Registered"


def my_events(*, user) -> dict:
    """The account's events as a player (upcoming, then past) and as staff."""
    registrations = list(
        Registration.objects.filter(player__user=user)
        .select_related("event", "player")
        .order_by("event__date")
    )
    # "Your table now": the table in each event's published running round, with what to do next.
    tables_now = your_tables(registrations)
    facts = status_facts(registrations)
    upcoming, past = [], []
    for registration in registrations:
        event = registration.event
        entry = MyEntry(registration, registration_status(registration, facts))
        entry.now = tables_now.get(registration.pk)
        (past if event.status == Event.Status.FINISHED else upcoming).append(entry)
    past.reverse()
    staff = EventStaff.objects.filter(user=user).select_related("event").order_by("-event__date")
    running = (Event.Status.RUNNING, Event.Status.PLAYOFFS)
    return {
        "upcoming": upcoming,
        "past": past,
        "staff_roles": list(staff),
        # "My history" (tournaments.views_history) takes any record of the person: the first entered.
        "history_player_id": registrations[0].player_id if registrations else None,
        # The cards follow the rounds (publish, confirmations) while one of the player's events runs.
        "playing_now": any(e.event.status in running and not e.registration.dropped for e in upcoming),
    }


def account_find(text: str):
    """The account a staff member means by a user name or an email address; None if there is none."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    text = text.strip()
    if not text:
        return None
    User = get_user_model()
    user = User.objects.filter(username__iexact=text).first()
    if user is None and "@" in text:
        address = (
            EmailAddress.objects.filter(email__iexact=text)
            .order_by("-verified", "pk")
            .select_related("user")
            .first()
        )
        user = address.user if address else User.objects.filter(email__iexact=text).order_by("pk").first()
    return user
