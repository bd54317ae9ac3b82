"""Helpers that play an event through the services, as the pages and simulate_event do."""

from __future__ import annotations

import random

from tournaments.models import Round, Seat, Table
from tournaments.services import results, rounds


def play_table(table: Table, rng: random.Random, user=None) -> None:
    """Enter a plausible match slip: distinct VP so no tie question is needed."""
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    vps = rng.sample(range(10, 60), len(seats))
    entries = [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=rng.randint(0, 3))
        for s, vp in zip(seats, vps, strict=True)
    ]
    table.refresh_from_db()
    results.result_enter(table=table, entries=entries, expected_version=table.version, user=user)


def play_round(round: Round, rng: random.Random, user=None) -> Round:
    for table in Table.objects.filter(round=round).order_by("number"):
        play_table(table, rng, user)
    return rounds.round_close(round=round)
