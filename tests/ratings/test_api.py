"""/api/ratings/: the leaderboard (paginated) and one person's rating, as JSON."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def rate(name: str, rating: float, games: int = 12, **player) -> PlayerRating:
    record = Player.objects.create(name=name, **player)
    return PlayerRating.objects.create(
        person=f"p{record.pk}",
        player=record,
        mu=rating + 6,
        sigma=2,
        rating=rating,
        games=games,
        provisional=games < 10,
    )


def test_it_lists_the_ratings_highest_first_with_numbers_as_numbers(client):
    rate("Bruno Keller", 10.0)
    rate("Carmen Ito", 12.5, games=3)
    body = client.get("/api/ratings/").json()
    assert body["count"] == 2
    first = body["ratings"][0]
    assert first["name"] == "Carmen Ito" and first["rank"] == 1
    assert first["rating"] == 12.5 and first["games"] == 3 and first["provisional"] is True


def test_it_pages_with_limit_and_offset(client):
    for n in range(5):
        rate(f"Player {n}", float(n))
    body = client.get("/api/ratings/?limit=2&offset=2").json()
    assert body["count"] == 5 and [r["name"] for r in body["ratings"]] == ["Player 2", "Player 1"]


def test_it_filters_by_public_name_only(client):
    rate("Ann Marie Smith", 10.0, public_short_name=True)
    assert client.get("/api/ratings/?q=smith").json()["count"] == 0
    assert client.get("/api/ratings/?q=ann").json()["ratings"][0]["name"] == "Ann S."


def test_it_gives_one_persons_rating(client):
    rating = rate("Bruno Keller", 10.0)
    body = client.get(f"/api/ratings/{rating.person}/").json()
    assert body["person"] == rating.person and body["mu"] == 16.0 and body["sigma"] == 2.0


def test_one_persons_rating_has_its_place_on_the_leaderboard(client):
    rate("Ann Top", 20.0)
    rate("Bea Tied", 10.0)
    tied = rate("Cy Tied", 10.0)
    assert client.get(f"/api/ratings/{tied.person}/").json()["rank"] == 2


@pytest.mark.parametrize("person", ["u999", "nobody", "p" + "9" * 500, "a%00b", "p1%00", "u0", "p-1"])
def test_an_unknown_person_is_a_json_404(client, person):
    response = client.get(f"/api/ratings/{person}/")
    assert response.status_code == 404
    assert "detail" in response.json()


@pytest.mark.parametrize("query", ["limit=0", "limit=abc", "offset=-1", "q=" + "x" * 500])
def test_bad_parameters_are_a_json_400(client, query):
    response = client.get(f"/api/ratings/?{query}")
    assert response.status_code == 400
    assert response.json()["detail"]
