"""The /ratings/ leaderboard and the _rating partial other pages include."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from ratings.models import PlayerRating
from ratings.selectors import ratings_for
from ratings.services import ratings_recompute
from tournaments.models import Player

from .helpers import simulated_event

pytestmark = pytest.mark.django_db


def rate(player: Player, rating: float, games: int = 12) -> PlayerRating:
    return PlayerRating.objects.create(
        person=f"p{player.pk}",
        player=player,
        mu=rating + 6,
        sigma=2,
        rating=rating,
        games=games,
        provisional=games < 10,
    )


def test_it_lists_the_players_highest_rating_first_and_says_when_it_was_computed(client):
    simulated_event()
    ratings_recompute()
    page = client.get("/ratings/").content.decode()
    best = PlayerRating.objects.order_by("-rating").select_related("player").first()
    worst = PlayerRating.objects.order_by("rating").select_related("player").first()
    assert page.index(best.player.name) < page.index(worst.player.name)
    assert "Last computed" in page


def test_it_says_when_nothing_has_been_computed_yet(client):
    assert "Not computed yet" in client.get("/ratings/").content.decode()


def test_provisional_players_are_marked(client):
    rate(Player.objects.create(name="Nova Newcomer"), 3.0, games=2)
    rate(Player.objects.create(name="Vera Veteran"), 20.0, games=40)
    page = client.get("/ratings/").content.decode()
    row = page[page.index("Nova Newcomer") :]
    assert "provisional" in row[: row.index("</tr>")]
    row = page[page.index("Vera Veteran") :]
    assert "provisional" not in row[: row.index("</tr>")]


def test_it_shows_the_short_name_a_player_chose_and_never_finds_the_hidden_part(client):
    rate(Player.objects.create(name="Ann Marie Smith", public_short_name=True), 10.0)
    page = client.get("/ratings/").content.decode()
    assert "Ann S." in page and "Smith" not in page
    assert "Ann S." not in client.get("/ratings/?q=smith").content.decode()
    assert "Ann S." in client.get("/ratings/?q=ann").content.decode()


def test_the_name_filter_keeps_only_matching_players(client):
    rate(Player.objects.create(name="Bruno Keller"), 10.0)
    rate(Player.objects.create(name="Carmen Ito"), 11.0)
    page = client.get("/ratings/?q=brun").content.decode()
    assert "Bruno Keller" in page and "Carmen Ito" not in page


def test_it_pages_a_long_leaderboard(client):
    for n in range(60):
        rate(Player.objects.create(name=f"Player {n:03d}"), float(n))
    first = client.get("/ratings/").content.decode()
    second = client.get("/ratings/?page=2").content.decode()
    assert "Player 059" in first and "Player 000" not in first
    assert "Player 000" in second


@pytest.mark.parametrize(
    "query", ["?page=abc", "?page=-3", "?page=99999", "?q=" + "x" * 5000, "?q=%00", "?sort=rating&page=1"]
)
def test_odd_query_parameters_still_give_the_page(client, query):
    rate(Player.objects.create(name="Bruno Keller"), 10.0)
    assert client.get("/ratings/" + query).status_code == 200


def test_the_partial_shows_rating_uncertainty_games_and_provisional():
    rating = rate(Player.objects.create(name="Nova Newcomer"), 3.25, games=2)
    view = ratings_for([rating.person])[rating.person]
    html = render_to_string("ratings/_rating.html", {"rating": view})
    assert "Rating 3.2" in html or "Rating 3.3" in html
    assert "± 6.0" in html and "2 counted games" in html and "provisional" in html


def test_the_partial_says_when_there_is_no_rating_yet():
    assert "No rating yet" in render_to_string("ratings/_rating.html", {"rating": None})


def test_the_leaderboard_is_only_read():
    from django.test import Client

    assert Client().post("/ratings/").status_code == 405


def test_the_leaderboard_asks_as_many_queries_for_many_players_as_for_few(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            client.get("/ratings/")
        return len(captured)

    for n in range(3):
        rate(Player.objects.create(name=f"Few {n}"), float(n))
    few = queries()
    for n in range(80):
        rate(Player.objects.create(name=f"Many {n}"), float(n))
    assert queries() == few


def test_a_rating_just_below_zero_shows_as_zero(client):
    rate(Player.objects.create(name="Zed Zero"), -0.04)
    page = client.get("/ratings/").content.decode()
    assert "-0.0" not in page and ">0.0<" in page


def test_each_name_on_the_leaderboard_opens_the_players_history(client):
    simulated_event()
    ratings_recompute()
    rated = PlayerRating.objects.exclude(player=None).order_by("-rating").first()
    body = client.get("/ratings/").content.decode()
    assert f'href="/players/{rated.player_id}/"' in body
