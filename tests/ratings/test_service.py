"""ratings.services.ratings_recompute: every counted game replayed and stored, skipped when nothing changed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.core import PROVISIONAL_GAMES
from ratings.models import PlayerRating, RatingState
from ratings.selectors import ratings_for
from ratings.services import ratings_recompute
from tournaments.models import Round, Seat
from tournaments.people import person_key
from tournaments.selectors_games import counted_games

from .helpers import simulated_event

pytestmark = pytest.mark.django_db


def test_it_rates_everyone_who_played_a_counted_game():
    event = simulated_event()
    result = ratings_recompute()
    games = counted_games(event_ids=[event.pk])
    persons = {s.person for g in games for s in g.seats}
    assert result.changed and result.games == len(games)
    assert set(PlayerRating.objects.values_list("person", flat=True)) == persons
    assert RatingState.objects.get().computed_at is not None


def test_it_counts_each_persons_games():
    event = simulated_event()
    ratings_recompute()
    games = counted_games(event_ids=[event.pk])
    seat = games[0].seats[0]
    played = sum(1 for g in games for s in g.seats if s.person == seat.person)
    left = Seat.objects.filter(
        registration_id=seat.registration_id, round__status=Round.Status.CLOSED, left_game__isnull=False
    ).count()
    assert PlayerRating.objects.get(person=seat.person).games == played - left


def test_it_writes_nothing_when_the_inputs_are_unchanged():
    simulated_event()
    ratings_recompute()
    computed = RatingState.objects.get().computed_at
    assert not ratings_recompute().changed
    assert RatingState.objects.get().computed_at == computed


def test_a_correction_in_a_closed_round_changes_the_ratings():
    event = simulated_event()
    ratings_recompute()
    game = counted_games(event_ids=[event.pk])[0]
    first, last = (
        sorted(game.seats, key=lambda s: s.placement)[0],
        sorted(game.seats, key=lambda s: s.placement)[-1],
    )
    before = PlayerRating.objects.get(person=first.person).mu
    Seat.objects.filter(registration_id=first.registration_id, round__number=game.round_number).update(
        placement=last.placement
    )
    Seat.objects.filter(registration_id=last.registration_id, round__number=game.round_number).update(
        placement=1
    )
    assert ratings_recompute().changed
    assert PlayerRating.objects.get(person=first.person).mu != pytest.approx(before)


def test_a_game_loss_leaves_that_player_out_of_the_game():
    event = simulated_event()
    ratings_recompute()
    game = counted_games(event_ids=[event.pk])[0]
    seat = game.seats[0]
    games_before = PlayerRating.objects.get(person=seat.person).games
    Seat.objects.filter(registration_id=seat.registration_id, round__number=game.round_number).update(
        game_loss=True, placement=len(game.seats)
    )
    ratings_recompute()
    assert PlayerRating.objects.get(person=seat.person).games == games_before - 1
    others = [s.person for s in game.seats if s.person != seat.person]
    assert all(PlayerRating.objects.filter(person=p).exists() for p in others)


def test_a_player_who_left_the_game_is_left_out_of_it():
    event = simulated_event()
    ratings_recompute()
    game = counted_games(event_ids=[event.pk])[0]
    seat = game.seats[-1]
    games_before = PlayerRating.objects.get(person=seat.person).games
    Seat.objects.filter(registration_id=seat.registration_id, round__number=game.round_number).update(
        left_game=1
    )
    ratings_recompute()
    assert PlayerRating.objects.get(person=seat.person).games == games_before - 1


def test_players_with_few_games_are_provisional():
    simulated_event()
    ratings_recompute()
    for rating in PlayerRating.objects.all():
        assert rating.provisional == (rating.games < PROVISIONAL_GAMES)
    assert PlayerRating.objects.filter(provisional=True).exists()


def test_two_events_replay_in_date_order_and_add_up():
    simulated_event(9, 1)
    simulated_event(10, 2)
    result = ratings_recompute()
    assert result.games == len(counted_games())
    assert PlayerRating.objects.count() == 19


def test_ratings_for_reads_in_one_query_however_many_persons():
    simulated_event(12, 3)
    ratings_recompute()
    persons = list(PlayerRating.objects.values_list("person", flat=True))
    with CaptureQueriesContext(connection) as queries:
        views = ratings_for(persons + ["u999999", "nonsense"])
    assert len(queries) == 1
    assert set(views) == set(persons)


def test_a_claimed_record_is_rated_as_its_account():
    from tests.factories import make_user

    event = simulated_event()
    ratings_recompute()
    seat = Seat.objects.filter(round__event=event, round__status=Round.Status.CLOSED).first()
    player = seat.registration.player
    user = make_user()
    player.user = user
    player.save(update_fields=["user"])
    ratings_recompute()
    assert PlayerRating.objects.filter(person=person_key(player_id=player.pk, user_id=user.pk)).exists()
    assert not PlayerRating.objects.filter(person=person_key(player_id=player.pk, user_id=None)).exists()


def test_a_failed_recompute_leaves_the_stored_ratings_as_they_were(monkeypatch):
    from ratings import services

    event = simulated_event()
    ratings_recompute()
    before = list(PlayerRating.objects.order_by("person").values_list("person", "mu"))
    Seat.objects.filter(round__event=event, round__number=1).update(placement=1)

    def broken(games):
        raise RuntimeError("replay failed")

    monkeypatch.setattr(services, "rate_games", broken)
    with pytest.raises(RuntimeError):
        ratings_recompute()
    assert list(PlayerRating.objects.order_by("person").values_list("person", "mu")) == before


def test_the_command_recomputes_and_then_says_nothing_changed():
    import io

    from django.core.management import call_command

    simulated_event()
    out = io.StringIO()
    call_command("ratings_recompute", stdout=out)
    call_command("ratings_recompute", stdout=out)
    first, second = out.getvalue().splitlines()
    assert first.startswith(f"{PlayerRating.objects.count()} ratings from")
    assert second.startswith("Unchanged")
