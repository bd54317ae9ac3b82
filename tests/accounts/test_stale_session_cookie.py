"""A request still carrying the session cookie from before a log-in must not log the person out.

Logging in gives the session a new key and deletes the old one. A request the browser sent with the old
cookie just before (a service worker filling its cache, a live page's poll, a second tab) reaches the server
after, finds no session, and Django's middleware answered it by deleting the session cookie, which the
browser applied to the new one: the person was logged out a moment after logging in.
"""

import pytest
from django.test import Client

from tests.factories import make_user

pytestmark = pytest.mark.django_db

PASSWORD = "pw"  # tests.factories.make_user


def deleted(response) -> bool:
    cookie = response.cookies.get("sessionid")
    return cookie is not None and cookie["max-age"] == 0


def anonymous_session(client) -> str:
    session = client.session
    session["seen"] = True
    session.save()
    client.cookies["sessionid"] = session.session_key
    return session.session_key


def test_it_keeps_the_cookie_when_a_request_arrives_with_the_key_a_log_in_replaced(client):
    make_user("ann")
    old_key = anonymous_session(client)
    response = client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert client.cookies["sessionid"].value != old_key

    late = Client()
    late.cookies["sessionid"] = old_key
    response = late.get("/rulings/")

    assert response.status_code == 200
    assert not deleted(response)
    assert client.get("/me/").status_code == 200  # still logged in with the new cookie


def test_logging_out_still_deletes_the_cookie(client):
    make_user("ann")
    client.post("/accounts/login/", {"login": "ann", "password": PASSWORD})
    response = client.post("/accounts/logout/")
    assert deleted(response)
    assert client.get("/me/").status_code == 302
