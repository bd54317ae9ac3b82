"""Extra turns after a time call (9.020-9.022, 9.050, DECISIONS.md)."""

import pytest

from judging.time_call import TimeCallError, extra_turns, time_call

# (players in game, active seat) -> extra turns, every seat at 2 to 5 players.
TABLE = {
    (2, 1): 1, (2, 2): 2,
    (3, 1): 2, (3, 2): 4, (3, 3): 3,
    (4, 1): 3, (4, 2): 6, (4, 3): 5, (4, 4): 4,
    (5, 1): 4, (5, 2): 8, (5, 3): 7, (5, 4): 6, (5, 5): 5,
}  # fmt: skip


@pytest.mark.parametrize(("players", "seat"), sorted(TABLE))
def test_extra_turns_for_every_seat(players, seat):
    assert extra_turns(players, seat) == TABLE[(players, seat)]


def test_the_rule_books_three_player_example():
    # 9.021: time called during the first player's turn at a 3-player table: two more turns.
    assert time_call(3, 1).turns == (2, 3)


def test_the_rule_books_four_player_example():
    # 9.022: time called during player three's turn at a 4-player table: P4 completes the cycle, then one each.
    assert time_call(4, 3).turns == (4, 1, 2, 3, 4)


def test_the_sequence_reads_as_a_sentence():
    call = time_call(4, 3)
    assert call.extra_turns == 5
    assert call.sentence == "P3 finishes, then P4, P1, P2, P3, P4; the game ends after P4's turn."


def test_players_who_left_are_not_counted():
    call = time_call(4, 3, left=[2])
    assert call.players_in_game == 3
    assert call.turns == (4, 1, 3, 4)


def test_if_the_first_player_left_the_next_counts_as_first():
    call = time_call(4, 2, left=[1])
    assert call.extra_turns == 2
    assert call.turns == (3, 4)


def test_between_turns_counts_as_the_turn_about_to_begin():
    call = time_call(3, 2, between_turns=True)
    assert call.turns == (3, 1, 2, 3)
    assert call.sentence.startswith("P2 takes this turn, then P3")


def test_labels_name_the_players():
    call = time_call(3, 3, labels={1: "Ann", 2: "Bob", 3: "Cid"})
    assert call.sentence == "Cid finishes, then Ann, Bob, Cid; the game ends after Cid's turn."


@pytest.mark.parametrize(
    ("seats", "active", "left", "message"),
    [
        (4, 5, (), "Choose a seat from 1 to 4"),
        (4, 2, (2,), "has left the game"),
        (3, 1, (2, 3), "at least 2 players"),
        (1, 1, (), "2 to 5 seats"),
        (4, 1, (7,), "not at this table"),
    ],
)
def test_bad_input_is_a_clear_error(seats, active, left, message):
    with pytest.raises(TimeCallError, match=message):
        time_call(seats, active, left=left)


def test_extra_turns_rejects_an_active_seat_out_of_range():
    with pytest.raises(TimeCallError):
        extra_turns(4, 0)


@pytest.mark.parametrize(("players", "seat"), sorted(TABLE))
def test_every_sequence_ends_the_game_after_the_last_player_in_turn_order(players, seat):
    # Whoever was active, the game stops at the end of a full round, so nobody gets an extra turn more
    # than a player later in turn order.
    call = time_call(players, seat)
    assert len(call.turns) == call.extra_turns == TABLE[(players, seat)]
    assert call.last == players


def test_between_turns_before_the_first_player_completes_one_round():
    assert time_call(4, 1, between_turns=True).turns == (2, 3, 4)


def test_with_the_first_player_gone_the_game_still_ends_after_the_last_seat():
    assert time_call(4, 4, left=[1]).turns == (2, 3, 4)
