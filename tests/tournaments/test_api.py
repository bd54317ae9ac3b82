"""The read API (tournaments/api.py): its OpenAPI document and docs page, pagination, JSON errors, numbers
as numbers, read-only CORS, drafts hidden, and query counts that do not grow with the players."""

from __future__ import annotations

import datetime
import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openapi_spec_validator import validate

from tests.factories import make_event, make_players, make_user
from tests.tournaments.flow import play_round
from tournaments.models import Round
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    "/api/events/": "PagedEventOut",
    "/api/events/{slug}/": "EventDetailOut",
    "/api/events/{slug}/rounds/{number}/": "RoundDetailOut",
    "/api/events/{slug}/results/": "PagedResultOut",
    "/api/events/{slug}/standings/": "StandingsOut",
    "/api/events/{slug}/ranking/": "RankingOut",
    "/api/players/{pk}/": "PlayerHistoryOut",
    "/api/players/{pk}/vs/{other}/": "HeadToHeadOut",
    "/api/seasons/": "PagedSeasonOut",
    "/api/seasons/{slug}/standings/": "PagedSeasonStandingOut",
    "/api/seasons/{slug}/characters/": "CharacterStatisticsOut",
    "/api/ratings/": "PagedRatingOut",
    "/api/ratings/{person}/": "RatingOut",
    "/api/events/{slug}/characters/": "CharacterStatisticsOut",
    "/api/characters/": "CharacterStatisticsOut",
}


def running_event(players: int = 8, *, played: int = 1):
    """An event with ``played`` rounds played and the next one published."""
    event = make_event(organizer=make_user())
    make_players(event, players)
    event = rounds.event_start(event=event)
    rng = random.Random(players)
    for number in range(1, played + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)
    rounds.round_pair(event=event, number=played + 1, publish=True)
    event.refresh_from_db()
    return event


def finished_event():
    """Eight players: four Swiss rounds, then the final, played."""
    event = make_event(organizer=make_user())
    make_players(event, 8)
    event = rounds.event_start(event=event)
    rng = random.Random(8)
    for number in range(1, event.swiss_rounds + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)
    play_round(rounds.playoffs_start(event=event, publish=True), rng)
    event.refresh_from_db()
    return event


def url(name: str, event=None, **kwargs) -> str:
    if event is not None:
        kwargs["slug"] = event.slug
    return reverse(f"tournaments:{name}", kwargs=kwargs)


# --- the OpenAPI document and the docs page ---------------------------------------------------------


