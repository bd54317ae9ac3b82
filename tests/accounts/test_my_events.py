"""My events: a player's upcoming and past events with their status, and their table while a round runs."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import add_staff, make_event, make_players, make_registration, make_user
from tournaments.models import Event, EventStaff
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def own(registration, user):
    registration.player.user = user
    registration.player.save()
    return registration


def test_it_lists_registered_waitlisted_checked_in_and_dropped(client):
    user = make_user("ann")
    own(make_registration(make_event(name="Open A"), "Ann Archer"), user)
    own(make_registration(make_event(name="Open B"), "Ann Archer", checked_in=True), user)
    capped = make_event(name="Open C", player_cap=1)
    make_registration(capped, "First In")
    own(make_registration(capped, "Ann Archer", waitlisted_at=timezone.now()), user)
    own(make_registration(make_event(name="Open D"), "Ann Archer", dropped_at=timezone.now()), user)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert "Open A" in page and "Registered" in page
    assert "Checked in" in page
    assert "Waitlisted (1st in line)" in page
    assert "Withdrawn" in page


def test_it_links_the_players_table_while_a_round_runs(client):
    user = make_user("ann")
    event = make_event(name="Live Open")
    players = make_players(event, 8)
    own(players[0], user)
    event = rounds.event_start(event=event)
    rounds.round_pair(event=event, number=1, publish=True)
    seat = players[0].seats.get()
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert f"Round 1 · Table {seat.table.number} · Seat {seat.seat}" in page
    assert f"/e/{event.slug}/rounds/1/tables/{seat.table.number}/" in page


def test_a_finished_event_shows_the_final_place(client):
    user = make_user("ann")
    event = make_event(name="Old Open", status=Event.Status.FINISHED)
    own(make_registration(event, "Ann Archer", checked_in=True), user)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert "Past events" in page and "Old Open" in page


def test_it_lists_the_events_the_account_staffs(client):
    user = make_user("jo")
    add_staff(make_event(name="Judged Open"), user, EventStaff.Role.JUDGE)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert "Judged Open" in page and "Judge" in page


def test_someone_elses_records_are_not_shown(client):
    own(make_registration(make_event(name="Secret Open"), "Bo Berg"), make_user("bo"))
    client.force_login(make_user("ann"))
    assert "Secret Open" not in client.get("/me/").content.decode()


def test_once_the_event_starts_a_waitlisted_or_absent_player_is_told_they_are_not_playing(client):
    user = make_user("ann")
    event = make_event(name="Started Open")
    make_players(event, 8)
    waiting = own(make_registration(event, "Ann Archer", waitlisted_at=timezone.now()), user)
    rounds.event_start(event=event)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert "Not playing: still on the waitlist when the event started" in page
    assert "in line" not in page
    assert waiting.pk


def test_a_player_who_withdrew_before_the_start_stays_withdrawn_after_it(client):
    user = make_user("ann")
    event = make_event(name="Started Open")
    make_players(event, 8)
    own(make_registration(event, "Ann Archer", dropped_at=timezone.now(), dropped_after_round=0), user)
    rounds.event_start(event=event)
    client.force_login(user)
    assert "Withdrawn" in client.get("/me/").content.decode()


def _waitlisted_in(count: int, user) -> None:
    for i in range(count):
        event = make_event(name=f"Capped {i}", player_cap=3, sanctioned=False)
        make_players(event, 3, checked_in=False)
        own(make_registration(event, "Ann Archer", waitlisted_at=timezone.now()), user)
        own(make_registration(make_event(name=f"Left {i}"), "Ann Archer", dropped_at=timezone.now()), user)


def test_my_events_reads_a_fixed_number_of_queries_however_many_events(client, django_assert_max_num_queries):
    user = make_user("ann")
    client.force_login(user)
    _waitlisted_in(2, user)
    with CaptureQueriesContext(connection) as few:
        client.get("/me/")
    _waitlisted_in(8, user)
    with django_assert_max_num_queries(len(few)):
        page = client.get("/me/").content.decode()
    assert page.count("Waitlisted (1st in line)") == 10
    assert page.count("Withdrawn") == 10


def test_a_player_finds_how_to_withdraw_or_drop_from_my_events(client):
    from django.urls import reverse

    user = make_user("ann")
    open_event = make_event(name="Open A", status=Event.Status.REGISTRATION)
    own(make_registration(open_event, "Ann Archer"), user)
    running = make_event(name="Open B")
    mine = own(make_registration(running, "Ann Archer", checked_in=True), user)
    make_players(running, 7)
    rounds.event_start(event=running)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert reverse("tournaments:withdraw", args=[open_event.slug]) in page
    drop_url = reverse("tournaments:self_drop", args=[running.slug, mine.pk])
    assert drop_url in page
    # The withdraw page of a started event points to the same drop page.
    assert drop_url in client.get(reverse("tournaments:withdraw", args=[running.slug])).content.decode()
