"""Issue 18: each event has a time zone of its own; its pages show times in it and the database keeps UTC."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.factories import event_form_data, make_event, make_user
from tournaments.models import Event

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def organizer_client(client, user=None):
    user = user or make_user("olga")
    client.force_login(user)
    return client, user


def test_it_offers_a_new_event_the_organizers_last_time_zone(client):
    client, user = organizer_client(client)
    make_event(organizer=user, created_by=user, time_zone="America/Chicago")
    page = client.get(reverse("tournaments:event_create")).content.decode()
    assert '<option value="America/Chicago" selected>' in page


def test_it_offers_the_sites_time_zone_to_a_first_event(client, settings):
    settings.TIME_ZONE = "Europe/Paris"
    client, _ = organizer_client(client)
    page = client.get(reverse("tournaments:event_create")).content.decode()
    assert '<option value="Europe/Paris" selected>' in page


def test_it_saves_the_chosen_time_zone(client):
    client, _ = organizer_client(client)
    response = client.post(reverse("tournaments:event_create"), event_form_data(time_zone="Asia/Tokyo"))
    assert response.status_code == 302
    assert Event.objects.get().time_zone == "Asia/Tokyo"


def test_it_refuses_an_unknown_time_zone_and_keeps_what_was_typed(client):
    client, _ = organizer_client(client)
    response = client.post(
        reverse("tournaments:event_create"), event_form_data(name="Typed Open", time_zone="Mars/Olympus")
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Select a valid choice" in page
    assert 'value="Typed Open"' in page and not Event.objects.exists()


def test_it_reads_a_typed_deadline_in_the_chosen_time_zone(client):
    client, _ = organizer_client(client)
    data = event_form_data(time_zone="America/Chicago", registration_deadline="2026-12-04 18:00")
    assert client.post(reverse("tournaments:event_create"), data).status_code == 302
    assert Event.objects.get().registration_deadline == datetime.datetime(2026, 12, 5, 0, 0, tzinfo=UTC)


def test_its_pages_show_times_in_its_time_zone(client):
    event = make_event(
        time_zone="Asia/Tokyo",
        self_registration_guests=True,
        registration_deadline=datetime.datetime(2026, 12, 4, 9, 30, tzinfo=UTC),
    )
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Registration closes Fri 4 Dec 2026, 18:30" in page and "Asia/Tokyo" in page


def test_a_changed_time_zone_shows_at_once(client):
    event = make_event(
        time_zone="Asia/Tokyo", registration_deadline=datetime.datetime(2026, 12, 4, 9, 30, tzinfo=UTC)
    )
    client.get(event.get_absolute_url())
    event.time_zone = "Europe/London"
    event.save()
    assert (
        "Registration closes Fri 4 Dec 2026, 09:30" in client.get(event.get_absolute_url()).content.decode()
    )
