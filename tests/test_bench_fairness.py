"""The fairness benchmark's pure helpers: Plackett-Luce draws, cut recall, repeats and their lower bound."""

from __future__ import annotations

import importlib.util
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from tournaments.swiss.grouping import grouping_points

pytest.importorskip("scipy")

_PATH = Path(__file__).resolve().parents[1] / "bench" / "bench_fairness.py"
_SPEC = importlib.util.spec_from_file_location("bench_fairness", _PATH)
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_plackett_luce_is_a_permutation_that_favours_strength():
    players = ["a", "b", "c", "d"]
    log_strength = {"a": 1.2, "b": 0.6, "c": 0.0, "d": -0.6}
    rng = random.Random("test-pl")
    firsts: Counter = Counter()
    place_sum: Counter = Counter()
    draws = 4000
    for _ in range(draws):
        order = bench.plackett_luce(players, log_strength, bench.gumbel_noise(players, rng))
        assert sorted(order) == players
        firsts[order[0]] += 1
        for place, p in enumerate(order):
            place_sum[p] += place
    total = sum(math.exp(v) for v in log_strength.values())
    for p in players:  # P(first) = w / sum(w) under Plackett-Luce
        assert abs(firsts[p] / draws - math.exp(log_strength[p]) / total) < 0.03
    mean_place = [place_sum[p] / draws for p in players]
    assert mean_place == sorted(mean_place)


def test_play_table_gives_classic_points_and_vp_in_place_order():
    members = ["a", "b", "c", "d"]
    order = ("c", "a", "d", "b")
    table, points = bench.play_table(members, order, random.Random(1))
    assert points == {"c": 5, "a": 3, "d": 2, "b": 2}
    assert table.players == tuple(members)
    assert table.placements == order
    vp = [table.vp[p] for p in order]
    assert all(isinstance(v, int) and v >= 0 for v in vp)
    assert all(x > y for x, y in zip(vp, vp[1:], strict=False))
    assert all(v in range(4) for v in table.super_villains.values())
    assert table.placement_order() == order


def test_cut_recall():
    skill = {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0, "e": -1.0, "f": -2.0}
    assert bench.cut_recall(["a", "b", "c", "d", "e", "f"], skill, 4) == 1.0
    assert bench.cut_recall(["e", "a", "f", "b", "c", "d"], skill, 4) == 0.5
    assert bench.cut_recall(["b", "a", "d", "c", "e", "f"], skill, 2) == 1.0
    assert bench.rank_correlation(["a", "b", "c", "d", "e", "f"], skill) == pytest.approx(1.0)
    assert bench.rank_correlation(["f", "e", "d", "c", "b", "a"], skill) == pytest.approx(-1.0)


def test_repeats_on_a_tiny_event():
    rounds = [
        [["a", "b", "c", "d"], ["e", "f", "g", "h"]],
        [["a", "b", "e", "f"], ["c", "d", "g", "h"]],  # again: a-b, e-f, c-d, g-h
        [
            ["a", "b", "c", "e"],
            ["d", "f", "g", "h"],
        ],  # again: a-b, a-c, a-e, b-c, b-e, d-g, d-h, f-g, f-h, g-h
    ]
    pairs = bench.pair_meetings(rounds)
    assert sum(pairs.values()) == 36
    assert pairs[frozenset(("a", "b"))] == 3
    assert pairs[frozenset(("g", "h"))] == 3
    assert bench.repeat_count(pairs) == 4 + 10  # a-b and g-h count twice each
    assert len(pairs) == 36 - 14
    assert bench.repeat_lower_bound(8, 36) == 8  # this event is 6 repeats above the bound


def test_repeat_lower_bound():
    assert bench.repeat_lower_bound(8, 36) == 8  # 36 meetings among 28 pairs
    assert bench.repeat_lower_bound(12, 72) == 6  # 12 players, 4 rounds of three 4-player tables
    assert bench.repeat_lower_bound(16, 96) == 0
    assert bench.repeat_lower_bound(13, 0) == 0


def test_a_whole_event_is_reproducible():
    rng = random.Random("skills")
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(12)}
    for policy in ("top-down", "random"):
        first = bench.play_event(12, 0, 1.2, policy, skill)
        assert first == bench.play_event(12, 0, 1.2, policy, skill)
        assert 0 <= first["recall"] <= 1
        assert -1 <= first["spearman"] <= 1
        assert first["repeats"] >= first["lb"] == 6


def test_every_other_engine_policy_is_measured_beside_the_default():
    assert bench.engine_policies() == ["standings_first"]


def test_it_lists_engine_first_then_the_policies_asked_for_once_each():
    assert bench.parse_policies("bubble4,engine,bubble4") == ("engine", "bubble4")
    assert bench.parse_policies("experiments") == ("engine", *bench.EXPERIMENTS)
    assert bench.parse_policies(None) == ("engine", "top-down", "random", "engine:standings_first")


