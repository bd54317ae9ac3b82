"""Planning the remaining rounds of a small event so that late rounds still have new opponents.

Pairing round by round can leave a last round in which no seating avoids repeats (20 players, 5 rounds:
each player meets 15 of the 19 others, so the last round must seat everyone among the 4 not yet met).
So, for small events, the current round is only accepted together with a *plan* for every remaining
round: a witness that the rest of the event can go with the fewest repeat pairs possible. The plan is
thrown away and made again next round, from the rounds actually played.

Finding a plan is the social golfer problem with some weeks given. ``_Golfer`` is a conflict-directed
tabu search (after Dotú and Van Hentenryck): pick a player who meets someone too often, swap them
with the player in another table of the same round that removes most excess meetings, forbid undoing
that swap for a few steps unless it reaches a new best (aspiration), shake the plan on long plateaus,
and start again from a fresh greedy plan a fixed number of times. Every random choice comes from the
caller's seeded generator and every loop has a fixed step budget, so the result is deterministic; a
search whose floor is known to be out of reach may also stop after a number of steps without a new best
(``patience``, counted in steps too).
"""

from __future__ import annotations

import random
from collections.abc import Callable

Tables = list[list[int]]

_WIDE = 12  # conflicting players whose swaps one tabu step compares, at most


class _Golfer:
    """Rounds of tables over players 0..n-1; ``meet`` counts meetings in the history and all rounds."""

    def __init__(self, history: list[list[int]], sizes: list[int], rng: random.Random) -> None:
        self.n, self.sizes, self.rng = len(history), sizes, rng
        self.history = history
        self.rounds: list[Tables] = []
        self.where: list[list[int]] = []
        self.meet = [list(row) for row in history]
        self.excess = self._excess()

    def _excess(self) -> int:
        n, meet = self.n, self.meet
        return sum(max(0, meet[a][b] - 1) for a in range(n) for b in range(a + 1, n))

    # -- building --------------------------------------------------------------------------------

    def add_round(self, tables: Tables) -> None:
        tables = [list(t) for t in tables]
        where = [0] * self.n
        meet = self.meet
        for t, members in enumerate(tables):
            for i, a in enumerate(members):
                where[a] = t
                for b in members[i + 1 :]:
                    meet[a][b] += 1
                    meet[b][a] += 1
        self.rounds.append(tables)
        self.where.append(where)
        self.excess = self._excess()

    def greedy_round(self) -> Tables:
        """A round seated player by player, each at the open seat where they add the fewest meetings."""
        rng, meet, sizes = self.rng, self.meet, self.sizes
        order = list(range(self.n))
        rng.shuffle(order)
        # Most constrained players first: those who already met the most others.
        order.sort(key=lambda p: -sum(1 for x in meet[p] if x))
        tables: Tables = [[] for _ in sizes]
        for p in order:
            best, best_cost = None, None
            for t, members in enumerate(tables):
                if len(members) >= sizes[t]:
                    continue
                cost = sum(meet[p][m] for m in members) * 4 - len(members) + rng.random()
                if best_cost is None or cost < best_cost:
                    best, best_cost = t, cost
            tables[best].append(p)
        return tables

    def snapshot(self) -> list[Tables]:
        return [[list(t) for t in tables] for tables in self.rounds]

    def restore(self, rounds: list[Tables]) -> None:
        self.meet = [list(row) for row in self.history]
        self.rounds, self.where = [], []
        for tables in rounds:
            self.add_round(tables)

    # -- moves -----------------------------------------------------------------------------------

    def change(self, k: int, p: int, q: int) -> int:
        """Change of excess meetings if p and q (different tables) swap in round k."""
        meet, where, tables = self.meet, self.where[k], self.rounds[k]
        mp, mq = meet[p], meet[q]
        out = 0
        for m in tables[where[p]]:
            if m != p:
                out += (mq[m] >= 1) - (mp[m] >= 2)
        for m in tables[where[q]]:
            if m != q:
                out += (mp[m] >= 1) - (mq[m] >= 2)
        return out

    def swap(self, k: int, p: int, q: int, change: int | None = None) -> None:
        if change is None:
            change = self.change(k, p, q)
        meet, where, tables = self.meet, self.where[k], self.rounds[k]
        a, b = where[p], where[q]
        table_a, table_b = tables[a], tables[b]
        mp, mq = meet[p], meet[q]
        for m in table_a:
            if m != p:
                mp[m] -= 1
                meet[m][p] -= 1
                mq[m] += 1
                meet[m][q] += 1
        for m in table_b:
            if m != q:
                mq[m] -= 1
                meet[m][q] -= 1
                mp[m] += 1
                meet[m][p] += 1
        table_a[table_a.index(p)] = q
        table_b[table_b.index(q)] = p
        where[p], where[q] = b, a
        self.excess += change

    def conflicts(self, first: int) -> list[tuple[int, int]]:
        out = []
        meet = self.meet
        for k in range(first, len(self.rounds)):
            for members in self.rounds[k]:
                for p in members:
                    mp = meet[p]
                    for m in members:
                        if m != p and mp[m] >= 2:
                            out.append((k, p))
                            break
        return out

    # -- search ----------------------------------------------------------------------------------

    def tabu(
        self, steps: int, floor: int, first: int = 0, wide: bool = True, patience: int | None = None
    ) -> int:
        """Conflict-directed tabu search on rounds ``first``.. until the excess reaches ``floor``;
        leaves the best plan found in place and returns the steps used. With ``patience``, it also stops
        after that many steps without a new best (for a floor known to be loose)."""
        rng, n = self.rng, self.n
        tabu: dict[tuple[int, int, int], int] = {}
        best_excess, best = self.excess, self.snapshot()
        stale = 0
        step = gain = 0
        while step < steps and self.excess > floor:
            if patience is not None and step - gain >= patience:
                break
            step += 1
            conflicts = self.conflicts(first)
            if not conflicts:
                break
            if wide:
                # Every conflicting player (a sample of them when there are many) with every partner.
                candidates = conflicts if len(conflicts) <= _WIDE else rng.sample(conflicts, _WIDE)
            else:
                candidates = [conflicts[rng.randrange(len(conflicts))]]
            choice, choice_change, ties = None, None, 0
            meet = self.meet
            for k, p in candidates:
                where, tables = self.where[k], self.rounds[k]
                wp = where[p]
                # self.change(k, p, q) for every q, with what depends on p alone counted once: the
                # excess p takes away from its table and the meetings p would add at each other one.
                mp = meet[p]
                mates = [m for m in tables[wp] if m != p]
                leave = sum(1 for m in mates if mp[m] >= 2)
                join = [0] * len(tables)
                for m, times in enumerate(mp):
                    if times:
                        join[where[m]] += 1
                for q in range(n):
                    b = where[q]
                    if b == wp:
                        continue
                    mq = meet[q]
                    change = join[b] - leave - (mp[q] >= 1)
                    for m in mates:
                        if mq[m]:
                            change += 1
                    for m in tables[b]:
                        if mq[m] >= 2 and m != q:
                            change -= 1
                    if choice_change is not None and change > choice_change:
                        continue
                    key = (k, p, q) if p < q else (k, q, p)
                    if tabu.get(key, 0) > step and self.excess + change >= best_excess:
                        continue
                    if choice_change is None or change < choice_change:
                        choice, choice_change, ties = (k, p, q), change, 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice = (k, p, q)
            if choice is None:
                continue
            k, p, q = choice
            self.swap(k, p, q, choice_change)
            tabu[(k, p, q) if p < q else (k, q, p)] = step + 3 + rng.randrange(10)
            if self.excess < best_excess:
                best_excess, best, stale, gain = self.excess, self.snapshot(), 0, step
            else:
                stale += 1
                if stale > 60 + 4 * n:  # a long plateau: shake the plan
                    stale = 0
                    for _ in range(2 + n // 10):
                        k = rng.randrange(first, len(self.rounds))
                        p, q = rng.sample(range(n), 2)
                        if self.where[k][p] != self.where[k][q]:
                            self.swap(k, p, q)
        if self.excess > best_excess:
            self.restore(best)
        return step


def spread_repeats(groups: list[int], tables: int) -> int:
    """The fewest pairs of players from the same group when players from groups of these sizes sit at
    ``tables`` tables: each group spread as evenly as the tables allow (pigeonhole). With the tables of a
    round already played as the groups, every such pair meets again, so this bounds the repeat pairs of
    the next round from below, whatever the pairs count says (12 players at three tables of 4: 3)."""
    total = 0
    for size in groups:
        each, more = divmod(size, tables)
        total += more * (each + 1) * each // 2 + (tables - more) * each * (each - 1) // 2
    return total


def plan_rounds(
    history: list[list[int]],
    sizes: list[int],
    current: Tables,
    rounds: int,
    floor: int,
    rng: random.Random,
    table_cost: Callable[[list[int], int], float],
    *,
    attempts: int = 3,
    steps: int = 1500,
    repair_steps: int = 80,
    repairs: int = 12,
    patience: int | None = None,
) -> tuple[Tables, int]:
    """The current round's tables and the excess meetings of the best plan found.

    ``history[a][b]`` counts the times a and b met; ``current`` is the best seating for points alone;
    ``rounds`` counts the current round and every later one; ``floor`` is the fewest excess meetings
    possible; ``table_cost(members, size)`` scores one table of the current round (points, bottom
    line, fairness, and repeats against the history). First the plan is asked to complete ``current`` as it is; only
    if it cannot, whole plans are searched with the current round free, the planned round that costs
    least is taken as the current round, and it is improved by swaps whose damage to the plan a short
    tabu search can mend. ``patience`` (for a floor known to be out of reach) ends every tabu search
    after that many steps without a new best.
    """

    def round_cost(tables: Tables) -> float:
        return sum(table_cost(t, sizes[i]) for i, t in enumerate(tables))

    best: tuple[int, float, Tables] | None = None
    # 1. Keep the best seating for points if the rest of the event can follow it.
    for _ in range(1):
        golfer = _Golfer(history, sizes, rng)
        golfer.add_round(current)
        for _ in range(rounds - 1):
            golfer.add_round(golfer.greedy_round())
        golfer.tabu(steps // 2, floor, first=1, patience=patience)
        if golfer.excess <= floor:
            return [list(t) for t in current], golfer.excess
        if best is None or golfer.excess < best[0]:
            best = (golfer.excess, round_cost(current), [list(t) for t in current])
    # 2. Plans with the current round free: play their cheapest round now, then improve it. When a
    # second attempt ends no better than the first, the floor is taken to be out of reach (a drop, or
    # a bound that counts pairs only) and the best plan found so far is the target.
    chosen: _Golfer | None = None
    for attempt in range(attempts):
        golfer = _Golfer(history, sizes, rng)
        golfer.add_round(current)
        for _ in range(rounds - 1):
            golfer.add_round(golfer.greedy_round())
        golfer.tabu(steps, floor, patience=patience)
        if chosen is None or golfer.excess < chosen.excess:
            chosen = golfer
        elif attempt:
            break
        if golfer.excess <= floor:
            break
    assert chosen is not None and best is not None
    golfer = chosen
    k = min(range(len(golfer.rounds)), key=lambda k: round_cost(golfer.rounds[k]))
    if k:
        golfer.rounds[0], golfer.rounds[k] = golfer.rounds[k], golfer.rounds[0]
        golfer.where[0], golfer.where[k] = golfer.where[k], golfer.where[0]
    if golfer.excess <= best[0]:
        _improve(golfer, golfer.excess, table_cost, repair_steps, repairs, patience)
        cost = round_cost(golfer.rounds[0])
        if (golfer.excess, cost) < best[:2]:
            best = (golfer.excess, cost, [list(t) for t in golfer.rounds[0]])
    return best[2], best[0]


def _improve(
    golfer: _Golfer,
    floor: int,
    table_cost: Callable[[list[int], int], float],
    steps: int,
    tries: int,
    patience: int | None = None,
) -> None:
    """Swaps in the current round that lower its cost: kept if the plan still has no more than
    ``floor`` excess meetings, mending the later rounds with a short tabu search where needed."""
    n, sizes = golfer.n, golfer.sizes
    costs = [table_cost(t, sizes[i]) for i, t in enumerate(golfer.rounds[0])]
    for _ in range(6):
        improved = False
        for p in range(n):
            for q in range(p + 1, n):
                where, tables = golfer.where[0], golfer.rounds[0]
                a, b = where[p], where[q]
                if a == b:
                    continue
                ca = table_cost([q if m == p else m for m in tables[a]], sizes[a])
                cb = table_cost([p if m == q else m for m in tables[b]], sizes[b])
                if ca + cb >= costs[a] + costs[b] - 1e-9:
                    continue
                change = golfer.change(0, p, q)
                if golfer.excess + change <= floor:
                    golfer.swap(0, p, q, change)
                    costs[a], costs[b], improved = ca, cb, True
                    continue
                if tries <= 0 or len(golfer.rounds) < 2:
                    continue
                tries -= 1
                saved = golfer.snapshot()
                golfer.swap(0, p, q, change)
                golfer.tabu(steps, floor, first=1, patience=patience)
                if golfer.excess <= floor:
                    costs[a], costs[b], improved = ca, cb, True
                else:
                    golfer.restore(saved)
        if not improved:
            return
