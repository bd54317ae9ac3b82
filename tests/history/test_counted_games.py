"""tournaments.selectors_games: every counted game as plain data, in the order it was played."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Event, Round, Seat
from tournaments.people import person_key
from tournaments.selectors_games import counted_games, final_places

pytestmark = pytest.mark.django_db


def simulated_event(players: int = 9, seed: int = 1) -> Event:
    call_command("simulate_event", "--players", str(players), "--seed", str(seed), stdout=io.StringIO())
    return Event.objects.order_by("-pk").first()


def test_it_lists_every_table_of_every_closed_round_in_order():
    event = simulated_event()
    games = counted_games(event_ids=[event.pk])
    tables = sum(r.tables.count() for r in Round.objects.filter(event=event, status=Round.Status.CLOSED))
    assert len(games) == tables
    keys = [(g.round_number, g.table_number) for g in games]
    assert keys == sorted(keys)
    assert games[-1].round_kind == Round.Kind.FINAL
    for game in games:
        assert sorted(s.placement for s in game.seats)[0] == 1
        assert [s.seat for s in game.seats] == sorted(s.seat for s in game.seats)


def test_it_leaves_out_a_table_whose_result_is_missing():
    event = simulated_event()
    seat = Seat.objects.filter(round__event=event, round__number=1).first()
    Seat.objects.filter(pk=seat.pk).update(placement=None)
    games = counted_games(event_ids=[event.pk])
    assert all(
        s.registration_id != seat.registration_id for g in games if g.round_number == 1 for s in g.seats
    )


def test_it_takes_only_the_games_of_the_players_asked_for():
    event = simulated_event()
    player_id = Seat.objects.filter(round__event=event).first().registration.player_id
    games = counted_games(player_ids=[player_id])
    assert games and all(any(s.player_id == player_id for s in g.seats) for g in games)


def test_the_person_is_the_account_when_the_record_has_one():
    assert person_key(player_id=3, user_id=7) == "u7"
    assert person_key(player_id=3, user_id=None) == "p3"


def test_the_number_of_queries_does_not_grow_with_the_events():
    simulated_event(9, 1)
    with CaptureQueriesContext(connection) as one:
        counted_games()
    simulated_event(13, 2)
    with CaptureQueriesContext(connection) as two:
        counted_games()
    assert len(one) == len(two) == 2


def test_a_finished_event_has_a_place_for_every_player():
    event = simulated_event()
    places = final_places([event])[event.pk]
    assert sorted(places.values()) == list(range(1, event.registrations.count() + 1))


def test_an_event_still_running_has_no_final_places():
    event = simulated_event()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    event.refresh_from_db()
    assert final_places([event]) == {}


@pytest.mark.parametrize("text", ["u1", "p34", "u123456789012345678"])
def test_a_person_key_is_u_or_p_and_a_record_or_account_number(text):
    from tournaments.people import valid_key

    assert valid_key(text)


@pytest.mark.parametrize("text", ["", "u", "x1", "u0", "p-1", "p1\x00", "u1 ", "u1234567890123456789"])
def test_anything_else_names_nobody(text):
    from tournaments.people import valid_key

    assert not valid_key(text)
