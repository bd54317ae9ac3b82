"""The seasons' read API: the list of seasons and a season's standings, paginated, numbers as numbers,
JSON errors."""

from __future__ import annotations

import pytest
from django.urls import reverse
from openapi_spec_validator import validate

from tests.factories import make_user
from tests.seasons.helpers import finished_event, make_season, running_event

pytestmark = pytest.mark.django_db


def test_the_list_of_seasons_is_paginated(client):
    boss = make_user()
    for name in ("A", "B", "C"):
        make_season(boss, name=name)
    body = client.get("/api/seasons/", {"limit": 2}).json()
    assert body["count"] == 3
    assert len(body["seasons"]) == 2
    assert set(body["seasons"][0]) == {"slug", "name", "start_date", "end_date", "points"}


def test_the_standings_give_numbers_as_numbers_and_each_events_points(client):
    boss = make_user()
    done, running = finished_event(boss), running_event(boss)
    season = make_season(boss, events=[done, running])
    body = client.get(f"/api/seasons/{season.slug}/standings/", {"limit": 3, "offset": 1}).json()
    assert body["count"] == 8
    assert body["tiebreakers"][0].startswith("Season points")
    line = body["standings"][0]
    assert line["rank"] == 2 and isinstance(line["points"], int)
    assert line["events"] == [{"event": done.slug, "points": 7}, {"event": running.slug, "points": None}]


def test_an_unknown_season_is_a_json_404(client):
    response = client.get("/api/seasons/nope/standings/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "x"}, {"offset": "-1"}, {"limit": "5000"}])
def test_bad_paging_is_a_json_400(client, query):
    boss = make_user()
    season = make_season(boss)
    response = client.get(f"/api/seasons/{season.slug}/standings/", query)
    assert response.status_code == 400
    assert "detail" in response.json()


def test_the_endpoints_are_in_a_valid_openapi_document(client):
    document = client.get(reverse("tournaments:openapi-json")).json()
    validate(document)
    assert "/api/seasons/" in document["paths"]
    assert "/api/seasons/{slug}/standings/" in document["paths"]


def test_head_answers_like_get(client):
    season = make_season(make_user())
    assert client.head("/api/seasons/").status_code == 200
    assert client.head(f"/api/seasons/{season.slug}/standings/").status_code == 200
