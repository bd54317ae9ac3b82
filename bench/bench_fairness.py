"""Fairness benchmark for the Swiss engine: does its pairing find the strongest players?

Simulates whole events in which every player has a hidden skill (standard normal) and each table's
finishing order is drawn from a Plackett-Luce model with strength exp(beta * skill), for beta = 0.6
(skill matters little) and 1.2 (skill matters a lot). All N players play every Swiss round (9.070, the
engine's ``swiss_rounds``; no drops). Each event is played once per pairing policy, with the same skills
and the same random numbers (paired events):

- ``engine``: the engine's default ``pair_round``;
- ``top-down``: the top-down fill in standings order, no repeat avoidance (as ``bench_swiss.baseline``,
  but ordered by the engine's full standings, tiebreakers included);
- ``random``: random seating into ``table_sizes(N)``;
- ``engine:<policy>``: the engine's other pairing policies (``swiss.pairing.POLICIES``: standings first).

Final standings come from the engine's own ``standings`` with its defaults (points 5/3/2/2 and 5/3/2,
then Super-Villains defeated, opponents' points rate, total VP, seeded draw). Per N, beta and policy,
over E events, it prints the mean and 95% t-interval of:

- recall: of the true top K by skill, the share who finish in the top K of the Swiss standings
  (K = 4 when the event has 4 Swiss rounds, else 8: the players a cut would take);
- Spearman: rank correlation (scipy.stats.spearmanr) of the final standings with skill (1 = perfect);
- repeats: player pairs who met more than once, per extra meeting, per event, with the lower bound
  LB = max(0, M - N(N-1)/2), M the pairs seated together over the event;
- spread: most - fewest points at a table before the round, over the tables of rounds 2 onwards;

then the paired differences engine - top-down in recall and Spearman, with their 95% t-intervals.

    .venv/bin/python bench/bench_fairness.py            # N = 12..128, 200 events each (slow)
    .venv/bin/python bench/bench_fairness.py --quick    # N = 12, 32, 64, 40 events each
    .venv/bin/python bench/bench_fairness.py --sizes 12,16 --events 20 --processes 2

Exits 1 when, at some N and beta, the engine's recall is below top-down's beyond the interval (upper
bound of the paired difference engine - top-down < 0), or when the engine's repeats exceed LB in any
event at N = 13..128; the failed checks are printed. Everything is seeded: runs are reproducible.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scipy import stats  # noqa: E402

from tournaments.swiss import (  # noqa: E402
    CLASSIC,
    PlayedTable,
    pair_round,
    standings,
    swiss_rounds,
    table_sizes,
)
from tournaments.swiss.pairing import POLICIES  # noqa: E402

SIZES = (12, 16, 24, 32, 48, 64, 96, 128)
QUICK_SIZES = (12, 32, 64)
BETAS = (0.6, 1.2)
BASE_POLICIES = ("engine", "top-down", "random")
DEFAULT_POLICY = POLICIES[0]  # what ``engine`` runs: the events' default, new opponents first
VP_RANGE = range(8, 61)  # VP a player may end a game with (drawn distinct per table, sorted)
REPEAT_CHECK = range(13, 129)  # N at which the engine's repeats must equal LB in every event


# --- the result model -------------------------------------------------------------------------


def gumbel_noise(players: Sequence[str], rng: random.Random) -> dict[str, float]:
    """One standard Gumbel draw per player, in the order given (so the stream is reproducible)."""
    return {p: -math.log(max(rng.expovariate(1.0), 1e-300)) for p in players}


def plackett_luce(
    players: Sequence[str], log_strength: Mapping[str, float], noise: Mapping[str, float]
) -> tuple[str, ...]:
    """A finishing order (best first) from the Plackett-Luce model with strengths exp(log_strength),
    given one standard Gumbel draw per player: sorting by log strength + Gumbel noise draws the same
    distribution as picking 1st with probability w_i / sum(w), then 2nd among the rest, and so on. The
    noise is drawn per player, not per table, so two policies seating the same player differently still
    share the player's luck in that round (common random numbers for the paired comparison)."""
    return tuple(sorted(players, key=lambda p: -(log_strength[p] + noise[p])))


def play_table(
    members: Sequence[str], order: Sequence[str], rng: random.Random
) -> tuple[PlayedTable, dict[str, float]]:
    """The finished table for players seated in ``members`` (turn order) who finished in ``order``:
    classic points, whole VP strictly decreasing with the place, and Super-Villains defeated (0-3,
    more likely for better places)."""
    size = len(members)
    points = {p: CLASSIC.points_for(place, size) for place, p in enumerate(order, start=1)}
    vp = dict(zip(order, sorted(rng.sample(VP_RANGE, size), reverse=True), strict=True))
    chance = [0.55 - 0.4 * i / (size - 1) for i in range(size)]
    super_villains = {p: sum(rng.random() < chance[i] for _ in range(3)) for i, p in enumerate(order)}
    return PlayedTable(tuple(members), points, vp, super_villains, tuple(order)), points


