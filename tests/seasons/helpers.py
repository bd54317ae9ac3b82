"""Small helpers for the seasons tests: finished events played through the services, and seasons."""

from __future__ import annotations

import datetime
import random

from seasons import services
from tests.factories import make_event, make_players
from tests.tournaments.flow import play_round
from tournaments.models import Event
from tournaments.services import rounds

SEASON_START = datetime.date(2026, 1, 1)
SEASON_END = datetime.date(2026, 6, 30)


def finished_event(organizer, *, date=datetime.date(2026, 2, 7), players: int = 8, seed: int = 1) -> Event:
    """An event of ``players`` played to the end: its Swiss rounds, then the play-offs."""
    event = make_event(organizer=organizer, date=date)
    make_players(event, players)
    event = rounds.event_start(event=event)
    rng = random.Random(seed)
    for number in range(1, event.swiss_rounds + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)
    round = play_round(rounds.playoffs_start(event=event, publish=True), rng)
    if round.kind == "semifinal":
        play_round(rounds.final_start(event=event, publish=True), rng)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    return event


def running_event(organizer, *, date=datetime.date(2026, 3, 7), players: int = 8) -> Event:
    """An event with its first round played and closed."""
    event = make_event(organizer=organizer, date=date)
    make_players(event, players)
    event = rounds.event_start(event=event)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(2))
    event.refresh_from_db()
    return event


def make_season(organizer, *, events=(), points=None, name: str = "Spring League", **fields):
    season = services.season_create(
        user=organizer,
        name=name,
        start_date=fields.pop("start_date", SEASON_START),
        end_date=fields.pop("end_date", SEASON_END),
        points=points or {"preset": "store", "attendance": 0},
        **fields,
    )
    for event in events:
        services.season_event_add(season=season, event=event, user=organizer)
    return season
