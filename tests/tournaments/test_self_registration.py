"""Players registering themselves: with an account (the default) or as guests who confirm their email."""

from __future__ import annotations

import datetime
import re
from unittest import mock

import pytest
from django.core import mail, signing
from django.urls import reverse
from django.utils import timezone

from tests.factories import event_form_data, make_event, make_registration, make_user
from tests.permissions import RUN, VISITORS, log_in_as, outcome
from tournaments import services
from tournaments.models import Event, Player, Registration
from tournaments.services.entries import GUEST_SALT

pytestmark = pytest.mark.django_db


def register_url(event):
    return reverse("tournaments:self_register", kwargs={"slug": event.slug})


def open_event(**fields):
    return make_event(self_registration_open=True, sanctioned=False, **fields)


def confirm_link_from_email() -> str:
    return re.search(r"http://testserver(/\S+)", mail.outbox[-1].body).group(1)


# --- with an account --------------------------------------------------------------------------


def test_new_events_require_an_account():
    assert Event().self_registration_guests is False


def test_an_anonymous_visitor_is_asked_to_log_in_with_a_link_back(client):
    event = open_event()
    body = client.get(event.get_absolute_url()).content.decode()
    back = f"?next=%2Fe%2F{event.slug}%2F"
    assert f'href="/accounts/login/{back}"' in body and f'href="/accounts/signup/{back}"' in body
    assert "to register" in body and 'name="email"' not in body


