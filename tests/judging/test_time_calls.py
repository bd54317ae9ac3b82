"""Recording a time call at a table, the extra-turn sequence and ticking it off."""

import re

import pytest
from django.urls import reverse

from judging import selectors, services
from judging.models import Infraction, TimeCall
from tests.judging.helpers import enter_result, judge, running_event, seat_round, start_clock, time_up
from tournaments.errors import ActionError
from tournaments.models import Seat
from tournaments.services.registration import registration_drop

pytestmark = pytest.mark.django_db


def four_player_table():
    event, players = running_event(4)
    round = seat_round(event, players)
    return round, round.tables.get()


def test_time_cannot_be_called_while_the_table_has_time_left():
    round, table = four_player_table()
    start_clock(round, minutes_ago=10)
    with pytest.raises(ActionError, match="still has"):
        services.time_call_record(table=table, user=None, active_seat=3)


def test_time_cannot_be_called_before_the_clock_starts():
    _, table = four_player_table()
    with pytest.raises(ActionError, match="not been started"):
        services.time_call_record(table=table, user=None, active_seat=3)


def test_p3_of_four_gives_five_extra_turns():
    round, table = four_player_table()
    time_up(round)
    call = services.time_call_record(table=table, user=None, active_seat=3)
    assert call.extra_turns == 5


def test_the_sequence_names_each_turn_in_turn_order():
    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=3)
    state = selectors.table_clock(table=table)
    assert [t.seat.seat for t in state.turns] == [3, 4, 1, 2, 3, 4]
    assert state.sentence == "P3 finishes, then P4, P1, P2, P3, P4; the game ends after P4's turn."


def test_a_player_who_left_the_game_is_not_counted():
    round, table = four_player_table()
    time_up(round)
    # P2 left: three players remain; P3 is the second of them, so (3 - 2) + 3 = 4 turns.
    call = services.time_call_record(table=table, user=None, active_seat=3, seats_left=[2])
    assert call.extra_turns == 4
    assert [t.seat.seat for t in selectors.table_clock(table=table).turns] == [3, 4, 1, 3, 4]


def test_when_the_first_player_left_the_next_one_counts_as_first():
    round, table = four_player_table()
    time_up(round)
    call = services.time_call_record(table=table, user=None, active_seat=2, seats_left=[1])
    assert call.extra_turns == 2


def test_the_active_player_must_still_be_in_the_game():
    round, table = four_player_table()
    time_up(round)
    with pytest.raises(ActionError, match="left the game"):
        services.time_call_record(table=table, user=None, active_seat=2, seats_left=[2])


def test_a_second_time_call_is_refused_unless_correcting():
    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=3)
    with pytest.raises(ActionError, match="already called"):
        services.time_call_record(table=table, user=None, active_seat=1)
    call = services.time_call_record(table=table, user=None, active_seat=1, correcting=True)
    assert call.extra_turns == 3


def test_ticking_off_turns_counts_down_and_ends_in_slip_due():
    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=1)
    services.time_call_set_done(table=table, turns_done=2)
    assert selectors.table_clock(table=table).turns_left == 2
    services.time_call_set_done(table=table, turns_done=4)
    assert selectors.table_clock(table=table).status == selectors.SLIP_DUE


def test_ticking_the_same_turn_twice_is_harmless():
    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=1)
    services.time_call_set_done(table=table, turns_done=1)
    services.time_call_set_done(table=table, turns_done=1)
    assert TimeCall.objects.get(table=table).turns_done == 1


def test_the_judge_view_shows_each_status():
    event, players = running_event(16)
    round = seat_round(event, players)
    time_up(round)
    t1, t2, t3, t4 = round.tables.order_by("number")
    services.table_extend(table=t1, user=None, minutes=10, reason="deck problem")
    services.time_call_record(table=t2, user=None, active_seat=3)
    enter_result(t4, [30, 20, 10, 5])
    _, tables = selectors.round_board(round=round)
    assert [t.status for t in tables] == [
        selectors.PLAYING,
        selectors.EXTRA_TURNS,
        selectors.TIME_CALLED,
        selectors.RESULT_IN,
    ]
    assert tables[1].turns_left == 6


def time_call_form(table):
    from judging.forms import TimeCallForm

    return TimeCallForm(seats=selectors.table_clock(table=table).seats)


def game_loss(table, *, seat: int) -> None:
    services.penalty_record(
        event=table.round.event,
        user=None,
        infraction=Infraction.objects.get(rule="10.070"),
        type="game_loss",
        registration=Seat.objects.get(table=table, seat=seat).registration,
    )


def test_a_player_with_a_game_loss_is_suggested_as_out_of_the_game():
    round, table = four_player_table()
    time_up(round)
    game_loss(table, seat=2)
    form = time_call_form(table)
    assert form.fields["seats_left"].initial == [2]
    assert form.out_of_game == {2: "game loss"}


def test_a_player_dropped_during_the_round_is_suggested_as_out_of_the_game():
    round, table = four_player_table()
    time_up(round)
    fourth = Seat.objects.get(table=table, seat=4)
    # The drop page records a drop during round 1 as "after round 0" (no round closed yet).
    registration_drop(registration=fourth.registration, reason="had to leave", after_round=0)
    assert time_call_form(table).out_of_game == {4: "dropped"}


def test_nobody_is_suggested_when_everyone_plays_on():
    round, table = four_player_table()
    time_up(round)
    form = time_call_form(table)
    assert form.fields["seats_left"].initial == []


def test_a_game_loss_after_the_time_call_asks_for_a_correction():
    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=3)
    game_loss(table, seat=2)
    out = selectors.table_clock(table=table).out_since_call
    assert [(seat.seat, reason) for seat, reason in out] == [(2, "game loss")]
    services.time_call_record(table=table, user=None, active_seat=3, seats_left=[2], correcting=True)
    assert selectors.table_clock(table=table).out_since_call == []


def test_the_table_page_ticks_the_suggestion_and_says_why(client):
    round, table = four_player_table()
    time_up(round)
    game_loss(table, seat=2)
    client.force_login(judge(round.event))
    url = reverse("judging:table", args=[round.event.slug, round.number, table.number])
    page = client.get(url).content.decode()
    assert re.search(r'name="seats_left" value="2"[^>]*checked', page)
    assert not re.search(r'name="seats_left" value="1"[^>]*checked', page)
    assert "(game loss)" in page


def test_the_table_page_seat_list_marks_who_is_out_of_the_game(client):
    round, table = four_player_table()
    game_loss(table, seat=2)
    client.force_login(judge(round.event))
    url = reverse("judging:table", args=[round.event.slug, round.number, table.number])
    page = client.get(url).content.decode()
    seat_list = page.split('class="judging-seats"')[1].split("</ol>")[0]
    items = re.findall(r"<li>(.*?)</li>", seat_list, re.S)
    assert [("game loss" in item) for item in items] == [False, True, False, False]


def test_correcting_a_time_call_starts_from_the_call_recorded():
    from judging.forms import TimeCallForm

    round, table = four_player_table()
    time_up(round)
    services.time_call_record(table=table, user=None, active_seat=3, seats_left=[4])
    state = selectors.table_clock(table=table)
    form = TimeCallForm(seats=state.seats, call=state.time_call)
    assert form.fields["active_seat"].initial == 3
    assert form.fields["seats_left"].initial == [4]
