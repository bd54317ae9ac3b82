"""9.040: a player who left a game may have left the event too; the round's staff page asks, and drops."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.test_event_pages import round_2_table_1, slip_data
from tournaments.models import Registration, Seat

pytestmark = pytest.mark.django_db


def leave(client, table, url) -> Seat:
    """Save the slip with the table's last seat marked as having left the game."""
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    data = slip_data(table, [9, 7, 5, 0], table.version)
    data[f"seat{seats[-1].pk}-left_game"] = 1
    assert client.post(url, data).status_code == 302
    return seats[-1]


def round_page(event) -> str:
    return reverse("tournaments:round_staff", kwargs={"slug": event.slug, "number": 2})


def test_a_player_who_left_a_game_and_is_still_in_the_event_is_offered_to_drop(client):
    event, table, url, client = round_2_table_1(client)
    left = leave(client, table, url)
    body = client.get(round_page(event)).content.decode()
    assert "Left a game, still in the event" in body
    assert left.registration.player.name in body.split('id="left-game"')[1]
    assert reverse("tournaments:drop", args=[event.slug, left.registration.pk]) in body


def test_dropping_from_the_box_drops_the_player_and_comes_back_to_the_round(client):
    event, table, url, client = round_2_table_1(client)
    left = leave(client, table, url)
    response = client.post(
        reverse("tournaments:drop", args=[event.slug, left.registration.pk]),
        {"next": round_page(event), "reason": "Left the event during Round 2"},
    )
    assert response.status_code == 302 and response.headers["Location"] == round_page(event)
    registration = Registration.objects.get(pk=left.registration.pk)
    assert registration.dropped and registration.drop_reason == "Left the event during Round 2"
    assert "Left a game, still in the event" not in client.get(round_page(event)).content.decode()


def test_no_box_when_nobody_left_a_game(client):
    event, table, url, client = round_2_table_1(client)
    client.post(url, slip_data(table, [9, 7, 5, 3], table.version))
    assert "Left a game, still in the event" not in client.get(round_page(event)).content.decode()


def test_a_drop_never_returns_to_another_site(client):
    event, table, url, client = round_2_table_1(client)
    left = leave(client, table, url)
    response = client.post(
        reverse("tournaments:drop", args=[event.slug, left.registration.pk]),
        {"next": "https://evil.example/"},
    )
    assert response.headers["Location"] == reverse("tournaments:registrations", args=[event.slug])
