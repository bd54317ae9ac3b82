"""Small helpers that make test data. Each makes one thing with sensible defaults."""

from __future__ import annotations

import datetime
import itertools

from django.contrib.auth import get_user_model

from tournaments.models import Event, EventStaff, Player, Registration

_counter = itertools.count(1)


def make_user(username: str | None = None, *, verified: bool = True, **fields):
    """An account with the password "pw" and, unless told otherwise, a verified email address."""
    from allauth.account.models import EmailAddress

    username = username or f"user{next(_counter)}"
    fields.setdefault("email", f"{username.lower()}@example.org")
    user = get_user_model().objects.create_user(username=username, password="pw", **fields)
    if user.email:
        EmailAddress.objects.create(user=user, email=user.email, verified=verified, primary=True)
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


def event_form_data(event: Event | None = None, **overrides) -> dict:
    """What the event form posts: a new event's defaults, or ``event``'s settings as loaded (with its version)."""
    data = {
        "name": event.name if event else "Sunday Open",
        "date": "2026-12-05",
        "round_minutes": 60,
        "turn_order": "random",
        "paper_size": "A4",
        "tiebreaker_1": "super_villains",
        "tiebreaker_2": "opponents_points_rate",
        "tiebreaker_3": "vp",
        "player_reporting": str(event.player_reporting) if event else "True",
        "confirm_minutes": event.confirm_minutes if event else 10,
    }
    if event is not None:
        data["version"] = event.settings_version
    data.update(overrides)
    return data
