"""Seeding round 1 by rating: the engine deals a seeding order snake-wise; the event setting passes ratings in."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import PlayerRating
from tests.factories import make_event, make_players, make_user
from tests.tournaments.test_event_settings import settings_data
from tournaments import swiss
from tournaments.models import Event, Seat
from tournaments.people import person_key
from tournaments.services import rounds
from tournaments.swiss.history import PlayedTable
from tournaments.swiss.pairing import snake_tables

PLAYERS = [f"{i:02d}" for i in range(1, 17)]


def table_of(pairing: swiss.Pairing) -> dict[str, int]:
    return {p: t.number for t in pairing.tables for p in t.players}


def test_snake_order_puts_the_first_n_at_n_tables_and_turns_back():
    tables = snake_tables(list("abcdefghijkl"), [4, 4, 4])
    assert [t[0] for t in tables] == ["a", "b", "c"]
    assert [t[1] for t in tables] == ["f", "e", "d"]


def test_snake_order_fills_3_player_tables_too():
    tables = snake_tables([str(i) for i in range(13)], [4, 3, 3, 3])
    assert [len(t) for t in tables] == [4, 3, 3, 3]
    assert sorted(p for t in tables for p in t) == sorted(str(i) for i in range(13))


def test_the_strongest_players_sit_at_different_tables_in_round_1():
    strongest = ["07", "03", "12", "15"]
    pairing = swiss.pair_round(PLAYERS, seed=1, seeding=strongest)
    assert len({table_of(pairing)[p] for p in strongest}) == 4


def test_each_table_is_flagged_with_its_top_seed():
    pairing = swiss.pair_round(PLAYERS, seed=1, seeding=["07", "03"])
    kinds = [(f.kind, f.player, f.count) for t in pairing.tables for f in t.flags]
    assert ("seeded", "07", 1) in kinds and ("seeded", "03", 2) in kinds


def test_seeding_is_the_same_for_the_same_input():
    a = swiss.pair_round(PLAYERS, seed=4, seeding=["01", "02"])
    b = swiss.pair_round(PLAYERS, seed=4, seeding=["01", "02"])
    assert a == b


def test_seeding_ignores_players_not_active_and_refuses_a_player_twice():
    pairing = swiss.pair_round(PLAYERS, seed=1, seeding=["gone", "01"])
    assert "gone" not in table_of(pairing)
    with pytest.raises(swiss.SwissError):
        swiss.pair_round(PLAYERS, seed=1, seeding=["01", "01"])


def test_seeding_is_ignored_after_round_1():
    first = swiss.pair_round(PLAYERS, seed=1)
    played = [
        PlayedTable(players=t.players, points={p: 5 - i for i, p in enumerate(t.players)})
        for t in first.tables
    ]
    with_seeding = swiss.pair_round(PLAYERS, [played], seed=1, seeding=PLAYERS)
    assert with_seeding == swiss.pair_round(PLAYERS, [played], seed=1)


@pytest.mark.django_db
def test_an_event_seeded_by_rating_spreads_its_highest_rated_players():
    event = make_event(organizer=make_user(), seed_by_rating=True)
    registrations = make_players(event, 16)
    top = registrations[4:8]
    for n, registration in enumerate(top):
        PlayerRating.objects.create(
            person=person_key(player_id=registration.player_id, user_id=None),
            mu=40 - n,
            sigma=2,
            rating=34 - n,
            games=20,
            provisional=False,
        )
    event = rounds.event_start(event=Event.objects.get(pk=event.pk))
    first = rounds.round_pair(event=event, number=1)
    tables = dict(Seat.objects.filter(round=first).values_list("registration_id", "table__number"))
    assert sorted(tables[r.pk] for r in top) == [1, 2, 3, 4]


@pytest.mark.django_db
def test_seeding_by_rating_is_locked_once_the_event_starts(organizer_client):
    event = make_event(organizer=organizer_client.user)
    make_players(event, 8)
    event = rounds.event_start(event=event)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    organizer_client.post(url, settings_data(event, seed_by_rating="on"))
    event.refresh_from_db()
    assert not event.seed_by_rating


@pytest.mark.django_db
def test_seeding_by_rating_can_be_chosen_before_the_start(organizer_client):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    page = organizer_client.get(url).content.decode()
    assert "Seed round 1 by rating" in page
    organizer_client.post(url, settings_data(event, seed_by_rating="on"))
    event.refresh_from_db()
    assert event.seed_by_rating


@pytest.mark.django_db
def test_a_rating_held_by_an_account_seeds_its_record():
    event = make_event(organizer=make_user(), seed_by_rating=True)
    registrations = make_players(event, 12)
    owner = make_user()
    star = registrations[7]
    star.player.user = owner
    star.player.save()
    second = registrations[2]
    for person, rating in ((f"u{owner.pk}", 30.0), (f"p{second.player_id}", 20.0)):
        PlayerRating.objects.create(
            person=person, mu=rating + 6, sigma=2, rating=rating, games=20, provisional=False
        )
    event = rounds.event_start(event=Event.objects.get(pk=event.pk))
    first = rounds.round_pair(event=event, number=1)
    tables = dict(Seat.objects.filter(round=first).values_list("registration_id", "table__number"))
    assert (tables[star.pk], tables[second.pk]) == (1, 2)
