"""The event settings page: saving, and two organizers saving at once."""

import random

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tests.tournaments.flow import play_round
from tournaments import selectors, services
from tournaments.errors import ActionError
from tournaments.models import Event, Seat
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def settings_data(event: Event, **changes) -> dict:
    data = {
        "name": event.name,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "sanctioned": "on" if event.sanctioned else "",
        "round_minutes": event.round_minutes,
        "turn_order": event.turn_order,
        "paper_size": event.paper_size,
        "scoring_text": "",
        "tiebreaker_1": "super_villains",
        "tiebreaker_2": "opponents_points_rate",
        "tiebreaker_3": "vp",
        "player_reporting": str(event.player_reporting),
        "confirm_minutes": event.confirm_minutes,
        "version": event.settings_version,
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v != ""}


def edit_url(event: Event) -> str:
    return reverse("tournaments:event_edit", kwargs={"slug": event.slug})


def test_it_saves_the_settings_and_bumps_the_version(organizer_client):
    event = make_event(organizer=organizer_client.user)
    response = organizer_client.post(edit_url(event), settings_data(event, round_minutes=50))
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.round_minutes == 50
    assert event.settings_version == 1


def test_a_save_from_a_stale_form_is_refused_and_shows_what_was_saved(organizer_client):
    event = make_event(organizer=organizer_client.user)
    stale = settings_data(event, venue="Gotham Hall")
    services.event_settings_save(event=event, fields={"round_minutes": 45}, version=0)

    response = organizer_client.post(edit_url(event), stale)

    assert response.status_code == 200
    page = response.content.decode()
    assert "Another organizer saved these settings while you were editing" in page
    conflict = page.split('id="conflict"')[1].split("</section>")[0]
    assert "<li>Round minutes: 45</li>" in conflict
    assert "<li>Venue: (empty)</li>" in conflict
    assert 'value="Gotham Hall"' in page  # what this organizer typed is kept
    event.refresh_from_db()
    assert (event.venue, event.round_minutes, event.settings_version) == ("", 45, 1)


def test_saving_again_after_a_conflict_keeps_this_forms_values(organizer_client):
    event = make_event(organizer=organizer_client.user)
    stale = settings_data(event, venue="Gotham Hall")
    services.event_settings_save(event=event, fields={"round_minutes": 45}, version=0)
    page = organizer_client.post(edit_url(event), stale).content.decode()
    assert 'name="version" value="1"' in page

    response = organizer_client.post(edit_url(event), {**stale, "version": 1})

    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.venue, event.round_minutes, event.settings_version) == ("Gotham Hall", 60, 2)


def test_saving_settings_writes_only_the_settings_fields():
    event = make_event(organizer=make_user("org"))
    loaded = Event.objects.get(pk=event.pk)  # the page's copy, loaded before a round closed
    Event.objects.filter(pk=event.pk).update(results_version=7, status=Event.Status.RUNNING)

    services.event_settings_save(event=loaded, fields={"venue": "Metropolis"}, version=0)

    event.refresh_from_db()
    assert (event.venue, event.results_version, event.status) == ("Metropolis", 7, Event.Status.RUNNING)


def test_points_cannot_change_once_the_event_has_started():
    event = make_event(organizer=make_user("org"))
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)

    with pytest.raises(ActionError, match="points and tiebreakers"):
        services.event_settings_save(event=event, fields={"scoring": {"4": [6, 3, 1, 0]}}, version=0)

    event.refresh_from_db()
    assert (event.scoring, event.settings_version) == ({}, 0)


def test_an_organizer_chooses_standings_first_pairing(organizer_client):
    event = make_event(organizer=organizer_client.user)
    page = organizer_client.get(edit_url(event)).content.decode()
    assert "New opponents first: nobody meets the same player twice" in page
    assert "Standings first: equal points sit together" in page
    organizer_client.post(edit_url(event), settings_data(event, pairing_policy="standings_first"))
    event.refresh_from_db()
    assert event.pairing_policy == "standings_first"


def test_a_post_without_the_pairing_choice_keeps_the_events(organizer_client):
    event = make_event(organizer=organizer_client.user)
    Event.objects.filter(pk=event.pk).update(pairing_policy="standings_first")
    event.refresh_from_db()
    organizer_client.post(edit_url(event), settings_data(event, round_minutes=50))
    event.refresh_from_db()
    assert (event.round_minutes, event.pairing_policy) == (50, "standings_first")


def test_an_unknown_pairing_choice_is_a_field_error(organizer_client):
    event = make_event(organizer=organizer_client.user)
    response = organizer_client.post(edit_url(event), settings_data(event, pairing_policy="by-vibes"))
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    event.refresh_from_db()
    assert event.pairing_policy == "new_opponents"


def test_the_pairing_choice_is_locked_once_the_event_starts(organizer_client):
    event = make_event(organizer=organizer_client.user)
    make_players(event, 8)
    event = rounds.event_start(event=event)
    organizer_client.post(edit_url(event), settings_data(event, pairing_policy="standings_first"))
    event.refresh_from_db()
    assert event.pairing_policy == "new_opponents"
    assert "Locked once the event has started." in organizer_client.get(edit_url(event)).content.decode()


def test_a_standings_first_event_is_paired_that_way():
    event = make_event(organizer=make_user())
    make_players(event, 16)
    Event.objects.filter(pk=event.pk).update(pairing_policy="standings_first")
    event = rounds.event_start(event=Event.objects.get(pk=event.pk))
    rng = random.Random(3)
    for number in (1, 2, 3):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)
    fourth = rounds.round_pair(event=event, number=4, publish=True)
    points = {line.registration.pk: line.points for line in selectors.event_standings(event)}
    by_table: dict[int, list[float]] = {}
    for seat in Seat.objects.filter(round=fourth):
        by_table.setdefault(seat.table_id, []).append(points[seat.registration_id])
    ordered = sorted(points.values(), reverse=True)
    # A top-down fill: each table holds the next four of the standings' points.
    assert sorted(sorted(v, reverse=True) for v in by_table.values()) == sorted(
        ordered[i : i + 4] for i in range(0, 16, 4)
    )
