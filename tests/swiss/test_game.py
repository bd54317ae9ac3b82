from __future__ import annotations

import pytest

from tournaments.swiss import CLASSIC, Seat, Slip, SlipError, SwissError, TieAnswerError, game_result


def place_game(seats, *, recent_super_villain=None, playoff=False, **slip):
    return game_result(Slip(tuple(seats), playoff=playoff, recent_super_villain=recent_super_villain, **slip))


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
    result = place_game([Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)], recent_super_villain={"a": 1})
    assert order(result) == ["a", "b", "c"]
    assert result.complete
    assert "more recently" in result.placements[0].reason


def test_it_does_not_ask_when_the_tied_places_score_the_same():
    # 3rd and 4th both score 2 in the classic profile: later in turn order settles it.
    result = place_game([Seat("a", 10, 0), Seat("b", 10, 0), Seat("c", 40), Seat("d", 30)])
    assert result.complete
    assert order(result) == ["c", "d", "b", "a"]
    assert "later in turn order" in result.placements[2].reason


def test_in_the_playoffs_every_tie_is_asked():
    result = place_game([Seat("a", 10, 1), Seat("b", 10, 1), Seat("c", 40), Seat("d", 30)], playoff=True)
    assert result.question == (("a", "b"),)


def test_no_question_when_the_tied_players_have_no_super_villains():
    result = place_game([Seat("a", 30), Seat("b", 30), Seat("c", 12)])
    assert result.question == ()
    assert order(result) == ["b", "a", "c"]  # later in turn order


def test_an_earlier_answer_counts_when_it_names_every_tied_player():
    seats = [Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)]
    result = place_game(seats, earlier_answer=("a", "b"))
    assert result.complete
    assert order(result) == ["a", "b", "c"]
    assert result.answer == ("a", "b")


def test_an_earlier_answer_that_misses_a_tied_player_asks_again():
    seats = [Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)]
    result = place_game(seats, earlier_answer=("a", "c"))
    assert result.question == (("a", "b"),)


def test_two_tied_players_given_the_same_number_are_refused_and_asked_again():
    seats = [Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)]
    with pytest.raises(TieAnswerError) as refused:
        place_game(seats, recent_super_villain={"a": 1, "b": 1})
    assert refused.value.question == (("a", "b"),)


def test_an_answer_naming_someone_else_is_refused():
    seats = [Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)]
    with pytest.raises(TieAnswerError):
        place_game(seats, recent_super_villain={"zed": 1})


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


def test_a_player_who_left_cannot_also_win_outright():
    with pytest.raises(SlipError, match="left the game") as refused:
        place_game([Seat("a", 1, left=1, outright_win=True), Seat("b", 1), Seat("c", 1)])
    assert refused.value.player == "a"


def test_everyone_leaving_is_refused_9040():
    with pytest.raises(SlipError, match="9.040"):
        place_game([Seat("a", 1, left=1), Seat("b", 1, left=2), Seat("c", 1, left=3)])


def test_leaving_numbers_run_from_one_to_one_less_than_the_table():
    with pytest.raises(SlipError, match="1 to 2"):
        place_game([Seat("a", 1, left=3), Seat("b", 1), Seat("c", 1)])


def test_two_players_leaving_at_the_same_moment_are_refused():
    with pytest.raises(SlipError, match="same moment"):
        place_game([Seat("a", 1, left=1), Seat("b", 1, left=1), Seat("c", 1), Seat("d", 1)])


def test_a_judges_override_sets_the_order_and_points_follow():
    seats = [Seat("a", 30), Seat("b", 20), Seat("c", 10, refused_to_sign=True)]
    result = place_game(seats, override=("c", "b", "a"), override_reason="recount")
    assert order(result) == ["c", "b", "a"]
    assert [p.points for p in result.placements] == [0, 3, 2]
    assert result.placements[1].reason == "set by a judge: recount"
    assert "12.100" in result.placements[0].reason


def test_an_override_needs_every_player_once():
    with pytest.raises(SlipError, match="every player"):
        place_game([Seat("a", 30), Seat("b", 20), Seat("c", 10)], override=("a", "a", "b"))


def test_an_override_does_not_ask_the_tie_question():
    seats = [Seat("a", 30, 2), Seat("b", 30, 2), Seat("c", 12)]
    assert place_game(seats, override=("b", "a", "c")).complete


def test_playoff_places_score_points_and_refusing_to_sign_scores_zero_once():
    seats = [Seat("a", 40, refused_to_sign=True), Seat("b", 30), Seat("c", 20), Seat("d", 10)]
    result = place_game(seats, playoff=True)
    assert [p.points for p in result.placements] == [0, 3, 2, 2]
    assert result.placements[0].reason.count("12.100") == 1


def test_points_come_from_the_events_scoring():
    custom = CLASSIC.__class__("custom", {3: (4, 2, 1), 4: (4, 2, 1, 0), 5: (4, 2, 1, 0, 0)})
    result = game_result(Slip((Seat("a", 30), Seat("b", 20), Seat("c", 10))), scoring=custom)
    assert [p.points for p in result.placements] == [4, 2, 1]


def test_a_slip_of_two_players_is_refused():
    with pytest.raises(SwissError, match="3 to 5"):
        place_game([Seat("a", 30), Seat("b", 20)])
