"""Two people acting at the same moment, with real threads and real database connections.

Each case is a scenario function that any process can run. On PostgreSQL (CI) the test runs it
in-process. On SQLite the test database is in memory with a shared cache, where a second writer
gets "database table is locked" at once instead of waiting; so the test runs the scenario in a
subprocess against a migrated SQLite file with the production settings (write lock taken at the
start of each transaction, 20 s busy timeout), which is how a SQLite deployment runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import make_event, make_players, make_user
from tournaments import services
from tournaments.models import Event, ResultChange, Round, Seat, Table
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db(transaction=True)

REPO_ROOT = Path(__file__).resolve().parents[2]
RUN_SCENARIO = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
from tests.tournaments import test_flow_concurrency
getattr(test_flow_concurrency, sys.argv[1])()
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
                [sys.executable, "-c", RUN_SCENARIO, scenario.__name__],
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


def started_event(players: int) -> Event:
    event = make_event()
    make_players(event, players)
    return rounds.event_start(event=event)


def entries(table: Table, vps: list[int]) -> list[results.SeatEntry]:
    seats = Seat.objects.filter(table=table).order_by("seat")
    return [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=1) for s, vp in zip(seats, vps, strict=True)
    ]


# --- Scenarios: plain functions, run by the tests below in this process or in a subprocess ------


def scenario_pairing_at_once() -> None:
    event = started_event(16)
    outcomes = at_once(*[lambda: rounds.round_pair(event=event, number=1).pk] * 4)
    assert [exc for _, exc in outcomes] == [None] * 4
    assert len({pk for pk, _ in outcomes}) == 1
    assert Round.objects.filter(event=event).count() == 1
    assert Seat.objects.filter(round__event=event).count() == 16


def scenario_same_table_at_once() -> None:
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1)).first()
    alice, bob = make_user(), make_user()
    slips = {alice: entries(table, [40, 30, 20, 10]), bob: entries(table, [10, 20, 30, 40])}
    outcomes = at_once(
        *[
            lambda judge=judge: results.result_enter(
                table=table, entries=slips[judge], expected_version=0, user=judge
            )
            for judge in (alice, bob)
        ]
    )
    saved = [i for i, (_, exc) in enumerate(outcomes) if exc is None]
    conflicts = [exc for _, exc in outcomes if isinstance(exc, results.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1
    winner = (alice, bob)[saved[0]]
    stored = [s.vp for s in Seat.objects.filter(table=table).order_by("seat")]
    assert stored == [e.vp for e in slips[winner]]
    assert [s.vp for s in conflicts[0].seats] == stored  # the loser sees the winner's values
    assert list(ResultChange.objects.filter(table=table).values_list("user", flat=True)) == [winner.pk]
    assert Table.objects.get(pk=table.pk).version == 1


def scenario_different_tables_at_once() -> None:
    event = started_event(8)
    round = rounds.round_pair(event=event, number=1)
    first, second = Table.objects.filter(round=round).order_by("number")
    outcomes = at_once(
        lambda: results.result_enter(
            table=first, entries=entries(first, [40, 30, 20, 10]), expected_version=0, user=None
        ),
        lambda: results.result_enter(
            table=second, entries=entries(second, [40, 30, 20, 10]), expected_version=0, user=None
        ),
    )
    assert [exc for _, exc in outcomes] == [None, None]
    assert all(t.has_result for t in Table.objects.filter(round=round))
    assert ResultChange.objects.filter(table__round=round).count() == 2
    assert rounds.round_close(round=round).closed


def scenario_pair_while_closing() -> None:
    event = started_event(12)
    round = rounds.round_pair(event=event, number=1)
    for table in Table.objects.filter(round=round):
        results.result_enter(
            table=table, entries=entries(table, [40, 30, 20, 10]), expected_version=0, user=None
        )
    outcomes = at_once(
        lambda: rounds.round_close(round=round),
        lambda: rounds.round_pair(event=event, number=2),
        lambda: rounds.round_pair(event=event, number=2),
    )
    assert outcomes[0][1] is None
    # Pairing before the close finished is refused with a message; after it, one round 2.
    for _, exc in outcomes[1:]:
        assert exc is None or "still running" in str(exc)
    assert Round.objects.filter(event=event, number=2).count() <= 1


def scenario_one_event_form_sent_twice_at_once() -> None:
    organizer = make_user()
    outcomes = at_once(
        *[lambda: services.event_create(user=organizer, name="Winter Open", date="2026-12-12").pk] * 2
    )
    created = [pk for pk, exc in outcomes if exc is None]
    refused = [exc for _, exc in outcomes if isinstance(exc, services.DuplicateEvent)]
    assert len(created) == 1 and len(refused) == 1
    assert refused[0].event.pk == created[0]
    assert Event.objects.filter(created_by=organizer).count() == 1


# --- Tests ---------------------------------------------------------------------------------


def test_four_organizers_pairing_the_same_round_at_once_create_it_once(run_scenario):
    run_scenario(scenario_pairing_at_once)


def test_two_judges_saving_the_same_table_at_once_never_overwrite_each_other(run_scenario):
    run_scenario(scenario_same_table_at_once)


def test_two_judges_saving_different_tables_at_once_both_count(run_scenario):
    run_scenario(scenario_different_tables_at_once)


def test_pairing_the_next_round_while_the_organizer_closes_the_last_one_pairs_it_at_most_once(run_scenario):
    run_scenario(scenario_pair_while_closing)


def test_one_event_form_sent_twice_at_once_creates_one_event(run_scenario):
    run_scenario(scenario_one_event_form_sent_twice_at_once)
