"""Simulation benchmark for the Swiss engine (issue 3).

Plays whole events with seeded, plausible results (skill plus noise decides each table's placements)
and prints per N: repeat-opponent pairs per event and the
lower bound LB = max(0, M - N(N-1)/2), events at LB, players who met someone twice, within-table points
spread (engine, and the plain top-down baseline on the same event states), 3-player tables per player
(max), first seats per player (max), and pairing time per round (median, max). The targets are
checked on events in which all N players play every round, the events LB describes; the same events
are then played again with about 1% of players dropping after each round, and their repeats reported.

Exits 1 when a target is missed: repeat pairs at LB in 95% of events at N = 13..128, and the median time
to pair a round (rounds 2 onwards) under 100 ms at 12 and 128 players, under 1 s at 1,024 and under 5 s
at 4,096 (not in the default run: two such events take minutes; ask for it with --sizes 4096). The points
spread against the top-down fill is printed, not a target any more (DECISIONS.md "Pairing policy";
bench_fairness.py measures what players care about).

    .venv/bin/python bench/bench_swiss.py            # N = 8..128, 256, 512, 1024
    .venv/bin/python bench/bench_swiss.py --quick    # a subset
    .venv/bin/python bench/bench_swiss.py --sizes 8-40 --events 20
    .venv/bin/python bench/bench_swiss.py --sizes 52,68 --events 10 --by-round   # where the spread gap lies
    .venv/bin/python bench/bench_swiss.py --sizes 4096 --events 1                  # the 4,096-player target
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.swiss import PlayedTable, pair_round, swiss_rounds, table_sizes  # noqa: E402
from tournaments.swiss.standings import seeded_draw  # noqa: E402

POINTS = {4: (5, 3, 2, 2), 3: (5, 3, 2)}


def baseline(active: list[str], totals: dict[str, float], seed: int) -> list[list[str]]:
    """Top-down fill in standings order, no repeat avoidance."""
    order = sorted(active, key=lambda p: (-totals.get(p, 0), seeded_draw(seed, p)))
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(order[start : start + size])
        start += size
    return tables


def spread(tables: list[list[str]], totals: dict[str, float]) -> list[float]:
    return [max(totals.get(p, 0) for p in t) - min(totals.get(p, 0) for p in t) for t in tables]


FLOOR_LIMIT = 24  # N up to which the repeat-free minimum spread is computed (exact search)
FLOOR_NODES = 300_000  # search nodes per round; a round that needs more is left out (reported)


def least_spread(values: list[float], counts: dict[int, int]) -> float:
    """The least total spread of any split of ``values`` (sorted high to low) into tables of the sizes
    counted, repeats ignored. Some best split is contiguous (uncrossing two overlapping tables, the top
    players to one and the rest to the other, never adds spread), so a walk down the list choosing each
    table's size finds it."""
    sizes = sorted(k for k, v in counts.items() if v)
    memo: dict[tuple, float] = {}

    def walk(i: int, left: tuple[int, ...]) -> float:
        if i == len(values):
            return 0.0
        key = (i, left)
        if key not in memo:
            best = float("inf")
            for j, size in enumerate(sizes):
                if left[j]:
                    rest = left[:j] + (left[j] - 1,) + left[j + 1 :]
                    best = min(best, values[i] - values[i + size - 1] + walk(i + size, rest))
            memo[key] = best
        return memo[key]

    return walk(0, tuple(counts[k] for k in sizes))


