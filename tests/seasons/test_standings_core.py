"""seasons.standings: totals, the stated tiebreakers, shared ranks, events in progress. No database."""

from __future__ import annotations

from seasons.standings import SeasonEventResult, best_places, season_standings

CUSTOM = {"preset": "custom", "places": [5, 3, 1], "attendance": 0}


def names(*people: str) -> dict[str, str]:
    return {p: p.upper() for p in people}


def test_it_adds_the_points_of_every_event_and_ranks_by_them():
    events = [
        SeasonEventResult(1, {"a": 1, "b": 2, "c": 3}),
        SeasonEventResult(2, {"b": 1, "c": 2}),
    ]
    lines = season_standings(events, CUSTOM, names("a", "b", "c"))
    assert [(line.person, line.points) for line in lines] == [("b", 8), ("a", 5), ("c", 4)]
    assert lines[0].event_points == (3, 5)
    assert lines[1].event_points == (5, None)
    assert (lines[0].events_played, lines[0].best_finish, lines[0].event_wins) == (2, 1, 1)


def custom(*places: int) -> dict:
    return {"preset": "custom", "places": list(places), "attendance": 0}


def order(events, scheme, people) -> list[str]:
    return [line.person for line in season_standings(events, scheme, names(*people))]


def test_equal_points_go_to_the_better_single_finish():
    # z: 2nd and 4th = 4 + 2; a: 3rd and 3rd = 3 + 3; nobody won
    events = [SeasonEventResult(1, {"z": 2, "a": 3}), SeasonEventResult(2, {"a": 3, "z": 4})]
    assert order(events, custom(10, 4, 3, 2), "az") == ["z", "a"]


def test_equal_points_and_best_finish_go_to_more_event_wins():
    # z: 1st, 1st = 6; a: 1st, 2nd, 3rd = 6 in more events
    events = [
        SeasonEventResult(1, {"z": 1, "a": 2}),
        SeasonEventResult(2, {"z": 1, "a": 3}),
        SeasonEventResult(3, {"a": 1}),
    ]
    lines = season_standings(events, custom(3, 2, 1), names("a", "z"))
    assert [(line.person, line.points, line.event_wins) for line in lines] == [("z", 6, 2), ("a", 6, 1)]


def test_then_more_events_played():
    # both 4 points, best 2nd, no wins; z played two events
    events = [SeasonEventResult(1, {"a": 2, "z": 2}), SeasonEventResult(2, {"z": 3})]
    lines = season_standings(events, custom(0, 4, 0), names("a", "z"))
    assert [line.person for line in lines] == ["z", "a"]
    assert [line.rank for line in lines] == [1, 2]


def test_people_equal_on_every_tiebreaker_share_the_rank_and_are_listed_by_name():
    events = [SeasonEventResult(1, {"p2": 1}), SeasonEventResult(2, {"p1": 1})]
    lines = season_standings(events, CUSTOM, {"p1": "Zed", "p2": "Amy"})
    assert [line.name for line in lines] == ["Amy", "Zed"]
    assert [line.rank for line in lines] == [1, 1]


def test_an_event_in_progress_gives_no_points_and_shows_no_column_value():
    events = [SeasonEventResult(1, {"a": 1}), SeasonEventResult(2, None)]
    lines = season_standings(events, CUSTOM, names("a"))
    assert lines[0].points == 5
    assert lines[0].event_points == (5, None)


def test_linear_points_count_the_people_in_that_event():
    events = [SeasonEventResult(1, {"a": 1, "b": 2, "c": 3}), SeasonEventResult(2, {"a": 2, "b": 1})]
    lines = season_standings(events, {"preset": "linear", "attendance": 0}, names("a", "b", "c"))
    assert {line.person: line.points for line in lines} == {"a": 4, "b": 4, "c": 1}


def test_a_person_under_two_records_keeps_the_better_place():
    assert best_places([("u1", 5), ("p9", 2), ("u1", 3)]) == {"u1": 3, "p9": 2}


def test_no_finished_event_gives_no_lines():
    assert season_standings([SeasonEventResult(1, None)], CUSTOM, {}) == []
