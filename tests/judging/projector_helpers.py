"""Events for the wall screen's tests: real names, a round running with extra time, or over."""

from __future__ import annotations

import random

from judging.models import TableExtension
from tests.factories import make_event, make_registration, make_user
from tests.judging.helpers import start_clock
from tests.tournaments.flow import play_round
from tournaments.models import Event, Round, Table
from tournaments.services import rounds

FIRST = ["Ana", "Bruno", "Chloé", "Dmitri", "Eun-ji", "Farah", "Gideon", "Hana", "Ivo", "Jamal", "Keiko"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Novak", "Park", "Haddad", "Whitlock", "Sato", "Kovač", "Reyes"]


def hall_event(players: int = 48, *, announcement: str = "") -> Event:
    """A started event with ``players`` checked-in players, each with a first name and a surname."""
    event = make_event(
        organizer=make_user(), name="Metropolis Open", venue="Hall B", announcement=announcement
    )
    for i in range(players):
        # 11 first names by 10 surnames: 110 different players.
        make_registration(event, f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}", checked_in=True)
    return rounds.event_start(event=event)


def round_running(event: Event, *, number: int = 1) -> Round:
    """Round ``number`` published, its clock at 23 minutes left, two tables with extra time."""
    for earlier in range(1, number):
        play_round(rounds.round_pair(event=event, number=earlier, publish=True), random.Random(earlier))
    round = rounds.round_pair(event=event, number=number, publish=True)
    start_clock(round, minutes_ago=37)
    for table, minutes in ((2, 10), (3, 5)):
        TableExtension.objects.create(
            table=Table.objects.get(round=round, number=table), minutes=minutes, reason="ruling"
        )
    return round


def between_rounds(event: Event) -> Round:
    return play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))


def finished(event: Event) -> Event:
    """Every Swiss round played, then the play-offs: the semi-finals if the event has them, and the final."""
    for number in range(1, event.swiss_rounds + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), random.Random(number))
    first = play_round(rounds.playoffs_start(event=event, publish=True), random.Random(10))
    if first.kind == Round.Kind.SEMIFINAL:
        play_round(rounds.final_start(event=event, publish=True), random.Random(11))
    event.refresh_from_db()
    return event
