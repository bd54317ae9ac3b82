"""The seeding experiment of the fairness benchmark (bench/bench_fairness.py, issue 19)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("scipy")

_PATH = Path(__file__).resolve().parents[2] / "bench" / "bench_fairness.py"
_SPEC = importlib.util.spec_from_file_location("bench_fairness_seeding", _PATH)
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_an_exact_rating_orders_the_players_by_skill():
    skill = {"a": 0.1, "b": 2.0, "c": -1.0, "d": 0.5}
    assert bench.rating_order(skill, 4, 0, noise=0.0) == ["b", "d", "a", "c"]


def test_a_noisy_rating_is_the_same_for_the_same_event():
    skill = {f"p{i}": i / 10 for i in range(12)}
    assert bench.rating_order(skill, 12, 3, noise=1.0) == bench.rating_order(skill, 12, 3, noise=1.0)


def test_a_seeded_event_spreads_the_best_rated_players_in_round_1_only():
    skill = {f"p{i:02d}": float(i) for i in range(16)}
    history, seated, _, _ = bench.simulate_event(16, 0, 1.2, "seed-r1:exact", skill)
    top = ["p15", "p14", "p13", "p12"]
    assert len({next(i for i, t in enumerate(seated[0]) if p in t) for p in top}) == 4
    assert len(history) == len(seated) == bench.swiss_rounds(16).rounds


def test_the_seeding_policies_are_experiments():
    assert bench.parse_policies("seed-r1,seed-r1:exact") == ("engine", "seed-r1", "seed-r1:exact")