def repeat_free_floor(
    active: list[str],
    totals: dict[str, float],
    met: dict[str, set[str]],
    sizes: list[int],
    known: float = float("inf"),
) -> float | None:
    """The least total within-table spread any seating of this event state can have without a repeat
    pair (tables of the sizes given, in any order), by branch and bound; ``known`` is the spread of a
    repeat-free seating already found (the engine's), the first bound. None if there is no repeat-free
    seating or the search needs more than FLOOR_NODES nodes. It bounds what any repeat-free engine can
    reach in this round, given the same history."""
    order = sorted(active, key=lambda p: -totals.get(p, 0))
    pts = {p: totals.get(p, 0) for p in order}
    best = [known]
    nodes = [0]

    def place(left: list[str], counts: dict[int, int], acc: float) -> None:
        if not left:
            best[0] = min(best[0], acc)
            return
        if acc + least_spread([pts[p] for p in left], counts) >= best[0]:
            return
        head, rest = left[0], left[1:]
        top = pts[head]

        def grow(start: int, members: list[str], size: int) -> None:
            nodes[0] += 1
            if nodes[0] > FLOOR_NODES:
                return
            if len(members) == size:
                counts[size] -= 1
                taken = set(members)
                place([p for p in rest if p not in taken], counts, acc + top - pts[members[-1]])
                counts[size] += 1
                return
            for i in range(start, len(rest)):
                c = rest[i]
                if acc + top - pts[c] >= best[0]:
                    break  # sorted: every later candidate is lower still
                seen = met.get(c, ())
                if any(m in seen for m in members):
                    continue
                grow(i + 1, [*members, c], size)

        for size in sorted(k for k, v in counts.items() if v):
            grow(0, [head], size)

    place(order, Counter(sizes), 0.0)
    if nodes[0] > FLOOR_NODES or best[0] == float("inf"):
        return None
    return best[0]


