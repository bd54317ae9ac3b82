"""Small helpers that make test data. Each makes one thing with sensible defaults."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth import get_user_model

from tournaments.models import Event, EventStaff, Player, Registration

_counter = itertools.count(1)


def make_user(username: str | None = None, **fields):
    username = username or f"user{next(_counter)}"
    user = get_user_model().objects.create_user(username=username, password="pw", **fields)
    return user


def make_event(*, organizer=None, name: str | None = None, **fields) -> Event:
    fields.setdefault("date", datetime.date(2026, 12, 5))
    event = Event.objects.create(name=name or f"Event {next(_counter)}", **fields)
    if organizer is not None:
        EventStaff.objects.create(event=event, user=organizer, role=EventStaff.Role.ORGANIZER)
    return event


def add_staff(event: Event, user, role: str) -> EventStaff:
    return EventStaff.objects.create(event=event, user=user, role=role)


def make_registration(event: Event, name: str | None = None, **fields) -> Registration:
    player = Player.objects.create(name=name or f"Player {next(_counter)}")
    return Registration.objects.create(event=event, player=player, **fields)


def make_players(event: Event, count: int, *, checked_in: bool = True) -> list[Registration]:
    return [make_registration(event, f"Player {i:03d}", checked_in=checked_in) for i in range(1, count + 1)]
