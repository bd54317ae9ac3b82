"""Production smoke test: the README's production set-up on loopback, driven through nginx over HTTPS.

PostgreSQL, Redis, gunicorn, a Celery worker and nginx are started as README's "Production" says (its env
file and release commands are read from the README, the services' commands from deploy/systemd/, nginx's
configuration is deploy/nginx.conf): see tests/production/stack.py. An organizer then runs a round through
the web and the worker renders its match slips; the proxy's caching and compression are checked; Redis is
stopped last and /healthz says so.

Runs once, in the SQLite pass of `make test` (it starts its own PostgreSQL; the Makefile's PostgreSQL pass
leaves out the `production` marker). Locally a missing program skips it; with CI=true it fails.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import signal
import time
import urllib.request

import pytest

from tests.conftest import need, seeds_dir
from tests.factories import event_form_data
from tests.production.stack import Browser, Stack, find_nginx

pytestmark = [pytest.mark.production, pytest.mark.redis, pytest.mark.postgres]

ORGANIZER = "organizer"
PASSWORD = "a-long-organizer-password-9"
MAKE_ORGANIZER = f"""
from django.contrib.auth import get_user_model
from allauth.account.models import EmailAddress
user = get_user_model().objects.create_user({ORGANIZER!r}, "organizer@example.org", {PASSWORD!r})
EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
"""
PLAYERS = [f"Smoke Player {i:02d}" for i in range(1, 13)]


@pytest.fixture(scope="module")
def stack():
    for program in ("redis-server", "openssl", "celery"):
        found = shutil.which(program) or (program == "celery" and os.path.exists(os.path.join(
            os.path.dirname(os.sys.executable), "celery")))  # fmt: skip
        need(program, bool(found))
    need("nginx", find_nginx() is not None)
    need("PostgreSQL (initdb)", shutil.which("initdb") is not None or bool(
        __import__("glob").glob("/usr/lib/postgresql/*/bin/initdb")))  # fmt: skip
    seeds = seeds_dir()
    need(f"the rule documents ({seeds})", seeds.is_dir())
    stack = Stack(nginx=True)
    stack.start(seeds)
    stack.manage_shell(MAKE_ORGANIZER)
    yield stack
    stack.stop()


@pytest.fixture(scope="module")
def organizer(stack) -> Browser:
    browser = Browser(stack.url)
    browser.log_in(ORGANIZER, PASSWORD)
    return browser


@pytest.fixture(scope="module")
def event_slug(stack, organizer) -> str:
    """Through the web, as the organizer: create an event, add 12 players, check them in, start it, pair
    and publish round 1."""
    created = organizer.post("/events/new/", event_form_data(name="Smoke Open"))
    found = re.search(r"/e/([\w-]+)/staff/$", created.url)
    assert found, (created.status, created.url, created.body[:2000])
    slug = found.group(1)
    added = organizer.post(f"/e/{slug}/staff/players/bulk/", {"text": "\n".join(PLAYERS), "confirm": "1"})
    assert b"12 players added." in added.body
    assert b"12 players checked in." in organizer.post(f"/e/{slug}/staff/players/check-in-all/").body
    assert organizer.post(f"/e/{slug}/staff/start/", {"rounds": ""}).status == 200
    paired = organizer.post(f"/e/{slug}/staff/rounds/pair/", {"number": "1", "publish": "1"})
    assert b"paired and published" in paired.body
    return slug


def healthz(url: str) -> tuple[int, dict]:
    response = Browser(url).get("/healthz")
    return response.status, json.loads(response.body)


def test_healthz_is_200_with_every_check_ok_through_the_proxy_over_plain_http(stack):
    status, body = healthz(stack.plain_url)
    assert status == 200
    assert body["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}


def test_plain_http_other_than_healthz_is_redirected_to_https(stack):
    import urllib.error

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.build_opener(NoRedirect).open(stack.plain_url + "/", timeout=10)
    assert answer.value.code == 301
    assert answer.value.headers["Location"].startswith("https://127.0.0.1")


def test_the_release_ran_the_readme_commands_on_postgresql(stack):
    log = (stack.base / "release.log").read_text()
    assert "Applying tournaments.0001_initial... OK" in log
    assert "static files copied" in log
    assert "5 documents in" in log  # import_rulings
    search = Browser(stack.url).get("/rulings/?q=time+is+called")
    assert search.status == 200 and b"9.02" in search.body


def test_the_worker_renders_the_match_slips_the_organizer_asks_for(stack, organizer, event_slug):
    print_page = f"/e/{event_slug}/staff/rounds/1/print/"
    worker = stack.processes["worker"]
    os.killpg(worker.pid, signal.SIGSTOP)  # no worker takes the job yet: it must wait in the queue
    try:
        asked = organizer.post(print_page + "slips/")
        row = re.search(rb'id="print-slips".*?</article>', asked.body, re.S).group(0)
        assert b'<span class="badge">Queued</span>' in row
    finally:
        os.killpg(worker.pid, signal.SIGCONT)
    deadline = time.monotonic() + 30
    while True:
        page = organizer.get(print_page).body
        row = re.search(rb'id="print-slips".*?</article>', page, re.S).group(0)
        if b"Open the PDF" in row or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert b"ready" in row, stack.read_log("worker")[-3000:]
    link = re.search(rb'href="([^"]+/pdf/)"', row).group(1).decode()
    pdf = organizer.get(link)
    assert pdf.status == 200
    assert pdf.body.startswith(b"%PDF")
    assert pdf.headers["Content-Type"] == "application/pdf"
    assert re.search(r"render_print_job\[[\w-]+\] succeeded", stack.read_log("worker"))
    assert "print job" not in stack.read_log("web")  # nothing was rendered in the web process


def test_the_pdf_is_sent_by_nginx_only_after_the_apps_permission_check(stack, organizer, event_slug):
    page = organizer.get(f"/e/{event_slug}/staff/rounds/1/print/").body
    link = re.search(rb'href="([^"]+/pdf/)"', page).group(1).decode()
    # The app itself (straight to gunicorn, the session cookie by hand: it is Secure) answers with
    # X-Accel-Redirect and no bytes; nginx sends the file.
    request = urllib.request.Request(
        stack.app_url + link, headers={"X-Forwarded-Proto": "https", "Cookie": _cookie_header(organizer)}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        app_answer = response
        app_answer.body = response.read()
    assert app_answer.headers["X-Accel-Redirect"].startswith("/protected-media/printouts/")
    assert app_answer.body == b""
    # Nobody reaches the file by its address, and an anonymous visitor is sent to log in.
    name = app_answer.headers["X-Accel-Redirect"]
    assert Browser(stack.url).get(name).status == 404
    assert Browser(stack.url).get("/media/" + name.removeprefix("/protected-media/")).status == 404
    assert b"%PDF" not in Browser(stack.url).get(link).body


def _cookie_header(browser: Browser) -> str:
    return "; ".join(f"{c.name}={c.value}" for c in browser.jar)


def test_a_public_page_comes_gzipped_through_the_proxy_and_is_cached_for_anonymous_visitors(
    stack, event_slug
):
    path = f"/e/{event_slug}/rounds/1/"
    visitor = Browser(stack.url)
    first = visitor.get(path, headers={"Accept-Encoding": "gzip"})
    second = visitor.get(path, headers={"Accept-Encoding": "gzip"})
    assert first.status == second.status == 200
    assert first.headers["Content-Encoding"] == "gzip"
    assert b"Smoke Player 01" in gzip.decompress(second.body)
    assert "public" in first.headers["Cache-Control"]
    assert [first.headers["X-Cache-Status"], second.headers["X-Cache-Status"]] == ["MISS", "HIT"]
    assert stack.read_log("web").count(f"GET {path} ") == 1  # the second answer never reached gunicorn


def test_the_proxy_never_caches_for_a_visitor_with_a_session(stack, organizer, event_slug):
    path = f"/e/{event_slug}/standings/"
    Browser(stack.url).get(path)  # an anonymous visitor fills the cache
    answers = [organizer.get(path) for _ in range(2)]
    assert [a.headers["X-Cache-Status"] for a in answers] == ["BYPASS", "BYPASS"]
    assert all("private" in a.headers["Cache-Control"] for a in answers)
    assert all(b"Log out" in a.body for a in answers)  # the organizer's own page, not the cached one


def test_static_files_are_served_by_nginx_gzipped(stack):
    manifest = json.loads((stack.base / "static" / "staticfiles.json").read_text())
    css = next(hashed for name, hashed in manifest["paths"].items() if name.endswith(".css"))
    answer = Browser(stack.url).get(f"/static/{css}", headers={"Accept-Encoding": "gzip"})
    assert answer.status == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "X-Cache-Status" not in answer.headers  # from disk, not through the app
    assert f"/static/{css}" not in stack.read_log("web")


def test_healthz_is_503_naming_the_cache_and_the_broker_once_redis_is_stopped(stack):
    stack.stop_redis()
    status, body = healthz(stack.plain_url)
    assert status == 503
    assert body["failed"] == ["cache", "broker"]
    assert body["checks"]["database"] == "ok"
