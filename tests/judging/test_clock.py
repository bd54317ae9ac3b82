"""The round clock: remaining time computed on the server from start, pauses and extensions."""

import datetime

import pytest

from judging import clock as clockmath
from judging import selectors, services
from judging.models import RoundClock
from tests.judging.helpers import judge, pause, running_event, seat_round, start_clock, time_up
from tournaments.errors import ActionError

T0 = datetime.datetime(2026, 12, 5, 10, 0, tzinfo=datetime.UTC)


def minutes(n: float) -> datetime.timedelta:
    return datetime.timedelta(minutes=n)


def test_it_counts_down_from_the_round_length():
    clock = clockmath.Clock(started_at=T0, minutes=60)
    assert clock.remaining_seconds(T0 + minutes(15)) == 45 * 60


def test_it_leaves_finished_pauses_out():
    clock = clockmath.Clock(
        started_at=T0, minutes=60, pauses=(clockmath.Pause(T0 + minutes(10), T0 + minutes(20)),)
    )
    assert clock.remaining_seconds(T0 + minutes(30)) == 40 * 60


def test_it_stands_still_during_an_open_pause():
    clock = clockmath.Clock(started_at=T0, minutes=60, pauses=(clockmath.Pause(T0 + minutes(10)),))
    assert clock.remaining_seconds(T0 + minutes(11)) == clock.remaining_seconds(T0 + minutes(40)) == 50 * 60


def test_it_adds_a_tables_extension():
    clock = clockmath.Clock(started_at=T0, minutes=60)
    assert clock.remaining_seconds(T0 + minutes(61), extra_minutes=5) == 4 * 60


def test_it_goes_negative_once_time_is_up_but_shows_zero():
    clock = clockmath.Clock(started_at=T0, minutes=60)
    assert clock.remaining_seconds(T0 + minutes(62)) == -120
    assert clockmath.as_text(-120) == "0:00"


@pytest.mark.django_db
def test_starting_takes_the_events_round_length():
    event, players = running_event(4, round_minutes=45)
    round = seat_round(event, players)
    services.clock_start(round=round, user=judge(event))
    assert RoundClock.objects.get(round=round).minutes == 45


@pytest.mark.django_db
def test_starting_twice_keeps_the_first_start():
    event, players = running_event(4)
    round = seat_round(event, players)
    first = time_up(round)
    services.clock_start(round=round, user=judge(event))
    assert RoundClock.objects.get(round=round).started_at == first.started_at


@pytest.mark.django_db
def test_a_pause_needs_a_reason():
    event, players = running_event(4)
    round = seat_round(event, players)
    start_clock(round)
    with pytest.raises(ActionError, match="why"):
        services.clock_pause(round=round, user=None, reason="  ")


@pytest.mark.django_db
def test_pausing_twice_is_refused():
    event, players = running_event(4)
    round = seat_round(event, players)
    start_clock(round)
    services.clock_pause(round=round, user=None, reason="announcement")
    with pytest.raises(ActionError, match="already paused"):
        services.clock_pause(round=round, user=None, reason="again")


@pytest.mark.django_db
def test_the_page_state_shows_the_pause_and_its_reason():
    event, players = running_event(4)
    round = seat_round(event, players)
    clock = start_clock(round, minutes_ago=30)
    pause(clock, minutes_ago=10)
    state = selectors.round_clock(round=round)
    assert state.paused and state.pause_reason == "announcement"
    assert 39 * 60 <= state.remaining <= 40 * 60


@pytest.mark.django_db
def test_resuming_ends_the_pause():
    event, players = running_event(4)
    round = seat_round(event, players)
    clock = start_clock(round, minutes_ago=30)
    pause(clock, minutes_ago=10)
    services.clock_resume(round=round, user=None)
    state = selectors.round_clock(round=round)
    assert not state.paused
    assert 39 * 60 <= state.remaining <= 40 * 60


@pytest.mark.django_db
def test_an_extension_records_who_gave_it_and_moves_only_that_table():
    event, players = running_event(8)
    round = seat_round(event, players)
    time_up(round)
    user = judge(event)
    first, second = round.tables.order_by("number")
    extension = services.table_extend(table=first, user=user, minutes=5, reason="long ruling")
    assert extension.given_by == user
    _, tables = selectors.round_board(round=round)
    assert tables[0].remaining > 0 and tables[0].status == selectors.PLAYING
    assert tables[1].status == selectors.TIME_CALLED


@pytest.mark.django_db
def test_an_extension_needs_a_reason():
    event, players = running_event(4)
    round = seat_round(event, players)
    with pytest.raises(ActionError, match="why"):
        services.table_extend(table=round.tables.get(), user=None, minutes=5, reason="")


@pytest.mark.django_db
def test_the_judge_view_reads_a_fixed_number_of_queries(django_assert_max_num_queries):
    event, players = running_event(40)
    round = seat_round(event, players)
    time_up(round)
    with django_assert_max_num_queries(10):
        selectors.round_board(round=round)
