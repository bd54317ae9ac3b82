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
- ``engine:<policy>``: the engine's other pairing policies (``swiss.pairing.POLICIES``: standings first);
- ``seed-r1`` / ``seed-r1:exact`` (issue 19): round 1 seeded by a rating (skill + noise of sd 1, or the
  skill itself) with the engine's ``seeding`` (snake order over the tables), then the engine;
- experiments (issue 17, chosen with ``--policies``; each defined in its function's docstring):
  ``bubble4`` / ``bubble8`` (``bubble_seating``: the last Swiss round seats one / two tables of players
  ranked around the cut line together, new opponents only, only when the round keeps the engine's
  repeats), ``loose-early`` / ``loose-all`` (``loose_seating``: the engine groups by wins, i.e. first
  places, instead of points in every round but the last two / in every round), ``tiebreak:<order>``
  (the engine's events, final standings with another order of the allowed tiebreakers).

Final standings come from the engine's own ``standings`` with its defaults (points 5/3/2/2 and 5/3/2,
then Super-Villains defeated, opponents' points rate, total VP, seeded draw). Per N, beta and policy,
over E events, it prints the mean and 95% t-interval of:

- recall: of the true top K by skill, the share who finish in the top K of the Swiss standings
  (K = 4 when the event has 4 Swiss rounds, else 8: the players a cut would take);
- Spearman: rank correlation (scipy.stats.spearmanr) of the final standings with skill (1 = perfect);
- repeats: player pairs who met more than once, per extra meeting, per event, with the lower bound
  LB = max(0, M - N(N-1)/2), M the pairs seated together over the event;
- spread: most - fewest points at a table before the round, over the tables of rounds 2 onwards;

then the paired differences engine - top-down in recall and Spearman, with their 95% t-intervals, and
for every other policy its paired differences against ``engine``, its repeats above LB (the engine's
beside it), the events above LB and, for a bubble, the events in which a bubble table was seated.

    .venv/bin/python bench/bench_fairness.py            # N = 12..128, 200 events each (slow)
    .venv/bin/python bench/bench_fairness.py --quick    # N = 12, 32, 64, 40 events each
    .venv/bin/python bench/bench_fairness.py --sizes 12,16 --events 20 --processes 2
    .venv/bin/python bench/bench_fairness.py --sizes 12,32,64 --events 40 --policies experiments
    .venv/bin/python bench/bench_fairness.py --sizes 64 --events 100 --policies loose-all,bubble4 --json out.json

Exits 1 when, at some N and beta, the engine's recall is below top-down's beyond the interval (upper
bound of the paired difference engine - top-down < 0), or when the engine's repeats exceed LB in any
event at N = 13..128; the failed checks are printed. Everything is seeded: runs are reproducible.
"""

from __future__ import annotations

import argparse
import itertools
import json
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
from tournaments.swiss.history import records  # noqa: E402
from tournaments.swiss.pairing import POLICIES  # noqa: E402
from tournaments.swiss.standings import DEFAULT_TIEBREAKERS  # noqa: E402

SIZES = (12, 16, 24, 32, 48, 64, 96, 128)
QUICK_SIZES = (12, 32, 64)
BETAS = (0.6, 1.2)
BASE_POLICIES = ("engine", "top-down", "random")
DEFAULT_POLICY = POLICIES[0]  # what ``engine`` runs: the events' default, new opponents first
VP_RANGE = range(8, 61)  # VP a player may end a game with (drawn distinct per table, sorted)
REPEAT_CHECK = range(13, 129)  # N at which the engine's repeats must equal LB in every event

# Experiments (issue 17, "Pairing measured by what players care about"): each is compared with ``engine``
# on the same events. Seating experiments (see ``seat_round``):
#   bubble4, bubble8: the last Swiss round seats the players around the cut line together (one or two tables);
#   loose-early, loose-all: the engine groups by wins (first places) instead of points, in every round but
#   the last two, or in every round (the peer pod pairer's grouping).
# Tiebreaker experiments: the engine's seating, final standings with another order of the tiebreakers the
# engine allows (standings.TIEBREAKERS; the draw always ends the order).
TIEBREAK_ORDERS = {
    "tiebreak:opr-sv-vp": ("opponents_points_rate", "super_villains", "vp"),
    "tiebreak:opr-vp-sv": ("opponents_points_rate", "vp", "super_villains"),
    "tiebreak:vp-sv-opr": ("vp", "super_villains", "opponents_points_rate"),
}
BUBBLE_POLICIES = {"bubble4": 1, "bubble8": 2}  # tables seated at the cut line
LOOSE_POLICIES = {"loose-early": 2, "loose-all": 0}  # the last rounds still grouped by points
# Issue 19, an event's "seed round 1 by rating": round 1 is the engine's seeded pairing (``seeding``, snake
# order over the tables) by a rating = skill + normal noise of this standard deviation (1.0: a rating that
# correlates about 0.7 with skill, a player base with a few events each; 0.0: the rating is the skill);
# every later round is the engine's.
SEED_POLICIES = {"seed-r1": 1.0, "seed-r1:exact": 0.0}
EXPERIMENTS = (*BUBBLE_POLICIES, *LOOSE_POLICIES, *TIEBREAK_ORDERS, *SEED_POLICIES)


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


def engine_seating(
    players: Sequence[str], history: Sequence[Sequence[PlayedTable]], seed: str, **options
) -> list[list[str]]:
    return [list(t.players) for t in pair_round(players, history, seed=seed, **options).tables]


def wins_only(history: Sequence[Sequence[PlayedTable]]) -> list[list[PlayedTable]]:
    """The same rounds with points replaced by wins: 1 for each table's first place, 0 for everyone
    else (VP, Super-Villains and placements kept). Given to the engine, it groups players by wins."""
    out = []
    for tables in history:
        out.append(
            [
                PlayedTable(
                    t.players,
                    {p: 1.0 if p == t.placement_order()[0] else 0.0 for p in t.players},
                    t.vp,
                    t.super_villains,
                    t.placements,
                )
                for t in tables
            ]
        )
    return out


def loose_seating(
    players: Sequence[str],
    history: Sequence[Sequence[PlayedTable]],
    seed: str,
    rounds: int,
    points_rounds: int,
) -> list[list[str]]:
    """Looser groups early (``loose-early``, ``loose-all``): the engine's default pairing, but in every
    round except the last ``points_rounds`` it sees each player's wins (first places) as their points,
    so it groups players by wins only, as the peer pod pairer does. Repeat avoidance (and planning ahead
    in small events) is the engine's, on the real history of who met whom; the final standings and the
    last ``points_rounds`` rounds use the real points."""
    number = len(history) + 1
    view = wins_only(history) if number <= rounds - points_rounds else history
    return engine_seating(players, view, seed, swiss_rounds=rounds)


def round_repeats(tables: Sequence[Sequence[str]], met: Mapping[str, Mapping[str, int]]) -> int:
    """Pairs seated together in a round who have met before."""
    return sum(1 for t in tables for i, a in enumerate(t) for b in t[i + 1 :] if met.get(a, {}).get(b, 0))


def bubble_candidates(
    order: Sequence[str], met: Mapping[str, Mapping[str, int]], k: int, reach: int, size: int = 4
) -> list[list[str]]:
    """Every table of ``size`` players who have not met each other, drawn from the players ranked
    k - reach + 1 .. k + reach (1-based: ``reach`` either side of the cut line between rank k and k + 1),
    nearest to the line first (by the sum of each member's distance to the line, then by rank)."""
    window = range(max(0, k - reach), min(len(order), k + reach))  # 0-based indexes; rank = index + 1
    out = []
    for members in itertools.combinations(window, size):
        names = [order[i] for i in members]
        if round_repeats([names], met):
            continue
        out.append((sum(abs(i + 0.5 - k) for i in members), members, names))
    return [names for _, _, names in sorted(out)]


def bubble_seating(
    players: Sequence[str],
    history: Sequence[Sequence[PlayedTable]],
    seed: str,
    rounds: int,
    tables: int,
    reach: int = 4,
    attempts: int = 6,
) -> list[list[str]] | None:
    """The bubble (``bubble4``: one table, ``bubble8``: two): in the last Swiss round, players ranked
    around the cut line in the standings before it (the engine's standings, tiebreakers included; K =
    ``cut_size``) sit together, so the cut is decided at the table rather than by tiebreakers; everyone
    else is paired by the engine's default pairing. The bubble tables are new opponents only, from the
    players ranked K-r+1 .. K+r, r = reach + 2 per extra table (the second table from the players the
    first leaves, the line moved up by the players above it the first took), nearest to
    the line first (``bubble_candidates``); the first choice (of at most ``attempts``) with which the whole
    round has no more repeat pairs than the engine's own seating is played. If none does, or the bubble
    would change the table sizes, the round is the engine's (None: no bubble). Every other round is the
    engine's."""
    n = len(players)
    if len(history) != rounds - 1 or table_sizes(n).count(4) < tables or n - 4 * tables < 3:
        return None
    engine = engine_seating(players, history, seed, swiss_rounds=rounds)
    order = [row.player for row in standings(history, active=players, seed=seed)]
    met = {p: rec.opponents for p, rec in records(history).items()}
    budget = round_repeats(engine, met)
    k = cut_size(n)
    reach += 2 * (tables - 1)
    for first in bubble_candidates(order, met, k, reach)[:attempts]:
        bubble = [first]
        if tables == 2:
            rest_order = [p for p in order if p not in first]
            # The line has moved: ranks above it that the first table took are no longer in the order.
            above = sum(1 for p in first if order.index(p) < k)
            second = bubble_candidates(rest_order, met, k - above, reach)
            if not second:
                continue
            bubble.append(second[0])
        seated = {p for t in bubble for p in t}
        rest = [p for p in players if p not in seated]
        tables_ = bubble + engine_seating(rest, history, seed, swiss_rounds=rounds)
        if round_repeats(tables_, met) <= budget:
            return tables_
    return None


def rating_order(skill: Mapping[str, float], n: int, event: int, noise: float) -> list[str]:
    """The players by a rating of skill plus normal noise (sd ``noise``), highest first (``seed-r1``)."""
    rng = random.Random(f"fair:rating:{n}:{event}")
    rating = {p: skill[p] + rng.gauss(0, noise) for p in sorted(skill)}
    return sorted(rating, key=lambda p: (-rating[p], p))


def seating_policy(policy: str) -> str:
    """The seating a policy plays: a tiebreaker experiment plays the engine's seating."""
    return "engine" if policy in TIEBREAK_ORDERS else policy


def policy_tiebreakers(policy: str) -> tuple[str, ...]:
    """The tiebreaker order of the final standings under a policy (the engine's default but for the
    tiebreaker experiments)."""
    return TIEBREAK_ORDERS.get(policy, tuple(DEFAULT_TIEBREAKERS))


def seat_round(
    policy: str,
    players: Sequence[str],
    history: Sequence[Sequence[PlayedTable]],
    seed: str,
    rounds: int,
    seating_rng: random.Random,
) -> list[list[str]]:
    """The tables of the next round under a seating policy."""
    if policy == "engine":
        return engine_seating(players, history, seed)
    if policy.startswith("engine:"):
        return engine_seating(players, history, seed, policy=policy.partition(":")[2])
    if policy == "top-down":
        return top_down(players, history, seed)
    if policy == "random":
        return random_seating(players, seating_rng)
    if policy in BUBBLE_POLICIES:
        bubble = bubble_seating(players, history, seed, rounds, BUBBLE_POLICIES[policy])
        return bubble or engine_seating(players, history, seed, swiss_rounds=rounds)
    if policy in LOOSE_POLICIES:
        return loose_seating(players, history, seed, rounds, LOOSE_POLICIES[policy])
    raise ValueError(policy)


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


def simulate_event(n: int, event: int, beta: float, seating: str, skill: Mapping[str, float]) -> tuple:
    """One whole event under one seating policy: (finished rounds, tables seated, points spreads, whether
    a bubble was seated). The same (n, event, beta) gives every policy the same luck."""
    seed = f"fair:{n}:{event}"
    players = sorted(skill)
    rounds = swiss_rounds(n).rounds
    log_strength = {p: beta * skill[p] for p in players}
    luck = random.Random(f"fair:luck:{n}:{event}:{beta}")  # finishing orders: the same for every policy
    details = random.Random(f"fair:details:{n}:{event}:{beta}")  # VP and Super-Villains
    seating_rng = random.Random(f"fair:seating:{n}:{event}")
    history: list[list[PlayedTable]] = []
    seated: list[list[list[str]]] = []
    totals: Counter = Counter()
    spreads: list[float] = []
    bubbled = False
    for round_ in range(rounds):
        if seating in SEED_POLICIES:
            order = rating_order(skill, n, event, SEED_POLICIES[seating]) if not round_ else None
            tables = engine_seating(players, history, seed, seeding=order)
        elif seating in BUBBLE_POLICIES and round_ == rounds - 1:
            bubble = bubble_seating(players, history, seed, rounds, BUBBLE_POLICIES[seating])
            bubbled = bubble is not None
            tables = bubble or engine_seating(players, history, seed, swiss_rounds=rounds)
        else:
            tables = seat_round(seating, players, history, seed, rounds, seating_rng)
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
    return history, seated, spreads, bubbled


def measure_event(
    n: int, event: int, skill: Mapping[str, float], simulated: tuple, tiebreakers: Sequence[str]
) -> dict:
    """The metrics of one simulated event, final standings with the given tiebreaker order."""
    history, seated, spreads, bubbled = simulated
    players = sorted(skill)
    rows = standings(history, active=players, seed=f"fair:{n}:{event}", tiebreakers=tiebreakers)
    order = [row.player for row in rows]
    pairs = pair_meetings(seated)
    return {
        "recall": cut_recall(order, skill, cut_size(n)),
        "spearman": rank_correlation(order, skill),
        "repeats": repeat_count(pairs),
        "lb": repeat_lower_bound(n, sum(pairs.values())),
        "spread": statistics.fmean(spreads) if spreads else 0.0,
        "bubbled": bubbled,
    }


def play_event(n: int, event: int, beta: float, policy: str, skill: Mapping[str, float]) -> dict:
    """One whole event under one policy; the same (n, event, beta) gives every policy the same luck."""
    simulated = simulate_event(n, event, beta, seating_policy(policy), skill)
    return measure_event(n, event, skill, simulated, policy_tiebreakers(policy))


def run_event(task: tuple[int, int, tuple[str, ...]]) -> tuple[int, int, dict, float]:
    """Every beta and policy of one event (a worker's unit of work)."""
    n, event, policies = task
    started = time.perf_counter()
    rng = random.Random(f"fair:skill:{n}:{event}")
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(n)}
    out = {}
    for beta in BETAS:
        simulated: dict[str, tuple] = {}  # a tiebreaker experiment reuses the engine's event
        for policy in policies:
            seating = seating_policy(policy)
            if seating not in simulated:
                simulated[seating] = simulate_event(n, event, beta, seating, skill)
            out[beta, policy] = measure_event(n, event, skill, simulated[seating], policy_tiebreakers(policy))
    return n, event, out, time.perf_counter() - started


def parse_policies(text: str | None) -> tuple[str, ...]:
    """The policies to run from ``--policies``: ``engine`` first (always run: every difference is paired
    with it), then the ones listed, in order, once each; ``experiments`` stands for every experiment.
    Without a list: engine, top-down, random and the engine's other pairing policies."""
    if not text:
        return (*BASE_POLICIES, *(f"engine:{p}" for p in engine_policies()))
    known = {*BASE_POLICIES, *(f"engine:{p}" for p in POLICIES), *EXPERIMENTS}
    out = ["engine"]
    for name in (part.strip() for part in text.split(",")):
        for policy in EXPERIMENTS if name == "experiments" else (name,) if name else ():
            if policy not in known:
                raise SystemExit(
                    f"unknown policy '{policy}' (known: {', '.join(sorted(known))}, experiments)"
                )
            if policy not in out:
                out.append(policy)
    return tuple(out)


def paired_difference(
    rows: Sequence[Mapping], base: Sequence[Mapping]
) -> dict[str, tuple[float, float, float]]:
    """Mean and 95% t-interval of the per-event differences rows - base in recall and in Spearman."""
    return {
        key: mean_ci([a[key] - b[key] for a, b in zip(rows, base, strict=True)])
        for key in ("recall", "spearman")
    }


# --- report -----------------------------------------------------------------------------------


def fmt_diff(interval: tuple[float, float, float]) -> str:
    mean, low, high = interval
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}]"


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
    parser.add_argument(
        "--policies",
        default=None,
        help="comma-separated policies (engine always runs): engine, top-down, random, engine:<policy>, "
        f"{', '.join(EXPERIMENTS)}, or 'experiments' for all of those; default: engine, top-down, random "
        "and the engine's other policies",
    )
    parser.add_argument("--json", default=None, help="also write the summary (means, intervals) to this file")
    args = parser.parse_args()
    if args.sizes:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    else:
        sizes = list(QUICK_SIZES if args.quick else SIZES)
    events = args.events or (40 if args.quick else 200)
    policies = parse_policies(args.policies)
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
    summary = []
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
        if "top-down" in policies:
            print(f"\npaired differences engine - top-down, beta = {beta}: mean [95% t-interval]")
            print(f"{'N':>4} {'recall':>28} {'Spearman':>28}")
            for n in sizes:
                diff = paired_difference(results[(n, beta, "engine")], results[(n, beta, "top-down")])
                mean, low, high = diff["recall"]
                if high < 0:
                    failures.append(
                        f"beta={beta} N={n}: engine recall below top-down's (difference {mean:+.3f}, "
                        f"interval [{low:+.3f}, {high:+.3f}])"
                    )
                print(f"{n:>4} {fmt_diff(diff['recall']):>28} {fmt_diff(diff['spearman']):>28}")
        others = [policy for policy in policies if policy != "engine"]
        print(
            f"\npaired differences policy - engine, beta = {beta}: mean [95% t-interval]; repeats - LB (mean)"
        )
        print(
            f"{'N':>4} {'policy':<22} {'recall':>28} {'Spearman':>28} {'rep-LB':>7} {'engine':>7} {'>LB ev':>6}"
        )
        for n in sizes:
            engine = results[(n, beta, "engine")]
            for policy in others:
                rows = results[(n, beta, policy)]
                diff = paired_difference(rows, engine)
                excess = statistics.fmean(r["repeats"] - r["lb"] for r in rows)
                engine_excess = statistics.fmean(r["repeats"] - r["lb"] for r in engine)
                over = sum(1 for r in rows if r["repeats"] > r["lb"])
                bubbled = sum(1 for r in rows if r["bubbled"]) if policy in BUBBLE_POLICIES else "-"
                print(
                    f"{n:>4} {policy:<22} {fmt_diff(diff['recall']):>28} {fmt_diff(diff['spearman']):>28} "
                    f"{excess:>7.2f} {engine_excess:>7.2f} {over:>6} {bubbled:>6}"
                )
                summary.append(
                    {
                        "n": n,
                        "beta": beta,
                        "policy": policy,
                        "events": len(rows),
                        "recall": mean_ci([r["recall"] for r in rows]),
                        "spearman": mean_ci([r["spearman"] for r in rows]),
                        "d_recall": diff["recall"],
                        "d_spearman": diff["spearman"],
                        "repeats_over_lb": excess,
                        "engine_repeats_over_lb": engine_excess,
                        "events_over_lb": over,
                        "events_bubbled": bubbled,
                    }
                )
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    print(f"\ntotal time {time.perf_counter() - started:.0f} s")
    if failures:
        print("checks NOT met:")
        for failure in failures:
            print(f"  - {failure}")
        return 1
    versus = "engine recall never below top-down's beyond the interval; " if "top-down" in policies else ""
    print(f"checks met: {versus}engine repeats at LB (N 13-128)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
