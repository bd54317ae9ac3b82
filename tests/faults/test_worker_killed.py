"""A Celery worker killed in the middle of a print job: the job is run again, never left "rendering".

Real processes: a redis-server, a Celery worker and a SQLite file, as in production. The test watches
the job's row in the database file, kills the worker (or its pool process) while it renders, and checks
that the job ends ready, rendered a second time.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import need
from tests.printing.test_celery_redis import Site

pytestmark = [pytest.mark.redis, pytest.mark.slow]

# An event big enough that its slips take a few seconds to render: time to kill the worker mid-job.
BIG_EVENT = """
from tests.factories import make_event, make_players, make_user
from tournaments.services import printing, rounds
event = make_event(organizer=make_user("big-org"), name="Big Open")
make_players(event, 400)
event = rounds.event_start(event=event)
round = rounds.round_pair(event=event, number=1, publish=True)
job, _ = printing.print_request(round=round, kind="slips")
printing.print_enqueue(job=job)  # committed already: handed to Redis at once
print(job.pk)
"""


@pytest.fixture
def site(redis_server, tmp_path):
    need("celery", shutil.which("celery", path=str(Path(sys.executable).parent)) is not None)
    site = Site(tmp_path, redis_server.url)
    yield site
    site.stop()


def job_row(site: Site, job_id: int) -> tuple[str, int, str]:
    with sqlite3.connect(site.logs / "db.sqlite3", timeout=10) as db:
        return db.execute(
            "SELECT status, attempts, error FROM tournaments_printjob WHERE id = ?", [job_id]
        ).fetchone()


def wait_for(site: Site, job_id: int, status: str, timeout: float = 90) -> tuple[str, int, str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        row = job_row(site, job_id)
        if row[0] == status:
            return row
        time.sleep(0.05)
    log = "\n".join(p.read_text()[-2000:] for p in site.logs.glob("worker*.log"))
    raise AssertionError(f"job {job_id} is {row}, not {status!r}, after {timeout}s; worker logs:\n{log}")


def start_worker(site: Site, name: str, *options: str) -> int:
    celery = shutil.which("celery", path=str(Path(sys.executable).parent))
    site.start(name, celery, "-A", "config", "worker", "--loglevel", "INFO", "--without-heartbeat", *options)
    return site.processes[-1].pid


def children(pid: int) -> list[int]:
    return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def enqueue_big_event(site: Site) -> int:
    return int(site.manage("shell", "--no-imports", "-c", BIG_EVENT).stdout.split()[-1])


def test_it_renders_the_job_again_when_the_pool_process_rendering_it_is_killed(site):
    worker = start_worker(site, "worker", "--pool", "prefork", "--concurrency", "1")
    job_id = enqueue_big_event(site)
    wait_for(site, job_id, "running")
    for child in children(worker):
        os.kill(child, signal.SIGKILL)
    status, attempts, error = wait_for(site, job_id, "done")
    assert attempts == 2 and error == ""


def test_it_renders_the_job_again_when_the_whole_worker_is_killed_and_another_starts(site):
    site.env["PRINT_JOB_TIMEOUT"] = "3"  # how long Redis keeps an unacknowledged task from other workers
    first = start_worker(site, "worker-1", "--pool", "solo")
    job_id = enqueue_big_event(site)
    wait_for(site, job_id, "running")
    os.kill(first, signal.SIGKILL)
    site.processes[-1].wait(timeout=10)
    time.sleep(3.5)
    assert job_row(site, job_id)[0] == "running"  # the dead worker's job, until someone takes it up
    start_worker(site, "worker-2", "--pool", "solo")
    status, attempts, error = wait_for(site, job_id, "done")
    assert attempts == 2 and error == ""