# --- the pairing policies ---------------------------------------------------------------------


def fill(order: Sequence[str]) -> list[list[str]]:
    """Seat players in the order given into tables of ``table_sizes`` (4-player tables first)."""
    tables, start = [], 0
    for size in table_sizes(len(order)):
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def top_down(players: Sequence[str], history: Sequence[Sequence[PlayedTable]], seed: str) -> list[list[str]]:
    """Top-down fill in the engine's standings order, no repeat avoidance."""
    rows = standings(history, active=players, seed=seed)
    return fill([row.player for row in rows])


def random_seating(players: Sequence[str], rng: random.Random) -> list[list[str]]:
    order = list(players)
    rng.shuffle(order)
    return fill(order)


def engine_policies() -> list[str]:
    """The engine's pairing policies other than its default (which runs as ``engine``)."""
    return [policy for policy in POLICIES if policy != DEFAULT_POLICY]


# --- the metrics ------------------------------------------------------------------------------


def cut_size(n: int) -> int:
    return 4 if swiss_rounds(n).rounds == 4 else 8


def cut_recall(standing_order: Sequence[str], skill: Mapping[str, float], k: int) -> float:
    """Share of the k most skilled players who finish in the top k of the standings."""
    best = sorted(skill, key=lambda p: -skill[p])[:k]
    return len(set(best) & set(standing_order[:k])) / k


def rank_correlation(standing_order: Sequence[str], skill: Mapping[str, float]) -> float:
    """Spearman correlation between standing position and skill, signed so 1 means the standings
    list the players exactly by skill."""
    rho = stats.spearmanr(range(len(standing_order)), [-skill[p] for p in standing_order]).statistic
    return float(rho)


def pair_meetings(rounds: Sequence[Sequence[Sequence[str]]]) -> Counter:
    """Times each pair of players sat at the same table, over every round (tables as player lists)."""
    pairs: Counter = Counter()
    for tables in rounds:
        for members in tables:
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    pairs[frozenset((a, b))] += 1
    return pairs


def repeat_count(pairs: Counter) -> int:
    """Extra meetings: a pair that met k times counts k - 1."""
    return sum(pairs.values()) - len(pairs)


def repeat_lower_bound(n: int, meetings: int) -> int:
    """No seating of n players can have fewer repeats than max(0, M - n(n-1)/2) for M meetings."""
    return max(0, meetings - n * (n - 1) // 2)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% t-interval (the mean itself when the values do not vary)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    sem = stats.sem(values)
    if not sem > 0:
        return mean, mean, mean
    low, high = stats.t.interval(0.95, len(values) - 1, loc=mean, scale=sem)
    return mean, float(low), float(high)


# --- one event --------------------------------------------------------------------------------


def play_event(n: int, event: int, beta: float, policy: str, skill: Mapping[str, float]) -> dict:
    """One whole event under one policy; the same (n, event, beta) gives every policy the same luck."""
    seed = f"fair:{n}:{event}"
    players = sorted(skill)
    log_strength = {p: beta * skill[p] for p in players}
    luck = random.Random(f"fair:luck:{n}:{event}:{beta}")  # finishing orders: the same for every policy
    details = random.Random(f"fair:details:{n}:{event}:{beta}")  # VP and Super-Villains
    seating_rng = random.Random(f"fair:seating:{n}:{event}")
    history: list[list[PlayedTable]] = []
    seated: list[list[list[str]]] = []
    totals: Counter = Counter()
    spreads: list[float] = []
    for round_ in range(swiss_rounds(n).rounds):
        if policy == "engine":
            tables = [list(t.players) for t in pair_round(players, history, seed=seed).tables]
        elif policy.startswith("engine:"):
            chosen = policy.partition(":")[2]
            tables = [list(t.players) for t in pair_round(players, history, seed=seed, policy=chosen).tables]
        elif policy == "top-down":
            tables = top_down(players, history, seed)
        elif policy == "random":
            tables = random_seating(players, seating_rng)
        else:
            raise ValueError(policy)
        if round_:
            spreads += [max(totals[p] for p in t) - min(totals[p] for p in t) for t in tables]
        noise = gumbel_noise(players, luck)  # same draws, same order, whatever the seating
        played = []
        for members in tables:
            table, points = play_table(members, plackett_luce(members, log_strength, noise), details)
            totals.update(points)
            played.append(table)
        history.append(played)
        seated.append(tables)
    order = [row.player for row in standings(history, active=players, seed=seed)]
    pairs = pair_meetings(seated)
    return {
        "recall": cut_recall(order, skill, cut_size(n)),
        "spearman": rank_correlation(order, skill),
        "repeats": repeat_count(pairs),
        "lb": repeat_lower_bound(n, sum(pairs.values())),
        "spread": statistics.fmean(spreads) if spreads else 0.0,
    }


def run_event(task: tuple[int, int, tuple[str, ...]]) -> tuple[int, int, dict, float]:
    """Every beta and policy of one event (a worker's unit of work)."""
    n, event, policies = task
    started = time.perf_counter()
    rng = random.Random(f"fair:skill:{n}:{event}")
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(n)}
    out = {(beta, policy): play_event(n, event, beta, policy, skill) for beta in BETAS for policy in policies}
    return n, event, out, time.perf_counter() - started