def play_event(n: int, seed: int, drop_rate: float = 0.0, floors_wanted: bool = True) -> dict:
    rng = random.Random(f"bench:{n}:{seed}")
    players = [f"p{i:04d}" for i in range(n)]
    skill = {p: rng.gauss(0, 1) for p in players}
    active, history = list(players), []
    totals: Counter = Counter()
    times, engine_spread, base_spread, floors = [], [], [], []
    by_round: list[tuple[float, float]] = []  # mean spread per table in each round: engine, baseline
    met: dict[str, set[str]] = {p: set() for p in players}
    threes: Counter = Counter()
    firsts: Counter = Counter()
    pairs: Counter = Counter()
    dropped = 0
    rounds = swiss_rounds(n).rounds
    for round_ in range(1, rounds + 1):
        started = time.perf_counter()
        pairing = pair_round(active, history, seed=seed)
        times.append(time.perf_counter() - started)
        tables = [list(t.players) for t in pairing.tables]
        engine_round = spread(tables, totals)
        base_round = spread(baseline(active, totals, seed), totals)
        engine_spread += engine_round
        base_spread += base_round
        by_round.append((statistics.mean(engine_round), statistics.mean(base_round)))
        if floors_wanted and 13 <= n <= FLOOR_LIMIT:
            engine_total = sum(spread(tables, totals))
            repeat_free = all(not (met[a] & set(t)) for t in tables for a in t)
            floor = repeat_free_floor(
                active, totals, met, table_sizes(len(active)), engine_total if repeat_free else float("inf")
            )
            floors.append((floor, sum(spread(tables, totals)), len(tables)))
        played = []
        for members in tables:
            firsts[members[0]] += 1
            if len(members) == 3:
                for p in members:
                    threes[p] += 1
            for i, a in enumerate(members):
                met[a].update(m for m in members if m != a)
                for b in members[i + 1 :]:
                    pairs[frozenset((a, b))] += 1
            order = sorted(members, key=lambda p: -(skill[p] + rng.gauss(0, 1.2)))
            points = {p: POINTS[len(members)][i] for i, p in enumerate(order)}
            totals.update(points)
            played.append(PlayedTable(tuple(members), points))
        history.append(played)
        for p in list(active):
            if len(active) > 9 and rng.random() < drop_rate:
                active.remove(p)
                dropped += round_ < rounds  # a drop after the last round changes nothing
    meetings = sum(pairs.values())
    repeats = meetings - len(pairs)
    twice = {p for pair, k in pairs.items() if k > 1 for p in pair}
    return {
        "repeats": repeats,
        "lb": max(0, meetings - n * (n - 1) // 2),
        "twice": len(twice),
        "engine_spread": engine_spread,
        "base_spread": base_spread,
        "threes": max(threes.values(), default=0),
        "firsts": max(firsts.values(), default=0),
        "times": times,
        "dropped": dropped,
        "floors": floors,
        "by_round": by_round,
    }


def baseline_repeats(n: int, seed: int) -> int:
    """Repeat pairs of a whole event paired by the baseline alone (same result model)."""
    rng = random.Random(f"bench:{n}:{seed}")
    players = [f"p{i:04d}" for i in range(n)]
    skill = {p: rng.gauss(0, 1) for p in players}
    totals: Counter = Counter()
    pairs: Counter = Counter()
    for _ in range(swiss_rounds(n).rounds):
        for members in baseline(players, totals, seed):
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    pairs[frozenset((a, b))] += 1
            order = sorted(members, key=lambda p: -(skill[p] + rng.gauss(0, 1.2)))
            totals.update({p: POINTS[len(members)][i] for i, p in enumerate(order)})
    return sum(pairs.values()) - len(pairs)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="a subset of N and fewer events")
    parser.add_argument(
        "--events", type=int, default=None, help="events per N up to 128 (above it at most 3, or 2 above 512)"
    )
    parser.add_argument("--sizes", default=None, help="N to run, e.g. 8-40 or 12,20,128")
    parser.add_argument(
        "--by-round", action="store_true", help="also print each round's mean spread (engine vs baseline)"
    )
    args = parser.parse_args()
    if args.sizes:
        sizes = []
        for part in args.sizes.split(","):
            low, _, high = part.partition("-")
            sizes += list(range(int(low), int(high or low) + 1))
        events = args.events or 20
    elif args.quick:
        sizes, events = [8, 9, 12, 13, 16, 17, 20, 24, 32, 48, 64, 100, 128, 1024], args.events or 5
    else:
        sizes, events = [*range(8, 129), 256, 512, 1024], args.events or 20
    print(
        "Events: all N players play every round (the events LB counts). spread: mean over every table of\n"
        "every round of (most - fewest points at the table, before the round). 'base' pairs the same event\n"
        "state (same history, totals and players) with the top-down fill and measures it the same way; the\n"
        "engine's seating is the one played. atLB: events whose repeat pairs equal LB (target: 95% for\n"
        "N = 13..128).\n"
        f"rf min/engine (N = 13..{FLOOR_LIMIT}): the least spread any repeat-free seating of each round's state\n"
        "could have (exact branch and bound, same history and totals), then the engine's spread on the same\n"
        "rounds; rounds with no repeat-free seating (or too large a search) are left out. Where rf min\n"
        "exceeds base + 0.5, no repeat-free seating could have met the spread target from that history.\n"
        "drops: the same events with about 1% of players dropping after each round: events with a drop,\n"
        "their repeat pairs per event and how many are at LB. LB still counts pairs among all N entrants,\n"
        "which a drop can make unreachable (13 players losing one to 12: three tables of 4 after a round of\n"
        "four tables must seat two players who met).\n"
    )
    header = (
        f"{'N':>5} {'ev':>3} {'rep/ev':>7} {'LB':>4} {'atLB':>5} {'base rep':>8} {'twice':>6} "
        f"{'spread':>6} {'base':>6} {'max':>4} {'3p max':>6} {'1st max':>7} {'med ms':>7} {'max ms':>7} "
        f"{'drops: ev rep atLB':>18} {'rf min/engine':>8}"
    )
    print(header)
    failures: list[str] = []
    spread_gaps: list[str] = []
    unreachable: list[str] = []
    all_times: dict[int, list[float]] = {}
    for n in sizes:
        count = events if n <= 128 else min(events, 3 if n <= 512 else 2)
        results = [play_event(n, seed) for seed in range(count)]
        at_lb = sum(1 for r in results if r["repeats"] == r["lb"]) / count
        engine = [s for r in results for s in r["engine_spread"]]
        base = [s for r in results for s in r["base_spread"]]
        floors = [f for r in results for f in r["floors"] if f[0] is not None]
        left_out = sum(1 for r in results for f in r["floors"] if f[0] is None)
        floor, floor_mean = "-", None
        if floors:
            tables_ = sum(f[2] for f in floors)
            floor_mean = sum(f[0] for f in floors) / tables_
            floor = f"{floor_mean:.2f}/{sum(f[1] for f in floors) / tables_:.2f}"
            floor += f" ({left_out} left out)" if left_out else ""
        drops = "-"
        if n <= 128:
            dropping = [play_event(n, seed, drop_rate=0.01, floors_wanted=False) for seed in range(count)]
            dropping = [r for r in dropping if r["dropped"]]
            if dropping:
                drops = (
                    f"{len(dropping)} {statistics.mean(r['repeats'] for r in dropping):.2f} "
                    f"{sum(1 for r in dropping if r['repeats'] == r['lb'])}/{len(dropping)}"
                )
        times = [t for r in results for t in r["times"][1:]]  # round 1 needs no search
        all_times[n] = times
        base_rep = statistics.mean(baseline_repeats(n, seed) for seed in range(min(count, 5)))
        print(
            f"{n:>5} {count:>3} {statistics.mean(r['repeats'] for r in results):>7.2f} "
            f"{statistics.mean(r['lb'] for r in results):>4.1f} {at_lb:>5.0%} {base_rep:>8.1f} "
            f"{statistics.mean(r['twice'] for r in results):>6.1f} {statistics.mean(engine):>6.2f} "
            f"{statistics.mean(base):>6.2f} {max(engine):>4.0f} {max(r['threes'] for r in results):>6} "
            f"{max(r['firsts'] for r in results):>7} {1000 * statistics.median(times):>7.1f} "
            f"{1000 * max(times):>7.1f} {drops:>18} {floor:>8}",
            flush=True,
        )
        if args.by_round:
            rounds_played = len(results[0]["by_round"])
            cells = []
            for k in range(rounds_played):
                engine_k = statistics.mean(r["by_round"][k][0] for r in results)
                base_k = statistics.mean(r["by_round"][k][1] for r in results)
                cells.append(f"R{k + 1} {engine_k:.2f}/{base_k:.2f}")
            print(f"{'':>5} spread per round, engine/base: {'  '.join(cells)}", flush=True)
        if 13 <= n <= 128 and at_lb < 0.95:
            failures.append(f"repeats at LB in {at_lb:.0%} of events at N={n} (target 95%)")
        if statistics.mean(engine) > statistics.mean(base) + 0.5:
            # Reported, not a target: DECISIONS.md withdrew "spread within 0.5 of a top-down fill" (it
            # measured a proxy; bench_fairness.py measures what players care about).
            gap = f"spread {statistics.mean(engine):.2f} vs baseline {statistics.mean(base):.2f} at N={n}"
            if floor_mean is not None and floor_mean > statistics.mean(base) + 0.5 and not left_out:
                unreachable.append(f"{gap}: no repeat-free seating does better than {floor_mean:.2f}")
            else:
                spread_gaps.append(gap)
    print()
    # Issue 17's speed targets: the median time to pair one round (rounds 2 onwards).
    for n, limit in ((4096, 5.0), (1024, 1.0), (128, 0.1), (12, 0.1)):
        if n in all_times:
            median = statistics.median(all_times[n])
            met = "met" if median < limit else "NOT met"
            print(
                f"pairing {n} players: median {1000 * median:.1f} ms (target < {1000 * limit:.0f} ms): {met}"
            )
            if median >= limit:
                failures.append(f"pairing time at N={n}")
    print(f"repeat and speed targets: {'met' if not failures else 'NOT met'}")
    for failure in failures:
        print(f"  - {failure}")
    if spread_gaps or unreachable:
        print("spread more than 0.5 above the top-down fill (reported only; the target was withdrawn):")
        for line in spread_gaps + unreachable:
            print(f"  - {line}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
