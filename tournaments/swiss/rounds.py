"""How many Swiss rounds (9.060, 9.070) and which table sizes (9.010)."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import FivePlayerError, SwissError

SANCTIONED_MINIMUM = 8  # 9.060
UNSANCTIONED_MINIMUM = 6  # DECISIONS.md: 6-7 players play 3 rounds when unsanctioned
BOOK_MAXIMUM = 128  # the last row of the 9.070 table


@dataclass(frozen=True)
class RoundCount:
    """Swiss rounds for an event; ``extension`` marks a count beyond the 9.070 table (> 128 players)."""

    rounds: int
    extension: bool = False


def swiss_rounds(players: int, *, sanctioned: bool = True) -> RoundCount:
    """Swiss rounds for the number of players who entered (9.070, extended above 128 by one per doubling)."""
    if players < UNSANCTIONED_MINIMUM or (sanctioned and players < SANCTIONED_MINIMUM):
        minimum = SANCTIONED_MINIMUM if sanctioned else UNSANCTIONED_MINIMUM
        kind = "a sanctioned" if sanctioned else "an unsanctioned"
        raise SwissError(f"{kind} event needs at least {minimum} players, not {players}.")
    if players < SANCTIONED_MINIMUM:
        return RoundCount(3)
    # 9.070: 8-16 -> 4, 17-32 -> 5, 33-64 -> 6, 65-128 -> 7; every further doubling adds one.
    rounds, ceiling = 4, 16
    while players > ceiling:
        rounds += 1
        ceiling *= 2
    return RoundCount(rounds, extension=players > BOOK_MAXIMUM)


def table_sizes(players: int, *, allow_five: bool = False) -> list[int]:
    """Table sizes, top table first: as many 4-player tables as possible, 3-player tables last (9.010)."""
    if players < 3:
        raise SwissError(f"{players} active player(s) cannot make a table: a game needs at least 3.")
    if players == 5:
        if allow_five:
            return [5]
        raise FivePlayerError()
    # n mod 4 = 1 needs three 3-player tables, 2 needs two, 3 needs one.
    threes = (4 - players % 4) % 4
    fours = (players - 3 * threes) // 4
    return [4] * fours + [3] * threes
