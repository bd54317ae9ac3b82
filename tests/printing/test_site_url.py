"""SITE_URL left at an address on this machine: QR codes on slips would lead nowhere, so it is said."""

import pytest
from django.core.checks import run_checks
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tournaments.printouts import site_url_is_local
from tournaments.services import rounds


@pytest.mark.parametrize(
    "url, local",
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost:8000", True),
        ("http://[::1]:8000", True),
        ("http://dcdb.localhost", True),
        ("https://dcdb.example.org", False),
        ("http://192.168.1.20:8000", False),
    ],
)
def test_it_knows_an_address_on_this_machine(settings, url, local):
    settings.SITE_URL = url
    assert site_url_is_local() is local


def warnings():
    return [m.id for m in run_checks() if m.id == "tournaments.W001"]


def test_it_warns_in_production_when_site_url_is_local(settings):
    settings.DEBUG, settings.SITE_URL = False, "http://127.0.0.1:8000"
    assert warnings() == ["tournaments.W001"]


def test_it_is_quiet_in_development_and_with_a_real_address(settings):
    settings.DEBUG, settings.SITE_URL = True, "http://127.0.0.1:8000"
    assert warnings() == []
    settings.DEBUG, settings.SITE_URL = False, "https://dcdb.example.org"
    assert warnings() == []


@pytest.mark.django_db
def test_the_print_page_says_where_the_qr_codes_point(client, settings):
    organizer = make_user()
    event = make_event(organizer=organizer)
    make_players(event, 8)
    rounds.round_pair(event=rounds.event_start(event=event), number=1, publish=True)
    client.force_login(organizer)
    url = reverse("tournaments:print_center", kwargs={"slug": event.slug, "number": 1})
    settings.ALLOWED_HOSTS = ["dcdb.example.org"]
    settings.SITE_URL = "http://127.0.0.1:8000"
    page = client.get(url, HTTP_HOST="dcdb.example.org").content.decode()
    assert "players&#x27; phones" in page or "players' phones" in page
    assert "this page was opened at <code>http://dcdb.example.org</code>" in page
    settings.SITE_URL = "https://dcdb.example.org"
    assert "phones" not in client.get(url, HTTP_HOST="dcdb.example.org").content.decode()
