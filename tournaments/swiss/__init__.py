"""The Swiss engine for DCDB tournaments: rounds, tables, pairing, placement, points, standings, play-offs.

Pure Python (no Django): plain values and frozen dataclasses in and out. Players are opaque strings
(the app passes registration ids). Rule numbers refer to the DCDB Advanced Rule Book; product decisions
where it is silent are in DECISIONS.md.

Errors: ``SwissError(ValueError)`` for anything an organizer can fix (its message is meant to be shown
as is); ``FivePlayerError(SwissError)`` when 5 active players need the offer of one 5-player table.
Anything else is a bug.

Rounds and tables
    swiss_rounds(players: int, *, sanctioned: bool = True) -> RoundCount(rounds, extension)
        9.070, one more round per doubling above 128 (``extension=True``); sanctioned events need 8
        players (9.060), unsanctioned 6-7 play 3 rounds.
    table_sizes(players: int, *, allow_five: bool = False) -> list[int]
        9.010: as many 4-player tables as possible, 3-player tables last; [5] only with allow_five.

Pairing
    pair_round(players, rounds=(), *, seed, round_number=None, turn_order="random", allow_five=False,
               seeding=None)
        -> Pairing(round_number, tables: tuple[PairedTable(number, players, flags), ...])
        ``seeding`` (round 1 only): players strongest first, dealt over the tables in snake order
        (``snake_tables``); players not listed are shuffled and dealt after them; flag "seeded".
        ``players``: active players; ``rounds``: finished Swiss rounds, oldest first, each a sequence of
        PlayedTable(players (turn order), points, vp={}, super_villains={}, placements=None).
        ``turn_order``: "random" | "balanced". Same input, same output. Flags: Flag(kind, player,
        points, opponent, count) with ``.text``; kinds pulled_down, pulled_up, repeat_opponent,
        three_player_table_again, five_player_table, seeded.
    table_flags(players, rounds=()) -> tuple[Flag, ...]
        The same flags for any table of ``players`` (turn order) after ``rounds``: a swap made by hand.

One game (the one home of a game's rules: 12.050-12.100, 9.040, outright wins, play-off places)
    game_result(slip: Slip, *, scoring=CLASSIC) -> GameResult
        Slip(seats: tuple[Seat, ...] in turn order, playoff=False, recent_super_villain={player: 1, ...},
        earlier_answer=(), override=(), override_reason=""); Seat(player, vp, super_villains, left,
        outright_win, game_loss, refused_to_sign). GameResult.placements: Placement(player, place, points,
        reason); GameResult.question: groups of players to ask "which of these players defeated a
        Super-Villain most recently?" (empty when the result is final); GameResult.answer: the tie answer
        used, most recent first. Raises SlipError(SwissError) (``player`` names the line at fault) and
        TieAnswerError(SlipError) (``question`` to ask again).

Points
    ScoringProfile(name, points={size: (1st, 2nd, ...)}), CLASSIC (5/3/2/2, 5/3/2, 5/3/2/2/2),
    scoring_profile(name | mapping | profile | None); profile.points_for(place, size, refused_to_sign=False)
    gives 0 for refusing to sign the match slip (12.100).

Standings
    standings(rounds, *, active, seed, tiebreakers=DEFAULT_TIEBREAKERS, scoring=CLASSIC)
        -> tuple[StandingRow(rank, player, points, tiebreakers, games, placements, active), ...]
        Tiebreaker names: super_villains, opponents_points_rate, vp, draw (always last).

Play-offs
    playoff_tables(standing_order, swiss_rounds, eligible) -> Playoffs(stage, tables)
        "final" (top 4) after 4 rounds or fewer, else "semi_finals" 1,4,5,8 / 2,3,6,7; turn order by
        Swiss standing (9.100, 9.101); ineligible players skipped.
    final_table(semi_finals, standing_order) -> PlayoffTable
    final_ranking(standing_order, final, semi_finals=()) -> tuple[str, ...]

Command line: ``python -m tournaments.swiss rounds N | game | pair | standings | playoffs`` (see cli.py).
"""

from __future__ import annotations

from .errors import FivePlayerError, SwissError
from .game import QUESTION, GameResult, Placement, Seat, Slip, SlipError, TieAnswerError, game_result
from .history import PlayedTable
from .pairing import Flag, PairedTable, Pairing, pair_round, table_flags
from .playoffs import Playoffs, PlayoffTable, final_ranking, final_table, playoff_tables
from .rounds import RoundCount, swiss_rounds, table_sizes
from .scoring import CLASSIC, PRESETS, ScoringProfile, scoring_profile
from .standings import DEFAULT_TIEBREAKERS, TIEBREAKERS, StandingRow, seeded_draw, standings

__all__ = [
    "CLASSIC",
    "DEFAULT_TIEBREAKERS",
    "PRESETS",
    "TIEBREAKERS",
    "FivePlayerError",
    "Flag",
    "GameResult",
    "PairedTable",
    "Pairing",
    "Placement",
    "PlayedTable",
    "PlayoffTable",
    "Playoffs",
    "RoundCount",
    "ScoringProfile",
    "QUESTION",
    "Seat",
    "Slip",
    "SlipError",
    "StandingRow",
    "SwissError",
    "TieAnswerError",
    "final_ranking",
    "final_table",
    "pair_round",
    "game_result",
    "playoff_tables",
    "scoring_profile",
    "seeded_draw",
    "standings",
    "swiss_rounds",
    "table_flags",
    "table_sizes",
]