def test_it_lists_every_endpoint_with_its_response_schema_in_the_openapi_document(client):
    document = client.get("/api/openapi.json").json()
    responses = {
        path: operations["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        for path, operations in document["paths"].items()
    }
    assert responses == {path: f"#/components/schemas/{schema}" for path, schema in ENDPOINTS.items()}


def test_it_describes_only_reading_in_the_openapi_document(client):
    document = client.get("/api/openapi.json").json()
    assert {method for operations in document["paths"].values() for method in operations} == {"get"}


def test_it_serves_a_valid_openapi_document(client):
    validate(client.get("/api/openapi.json").json())


def test_it_serves_the_docs_page_from_the_sites_own_static_files(client):
    response = client.get("/api/docs")
    assert response.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', response.content.decode())
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert all(a.startswith("/static/") for a in assets)


# --- errors are JSON ----------------------------------------------------------------------------------


def test_it_answers_an_unknown_event_with_a_json_404(client):
    response = client.get(url("api_event", slug="no-such-event"))
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_it_answers_an_unknown_path_under_api_with_a_json_404(client):
    response = client.get("/api/no/such/thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": "Not Found"}


def test_it_answers_a_post_with_a_json_405_that_names_get(client):
    response = client.post(url("api_events"))
    assert response.status_code == 405
    assert response.json() == {"detail": "Method Not Allowed"}
    assert {m.strip() for m in response["Allow"].split(",")} == {"GET", "HEAD"}


def test_it_answers_a_bad_limit_with_a_json_400(client):
    response = client.get(url("api_events"), {"limit": "abc"})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("limit: ")


def test_it_answers_an_offset_past_any_page_with_a_json_400_not_a_database_error(client):
    response = client.get(url("api_events"), {"offset": "99999999999999999999"})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("offset: ")


def test_it_answers_past_the_rate_limit_with_a_json_429_with_detail(client, settings):
    settings.RATELIMIT_ENABLE = True
    settings.RATELIMIT_API = "1/m"
    client.get(url("api_events"))
    response = client.get(url("api_events"))
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Too many requests to the API")
    assert response.json()["retry_after"] == int(response["Retry-After"])


# --- pagination -------------------------------------------------------------------------------------


def test_it_pages_the_events_with_limit_and_offset_and_reports_the_count(client):
    for day in range(1, 6):
        make_event(name=f"Cup {day}", date=datetime.date(2026, 3, day))
    data = client.get(url("api_events"), {"limit": 2, "offset": 1}).json()
    assert data["count"] == 5
    assert [e["name"] for e in data["events"]] == ["Cup 4", "Cup 3"]


def test_it_pages_the_results_with_limit_and_offset_and_reports_the_count(client):
    event = running_event(8)
    data = client.get(url("api_results", event), {"limit": 3, "offset": 4}).json()
    assert data["count"] == 16  # 8 players, 2 published rounds
    assert [(r["round"], r["table"], r["seat"]) for r in data["results"]] == [(1, 2, 1), (1, 2, 2), (1, 2, 3)]


# --- what the answers say -----------------------------------------------------------------------------


def test_it_gives_one_result_per_player_per_game_of_the_published_rounds_only(client):
    event = running_event(8)
    Round.objects.filter(event=event, number=2).update(published_at=None)
    results = client.get(url("api_results", event)).json()["results"]
    assert len(results) == 8
    assert {r["round"] for r in results} == {1}
    assert set(results[0]) == {
        "round", "stage", "table", "seat", "id", "name", "vp", "super_villains", "placement", "points",
    }  # fmt: skip


def test_it_sends_numbers_as_json_numbers(client):
    event = running_event(8)
    seat = client.get(url("api_round", event, number=1)).json()["tables"][0]["players"][0]
    line = client.get(url("api_standings", event)).json()["standings"][0]
    result = client.get(url("api_results", event)).json()["results"][0]
    numbers = [seat["points"], seat["vp"], line["points"], *line["tiebreakers"].values(), result["points"]]
    assert all(isinstance(n, int | float) and not isinstance(n, bool) for n in numbers)


def test_it_hides_a_draft_round_with_a_json_404(client):
    event = running_event(8)
    Round.objects.filter(event=event, number=2).update(published_at=None)
    response = client.get(url("api_round", event, number=2))
    assert response.status_code == 404
    assert response.json() == {"detail": "Not Found"}


def test_it_ranks_every_player_once_the_final_is_closed(client):
    event = finished_event()
    ranking = client.get(url("api_ranking", event)).json()["ranking"]
    assert [r["rank"] for r in ranking] == list(range(1, 9))
    assert [r["player"] for r in ranking] == client.get(url("api_event", event)).json()["final_ranking"]


def test_it_sends_an_empty_ranking_before_the_final(client):
    event = running_event(8)
    assert client.get(url("api_ranking", event)).json() == {"event": event.slug, "ranking": []}


def test_it_answers_head_as_get_without_a_body(client):
    event = running_event(8)
    get, head = client.get(url("api_standings", event)), client.head(url("api_standings", event))
    assert head.status_code == 200
    assert head["ETag"] == get["ETag"]
    assert head.content == b""


# --- CORS ---------------------------------------------------------------------------------------------


def test_it_lets_any_origin_read_without_credentials(client):
    response = client.get(url("api_events"), HTTP_ORIGIN="https://scoreboard.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    assert "ETag" in response["Access-Control-Expose-Headers"]


def test_it_answers_a_preflight_for_reading_only(client):
    response = client.options(
        url("api_events"),
        HTTP_ORIGIN="https://scoreboard.example",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == "*"
    assert {m.strip() for m in response["Access-Control-Allow-Methods"].split(",")} == {
        "GET",
        "HEAD",
        "OPTIONS",
    }
    assert "if-none-match" in response["Access-Control-Allow-Headers"]


def test_it_sends_the_cors_header_on_errors_too(client):
    response = client.get("/api/no/such/thing/", HTTP_ORIGIN="https://scoreboard.example")
    assert response["Access-Control-Allow-Origin"] == "*"


def test_it_keeps_cors_off_the_site_pages(client):
    response = client.get(reverse("tournaments:event_list"), HTTP_ORIGIN="https://scoreboard.example")
    assert "Access-Control-Allow-Origin" not in response


# --- HTTP caching and query counts ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["api_results", "api_ranking"])
def test_it_answers_304_to_the_etag_of_the_new_endpoints(client, name):
    event = running_event(8)
    first = client.get(url(name, event))
    assert "public" in first["Cache-Control"]
    assert client.get(url(name, event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_it_changes_the_results_etag_when_a_result_is_entered(client):
    event = running_event(8)
    first = client.get(url("api_results", event))["ETag"]
    play_round(Round.objects.get(event=event, number=2), random.Random(2))
    assert client.get(url("api_results", event), HTTP_IF_NONE_MATCH=first).status_code == 200


def count_queries(client, address: str) -> int:
    client.get(address)  # warm the standings cache like a busy event would
    with CaptureQueriesContext(connection) as queries:
        response = client.get(address)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("name", ["api_event", "api_round", "api_results", "api_standings", "api_ranking"])
def test_it_makes_the_same_number_of_queries_for_more_players(client, name):
    counts = []
    for players in (8, 40):
        event = running_event(players)
        extra = {"number": 1} if name == "api_round" else {}
        counts.append(count_queries(client, url(name, event, **extra)))
    assert counts[0] == counts[1]
