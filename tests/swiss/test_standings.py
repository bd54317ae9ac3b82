from __future__ import annotations

import pytest

from tournaments.swiss import SwissError, standings

from .helpers import table


def test_points_come_first():
    rows = standings([[table(["a", "b", "c", "d"])]], active="abcd", seed=1)
    assert [r.player for r in rows][:2] == ["a", "b"]
    assert rows[0].points == 5


def test_super_villains_break_a_points_tie_by_default():
    rounds = [[table(["a", "b", "c", "d"], svs=[0, 0, 1, 4])]]
    rows = standings(rounds, active="abcd", seed=1)
    assert [r.player for r in rows][2:] == ["d", "c"]
    assert rows[2].tiebreakers["super_villains"] == 4


def test_the_tiebreaker_order_is_configurable():
    rounds = [[table(["a", "b", "c", "d"], vp=[40, 30, 25, 20], svs=[0, 0, 1, 4])]]
    rows = standings(rounds, active="abcd", seed=1, tiebreakers=["vp", "super_villains"])
    assert [r.player for r in rows][2:] == ["c", "d"]


def test_opponents_points_rate_is_the_mean_of_opponents_points_over_the_table_maximum():
    rounds = [[table(["a", "b", "c", "d"])]]
    rows = {r.player: r for r in standings(rounds, active="abcd", seed=1)}
    # a's opponents scored 3, 2 and 2 of a possible 5 each.
    assert rows["a"].tiebreakers["opponents_points_rate"] == pytest.approx((3 + 2 + 2) / 15)


def test_a_seeded_draw_makes_the_order_total_and_reproducible():
    first = [r.player for r in standings([], active=["x", "y", "z"], seed=9)]
    assert first == [r.player for r in standings([], active=["z", "y", "x"], seed=9)]
    assert [r.rank for r in standings([], active=["x", "y", "z"], seed=9)] == [1, 2, 3]


def test_dropped_players_still_appear():
    rows = standings([[table(["a", "b", "c", "d"])]], active="abc", seed=1)
    dropped = [r for r in rows if r.player == "d"]
    assert dropped and not dropped[0].active


def test_games_and_placement_counts_are_reported():
    rounds = [[table(["a", "b", "c", "d"])], [table(["b", "a", "d", "c"])]]
    row = next(r for r in standings(rounds, active="abcd", seed=1) if r.player == "a")
    assert row.games == 2
    assert row.placements == (1, 1, 0, 0)


def test_an_unknown_tiebreaker_is_refused():
    with pytest.raises(SwissError, match="unknown tiebreaker"):
        standings([], active="abc", seed=1, tiebreakers=["height"])
