"""The benchmark's repeat-free floor: the least spread a round can have without a repeat pair."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "bench" / "bench_swiss.py"
_SPEC = importlib.util.spec_from_file_location("bench_swiss", _PATH)
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def met_pairs(*pairs: tuple[str, str]) -> dict[str, set[str]]:
    met: dict[str, set[str]] = {}
    for a, b in pairs:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return met


def test_no_history_gives_the_top_down_spread():
    totals = {"a": 5, "b": 5, "c": 5, "d": 5, "e": 2, "f": 2, "g": 2, "h": 2}
    assert bench.repeat_free_floor(list(totals), totals, {}, [4, 4]) == 0


def test_a_met_pair_with_equal_points_must_split():
    # a and b met: they sit apart, so each table holds a 5 and a 2 at best: spread 3 + 3.
    totals = {"a": 5, "b": 5, "c": 5, "d": 5, "e": 2, "f": 2, "g": 2, "h": 2}
    assert bench.repeat_free_floor(list(totals), totals, met_pairs(("a", "b")), [4, 4]) == 6


def test_tables_of_three_may_sit_anywhere_in_the_bound():
    # 7 players: one 4 and one 3; the best partition puts the three 9s at the 3-player table.
    totals = {"a": 9, "b": 9, "c": 9, "d": 1, "e": 1, "f": 1, "g": 1}
    assert bench.repeat_free_floor(list(totals), totals, {}, [4, 3]) == 0


def test_no_repeat_free_seating_gives_none():
    names = ["a", "b", "c", "d"]
    totals = dict.fromkeys(names, 0)
    assert bench.repeat_free_floor(names, totals, met_pairs(("a", "b")), [4]) is None
