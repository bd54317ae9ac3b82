"""Redis down with REDIS_URL set: the public pages and the API serve from the database, printing renders
in the request, and /healthz names what failed. Real processes: redis-server and the site on a SQLite file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error

import pytest

from tests.conftest import REPO_ROOT
from tests.printing.test_celery_redis import Site, assert_slips, pdf_link

pytestmark = pytest.mark.redis


@pytest.fixture
def site(redis_server, tmp_path):
    site = Site(tmp_path, redis_server.url)
    site.start_web()
    yield site
    site.stop()


def public_paths(slug: str) -> list[str]:
    return [
        f"/e/{slug}/",
        f"/e/{slug}/live/",
        f"/e/{slug}/rounds/1/",
        f"/e/{slug}/standings/",
        f"/api/events/{slug}/",
        f"/api/events/{slug}/rounds/1/",
        f"/api/events/{slug}/standings/",
    ]


def test_public_pages_and_the_api_answer_from_the_database_with_redis_down(site, redis_server):
    for path in public_paths(site.slug):
        site.get(path)  # cached while Redis is up
    redis_server.stop()
    for path in public_paths(site.slug):
        assert "Player 001" in site.get(path), path  # a 500 would raise HTTPError here
    assert "Worker Open" in site.get("/api/events/")


def test_staff_log_in_and_see_their_pages_with_redis_down(site, redis_server):
    redis_server.stop()
    site.log_in()
    assert "Print" in site.get(site.print_path)


def test_a_print_request_with_redis_down_is_rendered_in_the_request(site, redis_server):
    site.log_in()
    redis_server.stop()
    page = site.post(site.print_path + "slips/")
    assert "The print queue (Redis) cannot be reached, so the printout is rendered in this page." in page
    assert_slips(site.get_bytes(pdf_link(page)))


def test_healthz_names_the_cache_and_the_broker_when_redis_is_down(site, redis_server):
    assert json.loads(site.get("/healthz"))["status"] == "ok"
    redis_server.stop()
    with pytest.raises(urllib.error.HTTPError) as answer:
        site.get("/healthz")
    assert answer.value.code == 503
    body = json.loads(answer.value.read())
    assert body["failed"] == ["cache", "broker"] and body["checks"]["database"] == "ok"


def test_healthz_is_ok_again_once_redis_is_back(site, redis_server):
    redis_server.stop()
    with pytest.raises(urllib.error.HTTPError):
        site.get("/healthz")
    redis_server.start()
    assert json.loads(site.get("/healthz"))["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}


HAND_OVER = """
import time
from tournaments.services import printing
started = time.monotonic()
try:
    printing._send(1)
except printing.BrokerUnavailable:
    print("unavailable", time.monotonic() - started)
"""


def test_an_unreachable_print_queue_is_known_within_a_second(redis_server):
    """The part of a print request that waits for Redis: handing the job over fails fast (production
    settings, REDIS_URL set), so the page answers, rendering in the request, instead of hanging."""
    redis_server.stop()
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")}
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", HAND_OVER],
        cwd=REPO_ROOT,
        env={**env, "REDIS_URL": redis_server.url},
        capture_output=True,
        text=True,
        timeout=60,
    )
    outcome, seconds = done.stdout.split()
    assert outcome == "unavailable" and float(seconds) < 1.0