def test_an_anonymous_post_is_refused_with_a_message_and_sent_to_log_in(client):
    event = open_event()
    response = client.post(register_url(event), {"name": "Walk In", "email": "w@example.org"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert not Registration.objects.filter(event=event).exists()
    page = client.get(response["Location"]).content.decode()
    assert "Log in or sign up to register" in page


def test_a_logged_in_player_sees_a_one_click_form_with_their_name(client):
    event = open_event()
    user = make_user("ann", first_name="Ann", last_name="Archer")
    client.force_login(user)
    body = client.get(event.get_absolute_url()).content.decode()
    assert 'value="Ann Archer"' in body and "ann@example.org" in body


def test_the_form_is_prefilled_from_the_players_latest_record(client):
    event = open_event()
    user = make_user("ann")
    Player.objects.create(name="Old Name", user=user, created_at=timezone.now() - datetime.timedelta(days=9))
    Player.objects.create(name="Ann Archer", user=user)
    client.force_login(user)
    assert 'value="Ann Archer"' in client.get(event.get_absolute_url()).content.decode()


def test_registering_reuses_the_players_own_record_with_their_verified_email(client):
    event = open_event()
    user = make_user("ann")
    mine = Player.objects.create(name="Ann Archer", user=user)
    client.force_login(user)
    client.post(register_url(event), {"name": "Ann Archer"})
    registration = Registration.objects.get(event=event)
    assert registration.player == mine and registration.self_registered


def test_a_new_name_makes_a_new_record_of_the_account_and_keeps_the_old_one():
    event = open_event()
    user = make_user("ann")
    old = Player.objects.create(name="Ann Archer", user=user)
    registration = services.entry_register(event=event, user=user, name="Annie Archer")
    assert registration.player != old and registration.player.user == user
    assert registration.player.email == "ann@example.org"
    assert Player.objects.get(pk=old.pk).name == "Ann Archer"


def test_registering_twice_is_refused_and_keeps_what_was_typed(client):
    event = open_event()
    client.force_login(make_user("ann"))
    client.post(register_url(event), {"name": "Ann Archer"})
    # A second tab still showing the form.
    response = client.post(register_url(event), {"name": "Ann Again"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "You are already registered for this event (as Ann Archer)" in body
    assert Registration.objects.filter(event=event).count() == 1


def test_someone_elses_name_is_refused_with_a_way_forward(client):
    event = open_event()
    make_registration(event, "Ann Archer")
    client.force_login(make_user("ann"))
    response = client.post(register_url(event), {"name": "ann archer"})
    assert response.status_code == 400
    assert "ask the organizer to link it to your account" in response.content.decode()
    assert 'value="ann archer"' in response.content.decode()


def test_registration_after_the_deadline_is_refused(client):
    event = open_event(registration_deadline=timezone.now() - datetime.timedelta(minutes=1))
    client.force_login(make_user("ann"))
    response = client.post(register_url(event), {"name": "Ann Archer"})
    assert response.status_code == 400 and "Registration closed on" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_registration_before_the_deadline_is_open():
    event = open_event(registration_deadline=timezone.now() + datetime.timedelta(hours=1))
    registration = services.entry_register(event=event, user=make_user("ann"), name="Ann")
    assert registration.pk


def test_registration_after_the_start_is_refused(client):
    event = open_event(status=Event.Status.RUNNING)
    client.force_login(make_user("ann"))
    response = client.post(register_url(event), {"name": "Ann Archer"})
    assert response.status_code == 400
    assert not Registration.objects.filter(event=event).exists()


def test_registration_while_closed_is_refused(client):
    event = make_event(self_registration_open=False)
    client.force_login(make_user("ann"))
    response = client.post(register_url(event), {"name": "Ann Archer"})
    assert "not open" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_an_empty_name_is_a_field_error(client):
    event = open_event()
    client.force_login(make_user("ann"))
    response = client.post(register_url(event), {"name": "   "})
    assert response.status_code == 400 and "errorlist" in response.content.decode()


def test_a_registered_player_sees_their_registration_and_a_withdraw_button(client):
    event = open_event()
    user = make_user("ann")
    services.entry_register(event=event, user=user, name="Ann Archer")
    client.force_login(user)
    body = client.get(event.get_absolute_url()).content.decode()
    assert "You are registered as Ann Archer" in body and "Withdraw…" in body
    assert 'id="register"' not in body


def test_a_registered_player_finds_the_event_under_my_events(client):
    event = open_event()
    user = make_user("ann")
    client.force_login(user)
    client.post(register_url(event), {"name": "Ann Archer"})
    body = client.get(reverse("accounts:my_events")).content.decode()
    assert event.name in body and "Registered" in body


# --- guests -----------------------------------------------------------------------------------


def guest_event(**fields):
    return open_event(self_registration_guests=True, **fields)


def guest_token(event, name="Gus Guest", email="gus@example.net"):
    return signing.dumps({"e": event.pk, "n": name, "m": email}, salt=GUEST_SALT, compress=True)


def confirm_url(event, token):
    return reverse("tournaments:guest_confirm", kwargs={"slug": event.slug, "token": token})


def test_a_guest_gets_a_confirmation_email_and_nothing_is_stored_yet(client):
    event = guest_event()
    response = client.post(register_url(event), {"name": "Gus Guest", "email": "gus@example.net"})
    assert response.status_code == 302
    assert not Registration.objects.filter(event=event).exists()
    assert not Player.objects.filter(email="gus@example.net").exists()
    assert mail.outbox[-1].to == ["gus@example.net"]
    assert "/register/confirm/" in mail.outbox[-1].body


def test_opening_the_link_and_confirming_registers_the_guest(client):
    event = guest_event()
    client.post(register_url(event), {"name": "Gus Guest", "email": "gus@example.net"})
    link = confirm_link_from_email()
    assert "Confirm my registration" in client.get(link).content.decode()
    assert not Registration.objects.filter(event=event).exists()
    body = client.post(link).content.decode()
    registration = Registration.objects.get(event=event)
    assert registration.player.name == "Gus Guest" and registration.player.email == "gus@example.net"
    assert "Your email is confirmed" in body


def test_a_reused_link_says_already_registered(client):
    event = guest_event()
    token = guest_token(event)
    client.post(confirm_url(event, token))
    body = client.get(confirm_url(event, token)).content.decode()
    assert "already registered" in body
    client.post(confirm_url(event, token))
    assert Registration.objects.filter(event=event).count() == 1


def test_an_expired_link_says_so(client, settings):
    event = guest_event()
    settings.GUEST_CONFIRMATION_HOURS = 1
    two_hours_ago = (timezone.now() - datetime.timedelta(hours=2)).timestamp()
    with mock.patch("django.core.signing.time.time", return_value=two_hours_ago):
        token = guest_token(event)
    response = client.post(confirm_url(event, token))
    assert response.status_code == 400 and "This link has expired" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_a_tampered_link_is_refused(client):
    event = guest_event()
    token = guest_token(event)
    response = client.post(confirm_url(event, token[:-3] + "abc"))
    assert response.status_code == 400 and "This link is not valid" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_a_link_for_another_event_is_refused(client):
    event, other = guest_event(), guest_event()
    response = client.post(confirm_url(event, guest_token(other)))
    assert response.status_code == 400 and not Registration.objects.exists()


def test_a_guest_form_keeps_what_was_typed_on_an_error(client):
    event = guest_event()
    make_registration(event, "Gus Guest")
    response = client.post(register_url(event), {"name": "Gus Guest", "email": "gus@example.net"})
    body = response.content.decode()
    assert response.status_code == 400 and 'value="gus@example.net"' in body
    assert mail.outbox == []


def test_a_guest_using_an_accounts_email_is_asked_to_log_in(client):
    event = guest_event()
    make_user("gus", email="gus@example.net")
    response = client.post(register_url(event), {"name": "Gus Guest", "email": "gus@example.net"})
    assert "belongs to an account: log in to register" in response.content.decode()


def test_a_guest_confirming_on_a_full_event_joins_the_waitlist(client):
    event = guest_event(player_cap=3)
    for i in range(3):
        make_registration(event, f"Seated {i}")
    body = client.post(confirm_url(event, guest_token(event))).content.decode()
    assert Registration.objects.get(player__name="Gus Guest").waitlisted_at is not None
    assert "on the waitlist, 1st in line" in body


def test_a_guest_link_after_the_deadline_is_refused(client):
    event = guest_event()
    token = guest_token(event)
    Event.objects.filter(pk=event.pk).update(
        registration_deadline=timezone.now() - datetime.timedelta(minutes=1)
    )
    response = client.post(confirm_url(event, token))
    assert response.status_code == 400 and "Registration closed on" in response.content.decode()


# --- settings ---------------------------------------------------------------------------------


def settings_data(event, **overrides):
    data = event_form_data(event)
    data.update(overrides)
    return data


def test_the_organizer_sets_guests_cap_and_deadline(organizer_client, settings):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    data = settings_data(
        event, self_registration_guests="True", player_cap="16", registration_deadline="2026-12-04T18:30"
    )
    assert organizer_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.self_registration_guests and event.player_cap == 16
    local = timezone.localtime(event.registration_deadline)
    assert (local.day, local.hour, local.minute) == (4, 18, 30)
    # The form shows it back the way it was typed.
    assert 'value="2026-12-04T18:30"' in organizer_client.get(url).content.decode()


@pytest.mark.parametrize(
    ("sanctioned", "cap", "error"),
    [
        ("", "2", "greater than or equal to 3"),
        ("on", "6", "A sanctioned event needs at least 8 players"),
        ("", "abc", "Enter a whole number"),
    ],
)
def test_a_bad_cap_is_a_field_error_and_keeps_the_form(organizer_client, sanctioned, cap, error):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    data = settings_data(
        event, player_cap=cap, venue="Kept Hall", **({"sanctioned": sanctioned} if sanctioned else {})
    )
    response = organizer_client.post(url, data)
    body = response.content.decode()
    assert response.status_code == 200 and error in body and 'value="Kept Hall"' in body
    event.refresh_from_db()
    assert event.player_cap is None


def test_a_bad_deadline_is_a_field_error(organizer_client):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    response = organizer_client.post(url, settings_data(event, registration_deadline="tomorrow-ish"))
    assert "Enter a valid date/time" in response.content.decode()


# --- who may open the new pages ----------------------------------------------------------------

PLAYER_URLS = {"anonymous": "login", **dict.fromkeys(VISITORS[1:], "ok")}
NEW_STAFF_URLS = [
    ("tournaments:promote", "post", True, RUN),
    ("tournaments:checkin_close", "get", False, RUN),
    ("tournaments:checkin_close", "post", False, RUN),
]


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("name", "method", "needs_pk", "expected"), NEW_STAFF_URLS)
def test_the_waitlist_actions_are_for_the_desk(client, visitor, name, method, needs_pk, expected):
    event = make_event(organizer=make_user(), player_cap=3, sanctioned=False)
    registration = make_registration(event, "Wade Waiting", waitlisted_at=timezone.now())
    kwargs = {"slug": event.slug, **({"pk": registration.pk} if needs_pk else {})}
    log_in_as(client, visitor, event)
    response = getattr(client, method)(reverse(name, kwargs=kwargs), {"no_shows": "0", "promoted": "1"})
    assert outcome(response) == expected[visitor]
    registration.refresh_from_db()
    if expected[visitor] != "ok":
        assert registration.waitlisted_at is not None


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("method", ["get", "post"])
def test_withdrawing_needs_a_login(client, visitor, method):
    event = open_event(organizer=make_user())
    registration = make_registration(event, "Ann Archer")
    log_in_as(client, visitor, event, registration=registration)
    url = reverse("tournaments:withdraw", kwargs={"slug": event.slug})
    response = getattr(client, method)(url, {"registration": registration.pk})
    assert outcome(response) == PLAYER_URLS[visitor]
    registration.refresh_from_db()
    # Only the player themselves can withdraw.
    assert (registration.dropped_at is not None) == (visitor == "player" and method == "post")


@pytest.mark.parametrize("visitor", VISITORS)
def test_the_guest_link_and_the_register_form_are_public(client, visitor):
    event = guest_event(organizer=make_user())
    log_in_as(client, visitor, event)
    assert outcome(client.get(confirm_url(event, guest_token(event)))) == "ok"
    assert outcome(client.post(register_url(event), {"name": "Gus Guest", "email": "g@example.net"})) == "ok"


def test_opening_the_register_address_itself_leads_to_the_event_page(client):
    event = make_event(self_registration_open=True)
    response = client.get(reverse("tournaments:self_register", kwargs={"slug": event.slug}))
    assert response.status_code == 302 and response.url == event.get_absolute_url()


def test_a_deadline_after_the_event_day_or_already_past_is_a_field_error(organizer_client):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    page = organizer_client.post(
        url, event_form_data(event, registration_deadline="2026-12-20T10:00")
    ).content.decode()
    assert "is after the event&#x27;s day" in page or "is after the event's day" in page
    page = organizer_client.post(
        url, event_form_data(event, registration_deadline="2020-01-01T10:00")
    ).content.decode()
    assert "already passed" in page
    event.refresh_from_db()
    assert event.registration_deadline is None


def test_a_new_account_types_its_name_instead_of_finding_its_user_name_there(client):
    event = open_event()
    client.force_login(make_user("patm"))
    page = client.get(event.get_absolute_url()).content.decode()
    assert re.search(r'name="name"[^>]*placeholder="First and last name"', page)
    assert 'value="patm"' not in page


def test_registering_again_after_withdrawing_uses_the_name_typed_this_time():
    event = open_event()
    user = make_user("patm")
    first = services.entry_register(event=event, user=user, name="patm")
    services.entry_withdraw(registration=first, user=user)
    again = services.entry_register(event=event, user=user, name="Patricia Moreno-Quill")
    assert again.pk == first.pk and not again.dropped
    assert again.player.name == "Patricia Moreno-Quill" and again.player.user == user
    change = again.changes.filter(action="edit").get()
    assert change.changes == {"name": ["patm", "Patricia Moreno-Quill"]}
    # The record made for the slip, with nothing else to its name, does not linger as a second person.
    assert not Player.objects.filter(name="patm").exists()