def test_it_refuses_an_unknown_policy():
    with pytest.raises(SystemExit):
        bench.parse_policies("engine,bubble99")


def test_it_plays_a_tiebreaker_experiment_on_the_engine_s_seating():
    assert bench.seating_policy("tiebreak:opr-sv-vp") == "engine"
    assert bench.policy_tiebreakers("tiebreak:opr-sv-vp") == ("opponents_points_rate", "super_villains", "vp")
    assert bench.seating_policy("bubble4") == "bubble4"
    assert bench.policy_tiebreakers("bubble4") == ("super_villains", "opponents_points_rate", "vp", "draw")


def test_it_gives_the_engine_wins_instead_of_points():
    table = bench.PlayedTable(
        ("a", "b", "c", "d"), {"a": 2, "b": 5, "c": 3, "d": 2}, placements=("b", "c", "a", "d")
    )
    (view,) = bench.wins_only([[table]])
    assert dict(view[0].points) == {"a": 0.0, "b": 1.0, "c": 0.0, "d": 0.0}
    assert view[0].players == table.players
    assert view[0].placements == table.placements


def test_it_counts_the_pairs_in_a_round_who_met_before():
    met = {"a": {"b": 1}, "b": {"a": 1}, "c": {"d": 2}, "d": {"c": 2}}
    assert bench.round_repeats([["a", "b", "c"], ["d", "e", "f"]], met) == 1
    assert bench.round_repeats([["a", "c", "e"], ["b", "d", "f"]], met) == 0


def test_it_seats_the_four_players_nearest_the_cut_line_when_they_are_new_to_each_other():
    order = [f"r{i:02d}" for i in range(1, 17)]  # r01 is 1st
    first = bench.bubble_candidates(order, {}, 8, 4)[0]
    assert first == ["r07", "r08", "r09", "r10"]  # ranks K-1 .. K+2 around the line between 8th and 9th


def test_it_leaves_out_a_bubble_table_with_players_who_met():
    order = [f"r{i:02d}" for i in range(1, 17)]
    met = {"r08": {"r09": 1}, "r09": {"r08": 1}}
    candidates = bench.bubble_candidates(order, met, 8, 4)
    assert all(not ({"r08", "r09"} <= set(t)) for t in candidates)
    # Four tables are 6 places from the line in all; the one with the best-placed players comes first.
    assert candidates[0] == ["r06", "r07", "r08", "r10"]


def test_it_seats_no_bubble_before_the_last_round():
    players = [f"p{i:03d}" for i in range(16)]
    assert bench.bubble_seating(players, [], "s", rounds=4, tables=1) is None


def test_it_seats_a_bubble_table_in_the_last_round_without_adding_repeats():
    n, rounds = 32, 5
    rng = random.Random("bubble")
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(n)}
    players = sorted(skill)
    # Not every event has four players around the cut line who have not met: take the first that has.
    for event in range(10):
        history, *_ = bench.simulate_event(n, event, 1.2, "engine", skill)
        history = history[: rounds - 1]
        seed = f"fair:32:{event}"
        seated = bench.bubble_seating(players, history, seed, rounds=rounds, tables=1)
        if seated is not None:
            break
    assert seated is not None
    assert sorted(p for t in seated for p in t) == players
    order = [row.player for row in bench.standings(history, active=players, seed=seed)]
    assert set(seated[0]) <= set(order[8 - 4 : 8 + 4])  # within four places of the cut line
    met = {p: rec.opponents for p, rec in bench.records(history).items()}
    engine = bench.engine_seating(players, history, seed, swiss_rounds=rounds)
    assert bench.round_repeats(seated, met) <= bench.round_repeats(engine, met)


def test_it_pairs_differences_event_by_event():
    rows = [
        {"recall": 0.5, "spearman": 0.7},
        {"recall": 0.75, "spearman": 0.8},
        {"recall": 0.5, "spearman": 0.9},
    ]
    base = [
        {"recall": 0.5, "spearman": 0.6},
        {"recall": 0.5, "spearman": 0.7},
        {"recall": 0.5, "spearman": 0.8},
    ]
    diff = bench.paired_difference(rows, base)
    assert diff["spearman"] == (pytest.approx(0.1), pytest.approx(0.1), pytest.approx(0.1))
    mean, low, high = diff["recall"]
    assert mean == pytest.approx(0.25 / 3)
    assert low < mean < high


def test_it_gives_the_engine_the_same_wins_as_the_grouping_module():
    rng = random.Random("wins")
    skill = {f"p{i:03d}": rng.gauss(0, 1) for i in range(16)}
    history, *_ = bench.simulate_event(16, 0, 1.2, "engine", skill)
    view = bench.records(bench.wins_only(history))
    assert {p: rec.points for p, rec in view.items()} == grouping_points(history, sorted(skill), "wins")
