"""People acting at the same moment, with real threads and real database connections.

Each case is a scenario function, at module level in a test file, that any process can run. On
PostgreSQL (CI) the test runs it in-process. On SQLite the test database is in memory with a shared
cache, where a second writer gets "database table is locked" at once instead of waiting; so the test
runs the scenario in a subprocess against a migrated SQLite file with the production settings (write
lock taken at the start of each transaction, 20 s busy timeout), which is how a SQLite deployment runs.
Its fixtures (``run_scenario``, ``sqlite_file``) reach every test through ``tests/conftest.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import make_user

REPO_ROOT = Path(__file__).resolve().parents[1]
RUN_SCENARIO = """
import importlib, os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
django.setup()
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
getattr(importlib.import_module(sys.argv[1]), sys.argv[2])()
"""


def subprocess_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return dict(env, DATABASE_URL=database_url)


@pytest.fixture(scope="module")
def sqlite_file(tmp_path_factory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('concurrency') / 'db.sqlite3'}"
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "--skip-checks", "-v0"]
    done = subprocess.run(migrate, cwd=REPO_ROOT, env=subprocess_env(url), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return url


@pytest.fixture
def run_scenario(request) -> Callable[[Callable[[], None]], None]:
    def run(scenario: Callable[[], None]) -> None:
        if connection.vendor == "postgresql":
            scenario()
        elif connection.vendor == "sqlite":
            url = request.getfixturevalue("sqlite_file")
            done = subprocess.run(
                [sys.executable, "-c", RUN_SCENARIO, scenario.__module__, scenario.__name__],
                cwd=REPO_ROOT,
                env=subprocess_env(url),
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, done.stderr[-3000:]
        else:
            pytest.skip(f"no concurrency scenario runner for {connection.vendor}")

    return run


def at_once(*calls: Callable[[], object]) -> list[tuple[object, BaseException | None]]:
    """Run the calls in threads released together; each thread closes its own connection."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[tuple[object, BaseException | None]] = [(None, None)] * len(calls)

    def run(i: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[i] = (call(), None)
        except BaseException as exc:  # reported to the test, which decides
            outcomes[i] = (None, exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck"
    return outcomes


def unique_user():
    """An account whose name never repeats: a module's scenarios share one SQLite file, each run in a fresh
    process where the factories' counters start again."""
    return make_user(f"u{uuid.uuid4().hex[:12]}")
