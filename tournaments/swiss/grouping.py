"""What the pairing groups players by: their points (today), or their wins (first places), as the peer
pod pairer does (issue 17, "Pairing measured by what players care about").

The default pairing seats new opponents first, then players with equal points together (pairing.py). With
``grouping="wins"`` the second objective reads "players with equal wins together": the search sees each
player's number of first places where it saw their points. Nothing else changes: who met whom, 3-player
tables, seats and turn order still come from the real rounds, so repeats are avoided exactly as before,
and the standings (and so the cut) still rank by points and the event's tiebreakers.

Why: grouping by wins puts the players who have won together sooner than grouping by points does (at
5/3/2/2 three 2nd places tie on points with a win and two 4th places), and the final standings follow
skill more closely. Measured with bench/bench_fairness.py, policy ``loose-all`` (the engine's default
pairing grouping by wins in every round), 100 paired events per N = 12, 16, 24, 32, 48, 64, 96, 128, beta
0.6 and 1.2: no difference in recall or Spearman against grouping by points has its 95% interval below 0
at any N; Spearman rises +0.019 to +0.025 at 64-128 players with beta 1.2 (intervals above 0) and
+0.018 at 48 with beta 0.6, recall +0.031 at 32 and +0.035 at 128 (beta 1.2); repeats are the same as
the engine's (at the lower bound from 13 players). The price is points spread at a table (most - fewest
points before the round): 0.4 -> 1.7 at 128 players, 0.8 -> 1.8 at 64, 1.9 -> 2.4 at 32.

The hook, as pairing.pair_round uses it::

    recs = records(rounds)
    points = {p: recs[p].points if p in recs else 0.0 for p in active}   # today: flags use these
    grouped = grouping_points(rounds, active, grouping)                  # new
    order = _standings_order(active, grouped, rng)                       # was: points
    ...
    search = _Search([grouped[p] for p in order], met, threes, sizes, rng, ...)   # was: points
    ...
    tables.sort(key=... points ...)  and  _table_flags(seated, points, ...)   # unchanged: real points

i.e. ``grouped`` replaces ``points`` in the standings order and the search only (and so in planning ahead,
which costs tables with the search's ``table_cost``), with ``grouping = DEFAULT_GROUPING`` for the default
policy ("new_opponents") and "points" for "standings_first", whose point is equal points together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import SwissError
from .history import PlayerRecord, Rounds, records

GROUPINGS = ("points", "wins")
DEFAULT_GROUPING = "wins"  # the default pairing policy's grouping (measured above)


def grouping_points(rounds: Rounds, active: Iterable[str], grouping: str = "points") -> dict[str, float]:
    """What the pairing groups each active player by after ``rounds``: their points (``"points"``) or
    their number of first places (``"wins"``); 0 for a player who has not played."""
    return grouped_by(records(rounds), active, grouping)


def grouped_by(recs: Mapping[str, PlayerRecord], active: Iterable[str], grouping: str) -> dict[str, float]:
    """``grouping_points`` from the players' records (``history.records``), for a caller that has them."""
    if grouping not in GROUPINGS:
        raise SwissError(f"grouping must be one of {', '.join(GROUPINGS)}, not '{grouping}'.")
    if grouping == "wins":
        return {p: float(recs[p].placements[0]) if p in recs else 0.0 for p in active}
    return {p: recs[p].points if p in recs else 0.0 for p in active}
