from __future__ import annotations

import pytest

from tournaments.swiss import SwissError
from tournaments.swiss.grouping import grouping_points

from .helpers import table


def test_it_groups_by_points_by_default():
    rounds = [[table(["a", "b", "c", "d"])], [table(["b", "a", "d", "c"])]]
    assert grouping_points(rounds, "abcd") == {"a": 8, "b": 8, "c": 4, "d": 4}


def test_it_counts_first_places_when_grouping_by_wins():
    rounds = [[table(["a", "b", "c", "d"])], [table(["b", "a", "d", "c"])]]
    assert grouping_points(rounds, "abcd", "wins") == {"a": 1, "b": 1, "c": 0, "d": 0}


def test_it_tells_a_win_from_second_places_that_tie_with_it_on_points():
    rounds = [
        [table(["a", "b", "c", "d"]), table(["e", "f", "g", "h"])],
        [table(["e", "b", "g", "a"]), table(["f", "h", "c", "d"])],
        [table(["h", "b", "c", "a"]), table(["g", "f", "e", "d"])],
    ]
    points = grouping_points(rounds, "ab")
    assert points["a"] == points["b"] == 9  # 5 + 2 + 2 and 3 + 3 + 3
    assert grouping_points(rounds, "ab", "wins") == {"a": 1, "b": 0}


def test_it_counts_a_win_at_a_3_player_table():
    assert grouping_points([[table(["a", "b", "c"])]], "abc", "wins") == {"a": 1, "b": 0, "c": 0}


def test_it_gives_a_player_who_has_not_played_nothing():
    assert grouping_points([[table(["a", "b", "c"])]], ["a", "z"], "wins") == {"a": 1, "z": 0}


def test_it_refuses_an_unknown_grouping():
    with pytest.raises(SwissError, match="grouping must be one of points, wins"):
        grouping_points([], "abc", "vp")
