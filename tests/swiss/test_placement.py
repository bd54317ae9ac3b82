from __future__ import annotations

import pytest

from tournaments.swiss import Seat, SwissError, place_game


def order(result):
    return [p.player for p in result.placements]


def test_most_vp_wins_12050():
    result = place_game([Seat("a", 30), Seat("b", 41), Seat("c", 12), Seat("d", 25)])
    assert order(result) == ["b", "a", "d", "c"]
    assert [p.points for p in result.placements] == [5, 3, 2, 2]
    assert result.placements[0].reason == "41 VP"


def test_a_vp_tie_goes_to_more_super_villains_12050():
    result = place_game([Seat("a", 30, 1), Seat("b", 30, 3), Seat("c", 12)])
    assert order(result) == ["b", "a", "c"]
    assert result.placements[0].reason == "tied on VP, more Super-Villains"
    assert result.placements[1].reason == "tied on VP, fewer Super-Villains"


def test_it_asks_who_defeated_a_super_villain_most_recently_when_points_differ():
    result = place_game([Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12), Seat("d", 10)])
    assert result.question == (("a", "b"),)
    assert not result.complete


def test_the_answer_settles_the_tie():
    result = place_game([Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)], recent_super_villain=["a"])
    assert order(result) == ["a", "b", "c"]
    assert result.complete
    assert "more recently" in result.placements[0].reason


def test_it_does_not_ask_when_the_tied_places_score_the_same():
    # 3rd and 4th both score 2 in the classic profile: later in turn order settles it.
    result = place_game([Seat("a", 10, 0), Seat("b", 10, 0), Seat("c", 40), Seat("d", 30)])
    assert result.complete
    assert order(result) == ["c", "d", "b", "a"]
    assert "later in turn order" in result.placements[2].reason


def test_without_scoring_every_tie_is_asked():
    result = place_game([Seat("a", 10, 1), Seat("b", 10, 1), Seat("c", 40), Seat("d", 30)], scoring=None)
    assert result.question == (("a", "b"),)


def test_no_question_when_the_tied_players_have_no_super_villains():
    result = place_game([Seat("a", 30), Seat("b", 30), Seat("c", 12)])
    assert result.question == ()
    assert order(result) == ["b", "a", "c"]  # later in turn order


def test_an_unanswered_recent_question_falls_to_later_in_turn_order():
    result = place_game([Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)], recent_super_villain=[])
    assert order(result) == ["b", "a", "c"]


def test_a_player_who_left_the_game_is_last_9040():
    result = place_game([Seat("a", 50, left=1), Seat("b", 10), Seat("c", 12)])
    assert order(result) == ["c", "b", "a"]
    assert result.placements[2].reason == "left the game"


def test_of_two_players_who_left_the_first_to_leave_is_lower():
    result = place_game([Seat("a", left=1), Seat("b", left=2), Seat("c", 12), Seat("d", 3)])
    assert order(result)[2:] == ["b", "a"]
    assert result.placements[3].reason == "left the game first"


def test_an_outright_win_is_first_whatever_the_vp():
    result = place_game([Seat("a", 5, outright_win=True), Seat("b", 60), Seat("c", 12)])
    assert order(result) == ["a", "b", "c"]
    assert result.placements[0].reason == "won the game outright"


def test_a_game_loss_penalty_places_the_player_last():
    result = place_game([Seat("a", 60, game_loss=True), Seat("b", 10), Seat("c", 12)])
    assert order(result) == ["c", "b", "a"]


def test_refusing_to_sign_the_slip_scores_zero_12100():
    result = place_game([Seat("a", 60, refused_to_sign=True), Seat("b", 10), Seat("c", 12)])
    assert result.placements[0].player == "a"
    assert result.placements[0].points == 0
    assert "12.100" in result.placements[0].reason


def test_negative_vp_is_refused_1060():
    with pytest.raises(SwissError, match="1.060"):
        place_game([Seat("a", -1), Seat("b", 10), Seat("c", 12)])


def test_two_outright_winners_are_refused():
    with pytest.raises(SwissError):
        place_game([Seat("a", 1, outright_win=True), Seat("b", 1, outright_win=True), Seat("c", 1)])
