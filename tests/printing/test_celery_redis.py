"""The real thing: a redis-server, a Celery worker process and the web app in its own process.

The organizer requests slips through the page; a worker renders them; the page serves the PDF.
Then Redis goes away: the page says so and renders in the request, and nothing is lost.
"""

from __future__ import annotations

import http.cookiejar
import io
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from pypdf import PdfReader

from tests.conftest import REPO_ROOT, free_port, need, wait_for_port

pytestmark = pytest.mark.redis

SETUP = """
from django.contrib.auth import get_user_model
from tests.factories import make_event, make_players, make_user
from tournaments.services import rounds
user = make_user("org")
event = make_event(organizer=user, name="Worker Open")
make_players(event, 12)
event = rounds.event_start(event=event)
rounds.round_pair(event=event, number=1, publish=True)
print(event.slug)
"""


class Site:
    """The web app and (optionally) a Celery worker, on a temporary SQLite file and media folder."""

    def __init__(self, tmp: Path, redis_url: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            k: v for k, v in os.environ.items() if k not in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL")
        }
        self.env.update(
            DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}",
            REDIS_URL=redis_url,
            MEDIA_ROOT=str(tmp / "media"),
            VAR_DIR=str(tmp),
            DEBUG="true",
            SITE_URL=self.base,
            PYTHONPATH=str(REPO_ROOT),
        )
        self.processes: list[subprocess.Popen] = []
        self.logs = tmp
        self.manage("migrate", "--noinput")
        self.slug = self.manage("shell", "--no-imports", "-c", SETUP).stdout.strip().splitlines()[-1]
        jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        self.jar = jar

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=self.env, capture_output=True, text=True,
            check=True, timeout=120,
        )  # fmt: skip

    def start(self, name: str, *command: str) -> None:
        log = open(self.logs / f"{name}.log", "w")  # noqa: SIM115 - closed with the process
        self.processes.append(
            subprocess.Popen(command, cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        )

    def start_web(self) -> None:
        self.start("web", sys.executable, "manage.py", "runserver", f"127.0.0.1:{self.port}", "--noreload")
        wait_for_port(self.port, timeout=30)

    def start_worker(self) -> None:
        celery = shutil.which("celery", path=str(Path(sys.executable).parent))
        self.start("worker", celery, "-A", "config", "worker", "--pool", "solo", "--loglevel", "INFO")

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def get_bytes(self, path: str) -> bytes:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read()

    def post(self, path: str, data: dict | None = None) -> str:
        token = next(c.value for c in self.jar if c.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **(data or {})}).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={"Referer": self.base + path})
        with self.opener.open(request, timeout=30) as response:
            return response.read().decode()

    def log_in(self) -> None:
        self.get("/accounts/login/")
        self.post("/accounts/login/", {"login": "org", "password": "pw", "next": "/"})

    @property
    def print_path(self) -> str:
        return f"/e/{self.slug}/staff/rounds/1/print/"


@pytest.fixture
def site(redis_server, tmp_path):
    site = Site(tmp_path, redis_server.url)
    yield site
    site.stop()


def wait_until_ready(site: Site, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = site.get(site.print_path)
        if re.search(r'id="print-slips".*?Open the PDF', page, re.S):
            return page
        time.sleep(0.5)
    worker_log = (site.logs / "worker.log").read_text()[-3000:]
    raise AssertionError(f"the slips were not ready in {timeout}s; worker log:\n{worker_log}")


def pdf_link(page: str) -> str:
    return re.search(r'href="([^"]+/pdf/)"', page).group(1)


def assert_slips(pdf: bytes) -> None:
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for table in (1, 2, 3):
        assert f"Table {table}" in text
    assert "Player 001" in text


def test_slips_are_rendered_by_a_celery_worker_through_redis(site):
    need("celery", shutil.which("celery", path=str(Path(sys.executable).parent)) is not None)
    site.start_worker()
    site.start_web()
    site.log_in()
    site.post(site.print_path + "slips/")
    page = wait_until_ready(site)
    assert_slips(site.get_bytes(pdf_link(page)))
    assert "print job" not in (site.logs / "web.log").read_text()  # nothing rendered in the web process
    assert "render_print_job" in (site.logs / "worker.log").read_text()


def test_with_redis_down_a_print_request_says_so_and_renders_in_the_request(site, redis_server):
    site.start_web()
    site.log_in()
    redis_server.stop()
    page = site.post(site.print_path + "slips/")
    assert "The print queue (Redis) cannot be reached, so the printout is rendered in this page." in page
    assert "The printout is ready." in page
    assert_slips(site.get_bytes(pdf_link(page)))
