"""Everything an account owns, as plain data for the player's own download (``/me/data.json``).

Judges' private notes are left out: a penalty's description and a void's reason are staff notes, and
who recorded it is the judge's data, not the player's."""

from __future__ import annotations

from collections import defaultdict

from allauth.account.models import EmailAddress
from django.utils import timezone

from judging.models import Penalty
from tournaments.models import EventStaff, Player, Registration, Seat, StaffInvitation

from .selectors import StatusFacts, registration_status, status_facts


def _when(value) -> str | None:
    return value.isoformat() if value else None


def account_data(*, user) -> dict:
    """The account, its email addresses, every player record it owns with each event (status, seats,
    penalties received), its staff roles and the staff invitations it accepted."""
    players = list(Player.objects.filter(user=user).order_by("pk"))
    registrations = list(
        Registration.objects.filter(player__in=players)
        .select_related("event", "player")
        .order_by("event__date")
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        # A draft round's seat is not the player's yet (staff may still re-pair it).
        Seat.objects.filter(registration__in=registrations, round__published_at__isnull=False)
        .select_related("round", "table")
        .order_by("round__number")
    ):
        seats[seat.registration_id].append(seat)
    penalties: dict[int, list[Penalty]] = defaultdict(list)
    for penalty in (
        Penalty.objects.filter(registration__in=registrations)
        .select_related("infraction", "round", "table")
        .order_by("recorded_at")
    ):
        penalties[penalty.registration_id].append(penalty)
    facts = status_facts(registrations)
    by_player: dict[int, list[Registration]] = defaultdict(list)
    for registration in registrations:
        by_player[registration.player_id].append(registration)
    return {
        "exported_at": timezone.now().isoformat(),
        "account": {
            "username": user.username,
            "date_joined": _when(user.date_joined),
            "emails": [
                {"email": a.email, "verified": a.verified, "primary": a.primary}
                for a in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
            ],
        },
        "players": [
            {
                "name": player.name,
                "email": player.email,
                "public_name": player.public_name,
                "public_short_name": player.public_short_name,
                "events": [
                    _registration_data(r, seats[r.pk], penalties[r.pk], facts) for r in by_player[player.pk]
                ],
            }
            for player in players
        ],
        "staff_roles": [
            {"event": s.event.name, "event_slug": s.event.slug, "date": _when(s.event.date), "role": s.role}
            for s in EventStaff.objects.filter(user=user).select_related("event").order_by("event__date")
        ],
        "invitations_accepted": [
            {
                "event": i.event.name,
                "event_slug": i.event.slug,
                "role": i.role,
                "email": i.email,
                "accepted_at": _when(i.accepted_at),
            }
            for i in StaffInvitation.objects.filter(accepted_by=user)
            .select_related("event")
            .order_by("accepted_at")
        ],
    }


def _registration_data(
    registration: Registration, seats: list[Seat], penalties: list[Penalty], facts: StatusFacts
) -> dict:
    event = registration.event
    return {
        "event": event.name,
        "event_slug": event.slug,
        "date": _when(event.date),
        "venue": event.venue,
        "status": registration_status(registration, facts),
        "registered_at": _when(registration.created_at),
        "checked_in": registration.checked_in,
        "dropped_after_round": registration.dropped_after_round if registration.dropped else None,
        "disqualified": registration.disqualified,
        "seats": [
            {
                "round": seat.round.number,
                "round_label": seat.round.label,
                "table": seat.table.number,
                "seat": seat.seat,
                "vp": seat.vp,
                "super_villains": seat.super_villains,
                "placement": seat.placement,
                "points": float(seat.points) if seat.points is not None else None,
            }
            for seat in seats
        ],
        "penalties": [
            {
                "infraction": f"{p.infraction.rule} {p.infraction.name}",
                "penalty": p.get_type_display(),
                "round": p.round.number if p.round else None,
                "table": p.table.number if p.table else None,
                "recorded_at": _when(p.recorded_at),
                "voided": p.voided,
            }
            for p in penalties
        ],
    }
