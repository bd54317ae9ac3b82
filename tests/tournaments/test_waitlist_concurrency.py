"""Registrations and withdrawals at the same moment, with real threads and real database connections
(on SQLite in a subprocess against a migrated file, as ``test_flow_concurrency`` explains)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest
from django.db import connection

from tests.factories import make_event, make_registration, make_user
from tests.tournaments.test_flow_concurrency import REPO_ROOT, at_once, sqlite_file, subprocess_env
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["sqlite_file"]  # the fixture, used through run_scenario

RUN_SCENARIO = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
from tests.tournaments import test_waitlist_concurrency
getattr(test_waitlist_concurrency, sys.argv[1])()
"""


def new_user():
    # Each scenario runs in a fresh process against one shared file: the factory's counter restarts.
    return make_user(f"u{uuid.uuid4().hex[:12]}")


def run_scenario(request, scenario) -> None:
    if connection.vendor == "postgresql":
        scenario()
        return
    if connection.vendor != "sqlite":
        pytest.skip(f"no concurrency scenario runner for {connection.vendor}")
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


def scenario_four_players_for_the_last_two_places() -> None:
    event = make_event(self_registration_open=True, sanctioned=False, player_cap=5)
    for i in range(3):
        make_registration(event, f"Seated {i}")
    users = [new_user() for _ in range(4)]
    outcomes = at_once(
        *[
            lambda user=user: services.entry_register(event=event, user=user, name=user.username).pk
            for user in users
        ]
    )
    assert [exc for _, exc in outcomes] == [None] * 4
    assert Registration.objects.filter(event=event).entered().count() == 5
    assert Registration.objects.filter(event=event).waitlist().count() == 2


def scenario_two_withdrawals_promote_two_players() -> None:
    event = make_event(self_registration_open=True, sanctioned=False, player_cap=3)
    seated = [make_registration(event, f"Seated {i}") for i in range(3)]
    waiting = [services.entry_register(event=event, user=new_user(), name=f"Waiting {i}") for i in range(3)]
    outcomes = at_once(
        *[lambda r=r: [p.pk for p in services.entry_withdraw(registration=r)] for r in seated[:2]]
    )
    assert [exc for _, exc in outcomes] == [None, None]
    promoted = sorted(pk for pks, _ in outcomes for pk in pks)
    assert promoted == sorted(r.pk for r in waiting[:2])
    assert Registration.objects.filter(event=event).entered().count() == 3


def test_four_players_at_once_for_the_last_two_places(request):
    run_scenario(request, scenario_four_players_for_the_last_two_places)


def test_two_withdrawals_at_once_promote_two_different_players(request):
    run_scenario(request, scenario_two_withdrawals_promote_two_players)
