"""Public pages and the read API a proxy can cache: validators, 304, Cache-Control, no cookie, gzip."""

from __future__ import annotations

import gzip
import json
import random

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tests.tournaments.flow import play_table
from tournaments.http_cache import PUBLIC_MAX_AGE, STALE_WHILE_REVALIDATE
from tournaments.models import Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def running_event(players: int = 12):
    organizer = make_user()
    event = make_event(organizer=organizer)
    make_players(event, players)
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    event.refresh_from_db()
    return event, round, organizer


def public_urls(event, round) -> dict[str, str]:
    registration = event.registrations.order_by("pk").first()
    return {
        "events": reverse("tournaments:event_list"),
        "event": reverse("tournaments:event_detail", args=[event.slug]),
        "live": reverse("tournaments:event_live", args=[event.slug]),
        "pairings": reverse("tournaments:pairings", args=[event.slug, round.number]),
        "standings": reverse("tournaments:standings", args=[event.slug]),
        "player": reverse("tournaments:player", args=[event.slug, registration.pk]),
        "api_events": reverse("tournaments:api_events"),
        "api_event": reverse("tournaments:api_event", args=[event.slug]),
        "api_round": reverse("tournaments:api_round", args=[event.slug, round.number]),
        "api_standings": reverse("tournaments:api_standings", args=[event.slug]),
    }


PAGES = ["events", "event", "live", "pairings", "standings", "player"]
API = ["api_events", "api_event", "api_round", "api_standings"]


@pytest.mark.parametrize("name", PAGES + API)
def test_it_marks_anonymous_answers_public_with_a_short_max_age(client, name):
    event, round, _ = running_event()
    response = client.get(public_urls(event, round)[name])
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert directives == {
        "public",
        f"max-age={PUBLIC_MAX_AGE}",
        f"stale-while-revalidate={STALE_WHILE_REVALIDATE}",
    }


@pytest.mark.parametrize("name", PAGES + API)
def test_it_gives_anonymous_answers_an_etag_and_last_modified(client, name):
    event, round, _ = running_event()
    response = client.get(public_urls(event, round)[name])
    assert response["ETag"].startswith('"')
    assert response["Last-Modified"].endswith("GMT")


