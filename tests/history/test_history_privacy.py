"""Privacy on the history pages, the head-to-head, the CSV and the API: a person who chose the short name
shows as "Annabel Q." everywhere, and their full name is nowhere in what a visitor gets."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_user
from tests.history.helpers import first_player, one_person, simulated_event
from tests.pages import read_pages
from tournaments.models import Player

pytestmark = pytest.mark.django_db

FULL = "Annabel Quixotic"
SHORT = "Annabel Q."


@pytest.fixture
def annabel():
    first, second = simulated_event(9, 1), simulated_event(9, 2)
    return one_person(make_user("annabel"), first_player(first), first_player(second), name=FULL)


def an_opponent(client, player: Player) -> Player:
    page = client.get(reverse("tournaments:player_history", kwargs={"pk": player.pk})).context["page"]
    return Player.objects.get(pk=page.history.opponents[0].player_id)


def visitor_views(client, player: Player, opponent: Player) -> dict[str, str]:
    """Everything a visitor can fetch about the player: their pages, and the opponent's that name them."""
    urls = {
        "history": reverse("tournaments:player_history", kwargs={"pk": player.pk}),
        "csv": reverse("tournaments:player_games_csv", kwargs={"pk": player.pk}),
        "vs": reverse("tournaments:player_vs", kwargs={"pk": player.pk, "other": opponent.pk}),
        "vs from the other side": reverse(
            "tournaments:player_vs", kwargs={"pk": opponent.pk, "other": player.pk}
        ),
        "opponent's history": reverse("tournaments:player_history", kwargs={"pk": opponent.pk}),
        "opponent's csv": reverse("tournaments:player_games_csv", kwargs={"pk": opponent.pk}),
        "api": reverse("tournaments:api_player", kwargs={"pk": player.pk}),
        "api vs": reverse("tournaments:api_player_vs", kwargs={"pk": player.pk, "other": opponent.pk}),
        "opponent's api": reverse("tournaments:api_player", kwargs={"pk": opponent.pk}),
    }
    return read_pages(client, urls)


def test_a_full_name_shows_when_the_player_did_not_choose_the_short_one(client, annabel):
    for what, text in visitor_views(client, annabel[0], an_opponent(client, annabel[0])).items():
        assert FULL in text, what


def test_the_short_name_is_all_a_visitor_sees_of_a_player_who_chose_it(client, annabel):
    Player.objects.filter(user=annabel[0].user).update(public_short_name=True)
    for what, text in visitor_views(client, annabel[0], an_opponent(client, annabel[0])).items():
        assert "Quixotic" not in text, what
        assert SHORT in text, what


def test_one_record_choosing_the_short_name_is_enough_for_the_whole_person(client, annabel):
    """A record claimed after the privacy choice may not have caught up: the person's choice still holds."""
    Player.objects.filter(pk=annabel[0].pk).update(public_short_name=True)
    for player in annabel:  # from either record's URL
        for what, text in visitor_views(client, player, an_opponent(client, player)).items():
            assert "Quixotic" not in text, what


def test_a_record_without_an_account_follows_its_own_choice(client):
    event = simulated_event(9, 3)
    player = first_player(event)
    Player.objects.filter(pk=player.pk).update(name=FULL, public_short_name=True)
    for what, text in visitor_views(client, player, an_opponent(client, player)).items():
        assert "Quixotic" not in text, what


def test_the_title_and_heading_use_the_public_name(client, annabel):
    Player.objects.filter(user=annabel[0].user).update(public_short_name=True)
    text = client.get(reverse("tournaments:player_history", kwargs={"pk": annabel[0].pk})).text
    assert f"<title>{SHORT}" in text and f"<bdi>{SHORT}</bdi></h1>" in text
