"""The player's history page and its JSON carry the person's stored rating (ratings app)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import PlayerRating
from ratings.services import ratings_recompute
from tests.factories import make_user
from tests.history.helpers import first_player, one_person, simulated_event

pytestmark = pytest.mark.django_db


def test_it_shows_the_rating_with_its_uncertainty_and_games(client):
    player = first_player(simulated_event())
    ratings_recompute(force=True)
    stored = PlayerRating.objects.get(person=f"p{player.pk}")
    body = client.get(reverse("tournaments:player_history", args=[player.pk])).content.decode()
    assert f"Rating {stored.rating:.1f}" in body
    assert f"{stored.games} counted game" in body


def test_a_player_without_a_rating_is_told_it_comes_with_the_first_game(client):
    player = first_player(simulated_event())
    PlayerRating.objects.all().delete()
    body = client.get(reverse("tournaments:player_history", args=[player.pk])).content.decode()
    assert "No rating yet" in body


def test_the_json_history_carries_the_rating_under_the_public_name(client):
    player = first_player(simulated_event())
    (player,) = one_person(make_user("ann"), player, name="Ann Quixotewell")
    player.public_short_name = True
    player.save()
    ratings_recompute(force=True)
    data = client.get(f"/api/players/{player.pk}/").json()
    assert data["rating"]["person"] == f"u{player.user_id}"
    assert data["rating"]["games"] > 0
    assert data["rating"]["name"] == "Ann Q."
    assert "Quixotewell" not in client.get(f"/api/players/{player.pk}/").content.decode()
