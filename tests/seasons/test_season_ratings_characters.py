"""The season page's links to the rest of issue 19: each player's rating and history, and the main-character
statistics of the season's finished events."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import PlayerRating
from ratings.services import ratings_recompute
from tests.factories import make_user
from tests.seasons.helpers import finished_event, make_season, running_event
from tournaments.models import Registration, Seat

pytestmark = pytest.mark.django_db


def season_with_one_event():
    organizer = make_user("org")
    event = finished_event(organizer)
    return make_season(organizer, events=[event]), event


def test_each_line_shows_the_players_rating(client):
    season, event = season_with_one_event()
    ratings_recompute(force=True)
    best = PlayerRating.objects.order_by("-rating").first()
    body = client.get(reverse("seasons:detail", args=[season.slug])).content.decode()
    assert f"{best.rating:.1f}" in body
    assert "prov." in body  # one event of four rounds: every rating is provisional (fewer than 10 games)


def test_a_recomputed_rating_shows_at_once_although_the_table_is_cached(client):
    season, event = season_with_one_event()
    ratings_recompute(force=True)
    url = reverse("seasons:detail", args=[season.slug])
    client.get(url)
    PlayerRating.objects.update(rating=77.7)
    assert "77.7" in client.get(url).content.decode()


def test_each_name_opens_the_players_history(client):
    season, event = season_with_one_event()
    registration = Registration.objects.filter(event=event).order_by("pk").first()
    body = client.get(reverse("seasons:detail", args=[season.slug])).content.decode()
    assert reverse("tournaments:player_history", args=[registration.player_id]) in body


def test_the_main_characters_page_counts_only_the_finished_events(client):
    organizer = make_user("org")
    done = finished_event(organizer)
    running = running_event(organizer)
    season = make_season(organizer, events=[done, running])
    Seat.objects.filter(round__event=done).update(main_character="Zatanna Done")
    Seat.objects.filter(round__event=running).update(main_character="Raven Running")
    response = client.get(reverse("seasons:characters", args=[season.slug]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "Zatanna Done" in body and "Raven Running" not in body
    assert season.name in body


def test_the_main_characters_page_of_an_unknown_season_is_a_404(client):
    assert client.get(reverse("seasons:characters", args=["no-such-season"])).status_code == 404


def test_the_json_standings_carry_each_persons_rating(client):
    season, event = season_with_one_event()
    ratings_recompute(force=True)
    rows = client.get(f"/api/seasons/{season.slug}/standings/").json()["standings"]
    stored = {r.person: r.rating for r in PlayerRating.objects.all()}
    assert rows and all(row["rating"] == round(stored[row["person"]], 3) for row in rows)
    assert all(row["provisional"] is True for row in rows)


def test_the_json_main_characters_of_a_season(client):
    season, event = season_with_one_event()
    Seat.objects.filter(round__event=event).update(main_character="Zatanna Done")
    data = client.get(f"/api/seasons/{season.slug}/characters/").json()
    assert [c["label"] for c in data["characters"]] == ["Zatanna Done"]
    assert data["plays"] == Seat.objects.filter(round__event=event).count()
    assert client.get("/api/seasons/nope/characters/").status_code == 404
