"""Finished Swiss rounds as plain data, and what the engine derives from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import SwissError

Rounds = Sequence[Sequence["PlayedTable"]]


def _frozen(values: Mapping[str, float] | None) -> Mapping[str, float]:
    return MappingProxyType(dict(values or {}))


@dataclass(frozen=True)
class PlayedTable:
    """One finished Swiss table: players in turn order, points per player, and optionally VP,
    Super-Villains defeated, and the placement order (best first). Without ``placements`` the order is
    derived from points, VP, Super-Villains and turn order (later first), as 12.050 would."""

    players: tuple[str, ...]
    points: Mapping[str, float]
    vp: Mapping[str, float] = field(default_factory=dict)
    super_villains: Mapping[str, float] = field(default_factory=dict)
    placements: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "points", _frozen(self.points))
        object.__setattr__(self, "vp", _frozen(self.vp))
        object.__setattr__(self, "super_villains", _frozen(self.super_villains))
        if self.placements is not None:
            object.__setattr__(self, "placements", tuple(self.placements))

    def placement_order(self) -> tuple[str, ...]:
        if self.placements is not None:
            return self.placements
        turn = {p: i for i, p in enumerate(self.players)}
        return tuple(
            sorted(
                self.players,
                key=lambda p: (
                    -self.points[p],
                    -self.vp.get(p, 0),
                    -self.super_villains.get(p, 0),
                    -turn[p],
                ),
            )
        )


def validate_rounds(rounds: Rounds) -> None:
    """Raise SwissError naming the first problem in the finished rounds."""
    for r, tables in enumerate(rounds, start=1):
        seen: set[str] = set()
        for t, table in enumerate(tables, start=1):
            where = f"round {r}, table {t}"
            if not 3 <= len(table.players) <= 5:
                raise SwissError(f"{where}: a table has 3 to 5 players, not {len(table.players)}.")
            seated = set(table.players)
            if len(seated) != len(table.players):
                raise SwissError(f"{where}: a player appears twice.")
            twice = seated & seen
            if twice:
                raise SwissError(f"{where}: {sorted(twice)[0]} is seated at two tables in the same round.")
            seen |= seated
            for name, values in (
                ("points", table.points),
                ("vp", table.vp),
                ("super_villains", table.super_villains),
            ):
                unknown = set(values) - seated
                if unknown:
                    raise SwissError(f"{where}: unknown player '{sorted(unknown)[0]}' in {name}.")
                for player, value in values.items():
                    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                        raise SwissError(f"{where}: {name} of {player} must be a number, not {value!r}.")
                    if value < 0:
                        raise SwissError(f"{where}: {name} of {player} cannot be negative.")
            missing = seated - set(table.points)
            if missing:
                raise SwissError(f"{where}: points missing for {sorted(missing)[0]}.")
            if table.placements is not None and sorted(table.placements) != sorted(table.players):
                raise SwissError(f"{where}: placements must list the table's players once each.")


@dataclass
class PlayerRecord:
    """What the engine knows of one player after the finished rounds."""

    points: float = 0.0
    games: int = 0
    vp: float = 0.0
    super_villains: float = 0.0
    three_player_tables: int = 0
    opponents: dict[str, int] = field(default_factory=dict)  # opponent -> times met
    opponent_list: list[str] = field(default_factory=list)  # one entry per meeting
    seats: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])  # times in seat 1..5
    placements: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])  # times 1st..5th
    max_points: float = 0.0  # sum of the table maximum over the player's games


def records(rounds: Rounds, table_maximum: Mapping[int, float] | None = None) -> dict[str, PlayerRecord]:
    """Per-player totals over the finished rounds (every player who ever sat, dropped or not)."""
    out: dict[str, PlayerRecord] = {}
    for tables in rounds:
        for table in tables:
            size = len(table.players)
            order = table.placement_order()
            for seat, player in enumerate(table.players):
                rec = out.setdefault(player, PlayerRecord())
                rec.points += table.points[player]
                rec.games += 1
                rec.vp += table.vp.get(player, 0)
                rec.super_villains += table.super_villains.get(player, 0)
                rec.seats[seat] += 1
                rec.placements[order.index(player)] += 1
                if table_maximum is not None:
                    rec.max_points += table_maximum.get(size, 0)
                if size == 3:
                    rec.three_player_tables += 1
                for other in table.players:
                    if other != player:
                        rec.opponents[other] = rec.opponents.get(other, 0) + 1
                        rec.opponent_list.append(other)
    return out
