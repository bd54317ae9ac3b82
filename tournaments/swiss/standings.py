"""Standings after the Swiss rounds: points, then the event's tiebreaker order, then a seeded draw.

Tiebreakers (DECISIONS.md, "Points and standings"), each reported for every player:

- ``super_villains``: Super-Villains defeated in Swiss games;
- ``opponents_points_rate``: the mean, over every opponent met (an opponent met twice counts twice),
  of that opponent's points divided by the most points the tables they played could give;
- ``vp``: total VP in Swiss games;
- ``draw``: a number drawn from the event's seed and the player's id, so the order never depends on
  the database or on the order players are listed in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .errors import SwissError
from .history import PlayedTable, PlayerRecord, records, validate_rounds
from .scoring import CLASSIC, ScoringProfile

TIEBREAKERS = ("super_villains", "opponents_points_rate", "vp", "draw")
DEFAULT_TIEBREAKERS = TIEBREAKERS


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: str
    points: float
    tiebreakers: Mapping[str, float]  # every tiebreaker, whatever the order in use
    games: int
    placements: tuple[int, ...]  # times placed 1st, 2nd, 3rd, 4th (and 5th)
    active: bool


def _placements(rec: PlayerRecord | None) -> tuple[int, ...]:
    if rec is None:
        return (0, 0, 0, 0)
    # A 5th place only exists after a 5-player table; otherwise keep the 1st-4th columns a page shows.
    return tuple(rec.placements if rec.placements[4] else rec.placements[:4])


def seeded_draw(seed: int | str, player: str) -> float:
    """A number in [0, 1) fixed by the event's seed and the player's id."""
    digest = hashlib.sha256(f"dcdb-draw:{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def standings(
    rounds: Sequence[Sequence[PlayedTable]],
    *,
    active: Iterable[str],
    seed: int | str,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    scoring: ScoringProfile = CLASSIC,
) -> tuple[StandingRow, ...]:
    """Every player who played a Swiss game (and every active player) in a total order, best first.

    Dropped players still appear, with ``active=False``; ``active`` players who never played have 0.
    """
    if isinstance(tiebreakers, str | bytes) or not isinstance(tiebreakers, Sequence):
        raise SwissError(f"the tiebreakers must be a list of names (known: {', '.join(TIEBREAKERS)}).")
    order = list(tiebreakers)
    unknown = [t for t in order if not isinstance(t, str) or t not in TIEBREAKERS]
    if unknown:
        raise SwissError(f"unknown tiebreaker '{unknown[0]}' (known: {', '.join(TIEBREAKERS)}).")
    if len(set(order)) != len(order):
        raise SwissError("a tiebreaker is listed twice.")
    if "draw" not in order:
        order.append("draw")  # the draw always ends the order, so it is total
    validate_rounds(rounds)
    maxima = {size: scoring.table_maximum(size) for size in scoring.points}
    recs = records(rounds, maxima)
    active_set = set(active)
    everyone = sorted(set(recs) | active_set)

    def rate(player: str) -> float:
        rec = recs.get(player)
        return rec.points / rec.max_points if rec and rec.max_points else 0.0

    rows = []
    for player in everyone:
        rec = recs.get(player)
        opponents = rec.opponent_list if rec else []
        values = {
            "super_villains": rec.super_villains if rec else 0.0,
            "opponents_points_rate": sum(rate(o) for o in opponents) / len(opponents) if opponents else 0.0,
            "vp": rec.vp if rec else 0.0,
            "draw": seeded_draw(seed, player),
        }
        rows.append((player, rec.points if rec else 0.0, values, rec))
    rows.sort(key=lambda row: (-row[1], *(-row[2][name] for name in order)))
    return tuple(
        StandingRow(
            rank=rank,
            player=player,
            points=points,
            tiebreakers=MappingProxyType(values),
            games=rec.games if rec else 0,
            placements=_placements(rec),
            active=player in active_set,
        )
        for rank, (player, points, values, rec) in enumerate(rows, start=1)
    )
