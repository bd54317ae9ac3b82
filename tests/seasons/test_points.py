"""seasons.points: the presets, custom tables, attendance and the checks of a typed scheme. No database."""

from __future__ import annotations

import pytest

from seasons.points import SchemeError, clean_scheme, describe, event_points, parse_places, place_points


def test_the_store_championship_table_gives_ten_to_the_winner_and_nothing_below_sixteenth():
    scheme = {"preset": "store", "attendance": 0}
    assert [place_points(scheme, p, 24) for p in (1, 2, 3, 4, 5, 8, 9, 16, 17)] == [
        10,
        7,
        5,
        4,
        2,
        2,
        1,
        1,
        0,
    ]


def test_linear_points_are_players_minus_place_plus_one():
    scheme = {"preset": "linear", "attendance": 0}
    assert place_points(scheme, 1, 24) == 24
    assert place_points(scheme, 24, 24) == 1
    assert place_points(scheme, 30, 24) == 0


def test_the_top_heavy_table_stops_at_tenth_place():
    scheme = {"preset": "top_heavy", "attendance": 0}
    assert place_points(scheme, 1, 12) == 25
    assert place_points(scheme, 10, 12) == 1
    assert place_points(scheme, 11, 12) == 0


def test_a_custom_table_gives_zero_below_its_last_place():
    scheme = {"preset": "custom", "places": [6, 3, 1], "attendance": 0}
    assert [place_points(scheme, p, 8) for p in (1, 2, 3, 4)] == [6, 3, 1, 0]


def test_attendance_points_are_added_to_every_place():
    scheme = {"preset": "custom", "places": [6], "attendance": 2}
    assert event_points(scheme, 1, 8) == 8
    assert event_points(scheme, 8, 8) == 2


def test_typed_places_may_be_separated_by_commas_or_spaces():
    assert parse_places("10, 7 5;3") == [10, 7, 5, 3]


@pytest.mark.parametrize("text", ["", "  ", "10, x", "-1", "1.5", "10000", "١٢", ", ".join(["1"] * 65)])
def test_it_refuses_typed_places_that_are_not_whole_numbers_in_range(text):
    with pytest.raises(SchemeError) as error:
        parse_places(text)
    assert error.value.field == "places"


@pytest.mark.parametrize(
    "scheme, field",
    [
        ({"preset": "nope"}, "preset"),
        ({"preset": "store", "attendance": -1}, "attendance"),
        ({"preset": "store", "attendance": True}, "attendance"),
        ({"preset": "custom", "attendance": 0}, "places"),
        ({"preset": "custom", "attendance": 0, "places": [1, "2"]}, "places"),
    ],
)
def test_it_names_the_field_of_a_scheme_it_cannot_use(scheme, field):
    with pytest.raises(SchemeError) as error:
        clean_scheme(scheme)
    assert error.value.field == field


def test_a_preset_keeps_no_custom_places():
    assert clean_scheme({"preset": "linear", "attendance": 1, "places": [5]}) == {
        "preset": "linear",
        "attendance": 1,
    }


def test_the_description_states_the_table_and_attendance():
    assert describe({"preset": "custom", "places": [6, 3], "attendance": 1}) == (
        "Custom: 1st 6, 2nd 3, below 0. Plus 1 for attending (every player who played at least one game of the event)."
    )


def test_an_empty_place_between_commas_is_refused_not_skipped():
    with pytest.raises(SchemeError, match="Place 2 is empty"):
        parse_places("10, , 7")


def test_a_trailing_comma_is_fine():
    assert parse_places("10, 7,") == [10, 7]


def test_points_never_rise_for_a_lower_place():
    with pytest.raises(SchemeError, match="Place 2 gets more points"):
        parse_places("1, 5, 10")
    assert parse_places("5, 5, 3") == [5, 5, 3]
