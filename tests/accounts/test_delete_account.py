"""A person deletes their own account from the site: their results stay with the events, unlinked."""

from __future__ import annotations

import datetime

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from ratings import services as rating_services
from seasons.models import Season, SeasonOrganizer
from tests.factories import add_staff, make_event, make_registration, make_user
from tournaments.models import Event, EventStaff, Player, RegistrationChange, Seat

pytestmark = pytest.mark.django_db

URL = reverse("accounts:delete_account")


def player_of(user, name="Ann Zyxwvut", **fields) -> Player:
    registration = make_registration(make_event(), name)
    Player.objects.filter(pk=registration.player_id).update(user=user, **fields)
    return Player.objects.get(pk=registration.player_id)


def test_it_deletes_the_account_logs_out_and_keeps_the_player_records_unlinked(client):
    ann = make_user("ann")
    record = player_of(ann, public_short_name=True)
    client.force_login(ann)
    page = client.get(URL)
    assert page.status_code == 200 and "Ann Zyxwvut" in page.content.decode()
    response = client.post(URL, {"confirm": "pw"}, follow=True)
    assert "Your account is deleted" in response.content.decode()
    assert not get_user_model().objects.filter(username="ann").exists()
    assert not EmailAddress.objects.filter(email="ann@example.org").exists()
    record.refresh_from_db()
    assert record.user_id is None and record.public_short_name  # the short name stays chosen
    change = RegistrationChange.objects.get(registration__player=record, action="unlink")
    assert change.note == "account deleted" and "ann" not in str(change.changes)
    assert client.get(reverse("accounts:my_events")).status_code == 302  # logged out


def test_a_wrong_password_deletes_nothing_and_says_so(client):
    ann = make_user("ann")
    client.force_login(ann)
    response = client.post(URL, {"confirm": "not my password"})
    assert response.status_code == 400
    assert "not your password" in response.content.decode()
    assert get_user_model().objects.filter(username="ann").exists()


def test_an_account_without_a_password_confirms_with_its_username(client):
    ann = make_user("ann")
    ann.set_unusable_password()
    ann.save()
    client.force_login(ann)
    assert client.post(URL, {"confirm": "someone"}).status_code == 400
    client.post(URL, {"confirm": "ann"})
    assert not get_user_model().objects.filter(username="ann").exists()


def test_the_only_organizer_of_a_running_event_is_asked_to_add_another_first(client):
    org = make_user("org")
    event = make_event(organizer=org, name="Sunday Open")
    client.force_login(org)
    page = client.get(URL).content.decode()
    assert "cannot be deleted yet" in page and "Sunday Open" in page
    assert reverse("tournaments:staff", args=[event.slug]) in page
    response = client.post(URL, {"confirm": "pw"})
    assert response.status_code == 400
    assert get_user_model().objects.filter(username="org").exists()
    # With a second organizer, or once the event is finished, nothing stands in the way.
    add_staff(event, make_user("other"), EventStaff.Role.ORGANIZER)
    assert "cannot be deleted yet" not in client.get(URL).content.decode()
    EventStaff.objects.filter(event=event).exclude(user=org).delete()
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    client.post(URL, {"confirm": "pw"})
    assert not get_user_model().objects.filter(username="org").exists()
    assert Event.objects.filter(pk=event.pk).exists()


def test_the_only_organizer_of_a_season_not_over_is_asked_to_add_another_first(client):
    org = make_user("org")
    today = datetime.date.today()
    season = Season.objects.create(
        name="Winter League", start_date=today, end_date=today + datetime.timedelta(days=60)
    )
    SeasonOrganizer.objects.create(season=season, user=org)
    client.force_login(org)
    assert client.post(URL, {"confirm": "pw"}).status_code == 400
    Season.objects.filter(pk=season.pk).update(end_date=today - datetime.timedelta(days=1))
    client.post(URL, {"confirm": "pw"})
    assert not get_user_model().objects.filter(username="org").exists()


def test_a_judge_role_does_not_stand_in_the_way_and_goes_with_the_account(client):
    judge = make_user("judge")
    event = make_event(organizer=make_user("org"))
    add_staff(event, judge, EventStaff.Role.JUDGE)
    client.force_login(judge)
    client.post(URL, {"confirm": "pw"})
    assert not EventStaff.objects.filter(event=event, role=EventStaff.Role.JUDGE).exists()


def test_the_ratings_recompute_once_for_all_the_records_with_games(django_capture_on_commit_callbacks):
    from accounts import services
    from tests.ratings.helpers import simulated_event

    event = simulated_event()
    ann = make_user("ann")
    players = list({seat.registration.player for seat in Seat.objects.filter(round__event=event)})[:3]
    Player.objects.filter(pk__in=[p.pk for p in players]).update(user=ann)
    with django_capture_on_commit_callbacks() as callbacks:
        assert services.account_delete(user=ann) == 3
    assert sum(1 for c in callbacks if c is rating_services._send) == 1


def test_logged_out_visitors_are_sent_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
