"""Issue 18: the service worker is served from the site's root, from this site's own Workbox copy."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_it_serves_the_worker_as_javascript_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"


def test_it_never_lets_a_browser_keep_an_old_worker(client):
    assert client.get("/sw.js")["Cache-Control"] == "no-cache"


def test_it_loads_workbox_from_this_site(client):
    body = client.get("/sw.js").content.decode()
    assert 'importScripts("/static/vendor/workbox/workbox-sw.js")' in body
    assert 'modulePathPrefix: "/static/vendor/workbox"' in body
    assert "https://" not in body and "http://" not in body


def test_it_saves_the_search_page_the_calculator_and_the_documents_when_installed(client):
    body = client.get("/sw.js").content.decode()
    assert 'const RULINGS_INDEX = "/rulings/"' in body
    assert 'const CALCULATOR = "/judging/calculator/"' in body
    assert 'const SEARCH_INDEX = "/rulings/offline-index.json"' in body
