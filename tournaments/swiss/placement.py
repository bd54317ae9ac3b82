"""Placement in one game (12.050) with the special cases of DECISIONS.md (9.040, outright win, game loss).

Order of a game, top to bottom:

1. a player whose card won the game outright (ruling on Kyle Rayner, Heroes Unite);
2. everyone who finished: most VP; tie -> most Super-Villains in deck; tie -> who most recently defeated
   a Super-Villain (asked only when the tie changes points); tie -> later in turn order;
3. players who left the game (9.040), the first to leave lowest;
4. players with a game-loss penalty (last place in that game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import SwissError
from .scoring import CLASSIC, ScoringProfile

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}


@dataclass(frozen=True)
class Seat:
    """One player's line of the match slip. Seats are passed in turn order (seat 1 first).

    ``left`` is the order in which the player left the game (1 = first to leave), or None.
    ``vp`` may be None only for a player who left.
    """

    player: str
    vp: int | None = None
    super_villains: int = 0
    left: int | None = None
    outright_win: bool = False
    game_loss: bool = False
    refused_to_sign: bool = False


@dataclass(frozen=True)
class Placement:
    player: str
    place: int
    points: float | None
    reason: str


@dataclass(frozen=True)
class GameResult:
    """Placements, best first. ``question`` lists groups of players still tied on VP and Super-Villains
    for whom "which of these players defeated a Super-Villain most recently?" must be answered; while it
    is not empty the placements are provisional (later in turn order stands in for the answer)."""

    placements: tuple[Placement, ...]
    question: tuple[tuple[str, ...], ...] = ()

    @property
    def complete(self) -> bool:
        return not self.question

    def order(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.placements)


def _validate(seats: Sequence[Seat]) -> None:
    if not 3 <= len(seats) <= 5:
        raise SwissError(f"a game has 3 to 5 players, not {len(seats)}.")
    names = [s.player for s in seats]
    if len(set(names)) != len(names):
        raise SwissError("a player appears twice at the same table.")
    for s in seats:
        if s.vp is None and s.left is None and not s.game_loss:
            raise SwissError(f"{s.player}: VP missing.")
        if s.vp is not None and (not isinstance(s.vp, int) or isinstance(s.vp, bool) or s.vp < 0):
            raise SwissError(f"{s.player}: VP must be a whole number of 0 or more (1.060), not {s.vp!r}.")
        if not isinstance(s.super_villains, int) or s.super_villains < 0:
            raise SwissError(f"{s.player}: Super-Villains must be a whole number of 0 or more.")
    if sum(1 for s in seats if s.outright_win) > 1:
        raise SwissError("only one player can win a game outright.")
    leavers = [s.left for s in seats if s.left is not None]
    if len(set(leavers)) != len(leavers):
        raise SwissError("two players cannot have left the game at the same moment; number them 1, 2...")


def place_game(
    seats: Sequence[Seat],
    *,
    recent_super_villain: Sequence[str] | None = None,
    scoring: ScoringProfile | None = CLASSIC,
) -> GameResult:
    """Place one game's players (12.050 and DECISIONS.md).

    ``recent_super_villain`` answers the tiebreaker question: players ordered by how recently they
    defeated a Super-Villain, most recent first (players not named come after; an empty answer means
    none of them did). ``scoring`` decides whether a tie matters: when the tied places score the same
    points, turn order settles it without asking. Pass ``scoring=None`` where every place matters
    (play-offs).
    """
    _validate(seats)
    size = len(seats)
    turn = {s.player: i for i, s in enumerate(seats)}
    points_by_place = scoring.for_table(size) if scoring is not None else None
    answer = None if recent_super_villain is None else {p: i for i, p in enumerate(recent_super_villain)}

    winners = [s for s in seats if s.outright_win and not s.game_loss]
    finished = [s for s in seats if not s.outright_win and s.left is None and not s.game_loss]
    leavers = sorted(
        (s for s in seats if s.left is not None and not s.game_loss), key=lambda s: -(s.left or 0)
    )
    losses = [s for s in seats if s.game_loss]

    ordered: list[Seat] = list(winners)
    reasons: dict[str, str] = {s.player: "won the game outright" for s in winners}
    question: list[tuple[str, ...]] = []

    def rank_finished(group: list[Seat], start: int) -> list[Seat]:
        """Order seats already sorted by (VP, Super-Villains) desc, breaking remaining ties."""
        out: list[Seat] = []
        i = 0
        while i < len(group):
            j = i
            while j < len(group) and (group[j].vp, group[j].super_villains) == (
                group[i].vp,
                group[i].super_villains,
            ):
                j += 1
            tied = group[i:j]
            by_turn = sorted(tied, key=lambda s: -turn[s.player])
            if len(tied) > 1:
                places = range(start + i, start + j)
                matters = points_by_place is None or len({points_by_place[p] for p in places}) > 1
                # With no Super-Villain in their decks none of them defeated one: nothing to ask.
                matters = matters and tied[0].super_villains > 0
                if matters and answer is None:
                    question.append(tuple(s.player for s in tied))
                    for s in tied:
                        reasons[s.player] = (
                            "tied on VP and Super-Villains: who defeated a Super-Villain most recently?"
                        )
                elif matters:
                    by_turn = sorted(tied, key=lambda s: (answer.get(s.player, size), -turn[s.player]))
                    for k, s in enumerate(by_turn):
                        other = by_turn[k + 1] if k + 1 < len(by_turn) else by_turn[k - 1]
                        mine, theirs = answer.get(s.player, size), answer.get(other.player, size)
                        if mine != theirs:
                            word = "more" if mine < theirs else "less"
                            reasons[s.player] = f"tied on VP and Super-Villains, defeated one {word} recently"
                        else:
                            word = "later" if turn[s.player] > turn[other.player] else "earlier"
                            reasons[s.player] = f"tied on VP and Super-Villains, {word} in turn order"
                else:
                    for k, s in enumerate(by_turn):
                        other = by_turn[k + 1] if k + 1 < len(by_turn) else by_turn[k - 1]
                        word = "later" if turn[s.player] > turn[other.player] else "earlier"
                        reasons[s.player] = f"tied on VP and Super-Villains, {word} in turn order"
            out.extend(by_turn)
            i = j
        return out

    finished.sort(key=lambda s: (-(s.vp or 0), -s.super_villains))
    ranked = rank_finished(finished, len(ordered))
    for k, s in enumerate(ranked):
        if s.player in reasons:
            continue
        same_vp = [o for o in ranked if o is not s and o.vp == s.vp]
        if not same_vp:
            reasons[s.player] = f"{s.vp} VP"
            continue
        other = ranked[k + 1] if k + 1 < len(ranked) and ranked[k + 1].vp == s.vp else ranked[k - 1]
        word = "more" if s.super_villains > other.super_villains else "fewer"
        reasons[s.player] = f"tied on VP, {word} Super-Villains"
    ordered.extend(ranked)

    for s in leavers:
        reasons[s.player] = (
            "left the game"
            if len(leavers) == 1
            else f"left the game {_ORDINAL.get(s.left or 0, str(s.left))}"
        )
    ordered.extend(leavers)
    for s in losses:
        reasons[s.player] = "game-loss penalty: last place"
    ordered.extend(losses)

    placements = []
    for place, s in enumerate(ordered, start=1):
        points = None
        reason = reasons[s.player]
        if scoring is not None:
            points = scoring.points_for(place, size, refused_to_sign=s.refused_to_sign)
            if s.refused_to_sign:
                reason += "; refused to sign the match slip: 0 points (12.100)"
        placements.append(Placement(s.player, place, points, reason))
    return GameResult(tuple(placements), tuple(question))
