"""Time calls: how many extra turns, and whose (9.020-9.022, 9.050, DECISIONS.md "Time").

Pure Python: no Django. When time is called, the active player finishes the current turn;
then, with n players still in the game and the active player at position a in turn order:

- if the active player is the first player, n - 1 more turns (everyone else once);
- otherwise (n - a) + n more turns (to the end of this round of turns, then one full round).

Players who have left the game (9.050) are not counted; if the first player has left, the
next remaining player in turn order counts as first. Time called between two turns counts
as during the turn of the player about to begin.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class TimeCallError(ValueError):
    """The table's state does not allow a time call as given; the message says why."""


def extra_turns(players_in_game: int, active_seat: int) -> int:
    """Turns after the active player's current turn. ``active_seat`` counts only players still in the game."""
    if players_in_game < 2:
        raise TimeCallError("A time call needs at least 2 players still in the game.")
    if not 1 <= active_seat <= players_in_game:
        raise TimeCallError(f"The active player must be between 1 and {players_in_game}, not {active_seat}.")
    if active_seat == 1:
        return players_in_game - 1
    return (players_in_game - active_seat) + players_in_game


@dataclass(frozen=True)
class TimeCall:
    players_in_game: int
    active: int  # seat number (turn order at the table) of the player whose turn it is
    extra_turns: int
    turns: tuple[int, ...]  # seat numbers of the extra turns, in order
    between_turns: bool
    sentence: str

    @property
    def last(self) -> int:
        return self.turns[-1] if self.turns else self.active


def time_call(
    seats: int,
    active: int,
    *,
    left: Iterable[int] = (),
    between_turns: bool = False,
    labels: Mapping[int, str] | None = None,
) -> TimeCall:
    """The time call at a table of ``seats`` players when it is seat ``active``'s turn.

    ``left``: seats of players who have left the game (9.050). ``labels``: how to name each
    seat in the sentence (default "P1", "P2", ...).
    """
    if not 2 <= seats <= 5:
        raise TimeCallError(f"A table has 2 to 5 seats, not {seats}.")
    gone = set(left)
    unknown = sorted(s for s in gone if not 1 <= s <= seats)
    if unknown:
        raise TimeCallError(f"Seat {unknown[0]} is not at this table (seats 1 to {seats}).")
    if not 1 <= active <= seats:
        raise TimeCallError(f"Whose turn? Choose a seat from 1 to {seats}, not {active}.")
    if active in gone:
        raise TimeCallError(f"Seat {active} has left the game; it cannot be their turn.")
    in_game = [s for s in range(1, seats + 1) if s not in gone]
    position = in_game.index(active) + 1
    count = extra_turns(len(in_game), position)
    turns = tuple(in_game[(position - 1 + i) % len(in_game)] for i in range(1, count + 1))
    name = (lambda s: labels.get(s, f"P{s}")) if labels else (lambda s: f"P{s}")
    opening = f"{name(active)} takes this turn" if between_turns else f"{name(active)} finishes"
    sentence = (
        f"{opening}, then {', '.join(name(s) for s in turns)}; the game ends after {name(turns[-1])}'s turn."
    )
    return TimeCall(
        players_in_game=len(in_game),
        active=active,
        extra_turns=count,
        turns=turns,
        between_turns=between_turns,
        sentence=sentence,
    )
