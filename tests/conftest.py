"""Shared test harness: real Redis and real Chromium, started on loopback by the tests themselves.

Locally a missing program skips the tests that need it; with ``CI=true`` it fails them,
so a CI run can never go green by skipping the real parts.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run
# in a thread with a running loop unless told it is fine (it is: tests are single-threaded).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# The rulings search's embedding model is off unless a test turns it on (tests/rulings/test_semantic.py):
# importing the real documents would otherwise encode them (a minute or two), here and in subprocesses.
os.environ["RULINGS_EMBEDDINGS"] = "off"

# The concurrency harness's fixtures (run_scenario, sqlite_file) for every test module.
pytest_plugins = ["tests.concurrency"]

IN_CI = os.getenv("CI", "").lower() == "true"
REPO_ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.getenv("CHROMIUM", "/usr/bin/chromium")


def _serve_one_request_at_a_time() -> None:
    """The live server for browser tests answers one request at a time.

    With SQLite in memory, every thread of Django's live server shares one database connection. Chromium sends
    requests side by side (a service worker fills its cache while the person clicks), and two requests inside
    one connection's transactions spoil each other: an accepted invitation was lost that way in full CI runs.
    Connections stay open (Chromium keeps them alive); only the application is called under a lock."""
    from django.core.servers.basehttp import ThreadedWSGIServer
    from django.test.testcases import LiveServerThread

    class SerialWSGIServer(ThreadedWSGIServer):
        def set_app(self, application):
            lock = threading.Lock()

            def one_at_a_time(environ, start_response):
                with lock:
                    return application(environ, start_response)

            super().set_app(one_at_a_time)

    LiveServerThread.server_class = SerialWSGIServer


_serve_one_request_at_a_time()


@pytest.fixture(autouse=True)
def _words_only_search(settings):
    settings.RULINGS_EMBEDDINGS = "off"


def need(program: str, found: bool) -> None:
    """Skip when a program is missing, except in CI where that is a failure."""
    if found:
        return
    if IN_CI:
        pytest.fail(f"{program} is required in CI but was not found", pytrace=False)
    pytest.skip(f"{program} not installed")


def seeds_dir() -> Path:
    """Where the rule documents are: RULINGS_SOURCES, else ../shared/seeds."""
    configured = os.getenv("RULINGS_SOURCES")
    return Path(configured) if configured else REPO_ROOT.parent / "shared" / "seeds"


@pytest.fixture(scope="session")
def seeds() -> Path:
    path = seeds_dir()
    need(f"the rule documents ({path})", path.is_dir())
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listening on 127.0.0.1:{port} after {timeout}s")


class RedisServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="test-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    """A real redis-server on a free loopback port, stopped after the test."""
    need("redis-server", shutil.which("redis-server") is not None)
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Debian's Chromium, driven by Playwright. No browser is downloaded."""
    need("chromium", Path(CHROMIUM).exists())
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    """A desktop-sized browser page; use ``phone_page`` for a phone-sized viewport."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone_page(chromium):
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Each test starts with an empty cache: allauth's rate limits and the page caches live there (and each
    process's own copies of cached pages)."""
    from django.core.cache import cache

    from tournaments import page_cache, request_memo

    cache.clear()
    page_cache.forget_local()
    request_memo.forget_shared()
    yield


@pytest.fixture(autouse=True)
def _public_versions_of_the_moment(settings) -> None:
    """Anonymous requests share version keys for a couple of seconds in production; tests read what they
    just wrote (tests/tournaments/test_request_memo.py turns the sharing on)."""
    settings.PUBLIC_VERSION_SECONDS = 0


@pytest.fixture(autouse=True)
def _no_rate_limits(settings) -> None:
    """The site's rate limits (config/ratelimits.py) are off: tests post and search far faster than people.
    tests/test_rate_limits.py turns them on. django-allauth's own limits stay on, as before."""
    settings.RATELIMIT_ENABLE = False
