"""The login page."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_wrong_password_is_reported_once(client):
    from tests.factories import make_user

    make_user("ann")
    page = client.post("/accounts/login/", {"username": "ann", "password": "wrong"}).content.decode()
    assert page.count("Please enter a correct username and password") == 1
