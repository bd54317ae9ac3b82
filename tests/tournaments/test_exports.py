"""Issue 18: an event's data as files other tools read: every game's result as CSV (the event's and a round's),
the penalties as CSV for staff, and a calendar entry."""

from __future__ import annotations

import csv
import datetime
import io
import random

import pytest
from django.urls import reverse

from judging.models import Infraction
from judging.services import penalty_record
from tests.factories import add_staff, make_event, make_players, make_user
from tests.tournaments.flow import play_round
from tournaments.models import Seat
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def rows_of(response) -> list[dict]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def event_with_a_played_round(players: int = 8):
    event = make_event(name="Export Open")
    make_players(event, players)
    rounds.event_start(event=event)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(5))
    return event


def test_it_exports_every_games_result_with_numbers_as_numbers(client):
    event = event_with_a_played_round()
    rows = rows_of(client.get(reverse("tournaments:results_csv", args=[event.slug])))
    assert len(rows) == 8
    first = Seat.objects.get(round__number=1, table__number=1, seat=1)
    assert rows[0]["Round"] == "1" and rows[0]["Table"] == "1" and rows[0]["Seat"] == "1"
    assert rows[0]["Player"] == first.registration.player.public_name
    assert rows[0]["VP"] == str(first.vp) and rows[0]["Placement"] == str(first.placement)
    assert rows[0]["Points"] == f"{first.points.normalize():f}" and "." not in rows[0]["Points"]


def test_it_leaves_a_draft_round_out_of_the_results(client):
    event = event_with_a_played_round()
    rounds.round_pair(event=event, number=2, publish=False)
    rows = rows_of(client.get(reverse("tournaments:results_csv", args=[event.slug])))
    assert {row["Round"] for row in rows} == {"1"}


def test_it_exports_one_rounds_pairings_from_its_page(client):
    event = event_with_a_played_round()
    rounds.round_pair(event=event, number=2, publish=True)
    rows = rows_of(client.get(reverse("tournaments:pairings", args=[event.slug, 2]) + "?_export=csv"))
    assert len(rows) == 8 and {row["Round"] for row in rows} == {"2"} and rows[0]["VP"] == ""


def test_it_exports_the_penalties_to_staff_only(client):
    event = event_with_a_played_round()
    judge = make_user("jules")
    add_staff(event, judge, "judge")
    registration = event.registrations.first()
    infraction = Infraction.objects.first() or Infraction.objects.create(
        rule="10.030", name="Looking at cards"
    )
    penalty_record(
        event=event,
        registration=registration,
        infraction=infraction,
        type="warning",
        description="peeked",
        user=judge,
    )
    url = reverse("judging:penalties", args=[event.slug]) + "?_export=csv"
    assert client.get(url).status_code in (302, 403)
    client.force_login(judge)
    rows = rows_of(client.get(url))
    assert (
        len(rows) == 1 and rows[0]["Player"] == str(registration.player) and rows[0]["Penalty"] == "Warning"
    )


def test_it_gives_a_calendar_entry_for_the_event(client):
    event = make_event(name="Calendar Open", venue="The Comic Vault", date=datetime.date(2026, 12, 19))
    response = client.get(reverse("tournaments:calendar", args=[event.slug]))
    assert response["Content-Type"].startswith("text/calendar")
    assert f'filename="{event.slug}.ics"' in response["Content-Disposition"]
    from icalendar import Calendar

    (entry,) = Calendar.from_ical(response.content).walk("VEVENT")
    assert str(entry["summary"]) == "Calendar Open" and str(entry["location"]) == "The Comic Vault"
    assert entry["dtstart"].dt == datetime.date(2026, 12, 19)
    assert str(entry["url"]).endswith(event.get_absolute_url())
