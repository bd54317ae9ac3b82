"""/healthz: the database, the cache and the broker, answered before any host check or HTTPS redirect."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_answers_200_with_each_check(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "cache": "ok", "broker": "eager"}}
    assert response["Cache-Control"] == "no-store"


def test_it_answers_with_a_trailing_slash_too(client):
    assert client.get("/healthz/").status_code == 200


def test_it_answers_a_probe_by_ip_that_is_not_an_allowed_host(client, settings):
    settings.ALLOWED_HOSTS = ["dcdb.example.org"]
    assert client.get("/", HTTP_HOST="10.0.0.7").status_code == 400  # the site itself refuses that host
    assert client.get("/healthz", HTTP_HOST="10.0.0.7").status_code == 200


def test_it_answers_over_plain_http_when_the_site_redirects_to_https(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301
    assert client.get("/healthz").status_code == 200


def test_it_answers_503_naming_the_database_when_the_database_fails(client, settings, monkeypatch):
    from config import health

    def unreachable():
        from django.db import OperationalError

        raise OperationalError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["failed"] == ["database"]
    assert "connection refused" not in response.content.decode()  # details go to the log, not the probe


def test_it_refuses_other_methods(client):
    response = client.post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
