"""Play-offs (9.080-9.101) and the final ranking (DECISIONS.md "Play-offs")."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import SwissError

SEMI_FINAL_SEATS = ((1, 4, 5, 8), (2, 3, 6, 7))  # 9.090, by Swiss standing


@dataclass(frozen=True)
class PlayoffTable:
    number: int
    players: tuple[str, ...]  # in turn order: Swiss standing order (9.100, 9.101)


@dataclass(frozen=True)
class Playoffs:
    stage: str  # "final" | "semi_finals"
    tables: tuple[PlayoffTable, ...]


def _cut(standing_order: Sequence[str], eligible: Iterable[str], places: int) -> list[str]:
    allowed = set(eligible)
    made = [p for p in standing_order if p in allowed][:places]
    if len(made) < places:
        raise SwissError(f"the play-offs need {places} eligible players, only {len(made)} are left.")
    return made


def playoff_tables(standing_order: Sequence[str], swiss_rounds: int, eligible: Iterable[str]) -> Playoffs:
    """The first play-off round: the top-4 final after 4 Swiss rounds or fewer (9.080), semi-finals of the
    top 8 after 5 or more (9.090). Dropped or disqualified players (not ``eligible``) are skipped and the
    next in the standings takes the place."""
    if len(set(standing_order)) != len(standing_order):
        raise SwissError("a player appears twice in the standings.")
    if swiss_rounds < 5:
        made = _cut(standing_order, eligible, 4)
        return Playoffs("final", (PlayoffTable(1, tuple(made)),))
    made = _cut(standing_order, eligible, 8)
    tables = tuple(
        PlayoffTable(number, tuple(made[seat - 1] for seat in seats))
        for number, seats in enumerate(SEMI_FINAL_SEATS, start=1)
    )
    return Playoffs("semi_finals", tables)


def final_table(semi_finals: Sequence[Sequence[str]], standing_order: Sequence[str]) -> PlayoffTable:
    """The final after semi-finals: 1st and 2nd of each semi-final (placement order, best first), in
    Swiss standing order."""
    if len(semi_finals) != 2 or any(len(t) < 2 for t in semi_finals):
        raise SwissError("the final needs the placements of both semi-finals.")
    position = {p: i for i, p in enumerate(standing_order)}
    finalists = [p for table in semi_finals for p in table[:2]]
    missing = [p for p in finalists if p not in position]
    if missing:
        raise SwissError(f"{missing[0]} is not in the Swiss standings.")
    return PlayoffTable(1, tuple(sorted(finalists, key=position.__getitem__)))


def final_ranking(
    standing_order: Sequence[str],
    final: Sequence[str],
    semi_finals: Sequence[Sequence[str]] = (),
) -> tuple[str, ...]:
    """The event's final ranking: the final table 1-4, then semi-final 3rd/4th places (by semi-final place,
    then Swiss standing), then everyone else by Swiss standing."""
    position = {p: i for i, p in enumerate(standing_order)}
    unknown = [p for p in [*final, *(p for t in semi_finals for p in t)] if p not in position]
    if unknown:
        raise SwissError(f"{unknown[0]} is not in the Swiss standings.")
    ranked = list(final)
    rest = [
        (place, position[p], p) for table in semi_finals for place, p in enumerate(table) if p not in final
    ]
    ranked.extend(p for _, _, p in sorted(rest))
    placed = set(ranked)
    ranked.extend(p for p in standing_order if p not in placed)
    if len(set(ranked)) != len(ranked):
        raise SwissError("a player appears twice in the play-off results.")
    return tuple(ranked)