# --- report -----------------------------------------------------------------------------------


def fmt_ci(values: Sequence[float], digits: int = 3) -> str:
    mean, low, high = mean_ci(values)
    half = (high - low) / 2
    return f"{mean:.{digits}f} ± {half:.{digits}f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 12, 32, 64 and 40 events")
    parser.add_argument("--events", type=int, default=None, help="events per N (default 200; --quick 40)")
    parser.add_argument("--sizes", default=None, help="N to run, e.g. 12,16,24")
    parser.add_argument("--processes", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args()
    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list(QUICK_SIZES if args.quick else SIZES)
    events = args.events or (40 if args.quick else 200)
    extra = [f"engine:{p}" for p in engine_policies()]
    policies = (*BASE_POLICIES, *extra)
    started = time.perf_counter()
    print(
        f"N = {', '.join(map(str, sizes))}; {events} events per N; betas {', '.join(map(str, BETAS))}; "
        f"policies {', '.join(policies)}; {args.processes} processes",
        flush=True,
    )
    results: dict[tuple[int, float, str], list[dict]] = {}
    tasks = [(n, e, policies) for n in sorted(sizes, reverse=True) for e in range(events)]  # big N first
    done: dict[int, int] = Counter()
    with multiprocessing.Pool(args.processes) as pool:
        collected = []
        for n, event, out, _ in pool.imap_unordered(run_event, tasks):
            collected.append((n, event, out))
            done[n] += 1
            if done[n] == events:
                print(f"  N={n}: {events} events in {time.perf_counter() - started:.0f} s", flush=True)
    for n, _, out in sorted(collected, key=lambda row: row[:2]):
        for (beta, policy), metrics in out.items():
            results.setdefault((n, beta, policy), []).append(metrics)

    failures: list[str] = []
    for beta in BETAS:
        print(
            f"\nbeta = {beta} (Plackett-Luce strength exp({beta} * skill)); mean ± 95% t-interval half-width"
        )
        print(
            f"{'N':>4} {'K':>2} {'policy':<22} {'recall':>15} {'Spearman':>15} {'repeats':>15} "
            f"{'LB':>5} {'>LB ev':>6} {'spread':>13}"
        )
        for n in sizes:
            for policy in policies:
                rows = results[(n, beta, policy)]
                over = sum(1 for r in rows if r["repeats"] > r["lb"])
                print(
                    f"{n:>4} {cut_size(n):>2} {policy:<22} {fmt_ci([r['recall'] for r in rows]):>15} "
                    f"{fmt_ci([r['spearman'] for r in rows]):>15} "
                    f"{fmt_ci([r['repeats'] for r in rows], 2):>15} "
                    f"{statistics.fmean(r['lb'] for r in rows):>5.2f} {over:>6} "
                    f"{fmt_ci([r['spread'] for r in rows], 2):>13}"
                )
                if policy == "engine" and n in REPEAT_CHECK and over:
                    failures.append(
                        f"beta={beta} N={n}: engine repeats above LB in {over} of {len(rows)} events"
                    )
        print(f"\npaired differences engine - top-down, beta = {beta}: mean [95% t-interval]")
        print(f"{'N':>4} {'recall':>28} {'Spearman':>28}")
        for n in sizes:
            engine, base = results[(n, beta, "engine")], results[(n, beta, "top-down")]
            cells = []
            for key in ("recall", "spearman"):
                diff = [a[key] - b[key] for a, b in zip(engine, base, strict=True)]
                mean, low, high = mean_ci(diff)
                cells.append(f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]")
                if key == "recall" and high < 0:
                    failures.append(
                        f"beta={beta} N={n}: engine recall below top-down's (difference {mean:+.3f}, "
                        f"interval [{low:+.3f}, {high:+.3f}])"
                    )
            print(f"{n:>4} {cells[0]:>28} {cells[1]:>28}")
    print(f"\ntotal time {time.perf_counter() - started:.0f} s")
    if failures:
        print("checks NOT met:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    print(
        "checks met: engine recall never below top-down's beyond the interval; engine repeats at LB (N 13-128)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
