"""ratings.core: the replay of games through openskill's Plackett-Luce model (no database)."""

from __future__ import annotations

import datetime

import pytest

from ratings.core import PROVISIONAL_GAMES, RatedGame, rate_games

DAY = datetime.date(2026, 1, 10)


def game(*seats, played=DAY) -> RatedGame:
    return RatedGame(seats=tuple(seats), played=played)


def test_it_moves_the_winner_up_and_the_last_down():
    ratings = rate_games([game(("a", 1), ("b", 2), ("c", 3), ("d", 4))])
    assert ratings["a"].mu > 25 > ratings["d"].mu
    assert ratings["a"].mu > ratings["b"].mu > ratings["c"].mu > ratings["d"].mu


def test_the_rating_is_mu_minus_three_sigma():
    rating = rate_games([game(("a", 1), ("b", 2), ("c", 3))])["a"]
    assert rating.rating == pytest.approx(rating.mu - 3 * rating.sigma)


def test_equal_placements_share_a_rank():
    ratings = rate_games([game(("a", 1), ("b", 2), ("c", 2), ("d", 4))])
    assert ratings["b"].mu == pytest.approx(ratings["c"].mu)
    assert ratings["b"].sigma == pytest.approx(ratings["c"].sigma)


def test_the_same_games_in_the_same_order_give_the_same_numbers():
    games = [game(("a", 1), ("b", 2), ("c", 3), ("d", 4)), game(("d", 1), ("a", 2), ("e", 3))] * 5
    assert rate_games(games) == rate_games(list(games))


def test_a_correction_in_an_old_game_changes_the_ratings_after_it():
    later = [game(("a", 1), ("c", 2), ("e", 3)), game(("c", 1), ("f", 2), ("g", 3))]
    before = rate_games([game(("a", 1), ("b", 2), ("c", 3)), *later])
    corrected = rate_games([game(("a", 3), ("b", 2), ("c", 1)), *later])
    # f never sat with a or c's first game, yet its rating moves: the replay carries the correction on.
    assert corrected["f"].mu != pytest.approx(before["f"].mu)
    assert corrected["g"].mu != pytest.approx(before["g"].mu)


def test_it_counts_games_and_the_last_day_played():
    games = [
        game(("a", 1), ("b", 2), ("c", 3), played=datetime.date(2026, 1, 1)),
        game(("a", 2), ("b", 1), ("d", 3), played=datetime.date(2026, 2, 1)),
    ]
    ratings = rate_games(games)
    assert ratings["a"].games == 2 and ratings["c"].games == 1
    assert ratings["a"].last_played == datetime.date(2026, 2, 1)
    assert ratings["c"].last_played == datetime.date(2026, 1, 1)


def test_a_rating_is_provisional_below_the_games_threshold():
    games = [game(("a", 1), ("b", 2), ("c", 3))] * (PROVISIONAL_GAMES - 1)
    assert rate_games(games)["a"].provisional
    assert not rate_games([*games, game(("a", 1), ("b", 2))])["a"].provisional


def test_a_game_with_one_person_left_teaches_nothing():
    assert rate_games([game(("a", 1))]) == {}


def test_one_person_twice_at_a_table_keeps_the_better_placement():
    twice = rate_games([game(("a", 3), ("b", 2), ("a", 1))])
    once = rate_games([game(("a", 1), ("b", 2))])
    assert twice["a"].games == 1
    assert twice["a"].mu == pytest.approx(once["a"].mu)


@pytest.mark.parametrize("seats", [(("a", 0), ("b", 1)), (("", 1), ("b", 2)), (("a", "1"), ("b", 2))])
def test_it_refuses_a_placement_or_person_that_makes_no_sense(seats):
    with pytest.raises(ValueError):
        rate_games([game(*seats)])
