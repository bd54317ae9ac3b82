"""Rate limits on self-registration, the rulings search, the read API and sign-up (config/ratelimits.py)."""

from __future__ import annotations

import types

import django_ratelimit.core
import pytest
from django.urls import reverse

from tests.conftest import free_port
from tests.factories import add_staff, make_event, make_user
from tournaments.models import EventStaff, Registration

pytestmark = pytest.mark.django_db

SEARCH = "/rulings/"


@pytest.fixture(autouse=True)
def _limits_on(settings):
    settings.RATELIMIT_ENABLE = True
    settings.RATELIMIT_SEARCH = "3/m"
    settings.RATELIMIT_API = "2/m"
    settings.RATELIMIT_REGISTER = "2/m"
    settings.TRUSTED_PROXY_COUNT = 0


@pytest.fixture(autouse=True)
def _clock_stands_still(monkeypatch):
    """django-ratelimit counts in fixed windows: a test whose requests straddle a window's end would see its
    counter start again. The clock it reads stands still at one moment, well inside a window."""
    monkeypatch.setattr(django_ratelimit.core, "time", types.SimpleNamespace(time=lambda: 1_800_000_000.0))


def search(client, q="extra turns", ip="203.0.113.7", **headers):
    return client.get(SEARCH, {"q": q}, REMOTE_ADDR=ip, **headers)


def use_up(request, times):
    for _ in range(times):
        assert request().status_code != 429


# --- the rulings search ---------------------------------------------------------------------------


def test_it_answers_the_search_past_its_limit_with_429_and_a_message(client):
    use_up(lambda: search(client), 3)
    response = search(client)
    assert response.status_code == 429
    body = response.content.decode()
    assert "Too many searches from your connection: at most 3 a minute." in body
    assert 'class="topbar"' in body  # the site's own page, not a bare error


def test_it_says_when_to_try_again_in_retry_after(client):
    use_up(lambda: search(client), 3)
    response = search(client)
    assert 1 <= int(response["Retry-After"]) <= 60
    assert f"Try again in {response['Retry-After']} second" in response.content.decode()


def test_it_is_never_kept_by_a_cache(client):
    use_up(lambda: search(client), 3)
    assert search(client)["Cache-Control"] == "no-store"


def test_it_counts_another_address_apart(client):
    use_up(lambda: search(client, ip="203.0.113.7"), 3)
    assert search(client, ip="203.0.113.8").status_code == 200


def test_it_counts_an_ipv6_client_by_its_64_network(client):
    use_up(lambda: search(client, ip="2001:db8:1:2::1"), 3)
    assert search(client, ip="2001:db8:1:2::ffff").status_code == 429
    assert search(client, ip="2001:db8:1:3::1").status_code == 200


def test_it_does_not_count_the_search_page_without_a_query(client):
    for _ in range(5):
        assert client.get(SEARCH, REMOTE_ADDR="203.0.113.7").status_code == 200
    assert search(client).status_code == 200


