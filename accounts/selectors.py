"""Reads about one account: its events as a player and as staff, and everything it owns (data export)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse

from tournaments.models import Event, EventStaff, Registration, Round, Seat
from tournaments.selectors import waitlist_positions_for


@dataclass
class MyEntry:
    registration: Registration
    status: (
        str  # words for the player: "Registered", "Waitlisted (2nd)", "Checked in", "Dropped", "3rd place"
    )
    table_url: str = ""
    table_label: str = ""

    @property
    def event(self) -> Event:
        return self.registration.event


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
    # The live round's seat, for a link to the player's table: only once the round is published.
    live_seats = {
        s.registration_id: s
        for s in Seat.objects.filter(
            registration__in=registrations,
            round__status=Round.Status.PAIRED,
            round__published_at__isnull=False,
        ).select_related("table", "round")
    }
    facts = status_facts(registrations)
    upcoming, past = [], []
    for registration in registrations:
        event = registration.event
        entry = MyEntry(registration, registration_status(registration, facts))
        seat = live_seats.get(registration.pk)
        if seat is not None and not registration.dropped:
            entry.table_url = reverse(
                "judging:table",
                kwargs={"slug": event.slug, "number": seat.round.number, "table": seat.table.number},
            )
            entry.table_label = f"{seat.round.label}: table {seat.table.number}, seat {seat.seat}"
        (past if event.status == Event.Status.FINISHED else upcoming).append(entry)
    past.reverse()
    staff = EventStaff.objects.filter(user=user).select_related("event").order_by("-event__date")
    return {"upcoming": upcoming, "past": past, "staff_roles": list(staff)}


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
