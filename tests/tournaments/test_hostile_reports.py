"""Hostile input on every page and action "results from the table" added: no value of any field gives a 500.

As in ``tests/accounts/test_hostile_input.py``, each page's forms are read from its HTML and sent back with
every field set to one hostile value; ids in the actions get letters, superscripts, huge numbers and NUL bytes.
"""

from __future__ import annotations

import re

import pytest

from tests.accounts.test_hostile_input import HOSTILE, form_fields
from tests.factories import make_event, make_players, make_user
from tournaments.models import Seat, Table
from tournaments.services import reports, results, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    organizer = make_user("olga")
    event = make_event(organizer=organizer, name="Hostile Tables")
    users = []
    for registration in make_players(event, 8):
        user = make_user()
        registration.player.user = user
        registration.player.save()
        users.append(user)
    rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    first, second = Table.objects.filter(round=round).order_by("number")
    seats = list(
        Seat.objects.filter(table=first).select_related("registration__player__user").order_by("seat")
    )
    # Table 1 has a report waiting for confirmations; table 2 has nothing yet.
    reports.report_submit(
        table=first,
        registration=seats[0].registration,
        user=seats[0].registration.player.user,
        entries=[
            results.SeatEntry(seat_id=s.pk, vp=40 - 5 * i, super_villains=1) for i, s in enumerate(seats)
        ],
    )
    reporter_of_two = Seat.objects.filter(table=second).order_by("seat").first().registration
    return {
        "event": event,
        "organizer": organizer,
        "confirmer": seats[1].registration.player.user,
        "reporter": reporter_of_two.player.user,
        "player_pk": seats[1].registration_id,
    }


def pages(world) -> list[tuple[str, str]]:
    slug = world["event"].slug
    return [
        ("reporter", f"/e/{slug}/rounds/1/tables/2/"),
        ("confirmer", f"/e/{slug}/rounds/1/tables/1/"),
        ("confirmer", f"/e/{slug}/players/{world['player_pk']}/drop/"),
        ("organizer", f"/e/{slug}/staff/rounds/1/"),
        ("organizer", f"/e/{slug}/staff/rounds/1/tables/1/"),
        ("organizer", f"/e/{slug}/staff/rounds/"),
        ("organizer", f"/e/{slug}/staff/edit/"),
        ("organizer", f"/judging/e/{slug}/staff/"),
    ]


@pytest.mark.parametrize(
    "value", HOSTILE, ids=["letters", "superscript", "minus", "exp", "nul", "10k", "csv", "space"]
)
def test_no_hostile_value_in_any_field_of_the_table_and_report_forms_gives_a_500(client, world, value):
    for who, url in pages(world):
        client.force_login(world[who])
        page = client.get(url)
        assert page.status_code < 500, (who, url)
        html = page.content.decode()
        for action in set(re.findall(r'<form\b[^>]*\baction="([^"]+)"', html)) | {url}:
            action = action.replace("&amp;", "&")
            if not action.startswith("/") or action.startswith("/accounts/logout"):
                continue
            data = dict.fromkeys(form_fields(html), value)
            for extra in ({}, {"action": "report"}, {"action": "confirm"}, {"action": "dispute"}):
                response = client.post(action, {**data, **extra})
                assert response.status_code < 500, (who, action, extra, value[:20])


@pytest.mark.parametrize("value", ["abc", "²", "0", "-1", "99999999999999999999", "a\x00"])
def test_hostile_ids_in_the_confirm_and_confirm_for_actions_are_not_a_500(client, world, value):
    slug = world["event"].slug
    client.force_login(world["confirmer"])
    table = f"/e/{slug}/rounds/1/tables/1/"
    for action in ("confirm", "dispute"):
        assert client.post(table, {"action": action, "report": value, "reason": "x"}).status_code < 500
    client.force_login(world["organizer"])
    confirm_for = f"/e/{slug}/staff/rounds/1/tables/1/confirm-for/"
    assert client.post(confirm_for, {"report": value, "seat": value}).status_code < 500
    assert client.post(f"/e/{slug}/staff/rounds/1/publish/", {"number": value}).status_code < 500
    assert client.post(f"/e/{slug}/staff/rounds/pair/", {"number": value, "publish": value}).status_code < 500
