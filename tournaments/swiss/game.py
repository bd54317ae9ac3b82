"""One game's result: the whole match slip in, placements and points (or the question to ask) out.

This is the one home of the rules of a single game (12.050-12.100, 9.040, DECISIONS.md); the judge's
form, a player's report, the simulation and the command line all go through ``game_result``.

Order of a game, top to bottom:

1. a player whose card won the game outright (ruling on Kyle Rayner, Heroes Unite);
2. everyone who finished: most VP; tie -> most Super-Villains in deck; tie -> who most recently defeated
   a Super-Villain (asked only when the tie changes points, or in the play-offs where every place counts);
   tie -> later in turn order;
3. players who left the game (9.040), the first to leave lowest;
4. players with a game-loss penalty (last place in that game).

A judge's placement override replaces that order. Points follow the place; a player who refused to sign
the slip scores 0 (12.100).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import SwissError
from .scoring import CLASSIC, ScoringProfile

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}
QUESTION = "Which of these players defeated a Super-Villain most recently?"


class SlipError(SwissError):
    """A match slip the rules refuse. ``player`` names the line at fault, when one is."""

    def __init__(self, message: str, *, player: str | None = None) -> None:
        super().__init__(message)
        self.player = player


class TieAnswerError(SlipError):
    """The answer to the Super-Villain question cannot order the tied players; ``question`` is asked again."""

    def __init__(self, message: str, *, question: tuple[tuple[str, ...], ...]) -> None:
        super().__init__(message)
        self.question = question


@dataclass(frozen=True)
class Seat:
    """One player's line of the match slip. Seats are passed in turn order (seat 1 first).

    ``left`` is the order in which the player left the game (1 = first to leave), or None.
    ``vp`` may be None only for a player who left or has a game loss.
    """

    player: str
    vp: int | None = None
    super_villains: int = 0
    left: int | None = None
    outright_win: bool = False
    game_loss: bool = False
    refused_to_sign: bool = False


@dataclass(frozen=True)
class Slip:
    """Everything one game's result depends on.

    ``recent_super_villain`` answers the tie question: a number per tied player, 1 for the one who
    defeated a Super-Villain most recently (players left out come after those named). ``earlier_answer``
    is an answer given for an earlier version of this slip (players, most recent first): it counts only if
    it names every player of every tie the slip has now. ``override`` is a judge's order (1st first).
    """

    seats: tuple[Seat, ...]
    playoff: bool = False
    recent_super_villain: Mapping[str, int] | None = None
    earlier_answer: tuple[str, ...] = ()
    override: tuple[str, ...] = ()
    override_reason: str = ""


@dataclass(frozen=True)
class Placement:
    player: str
    place: int
    points: float
    reason: str


@dataclass(frozen=True)
class GameResult:
    """Placements, best first, with points. While ``question`` is not empty (groups of players tied on VP and
    Super-Villains) the result is not final and must not be saved; ``answer`` is the order of the tie
    answer that was used (players, most recent first), to store with the slip."""

    placements: tuple[Placement, ...]
    question: tuple[tuple[str, ...], ...] = ()
    answer: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.question

    def order(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.placements)


def _check(seats: Sequence[Seat]) -> None:
    size = len(seats)
    if not 3 <= size <= 5:
        raise SlipError(f"A game has 3 to 5 players, not {size}.")
    names = [s.player for s in seats]
    if len(set(names)) != len(names):
        raise SlipError("The slip must list every player at the table once.")
    for s in seats:
        if s.vp is None and s.left is None and not s.game_loss:
            raise SlipError("VP missing.", player=s.player)
        if s.vp is not None and (not isinstance(s.vp, int) or isinstance(s.vp, bool) or s.vp < 0):
            raise SlipError("VP are whole numbers of 0 or more (1.060).", player=s.player)
        if (
            not isinstance(s.super_villains, int)
            or isinstance(s.super_villains, bool)
            or s.super_villains < 0
        ):
            raise SlipError("Super-Villains are a whole number of 0 or more.", player=s.player)
    leavers = [s for s in seats if s.left is not None]
    numbers = [s.left for s in leavers]
    if len(set(numbers)) != len(numbers):
        raise SlipError("Two players cannot have left the game at the same moment: number them 1, 2, …")
    if len(leavers) >= size:
        raise SlipError(
            "Someone must still be playing when the game ends: "
            f"at most {size - 1} of {size} players can have left it (9.040)."
        )
    for s in leavers:
        if not isinstance(s.left, int) or isinstance(s.left, bool) or not 1 <= s.left <= size - 1:
            raise SlipError(
                f"Number the players who left in the order they left: 1 to {size - 1} at this table.",
                player=s.player,
            )
    winners = [s for s in seats if s.outright_win]
    if len(winners) > 1:
        raise SlipError("Only one player can win the game outright.")
    if winners and winners[0].left is not None:
        raise SlipError(
            "A player who left the game cannot also have won it outright.", player=winners[0].player
        )


def _answer_order(
    answer: Mapping[str, int], seats: Sequence[Seat], question: tuple[tuple[str, ...], ...]
) -> tuple[str, ...]:
    players = {s.player for s in seats}
    if any(p not in players for p in answer):
        raise TieAnswerError("The answer names a player who is not at this table.", question=question)
    numbers = list(answer.values())
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in numbers):
        raise TieAnswerError("Number the tied players 1, 2, …: 1 for the most recent.", question=question)
    if len(set(numbers)) != len(numbers):
        raise TieAnswerError(
            "Give each tied player a different number: 1 for the most recent, then 2, …", question=question
        )
    return tuple(p for p, _ in sorted(answer.items(), key=lambda item: item[1]))


def _rank(
    seats: Sequence[Seat], *, answer: tuple[str, ...] | None, asks_when
) -> tuple[list[Seat], dict[str, str], list[tuple[str, ...]]]:
    """The order of 12.050 and DECISIONS.md, a reason per player, and the ties still to be asked."""
    size = len(seats)
    turn = {s.player: i for i, s in enumerate(seats)}
    rank_of = None if answer is None else {p: i for i, p in enumerate(answer)}

    winners = [s for s in seats if s.outright_win and not s.game_loss]
    finished = [s for s in seats if not s.outright_win and s.left is None and not s.game_loss]
    leavers = sorted(
        (s for s in seats if s.left is not None and not s.game_loss), key=lambda s: -(s.left or 0)
    )
    losses = [s for s in seats if s.game_loss]

    ordered: list[Seat] = list(winners)
    reasons: dict[str, str] = {s.player: "won the game outright" for s in winners}
    question: list[tuple[str, ...]] = []

    def turn_reasons(group: list[Seat]) -> None:
        for k, s in enumerate(group):
            other = group[k + 1] if k + 1 < len(group) else group[k - 1]
            word = "later" if turn[s.player] > turn[other.player] else "earlier"
            reasons[s.player] = f"tied on VP and Super-Villains, {word} in turn order"

    finished.sort(key=lambda s: (-(s.vp or 0), -s.super_villains))
    start = len(ordered)
    i = 0
    while i < len(finished):
        j = i
        while j < len(finished) and (finished[j].vp, finished[j].super_villains) == (
            finished[i].vp,
            finished[i].super_villains,
        ):
            j += 1
        tied = finished[i:j]
        by_turn = sorted(tied, key=lambda s: -turn[s.player])
        # With no Super-Villain in their decks none of them defeated one: nothing to ask.
        if len(tied) > 1 and tied[0].super_villains > 0 and asks_when(range(start + i, start + j)):
            if rank_of is None:
                question.append(tuple(s.player for s in tied))
                for s in tied:
                    reasons[s.player] = (
                        "tied on VP and Super-Villains: who defeated a Super-Villain most recently?"
                    )
            else:
                by_turn = sorted(tied, key=lambda s: (rank_of.get(s.player, size), -turn[s.player]))
                for k, s in enumerate(by_turn):
                    other = by_turn[k + 1] if k + 1 < len(by_turn) else by_turn[k - 1]
                    mine, theirs = rank_of.get(s.player, size), rank_of.get(other.player, size)
                    if mine != theirs:
                        word = "more" if mine < theirs else "less"
                        reasons[s.player] = f"tied on VP and Super-Villains, defeated one {word} recently"
                    else:
                        word = "later" if turn[s.player] > turn[other.player] else "earlier"
                        reasons[s.player] = f"tied on VP and Super-Villains, {word} in turn order"
        elif len(tied) > 1:
            turn_reasons(by_turn)
        ordered.extend(by_turn)
        i = j

    for k, s in enumerate(ordered[start:], start=start):
        if s.player in reasons:
            continue
        same_vp = [o for o in ordered[start:] if o is not s and o.vp == s.vp]
        if not same_vp:
            reasons[s.player] = f"{s.vp} VP"
            continue
        nxt = ordered[k + 1] if k + 1 < len(ordered) and ordered[k + 1].vp == s.vp else ordered[k - 1]
        word = "more" if s.super_villains > nxt.super_villains else "fewer"
        reasons[s.player] = f"tied on VP, {word} Super-Villains"

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
    return ordered, reasons, question


def game_result(slip: Slip, *, scoring: ScoringProfile = CLASSIC) -> GameResult:
    """Place one game's players and give their points (12.050-12.100, 9.040, DECISIONS.md).

    Raises ``SlipError`` for a slip the rules refuse and ``TieAnswerError`` for an answer to the tie
    question that cannot be used; both carry a message to show as is.
    """
    seats = slip.seats
    _check(seats)
    size = len(seats)
    points_by_place = scoring.for_table(size)
    players = {s.player for s in seats}

    if slip.override:
        if sorted(slip.override) != sorted(players):
            raise SlipError("The override must place every player at the table once.")
        by_player = {s.player: s for s in seats}
        placements = tuple(
            _placement(by_player[p], place, size, scoring, f"set by a judge: {slip.override_reason}".strip())
            for place, p in enumerate(slip.override, start=1)
        )
        return GameResult(placements, answer=slip.earlier_answer)

    def asks_when(places: range) -> bool:
        # In the play-offs every place counts for the final ranking, not only the points it scores.
        return slip.playoff or len({points_by_place[p] for p in places}) > 1

    ordered, reasons, question = _rank(seats, answer=None, asks_when=asks_when)
    groups = tuple(question)
    answer: tuple[str, ...] | None = None
    if groups:
        given = {p: n for p, n in (slip.recent_super_villain or {}).items() if n is not None}
        if given:
            answer = _answer_order(given, seats, groups)
        elif slip.earlier_answer and all(p in slip.earlier_answer for g in groups for p in g):
            answer = tuple(p for p in slip.earlier_answer if p in players)
        if answer is not None:
            ordered, reasons, _ = _rank(seats, answer=answer, asks_when=asks_when)
    placements = tuple(
        _placement(s, place, size, scoring, reasons[s.player]) for place, s in enumerate(ordered, start=1)
    )
    if answer is None and groups:
        return GameResult(placements, question=groups)
    return GameResult(placements, answer=answer or ())


def _placement(seat: Seat, place: int, size: int, scoring: ScoringProfile, reason: str) -> Placement:
    points = scoring.points_for(place, size, refused_to_sign=seat.refused_to_sign)
    if seat.refused_to_sign:
        reason += "; refused to sign the match slip: 0 points (12.100)"
    return Placement(seat.player, place, points, reason)
