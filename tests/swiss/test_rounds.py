from __future__ import annotations

import pytest

from tournaments.swiss import FivePlayerError, SwissError, swiss_rounds, table_sizes


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(8, 4), (16, 4), (17, 5), (32, 5), (33, 6), (64, 6), (65, 7), (128, 7)],
)
def test_it_follows_the_9070_table_at_every_boundary(players, rounds):
    assert swiss_rounds(players).rounds == rounds
    assert not swiss_rounds(players).extension


@pytest.mark.parametrize(
    ("players", "rounds"), [(129, 8), (256, 8), (257, 9), (512, 9), (513, 10), (1024, 10), (1025, 11)]
)
def test_it_extends_the_table_one_round_per_doubling_above_128(players, rounds):
    count = swiss_rounds(players)
    assert (count.rounds, count.extension) == (rounds, True)


def test_it_refuses_a_sanctioned_event_below_eight_players_9060():
    with pytest.raises(SwissError, match="at least 8"):
        swiss_rounds(7)


@pytest.mark.parametrize("players", [6, 7])
def test_unsanctioned_events_of_six_or_seven_play_three_rounds(players):
    assert swiss_rounds(players, sanctioned=False).rounds == 3


def test_unsanctioned_events_need_six_players():
    with pytest.raises(SwissError):
        swiss_rounds(5, sanctioned=False)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_tables_are_fours_first_then_threes_9010(players, sizes):
    assert table_sizes(players) == sizes


def test_it_offers_one_five_player_table_for_five_players():
    with pytest.raises(FivePlayerError, match="5-player table"):
        table_sizes(5)
    assert table_sizes(5, allow_five=True) == [5]


@pytest.mark.parametrize("players", [0, 1, 2])
def test_fewer_than_three_players_is_an_error(players):
    with pytest.raises(SwissError, match="at least 3"):
        table_sizes(players)


def test_five_player_error_is_a_swiss_error():
    assert issubclass(FivePlayerError, SwissError)
    assert issubclass(SwissError, ValueError)
