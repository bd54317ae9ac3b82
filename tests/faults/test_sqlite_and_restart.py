"""SQLite under concurrent writes, and a server that dies mid-round.

Each side runs in its own process on one SQLite file with the production settings (WAL, the write
lock taken at the start of each transaction, a busy timeout), as a SQLite deployment does.
"""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from tests.concurrency import REPO_ROOT, subprocess_env
from tests.faults.scenarios import RUN

pytestmark = pytest.mark.slow


def process(database_url: str, *args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", RUN, *args],
        cwd=REPO_ROOT,
        env={**subprocess_env(database_url), **env},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run(database_url: str, *args: str, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", RUN, *args],
        cwd=REPO_ROOT,
        env={**subprocess_env(database_url), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def sqlite_path(database_url: str) -> str:
    return database_url.removeprefix("sqlite:///")


def checked_in(database_url: str, slug: str) -> int:
    with sqlite3.connect(sqlite_path(database_url)) as db:
        return db.execute(
            "SELECT checked_in FROM tournaments_registration r JOIN tournaments_event e ON e.id = r.event_id "
            "WHERE e.slug = ? ORDER BY r.id LIMIT 1",
            [slug],
        ).fetchone()[0]


def test_two_processes_adding_players_at_once_both_save_everything(sqlite_file):
    slug = run(sqlite_file, "new_event", "Busy Desk")
    start_at = str(time.time() + 3)  # both begin together, once their Django is loaded
    desks = [process(sqlite_file, "add_players", slug, desk, "40", start_at) for desk in ("Desk A", "Desk B")]
    for desk in desks:
        out, err = desk.communicate(timeout=120)
        assert desk.returncode == 0, err[-3000:]
    with sqlite3.connect(sqlite_path(sqlite_file)) as db:
        saved = db.execute(
            "SELECT COUNT(*) FROM tournaments_registration r JOIN tournaments_event e ON e.id = r.event_id "
            "WHERE e.slug = ?",
            [slug],
        ).fetchone()[0]
    assert saved == 80


def press_check_in_while_locked(sqlite_file: str, slug: str, *, hold: float, busy_timeout: str) -> dict:
    web = process(sqlite_file, "check_in_through_the_web", slug, SQLITE_BUSY_TIMEOUT=busy_timeout)
    assert web.stdout.readline().strip() == "ready", web.stderr.read()[-3000:]
    other = sqlite3.connect(sqlite_path(sqlite_file), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    try:
        web.stdin.write("go\n")
        web.stdin.flush()
        time.sleep(hold)
    finally:
        other.execute("ROLLBACK")
        other.close()
    out, err = web.communicate(timeout=60)
    assert web.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def test_a_save_waits_for_another_writer_and_goes_through(sqlite_file):
    slug = run(sqlite_file, "new_event", "Waiting Desk", "4", "0")
    answer = press_check_in_while_locked(sqlite_file, slug, hold=1.0, busy_timeout="20")
    assert answer["status"] == 302
    assert checked_in(sqlite_file, slug) == 1


def test_a_save_that_waits_too_long_says_the_database_is_busy_and_changes_nothing(sqlite_file):
    slug = run(sqlite_file, "new_event", "Locked Desk", "4", "0")
    answer = press_check_in_while_locked(sqlite_file, slug, hold=3.0, busy_timeout="1")
    assert answer["status"] == 503
    assert "The database is busy" in answer["body"]
    assert checked_in(sqlite_file, slug) == 0


def test_a_server_killed_mid_round_loses_no_result_and_no_clock(sqlite_file):
    slug = run(sqlite_file, "new_event", "Power Cut", "12")
    dying = process(sqlite_file, "run_a_round_then_die", slug)
    out, err = dying.communicate(timeout=120)
    assert dying.returncode == -signal.SIGKILL, err[-3000:]
    before = json.loads(out.strip().splitlines()[-1])
    after = json.loads(run(sqlite_file, "print_snapshot", slug))  # a new process: empty caches
    assert after == before
    entered = [seat for seat in after["seats"] if seat[0] in (1, 2)]
    assert [seat[3] for seat in entered] == [7, 5, 3, 1, 2, 9, 4, 6]
    assert all(seat[6] is not None for seat in entered)
    assert [p[2] for p in after["pauses"]] == ["announcement", "fire alarm"] and after["pauses"][1][1] is None
    assert after["extensions"] == [[3, 4, "judge call"]]
