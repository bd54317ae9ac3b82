"""The login page (django-allauth): user name or email, one clear error."""

import pytest

from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_it_reports_a_wrong_password_once(client):
    make_user("ann")
    page = client.post("/accounts/login/", {"login": "ann", "password": "wrong"}).content.decode()
    assert page.count("are not correct") == 1
    assert 'value="ann"' in page  # what was typed is kept


@pytest.mark.parametrize("login", ["ann", "ann@example.org", "ANN@example.org"])
def test_it_logs_in_with_user_name_or_email(client, login):
    make_user("ann")
    response = client.post("/accounts/login/", {"login": login, "password": "pw"})
    assert response.status_code == 302
    assert response.url == "/me/"
