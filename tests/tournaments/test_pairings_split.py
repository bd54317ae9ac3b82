"""A large round's pairings: a phone finds and polls its own table; the wall display still shows them all."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tournaments import public_pairings
from tournaments.models import Seat
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def large(monkeypatch):
    """A 24-player round (6 tables) counted as large: 2 tables a page."""
    monkeypatch.setattr(public_pairings, "PAGE_TABLES", 2)
    event = make_event(organizer=make_user())
    make_players(event, 24)
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    return event, round, reverse("tournaments:pairings", args=[event.slug, 1])


def table_cards(html: str) -> int:
    return html.count('class="card table-card')


def test_a_large_round_shows_a_directory_instead_of_every_table(client, large):
    _, _, url = large
    html = client.get(url).content.decode()
    assert table_cards(html) == 0
    assert 'id="pairings-directory"' in html
    assert "Tables 1–2" in html and "Tables 5–6" in html


def test_find_my_table_answers_only_the_players_table(client, large):
    _, round, url = large
    seat = (
        Seat.objects.filter(round=round, registration__player__name="Player 007")
        .select_related("table")
        .get()
    )
    html = client.get(url, {"q": "player 007"}).content.decode()
    assert table_cards(html) == 1
    assert f"Table {seat.table.number}</a>" in html
    assert "Player 007" in html


def test_find_my_table_ignores_accents_case_and_dots(client, large):
    _, _, url = large
    assert table_cards(client.get(url, {"q": "PLÁYER 007."}).content.decode()) == 1


def test_the_poll_of_a_found_table_is_a_few_kilobytes(client, large):
    _, _, url = large
    everything = client.get(url, {"all": "1"}, HTTP_HX_REQUEST="true").content
    mine = client.get(url, {"q": "Player 007"}, HTTP_HX_REQUEST="true").content
    assert table_cards(mine.decode()) == 1
    assert len(mine) * 4 < len(everything)


def test_a_name_nobody_has_says_so(client, large):
    _, _, url = large
    html = client.get(url, {"q": "Zebediah"}).content.decode()
    assert table_cards(html) == 0
    assert "No player at this round" in html


def test_one_letter_asks_for_more(client, large):
    _, _, url = large
    html = client.get(url, {"q": "p"}).content.decode()
    assert "at least two letters" in html
    assert table_cards(html) == 0


def test_a_common_name_lists_at_most_the_find_limit(client, large, monkeypatch):
    monkeypatch.setattr(public_pairings, "FIND_MAX_TABLES", 3)
    _, _, url = large
    html = client.get(url, {"q": "player"}).content.decode()
    assert table_cards(html) == 3
    assert "type more of the name" in html


def test_a_page_of_tables_shows_that_page(client, large):
    _, _, url = large
    html = client.get(url, {"page": "2"}).content.decode()
    assert table_cards(html) == 2
    assert "Table 3</a>" in html and "Table 4</a>" in html


@pytest.mark.parametrize("page", ["99", "0", "x", "²", "-1"])
def test_a_page_out_of_range_or_not_a_number_is_not_an_error(client, large, page):
    _, _, url = large
    assert client.get(url, {"page": page}).status_code == 200


def test_the_wall_display_shows_every_table(client, large):
    _, _, url = large
    html = client.get(url, {"all": "1"}).content.decode()
    assert table_cards(html) == 6
    assert html.count("<tr data-player=") == 24


def test_the_event_page_of_a_large_round_sends_the_find_box_to_the_pairings_page(client, large):
    event, _, url = large
    html = client.get(reverse("tournaments:event_detail", args=[event.slug])).content.decode()
    assert f'action="{url}"' in html
    assert table_cards(html) == 0


def test_a_small_round_still_shows_every_table(client):
    event = make_event(organizer=make_user())
    make_players(event, 12)
    event = rounds.event_start(event=event)
    rounds.round_pair(event=event, number=1, publish=True)
    html = client.get(reverse("tournaments:pairings", args=[event.slug, 1])).content.decode()
    assert table_cards(html) == 3
    assert 'id="pairings-directory"' not in html
