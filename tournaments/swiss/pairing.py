"""Pairing a Swiss round: who sits at which table, in which turn order, and why.

Objectives, in order (the issue and DECISIONS.md "Tables"):

1. no repeat opponents;
2. players with equal points together, top tables first (9.010), few and small pull-downs;
3. 3-player tables at the bottom of the standings, spread fairly (nobody gets a second one while
   others have none, where avoidable);
4. turn order random, or "balanced" (evens out first seats).

They become one cost per table, a weighted sum whose weights keep the order above: every repeat pair
costs more than any arrangement of points can save. Points cost is the sum of squared deviations from
the table's mean plus a term for the table's spread (highest minus lowest points), which prefers one
small pull-down over several. The search starts from a top-down fill in standings order that skips
players who met someone already at the table, improves it by swapping players between tables (a
steepest descent over the players who cause cost), and then spends a fixed annealing budget on points
with repeats settled (never trading a repeat for points). Events of up to ``_PLAN_LIMIT`` players plan
the remaining rounds with the current one (``planning.py``): the seating is kept only if the rest of
the event can still go with the fewest repeat pairs possible, else the cheapest round of such a plan is
played. With ``policy="standings_first"`` (an event's choice) the first two objectives trade places: points cost
outweighs any repeats, the search starts from the top-down fill and only moves players within points
groups, and a repeat costs more the higher its table, so an unavoidable one goes to the lowest table that
can take it; nothing is planned ahead. Every random choice comes from a generator seeded with the event's
seed and the round number, and every search runs a fixed number of steps (never a time limit), so the same
input always gives the same tables.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import SwissError
from .grouping import DEFAULT_GROUPING, grouped_by
from .history import PlayedTable, records, validate_rounds
from .planning import plan_rounds as plan_rounds_ahead
from .planning import spread_repeats
from .rounds import swiss_rounds as count_rounds
from .rounds import table_sizes

TURN_ORDERS = ("random", "balanced")
# "new_opponents" (the default, DECISIONS.md "Pairing policy"): no repeat opponents first, then equal points
# together. "standings_first": equal points together first (a top-down fill in standings order), then as
# few repeats as that allows, each one pushed to the lowest table that can take it.
POLICIES = ("new_opponents", "standings_first")

# Weights, in points² (the unit of the points cost). A previous 3-player table costs more than being
# seated one point out of the bottom group, so fairness wins over an exact bottom line where they clash.
_BOTTOM_WEIGHT = 3.0
_FAIRNESS_WEIGHT = 4.0
_FIRST_SEAT_WEIGHT = 10  # balanced turn order: seat 1 counts ten times any other seat
_WINDOW = 3  # tables either side searched for a swap partner
_GROUP_SAMPLE = 24  # players of equal points searched for a swap partner, wherever they sit
_EXACT_LIMIT = 48  # up to this many players every player is a swap partner
_PLAN_LIMIT = 40  # up to this many players the remaining rounds are planned together
# Tabu steps without a new best after which a plan search stops, when its floor is known to be out of
# reach and every table of a round must seat a pair that met (12 players at three tables of 4): the
# floor then counts 9 repeat pairs over four rounds, the best any budget finds is 13, and in 257 searches
# in 10 events no new best came more than 16 steps after the one before; the rest of each 1,500-step
# budget found nothing (100 keeps six times that margin). 11 players (4, 4, 3) still found new bests
# after 1,400 idle steps, and a patience of 200 cost them 0.8 repeat pairs an event, so they keep the
# whole budget.
_PATIENCE = 100
_SPREAD_WEIGHT = 4.0  # points² per point between the highest and lowest points at a table
_POINTS_STEPS = 100  # annealing steps per player spent on points once repeats are settled
# Standings first: points cost in units larger than any change of repeat cost one swap can make.
_STANDINGS_POINTS_WEIGHT = 1e6
_STANDINGS_STEPS = 60  # annealing steps per player spent on repeats within the points groups


@dataclass(frozen=True)
class Flag:
    """Why a table looks the way it does; ``text`` is what a staff page shows."""

    # pulled_down | pulled_up | repeat_opponent | three_player_table_again | five_player_table | seeded
    kind: str
    player: str
    points: float | None = None  # pulled down/up by this many points
    opponent: str | None = None  # repeat_opponent: met before
    count: int | None = None  # repeat_opponent: times met before; 3-player table: which one this is

    @property
    def text(self) -> str:
        if self.kind == "pulled_down":
            return f"{self.player} pulled down {_points(self.points)}"
        if self.kind == "pulled_up":
            return f"{self.player} pulled up {_points(self.points)}"
        if self.kind == "repeat_opponent":
            times = "once" if self.count == 1 else "twice" if self.count == 2 else f"{self.count} times"
            return f"{self.player} meets {self.opponent} again (met {times} before)"
        if self.kind == "three_player_table_again":
            return f"{self.player}: 3-player table number {self.count}"
        if self.kind == "five_player_table":
            return "one 5-player table (5 active players)"
        if self.kind == "seeded":
            return f"{self.player}: seed {self.count} by rating, this table's top seed"
        return f"{self.player}: {self.kind}"


@dataclass(frozen=True)
class PairedTable:
    number: int
    players: tuple[str, ...]  # in turn order, seat 1 first
    flags: tuple[Flag, ...] = ()


@dataclass(frozen=True)
class Pairing:
    round_number: int
    tables: tuple[PairedTable, ...]

    @property
    def repeat_pairs(self) -> int:
        return sum(1 for t in self.tables for f in t.flags if f.kind == "repeat_opponent")


def _points(value: float | None) -> str:
    return f"{_number(value)} point" + ("" if value == 1 else "s")


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class _Search:
    """The swap search over table slots. Players are ints 0..n-1 in standings order."""

    def __init__(
        self,
        pts: list[float],
        met: list[dict[int, int]],
        threes: list[int],
        sizes: list[int],
        rng,
        standings_first: bool = False,
    ):
        self.pts, self.met, self.sizes, self.rng = pts, met, sizes, rng
        n = len(pts)
        spread = (max(pts) - min(pts)) if pts else 0.0
        # Larger than any change of points cost one swap can make, so a repeat is never traded for points.
        self.repeat_weight = (
            1000.0 + 4 * spread * spread + 8 * _FAIRNESS_WEIGHT * (max(threes, default=0) + 1)
        )
        # Standings first turns the order round: points (and the bottom line) weigh more than any repeats,
        # and a repeat costs more the higher its table sits, so it goes to the lowest table that can take it.
        self.standings_first = standings_first
        self.points_weight = _STANDINGS_POINTS_WEIGHT if standings_first else 1.0
        self.top_points = max(pts, default=0.0)
        three_seats = 3 * sizes.count(3)
        bottom = pts[n - three_seats] if three_seats else None
        self.zero = [0.0] * n
        self.extra = {4: self.zero, 5: self.zero, 3: self.zero}
        if bottom is not None:
            self.extra[3] = [
                _FAIRNESS_WEIGHT * threes[i] + _BOTTOM_WEIGHT * max(0.0, pts[i] - bottom) for i in range(n)
            ]
            self.extra[4] = [_BOTTOM_WEIGHT * max(0.0, bottom - pts[i]) for i in range(n)]
        self.tables: list[list[int]] = []
        start = 0
        for size in sizes:
            self.tables.append(list(range(start, start + size)))
            start += size
        self.where = [0] * n
        for t, members in enumerate(self.tables):
            for m in members:
                self.where[m] = t
        costs = [self.table_cost(m, s) for m, s in zip(self.tables, sizes, strict=True)]
        self.cost = [c for c, _ in costs]
        self.repeats = [r for _, r in costs]
        self.total_repeats = sum(self.repeats)
        self.groups: dict[float, list[int]] = {}
        for i, p in enumerate(pts):
            self.groups.setdefault(p, []).append(i)

    def greedy_fill(self) -> None:
        """Top-down fill that skips players who met someone already at the table: each table takes the
        best-placed player left and then the next best-placed who are new to everyone seated there
        (the plain top-down fill where the history allows it); a table that cannot be completed so takes
        the players left who add the fewest repeats."""
        met, n = self.met, len(self.pts)
        left = list(range(n))
        tables: list[list[int]] = []
        for size in self.sizes:
            members = [left.pop(0)]
            i = 0
            while len(members) < size and i < len(left):
                c = left[i]
                seen = met[c]
                if not seen or all(m not in seen for m in members):
                    members.append(left.pop(i))
                else:
                    i += 1
            while len(members) < size:
                c = min(left[: 4 * size], key=lambda c: sum(met[c].get(m, 0) for m in members))
                left.remove(c)
                members.append(c)
            tables.append(members)
        self.restore(tables)

    def table_cost(self, members: list[int], size: int) -> tuple[float, int]:
        # The hottest function of the search: built-ins over the table's values, and the history looked
        # up once per pair (same cost as a loop that adds it all up).
        pts, met = self.pts, self.met
        values = [pts[a] for a in members]
        s = sum(values)
        s2 = sum([x * x for x in values])
        extra = self.extra[size]
        more = sum([extra[a] for a in members]) if extra is not self.zero else 0.0
        rep = heavy = 0
        for i, a in enumerate(members):
            seen = met[a]
            if seen:
                for b in members[i + 1 :]:
                    times = seen.get(b)
                    if times:
                        rep += times
                        # Meeting the same opponent a third or fourth time costs more than a first repeat
                        # elsewhere: repeats are spread over pairs rather than piled on one.
                        heavy += times * times
        spread = max(values) - min(values)
        points = s2 - s * s / len(members) + _SPREAD_WEIGHT * spread + more
        if self.standings_first:
            level = 1.0 + (s / len(members)) / (self.top_points + 1.0)  # 1 at the bottom, nearly 2 at the top
            return self.points_weight * points + heavy * level, rep
        return self.repeat_weight * heavy + points, rep

    def energy(self) -> float:
        return sum(self.cost)

    def swap_delta(self, p: int, q: int):
        a, b = self.where[p], self.where[q]
        ma = [q if m == p else m for m in self.tables[a]]
        mb = [p if m == q else m for m in self.tables[b]]
        ca, ra = self.table_cost(ma, self.sizes[a])
        cb, rb = self.table_cost(mb, self.sizes[b])
        return ca + cb - self.cost[a] - self.cost[b], (a, b, ma, mb, ca, cb, ra, rb)

    def neutral(self, p: int, q: int) -> bool:
        """Whether swapping p and q (at different tables) leaves every cost as it is: equal points and
        extras, and no repeat at either table before or after. Such a swap costs zero exactly (the
        tables' values are the same, seat for seat), so it needs no table costed."""
        pts, where, repeats, sizes, extra = self.pts, self.where, self.repeats, self.sizes, self.extra
        a, b = where[p], where[q]
        if pts[p] != pts[q] or repeats[a] or repeats[b]:
            return False
        if extra[sizes[a]][p] != extra[sizes[a]][q] or extra[sizes[b]][p] != extra[sizes[b]][q]:
            return False
        met_p, met_q = self.met[p], self.met[q]
        return not any(m in met_q for m in self.tables[a] if m != p) and not any(
            m in met_p for m in self.tables[b] if m != q
        )

    def exchange(self, p: int, q: int) -> None:
        """Swap p and q when ``neutral(p, q)``: costs and repeat counts stay as they are."""
        a, b = self.where[p], self.where[q]
        table_a, table_b = self.tables[a], self.tables[b]
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        self.where[p], self.where[q] = b, a

    def apply(self, move) -> None:
        a, b, ma, mb, ca, cb, ra, rb = move
        self.tables[a], self.tables[b] = ma, mb
        for m in ma:
            self.where[m] = a
        for m in mb:
            self.where[m] = b
        self.total_repeats += ra + rb - self.repeats[a] - self.repeats[b]
        self.cost[a], self.cost[b], self.repeats[a], self.repeats[b] = ca, cb, ra, rb

    def partners(self, p: int, everyone: bool) -> list[int]:
        t = self.where[p]
        if everyone:
            return [q for q in range(len(self.pts)) if self.where[q] != t]
        out: list[int] = []
        for u in range(max(0, t - _WINDOW), min(len(self.tables), t + _WINDOW + 1)):
            if u != t:
                out.extend(self.tables[u])
        group = self.groups[self.pts[p]]
        if len(group) > _GROUP_SAMPLE:
            group = self.rng.sample(group, _GROUP_SAMPLE)
        out.extend(q for q in group if self.where[q] != t)
        return out

    def partner(self, p: int) -> int:
        """One swap partner drawn like a member of ``partners(p, False)`` without building the list: a
        player of the tables nearby, or of p's points group (a member of a sample of it is a member of
        the group, drawn evenly; one at p's own table is no swap, which the caller skips)."""
        rng, tables, t = self.rng, self.tables, self.where[p]
        low, high = max(0, t - _WINDOW), min(len(tables), t + _WINDOW + 1)
        nearby = sum(self.sizes[low:high]) - self.sizes[t]
        group = self.groups[self.pts[p]]
        pick = rng.randrange(nearby + min(len(group), _GROUP_SAMPLE))
        if pick >= nearby:
            return group[rng.randrange(len(group))]
        for u in range(low, high):
            if u != t:
                if pick < self.sizes[u]:
                    return tables[u][pick]
                pick -= self.sizes[u]
        return p

    def troubled(self) -> list[int]:
        """Players whose table has repeats, or who pay a bottom-line or fairness cost."""
        out = []
        for t, members in enumerate(self.tables):
            extra = self.extra[self.sizes[t]]
            for m in members:
                if self.repeats[t] or extra[m] > 0:
                    out.append(m)
        return out

    def descend(self, players: list[int], everyone: bool, passes: int = 6) -> None:
        """Steepest descent: each player in turn takes the best improving swap."""
        pts, where, repeats, sizes, extra = self.pts, self.where, self.repeats, self.sizes, self.extra
        for _ in range(passes):
            improved = False
            for p in players:
                best, best_move = -1e-9, None
                a = where[p]
                for q in self.partners(p, everyone):
                    b = where[q]
                    if (
                        pts[q] == pts[p]
                        and not repeats[a]
                        and not repeats[b]
                        and extra[sizes[a]][p] == extra[sizes[a]][q]
                        and extra[sizes[b]][p] == extra[sizes[b]][q]
                    ):
                        # Equal points, equal extras, no repeats at either table: the swap can only
                        # add repeats, never improve (most of a points group's sample, once settled).
                        continue
                    delta, move = self.swap_delta(p, q)
                    if delta < best:
                        best, best_move = delta, move
                if best_move is not None:
                    self.apply(best_move)
                    improved = True
            if not improved:
                return

    def anneal(self, steps: int, hot: float, cold: float, everyone: bool) -> None:
        """Simulated annealing on swaps, mostly moving players out of tables with repeats; keeps the best."""
        rng, n, pts = self.rng, len(self.pts), self.pts
        best_energy, best_tables = self.energy(), [list(m) for m in self.tables]
        energy = best_energy
        for step in range(steps):
            temperature = hot * (cold / hot) ** (step / steps)
            # Settled repeats (the usual case) leave no table to pick from: skip the scan.
            bad = [t for t, r in enumerate(self.repeats) if r] if self.total_repeats else ()
            if bad and rng.random() < 0.7:
                p = rng.choice(self.tables[rng.choice(bad)])
            else:
                p = rng.randrange(n)
            if everyone or rng.random() < 0.3:
                q = rng.randrange(n)
            else:
                q = self.partner(p)
            if self.where[q] == self.where[p]:
                continue
            if pts[p] == pts[q] and self.neutral(p, q):
                # A zero-cost swap is always taken, and the energy stays where it is (a third of the
                # steps once repeats are settled).
                self.exchange(p, q)
                continue
            delta, move = self.swap_delta(p, q)
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                self.apply(move)
                energy += delta
                if energy < best_energy - 1e-9:
                    best_energy, best_tables = energy, [list(m) for m in self.tables]
        self.restore(best_tables)

    def restore(self, tables: list[list[int]]) -> None:
        self.tables = tables
        for t, members in enumerate(tables):
            for m in members:
                self.where[m] = t
            self.cost[t], self.repeats[t] = self.table_cost(members, self.sizes[t])
        self.total_repeats = sum(self.repeats)


def _standings_order(players: list[str], points: dict[str, float], rng: random.Random) -> list[str]:
    draw = {p: rng.random() for p in players}
    return sorted(players, key=lambda p: (-points.get(p, 0.0), draw[p]))


def _turn_order(members: list[str], seats: dict[str, list[int]], mode: str, rng: random.Random) -> list[str]:
    order = list(members)
    rng.shuffle(order)
    if mode == "random":
        return order
    weights = [_FIRST_SEAT_WEIGHT] + [1] * (len(order) - 1)
    best, best_cost = order, None
    for perm in itertools.permutations(order):
        cost = sum(w * seats.get(p, [0] * 5)[k] for k, (w, p) in enumerate(zip(weights, perm, strict=True)))
        if best_cost is None or cost < best_cost:
            best, best_cost = list(perm), cost
    return best


def snake_tables(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Deal ``order`` over tables of ``sizes`` in snake order: 1, 2, ..., n, n, ..., 1, 1, 2, ... (a full
    table is skipped), so the first n players sit at n different tables and each table's strength evens out."""
    if len(order) != sum(sizes):
        raise SwissError(f"{len(order)} players cannot fill tables of {sum(sizes)} seats.")
    tables: list[list[str]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    players = iter(order)
    for sweep in itertools.count():
        tables_this_way = forward if sweep % 2 == 0 else forward[::-1]
        for t in tables_this_way:
            if len(tables[t]) < sizes[t]:
                player = next(players, None)
                if player is None:
                    return tables
                tables[t].append(player)
        if all(len(table) == size for table, size in zip(tables, sizes, strict=True)):
            return tables
    raise AssertionError("unreachable")


def _seeded_first_round(
    active: list[str], seeding: Sequence[str], sizes: list[int], number: int, turn_order: str, rng
) -> Pairing:
    """Round 1 seeded: the listed active players in their order, then the others shuffled, dealt snake-wise."""
    if len(set(seeding)) != len(seeding):
        raise SwissError("a player is listed twice in the seeding.")
    present = set(active)
    seeded = [p for p in seeding if p in present]
    listed = set(seeded)
    rest = [p for p in active if p not in listed]
    rng.shuffle(rest)
    position = {p: i for i, p in enumerate(seeded, start=1)}
    paired = []
    for n, members in enumerate(snake_tables(seeded + rest, sizes), start=1):
        top = min((p for p in members if p in position), key=position.__getitem__, default=None)
        flags = [Flag("seeded", top, count=position[top])] if top is not None else []
        if len(members) == 5:
            flags.append(Flag("five_player_table", members[0]))
        paired.append(PairedTable(n, tuple(_turn_order(members, {}, turn_order, rng)), tuple(flags)))
    return Pairing(number, tuple(paired))


def table_flags(players: Sequence[str], rounds: Sequence[Sequence[PlayedTable]] = ()) -> tuple[Flag, ...]:
    """Why a table of these players (in turn order) looks the way it does after the finished ``rounds``:
    pulled down or up, repeat opponents, a second 3-player table, a 5-player table. The engine flags the
    tables it draws with this; a seating changed by hand (a swap) is flagged by it again, the same way."""
    recs = records(rounds)
    points = {p: recs[p].points if p in recs else 0.0 for p in players}
    met = {p: recs[p].opponents for p in players if p in recs}
    threes = {p: recs[p].three_player_tables for p in players if p in recs}
    return tuple(_table_flags(list(players), points, met, threes))


def _table_flags(
    members: list[str], points: dict[str, float], met: dict[str, dict[str, int]], threes: dict[str, int]
) -> list[Flag]:
    flags: list[Flag] = []
    values = [points.get(p, 0.0) for p in members]
    if len(set(values)) > 1:
        # The table's level is the points most of its players have (the lower one on a tie): players
        # above it were pulled down to it, players below it pulled up.
        level = min(set(values), key=lambda v: (-values.count(v), v))
        for p, v in zip(members, values, strict=True):
            if v > level:
                flags.append(Flag("pulled_down", p, points=v - level))
            elif v < level:
                flags.append(Flag("pulled_up", p, points=level - v))
    for i, a in enumerate(members):
        for b in members[i + 1 :]:
            times = met.get(a, {}).get(b, 0)
            if times:
                flags.append(Flag("repeat_opponent", a, opponent=b, count=times))
    if len(members) == 3:
        for p in members:
            if threes.get(p, 0):
                flags.append(Flag("three_player_table_again", p, count=threes[p] + 1))
    if len(members) == 5:
        flags.append(Flag("five_player_table", members[0]))
    return flags


def pair_round(
    players: Sequence[str],
    rounds: Sequence[Sequence[PlayedTable]] = (),
    *,
    seed: int | str,
    round_number: int | None = None,
    turn_order: str = "random",
    allow_five: bool = False,
    swiss_rounds: int | None = None,
    policy: str = "new_opponents",
    seeding: Sequence[str] | None = None,
) -> Pairing:
    """Tables for the next Swiss round.

    ``players`` are the active players (anyone absent has dropped and is never seated); ``rounds`` the
    finished Swiss rounds, oldest first. ``swiss_rounds`` is the event's number of Swiss rounds (9.070
    for the players who entered, unless given): small events plan the remaining rounds so that the
    last ones still have new opponents to meet. Tables come back in table-number order, top of the standings
    first, 4-player tables above 3-player tables; each lists its players in turn order.

    ``seeding`` (round 1 only, ignored after it): players strongest first, e.g. by rating. They are dealt over
    the tables in snake order (tables 1, 2, ..., n, then n, ..., 1, ...), so the n strongest sit at n
    different tables; active players not listed (no rating) are shuffled and dealt after them.
    """
    active = sorted(set(players))
    if len(active) != len(players):
        raise SwissError("a player is listed twice among the active players.")
    if any(not isinstance(p, str) or not p for p in active):
        raise SwissError("players are identified by non-empty strings.")
    if turn_order not in TURN_ORDERS:
        raise SwissError(f"turn order must be one of {', '.join(TURN_ORDERS)}, not '{turn_order}'.")
    if policy not in POLICIES:
        raise SwissError(f"pairing policy must be one of {', '.join(POLICIES)}, not '{policy}'.")
    validate_rounds(rounds)
    number = len(rounds) + 1 if round_number is None else round_number
    sizes = table_sizes(len(active), allow_five=allow_five)
    rng = random.Random(f"dcdb-swiss:{seed}:{number}")
    if seeding is not None and not rounds:
        return _seeded_first_round(active, seeding, sizes, number, turn_order, rng)
    recs = records(rounds)
    points = {p: recs[p].points if p in recs else 0.0 for p in active}
    standings_first = policy == "standings_first"
    # What "equal points together" groups by: wins for new opponents first (issue 17, measured in
    # grouping.py), points for standings first. Tables are still ordered and flagged by real points.
    grouped = grouped_by(recs, active, "points" if standings_first else DEFAULT_GROUPING)
    order = _standings_order(active, grouped, rng)
    index = {p: i for i, p in enumerate(order)}
    met = [
        {index[o]: c for o, c in recs[p].opponents.items() if o in index} if p in recs else {} for p in order
    ]
    threes = [recs[p].three_player_tables if p in recs else 0 for p in order]

    search = _Search([grouped[p] for p in order], met, threes, sizes, rng, standings_first=standings_first)
    everyone = len(order) <= _EXACT_LIMIT
    if standings_first:
        # From the top-down fill in standings order (the search's first tables), swaps that keep the points
        # groups as they are and move repeats apart or down. No look-ahead: the points groups decide.
        n = len(order)
        if rounds:
            search.descend(list(range(n)), everyone)
            search.anneal(_STANDINGS_STEPS * min(n, 64), hot=2.0, cold=0.05, everyone=everyone)
            search.descend(list(range(n)), everyone)
    else:
        if rounds:
            search.greedy_fill()
        search.descend(search.troubled(), everyone)
        if rounds and _POINTS_STEPS and not search.total_repeats:
            # Repeats settled: spend a fixed budget on points (and the bottom line), never adding a repeat.
            n = len(order)
            search.anneal(_POINTS_STEPS * min(n, 64), hot=2.0, cold=0.05, everyone=False)
            search.descend(list(range(n)) if n <= 128 else search.troubled(), everyone)
        if swiss_rounds is None:
            entrants = len(set(recs) | set(active))
            swiss_rounds = count_rounds(entrants, sanctioned=False).rounds if entrants >= 6 else number
        plan_rounds = max(1, swiss_rounds - number + 1)
        if len(order) <= _PLAN_LIMIT and (plan_rounds > 1 or search.total_repeats):
            n = len(order)
            history = [[0] * n for _ in range(n)]
            for a in range(n):
                for b, times in met[a].items():
                    history[a][b] = times
            # Fewest excess meetings possible: those already in the history, plus every planned meeting
            # beyond the pairs that have not met yet.
            history_excess = sum(sum(m.values()) - len(m) for m in met) // 2
            unmet = n * (n - 1) // 2 - sum(len(m) for m in met) // 2
            planned = sum(size * (size - 1) // 2 for size in sizes) * plan_rounds
            by_pairs = max(0, planned - unmet)
            # Fewer tables than seats at a table force repeats in every round, more than the pairs count
            # says: each round meets the tables of the one before it (the last round played, then the
            # planned round before it), and no table can split them all up.
            by_tables = 0
            if rounds:
                last = [sum(1 for p in t.players if p in index) for t in rounds[-1]]
                by_tables = spread_repeats(last, len(sizes))
            forced = spread_repeats(sizes, len(sizes))
            by_tables += (plan_rounds - 1) * forced
            every_table = forced >= len(sizes)
            floor = history_excess + max(by_pairs, by_tables)
            tables, _excess = plan_rounds_ahead(
                history,
                sizes,
                [list(t) for t in search.tables],
                plan_rounds,
                floor,
                rng,
                lambda members, size: search.table_cost(members, size)[0],
                patience=_PATIENCE if by_tables > by_pairs and every_table else None,
            )
            search.restore(tables)
        elif search.total_repeats:
            n = len(order)
            if everyone:
                # Few players, tight history (every pair may be needed): explore widely, then cool to points.
                search.anneal(4000 + 400 * n, hot=search.repeat_weight / 2, cold=0.05, everyone=True)
                search.descend(list(range(n)), everyone=True)
            else:
                search.anneal(40 * n, hot=4.0, cold=0.05, everyone=False)
                search.descend(search.troubled(), everyone=False)

    by_name = {p: recs[p].opponents for p in active if p in recs}
    three_counts = {p: recs[p].three_player_tables for p in active if p in recs}
    seat_counts = {p: recs[p].seats for p in active if p in recs}
    tables = [[order[i] for i in members] for members in search.tables]
    tables.sort(
        key=lambda ms: (
            len(ms) < 4,
            -sum(points[p] for p in ms) / len(ms),
            -max(points[p] for p in ms),
            min(index[p] for p in ms),
        )
    )
    paired = []
    for number_, members in enumerate(tables, start=1):
        seated = _turn_order(members, seat_counts, turn_order, rng)
        paired.append(
            PairedTable(number_, tuple(seated), tuple(_table_flags(seated, points, by_name, three_counts)))
        )
    return Pairing(number, tuple(paired))