@pytest.mark.parametrize("name", PAGES + API)
def test_it_answers_304_to_a_matching_if_none_match(client, name):
    event, round, _ = running_event()
    url = public_urls(event, round)[name]
    etag = client.get(url)["ETag"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert "public" in again["Cache-Control"]


@pytest.mark.parametrize("name", PAGES + API)
def test_it_sets_no_cookie_and_no_vary_cookie_for_anonymous_visitors(client, name):
    event, round, _ = running_event()
    response = client.get(public_urls(event, round)[name])
    assert not response.cookies
    assert "Set-Cookie" not in str(response.serialize_headers())
    assert "cookie" not in response.get("Vary", "").lower()


def test_it_answers_304_to_if_modified_since_of_the_same_version(client):
    event, round, _ = running_event()
    url = public_urls(event, round)["pairings"]
    last_modified = client.get(url)["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=last_modified).status_code == 304


def test_it_sends_the_new_page_after_a_result_is_entered(client):
    event, round, _ = running_event()
    url = public_urls(event, round)["pairings"]
    first = client.get(url)
    play_table(Table.objects.filter(round=round).order_by("number").first(), random.Random(1))
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert "result in" in again.content.decode()


def test_a_changed_answer_is_never_older_by_last_modified(client):
    """Two changes in the same second still move Last-Modified, so If-Modified-Since cannot match."""
    event, round, _ = running_event()
    url = public_urls(event, round)["api_round"]
    first = client.get(url)
    play_table(Table.objects.filter(round=round).order_by("number").first(), random.Random(1))
    again = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 200
    assert again["Last-Modified"] != first["Last-Modified"]


def test_a_renamed_player_changes_the_etag(client):
    event, round, _ = running_event()
    url = public_urls(event, round)["standings"]
    first = client.get(url)["ETag"]
    player = event.registrations.order_by("pk").first().player
    player.public_short_name = True
    player.save()
    assert client.get(url, HTTP_IF_NONE_MATCH=first).status_code == 200


@pytest.mark.parametrize("name", PAGES + API)
def test_it_keeps_logged_in_answers_private_without_validators(client, name):
    event, round, organizer = running_event()
    client.force_login(organizer)
    response = client.get(public_urls(event, round)[name])
    assert response.status_code == 200
    assert "public" not in response["Cache-Control"]
    assert "private" in response["Cache-Control"]
    assert "ETag" not in response


def test_a_logged_in_visitor_gets_the_page_even_with_an_anonymous_etag(client):
    event, round, organizer = running_event()
    url = public_urls(event, round)["pairings"]
    etag = client.get(url)["ETag"]
    client.force_login(organizer)
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "Staff view" in response.content.decode()


def test_a_page_with_a_form_token_for_an_anonymous_visitor_is_private(client):
    """Guests may register on the event page: its form carries a CSRF token, so no proxy may share it."""
    event = make_event(self_registration_open=True, self_registration_guests=True)
    response = client.get(reverse("tournaments:event_detail", args=[event.slug]))
    assert "csrfmiddlewaretoken" in response.content.decode()
    assert "private" in response["Cache-Control"]
    assert "public" not in response["Cache-Control"]


def test_a_registration_page_without_a_form_is_public(client):
    event = make_event()
    make_players(event, 3)
    response = client.get(reverse("tournaments:event_detail", args=[event.slug]))
    assert "public" in response["Cache-Control"]
    assert not response.cookies


def test_the_pairings_answer_varies_on_the_htmx_header(client):
    event, round, _ = running_event()
    url = public_urls(event, round)["pairings"]
    page = client.get(url)
    poll = client.get(url, HTTP_HX_REQUEST="true")
    assert "HX-Request" in page["Vary"]
    assert page["ETag"] != poll["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 200


@pytest.mark.parametrize("name", ["pairings", "api_round"])
def test_it_compresses_html_and_json_when_the_client_accepts_gzip(client, name):
    event, round, _ = running_event(24)
    url = public_urls(event, round)[name]
    plain = client.get(url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain.content


def test_it_sends_plain_bytes_to_a_client_that_does_not_accept_gzip(client):
    event, round, _ = running_event()
    response = client.get(public_urls(event, round)["api_round"])
    assert "Content-Encoding" not in response
    assert json.loads(response.content)["number"] == 1


def test_a_gzipped_answer_still_answers_304_to_its_etag(client):
    event, round, _ = running_event()
    url = public_urls(event, round)["pairings"]
    etag = client.get(url, HTTP_ACCEPT_ENCODING="gzip")["ETag"]
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_a_draft_round_stays_a_404_for_anonymous_visitors(client):
    event = make_event(organizer=make_user())
    make_players(event, 8)
    event = rounds.event_start(event=event)
    draft = rounds.round_pair(event=event, number=1)
    response = client.get(reverse("tournaments:pairings", args=[event.slug, draft.number]))
    assert response.status_code == 404
    assert "public" not in response.get("Cache-Control", "")


def test_logging_in_tells_the_browser_to_drop_its_copies_of_public_pages(client):
    make_user("ann")
    response = client.post("/accounts/login/", {"login": "ann", "password": "pw"})
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache"'


def test_logging_out_tells_the_browser_to_drop_its_copies_of_public_pages(client):
    client.force_login(make_user())
    response = client.post("/accounts/logout/")
    assert response["Clear-Site-Data"] == '"cache"'


def test_other_answers_leave_the_browser_cache_alone(client):
    event, round, _ = running_event()
    assert "Clear-Site-Data" not in client.get(public_urls(event, round)["pairings"])
