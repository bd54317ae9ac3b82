"""Signing up: a verified email, then the account creates events and owns its player records."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail

from tests.accounts.helpers import confirm_email, sign_up
from tests.factories import event_form_data, make_event, make_registration, make_user
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_it_sends_a_confirmation_link_and_logs_in_once_confirmed(client):
    response = sign_up(client, "newcomer")
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["newcomer@example.org"]
    assert mail.outbox[0].subject.startswith("[DCDB Toolkit]")
    assert not EmailAddress.objects.get(email="newcomer@example.org").verified

    confirm_email(client)

    assert EmailAddress.objects.get(email="newcomer@example.org").verified
    assert client.get("/me/").status_code == 200  # logged in on confirmation


def test_it_refuses_to_log_in_before_the_address_is_confirmed(client):
    sign_up(client, "newcomer")
    client.logout()
    response = client.post("/accounts/login/", {"login": "newcomer", "password": "a-Long-pass-4411"})
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session


def test_an_email_already_in_use_is_a_field_error_that_keeps_what_was_typed(client):
    make_user("ann")
    page = sign_up(client, "annagain", email="ANN@example.org").content.decode()
    assert "already registered with this email" in page
    assert 'value="annagain"' in page
    assert get_user_model().objects.filter(username="annagain").count() == 0


def test_a_taken_user_name_is_a_field_error(client):
    make_user("ann")
    page = sign_up(client, "Ann", email="other@example.org").content.decode()
    assert "A user with that username already exists." in page


def test_mismatched_passwords_are_a_field_error(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bo",
            "email": "bo@example.org",
            "password1": "a-Long-pass-4411",
            "password2": "other-4411",
        },
    )
    assert response.status_code == 200
    assert "same password" in response.content.decode()


def test_confirming_links_every_player_record_with_that_email(client):
    past = make_registration(make_event(), "Ann Archer")
    past.player.email = "ann@example.org"
    past.player.save()
    sign_up(client, "annarcher", email="Ann@Example.org")
    assert Player.objects.get(pk=past.player.pk).user is None  # not before the address is confirmed
    confirm_email(client)
    owner = get_user_model().objects.get(username="annarcher")
    assert Player.objects.get(pk=past.player.pk).user == owner
    assert past.changes.filter(action="link").exists()


def test_confirming_never_takes_a_record_owned_by_another_account(client):
    other = make_user("someone")
    record = Player.objects.create(name="Ann Archer", email="ann@example.org", user=other)
    sign_up(client, "annarcher", email="ann@example.org")
    confirm_email(client)
    record.refresh_from_db()
    assert record.user == other


def test_a_new_account_creates_an_event_once_confirmed(client):
    sign_up(client, "orga")
    confirm_email(client)
    response = client.post(
        "/events/new/",
        event_form_data(),
    )
    assert response.status_code == 302, response.content.decode()[:400]
    assert response.url.endswith("/staff/")


def test_closed_sign_up_says_so(client, settings):
    settings.ACCOUNT_ALLOW_SIGNUPS = False
    page = client.get("/accounts/signup/").content.decode()
    assert "Sign Up Closed" in page or "closed" in page.lower()
    assert sign_up(client, "late").status_code == 200
    assert not get_user_model().objects.filter(username="late").exists()


def test_a_confirmation_link_opened_again_says_how_to_go_on(client):
    from tests.accounts.helpers import last_link

    sign_up(client, "newcomer")
    confirm_email(client)
    link = last_link("/accounts/confirm-email/")
    page = client.get(link).content.decode()
    assert "expired or was used already" in page and "/me/" in page  # logged in: on to My events
    client.logout()
    page = client.get(link).content.decode()
    assert "/accounts/login/" in page and "a new link is sent" in page


def test_the_check_your_email_page_names_what_to_do_instead_of_contact_us(client):
    sign_up(client, "newcomer")
    page = client.get("/accounts/confirm-email/").content.decode()
    assert "Check your email" in page and "spam" in page and "contact us" not in page
