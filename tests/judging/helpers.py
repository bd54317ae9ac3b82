"""Small helpers for the judging tests: a seated round, staff of every role, a clock that ran out."""

from __future__ import annotations

import datetime

from django.utils import timezone

from judging.models import ClockPause, RoundClock
from tests.factories import add_staff, make_event, make_players, make_user
from tournaments.models import Event, EventStaff, Registration, Round, Seat, Table
from tournaments.services import results


def running_event(players: int = 8, **fields) -> tuple[Event, list[Registration]]:
    event = make_event(organizer=make_user(), status=Event.Status.RUNNING, swiss_rounds=3, **fields)
    return event, make_players(event, players)


def seat_round(
    event: Event, registrations: list[Registration], *, number: int = 1, size: int = 4, published: bool = True
) -> Round:
    """Round ``number`` with tables of ``size`` in the order given: registrations[0] is P1 at table 1.
    Published (players see it) unless ``published=False`` (a draft only staff see)."""
    round = Round.objects.create(
        event=event, number=number, published_at=timezone.now() if published else None
    )
    for t, start in enumerate(range(0, len(registrations), size), start=1):
        table = Table.objects.create(round=round, number=t)
        for s, registration in enumerate(registrations[start : start + size], start=1):
            Seat.objects.create(table=table, round=round, registration=registration, seat=s)
    return round


def staff_user(event: Event, role: str, username: str | None = None):
    user = make_user(username)
    add_staff(event, user, role)
    return user


def judge(event: Event, username: str | None = None):
    return staff_user(event, EventStaff.Role.JUDGE, username)


def head_judge(event: Event, username: str | None = None):
    return staff_user(event, EventStaff.Role.HEAD_JUDGE, username)


def start_clock(round: Round, *, minutes_ago: float = 0, minutes: int = 60) -> RoundClock:
    return RoundClock.objects.create(
        round=round, started_at=timezone.now() - datetime.timedelta(minutes=minutes_ago), minutes=minutes
    )


def time_up(round: Round) -> RoundClock:
    """A 60-minute clock that started 61 minutes ago."""
    return start_clock(round, minutes_ago=61)


def pause(clock: RoundClock, *, minutes_ago: float, ended_minutes_ago: float | None = None) -> ClockPause:
    now = timezone.now()
    return ClockPause.objects.create(
        clock=clock,
        started_at=now - datetime.timedelta(minutes=minutes_ago),
        ended_at=now - datetime.timedelta(minutes=ended_minutes_ago)
        if ended_minutes_ago is not None
        else None,
        reason="announcement",
    )


def enter_result(table: Table, vps: list[int]) -> None:
    """Enter a match slip with these VP in turn order."""
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    table.refresh_from_db()
    results.result_enter(
        table=table,
        entries=[results.SeatEntry(seat_id=s.pk, vp=vp) for s, vp in zip(seats, vps, strict=True)],
        expected_version=table.version,
        user=None,
    )


def seat_of(round: Round, registration: Registration) -> Seat:
    return Seat.objects.get(round=round, registration=registration)
