"""Password reset, change of email and password, log out, rate limits: django-allauth in our pages."""

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from tests.accounts.helpers import confirm_email, last_link
from tests.factories import make_event, make_registration, make_user
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
    ],
)
def test_the_anonymous_account_pages_use_the_site_layout(client, path):
    page = client.get(path).content.decode()
    assert 'class="topbar"' in page and "DCDB Toolkit" in page


@pytest.mark.parametrize("path", ["/accounts/email/", "/accounts/password/change/", "/me/"])
def test_the_logged_in_account_pages_need_a_login(client, path):
    response = client.get(path)
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")
    client.force_login(make_user("ann"))
    assert client.get(path).status_code == 200


def test_a_password_reset_link_sets_a_new_password(client):
    make_user("ann")
    response = client.post("/accounts/password/reset/", {"email": "ann@example.org"})
    assert response.status_code == 302
    link = last_link("/accounts/password/reset/key/")
    form_url = client.get(link).url  # allauth moves the key out of the address first
    response = client.post(form_url, {"password1": "n3w-Secret-pass", "password2": "n3w-Secret-pass"})
    assert response.status_code == 302
    assert client.login(username="ann", password="n3w-Secret-pass")


def test_a_reset_for_an_unknown_address_says_so_and_keeps_it(client):
    page = client.post("/accounts/password/reset/", {"email": "nobody@example.org"}).content.decode()
    assert "not assigned to any user account" in page
    assert 'value="nobody@example.org"' in page
    assert not mail.outbox


def test_changing_the_email_takes_effect_once_the_new_address_is_confirmed(client):
    user = make_user("ann")
    record = Player.objects.create(name="Ann Archer", email="ann.archer@store.example")
    make_registration(make_event(), "Someone Else")
    client.force_login(user)
    response = client.post("/accounts/email/", {"action_add": "", "email": "ann.archer@store.example"})
    assert response.status_code == 302
    assert not EmailAddress.objects.get(email="ann.archer@store.example").verified
    confirm_email(client)
    assert EmailAddress.objects.get(email="ann.archer@store.example").verified
    record.refresh_from_db()
    assert record.user == user


def test_changing_the_password_needs_the_old_one(client):
    client.force_login(make_user("ann"))
    page = client.post(
        "/accounts/password/change/",
        {"oldpassword": "wrong", "password1": "n3w-Secret-pass", "password2": "n3w-Secret-pass"},
    ).content.decode()
    assert "Please type your current password" in page
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "pw", "password1": "n3w-Secret-pass", "password2": "n3w-Secret-pass"},
    )
    assert response.status_code == 302


def test_log_out_is_a_post_from_the_top_bar(client):
    client.force_login(make_user("ann"))
    assert "Log out ann" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_repeated_failed_log_ins_are_rate_limited_with_a_clear_message(client):
    make_user("ann")
    pages = [
        client.post("/accounts/login/", {"login": "ann", "password": f"wrong{i}"}).content.decode()
        for i in range(7)
    ]
    assert "are not correct" in pages[0]
    assert "Too many failed log-in attempts" in pages[-1]
    # Even the right password waits until the limit has passed.
    page = client.post("/accounts/login/", {"login": "ann", "password": "pw"}).content.decode()
    assert "Too many failed log-in attempts" in page


def test_repeated_password_resets_are_rate_limited_with_a_page_not_an_error(client):
    make_user("ann")
    responses = [client.post("/accounts/password/reset/", {"email": "ann@example.org"}) for _ in range(8)]
    assert responses[0].status_code == 302
    assert responses[-1].status_code == 429
    assert "Too many tries" in responses[-1].content.decode()