def test_it_answers_an_htmx_search_with_the_message_for_its_target(client):
    use_up(lambda: search(client), 3)
    response = search(client, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
    assert response.status_code == 429
    body = response.content.decode()
    assert "Too many searches" in body and "<html" not in body


def test_it_counts_a_logged_in_person_by_account_not_by_address(client):
    client.force_login(make_user())
    use_up(lambda: search(client), 3)
    assert search(client).status_code == 429
    client.force_login(make_user())
    assert search(client).status_code == 200  # same address, another account


def test_it_never_limits_an_events_staff(client):
    judge = make_user()
    add_staff(make_event(), judge, EventStaff.Role.JUDGE)
    client.force_login(judge)
    for _ in range(6):
        assert search(client).status_code == 200


def test_it_can_be_turned_off(client, settings):
    settings.RATELIMIT_ENABLE = False
    for _ in range(6):
        assert search(client).status_code == 200


# --- behind a reverse proxy -----------------------------------------------------------------------


def test_it_ignores_x_forwarded_for_when_no_proxy_is_trusted(client):
    use_up(lambda: search(client, HTTP_X_FORWARDED_FOR="198.51.100.1"), 3)
    assert search(client, HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 429


def test_it_reads_the_client_the_trusted_proxy_saw(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    use_up(lambda: search(client, ip="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1"), 3)
    assert search(client, ip="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.2").status_code == 200


def test_it_ignores_addresses_a_client_wrote_before_the_proxys_own(client, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    use_up(lambda: search(client, ip="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.1"), 3)
    spoofed = "192.0.2.99, 198.51.100.1"
    assert search(client, ip="10.0.0.2", HTTP_X_FORWARDED_FOR=spoofed).status_code == 429


@pytest.mark.parametrize("header", ["", "not-an-address", "\x00", "²²²", ",,,", "1.2.3.4.5, x" * 500])
def test_it_counts_by_the_connection_when_the_forwarded_header_is_not_an_address(client, settings, header):
    settings.TRUSTED_PROXY_COUNT = 1
    use_up(lambda: search(client, ip="10.0.0.2", HTTP_X_FORWARDED_FOR=header), 3)
    assert search(client, ip="10.0.0.2").status_code == 429


# --- the read API ---------------------------------------------------------------------------------


def test_it_answers_the_api_past_its_limit_with_a_json_error(client):
    url = reverse("tournaments:api_events")
    use_up(lambda: client.get(url), 2)
    response = client.get(url)
    assert response.status_code == 429
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["error"].startswith("Too many requests to the API from your connection: at most 2 a minute.")
    assert data["retry_after"] == int(response["Retry-After"])


def test_it_shares_one_api_count_across_its_pages(client):
    event = make_event()
    client.get(reverse("tournaments:api_events"))
    client.get(reverse("tournaments:api_event", kwargs={"slug": event.slug}))
    response = client.get(reverse("tournaments:api_standings", kwargs={"slug": event.slug}))
    assert response.status_code == 429


@pytest.mark.parametrize("name", ["tournaments:openapi-json", "tournaments:openapi-view"])
def test_it_limits_the_api_schema_and_its_docs_page(client, name):
    url = reverse(name)
    use_up(lambda: client.get(url), 2)
    response = client.get(url)
    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0


def test_it_does_not_limit_the_public_pages(client):
    event = make_event()
    for _ in range(5):
        assert client.get(event.get_absolute_url()).status_code == 200


# --- self-registration ----------------------------------------------------------------------------


def open_event():
    return make_event(self_registration_open=True, sanctioned=False)


def test_it_limits_registering_for_an_event(client):
    event = open_event()
    client.force_login(make_user())
    url = reverse("tournaments:self_register", kwargs={"slug": event.slug})
    use_up(lambda: client.post(url, {"name": "Ann Example"}), 2)
    response = client.post(url, {"name": "Ann Example"})
    assert response.status_code == 429
    assert "Too many registration attempts from your connection" in response.content.decode()


def test_it_limits_guests_registering_by_address(client):
    event = make_event(self_registration_open=True, self_registration_guests=True, sanctioned=False)
    url = reverse("tournaments:self_register", kwargs={"slug": event.slug})
    for n in range(2):
        client.post(url, {"name": f"Guest {n}", "email": f"g{n}@example.org"})
    response = client.post(url, {"name": "Guest 9", "email": "g9@example.org"})
    assert response.status_code == 429


def test_it_registers_nobody_past_the_limit(client, settings):
    settings.RATELIMIT_REGISTER = "1/m"
    event = open_event()
    url = reverse("tournaments:self_register", kwargs={"slug": event.slug})
    client.force_login(make_user())
    client.post(url, {"name": ""})  # a mistake uses the one try
    client.post(url, {"name": "Ann Example"})
    assert not Registration.objects.filter(event=event).exists()


def test_it_does_not_count_opening_the_event_page(client):
    event = open_event()
    client.force_login(make_user())
    for _ in range(4):
        client.get(reverse("tournaments:self_register", kwargs={"slug": event.slug}))
    url = reverse("tournaments:self_register", kwargs={"slug": event.slug})
    assert client.post(url, {"name": "Ann Example"}).status_code == 302


# --- sign-up (django-allauth's own limit, shown on the same page) -----------------------------------


def test_it_answers_too_many_sign_ups_with_429_and_retry_after(client, settings):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, "signup": "2/m/ip"}
    url = reverse("account_signup")
    for n in range(2):
        client.post(url, {"email": "bad", "username": f"u{n}", "password1": "x", "password2": "y"})
    response = client.post(url, {"email": "bad", "username": "u9", "password1": "x", "password2": "y"})
    assert response.status_code == 429
    assert "Too many tries" in response.content.decode()
    assert response["Retry-After"] == "60"


# --- the cache down --------------------------------------------------------------------------------


@pytest.fixture
def unreachable_redis_cache(settings):
    """Django's cache on a Redis nobody listens to (config.cache fails open)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5, "DOWN_SECONDS": 0},
        }
    }


def test_it_lets_searches_through_when_the_cache_is_down(client, settings, unreachable_redis_cache):
    settings.RATELIMIT_SEARCH = "1/m"
    for _ in range(3):
        assert search(client).status_code == 200


def test_it_lets_the_api_through_when_the_cache_is_down(client, settings, unreachable_redis_cache):
    settings.RATELIMIT_API = "1/m"
    for _ in range(3):
        assert client.get(reverse("tournaments:api_events")).status_code == 200


def test_it_lets_a_request_through_when_reading_the_count_fails(client, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the cache said something unexpected")

    monkeypatch.setattr("config.ratelimits.get_usage", broken)
    for _ in range(5):
        assert search(client).status_code == 200


@pytest.mark.redis
def test_it_counts_in_redis_and_lets_requests_through_once_it_is_down(client, settings, redis_server):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.FailOpenRedisCache",
            "LOCATION": redis_server.url,
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 1},
        }
    }
    use_up(lambda: search(client), 3)
    assert search(client).status_code == 429
    redis_server.stop()
    assert search(client).status_code == 200
