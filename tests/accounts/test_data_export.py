"""A player downloads their own data as JSON: account, records, events, seats, penalties (without the
judges' notes), staff roles and accepted invitations."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone

from judging import services as judging_services
from judging.models import Infraction
from tests.factories import add_staff, make_event, make_players, make_registration, make_user
from tests.permissions import outcome
from tests.tournaments.flow import play_round
from tournaments.models import EventStaff, Player, StaffInvitation
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

URL = "/me/data.json"


def download(client, user) -> dict:
    client.force_login(user)
    response = client.get(URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment;")
    return json.loads(response.content)


def test_the_download_needs_a_login(client):
    assert reverse("accounts:data_download") == URL
    assert outcome(client.get(URL)) == "login"


def test_it_has_the_account_and_its_email_addresses(client):
    ann = make_user("ann")
    data = download(client, ann)
    assert data["account"]["username"] == "ann"
    assert data["account"]["emails"] == [{"email": "ann@example.org", "verified": True, "primary": True}]
    assert data["account"]["date_joined"][:4] == str(ann.date_joined.year)
    assert data["players"] == [] and data["staff_roles"] == []


def test_it_has_every_linked_record_with_events_seats_and_penalties_but_no_judges_note(client):
    import random

    ann = make_user("ann")
    organizer = make_user("org")
    event = make_event(organizer=organizer, name="Winter Open")
    registration = make_registration(event, "Ann Archer", checked_in=True)
    make_players(event, 7)
    Player.objects.filter(pk=registration.player_id).update(user=ann, email="ann@example.org")
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    judging_services.penalty_record(
        event=event,
        user=organizer,
        infraction=Infraction.objects.get(rule="10.060"),
        type="warning",
        registration=registration,
        description="SECRET judge note",
    )
    play_round(round, random.Random(1))
    other = make_registration(make_event(name="Spring Open"), "Ann A")
    Player.objects.filter(pk=other.player_id).update(user=ann)
    make_registration(make_event(name="Not Mine"), "Bob Baker")

    data = download(client, ann)
    text = json.dumps(data)
    assert "SECRET" not in text and "Not Mine" not in text and "org" not in data["account"]["username"]
    records = {p["name"]: p for p in data["players"]}
    assert set(records) == {"Ann Archer", "Ann A"}
    winter = records["Ann Archer"]["events"][0]
    assert winter["event"] == "Winter Open" and winter["status"] == "Checked in"
    [seat] = winter["seats"]
    assert (
        seat["round"] == 1
        and seat["table"] >= 1
        and seat["vp"] is not None
        and seat["placement"] in (1, 2, 3, 4)
    )
    assert isinstance(seat["points"], float)
    [penalty] = winter["penalties"]
    assert penalty["infraction"].startswith("10.060") and penalty["penalty"] == "Warning"
    assert set(penalty) == {"infraction", "penalty", "round", "table", "recorded_at", "voided"}
    assert records["Ann A"]["events"][0]["status"] == "Registered"


def test_it_has_staff_roles_and_accepted_invitations(client):
    ann = make_user("ann")
    event = make_event(name="Judged Open")
    add_staff(event, ann, EventStaff.Role.JUDGE)
    StaffInvitation.objects.create(
        event=event,
        email="ann@example.org",
        role=EventStaff.Role.JUDGE,
        token="t" * 40,
        expires_at=timezone.now() + datetime.timedelta(days=7),
        accepted_at=timezone.now(),
        accepted_by=ann,
    )
    data = download(client, ann)
    assert data["staff_roles"] == [
        {"event": "Judged Open", "event_slug": event.slug, "date": "2026-12-05", "role": "judge"}
    ]
    [invitation] = data["invitations_accepted"]
    assert invitation["event"] == "Judged Open" and invitation["role"] == "judge"


def test_another_accounts_records_are_not_in_the_download(client):
    bob = make_user("bob")
    Player.objects.filter(pk=make_registration(make_event(), "Bob Baker").player_id).update(user=bob)
    data = download(client, make_user("ann"))
    assert data["players"] == []


def test_a_post_is_refused(client):
    client.force_login(make_user("ann"))
    assert client.post(URL).status_code == 405
