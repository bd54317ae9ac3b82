"""Two clicks at the same moment on one invitation, with real threads and database connections
(the same harness as tests/tournaments/test_flow_concurrency.py: in a subprocess on SQLite)."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import Callable

import pytest
from django.db import connection

from tests.factories import make_event, make_user
from tests.tournaments.test_flow_concurrency import REPO_ROOT, at_once, sqlite_file, subprocess_env
from tournaments import services
from tournaments.errors import ActionError
from tournaments.models import EventStaff, StaffInvitation

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["sqlite_file"]  # the fixture, used by run_scenario

RUN_SCENARIO = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ["EMAIL_BACKEND"] = "django.core.mail.backends.locmem.EmailBackend"
django.setup()
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
from tests.accounts import test_invitations_concurrency
getattr(test_invitations_concurrency, sys.argv[1])()
"""


@pytest.fixture
def run_scenario(request) -> Callable[[Callable[[], None]], None]:
    def run(scenario: Callable[[], None]) -> None:
        if connection.vendor == "postgresql":
            scenario()
            return
        if connection.vendor != "sqlite":
            pytest.skip(f"no concurrency scenario runner for {connection.vendor}")
        env = subprocess_env(request.getfixturevalue("sqlite_file"))
        done = subprocess.run(
            [sys.executable, "-c", RUN_SCENARIO, scenario.__name__],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-3000:]

    return run


def _user():
    # The SQLite file is shared by this module's scenarios, each in a fresh process: names must not repeat.
    return make_user(f"u{uuid.uuid4().hex[:12]}")


def _invitation() -> StaffInvitation:
    event = make_event(organizer=_user())
    return services.invitation_send(event=event, email="jo@example.org", role="judge", by=None, build_url=str)


def scenario_one_person_clicks_accept_twice() -> None:
    invitation = _invitation()
    jo = _user()
    outcomes = at_once(*[lambda: services.invitation_accept(invitation=invitation, user=jo).pk] * 2)
    assert [exc for _, exc in outcomes] == [None, None]
    assert EventStaff.objects.filter(event=invitation.event, user=jo).count() == 1


def scenario_two_people_accept_one_link_at_once() -> None:
    invitation = _invitation()
    ann, bob = _user(), _user()
    outcomes = at_once(
        lambda: services.invitation_accept(invitation=invitation, user=ann),
        lambda: services.invitation_accept(invitation=invitation, user=bob),
    )
    refused = [exc for _, exc in outcomes if isinstance(exc, ActionError)]
    assert len(refused) == 1 and "already accepted" in refused[0].message
    assert EventStaff.objects.filter(event=invitation.event, role="judge").count() == 1


def scenario_one_invite_form_sent_twice_at_once() -> None:
    event = make_event(organizer=_user())
    outcomes = at_once(
        *[
            lambda: (
                services.invitation_send(
                    event=event, email="jo@example.org", role="judge", by=None, build_url=str
                ).pk
            )
        ]
        * 2
    )
    assert [exc for _, exc in outcomes] == [None, None]
    assert StaffInvitation.objects.filter(event=event).count() == 1


def test_one_person_clicking_accept_twice_joins_once(run_scenario):
    run_scenario(scenario_one_person_clicks_accept_twice)


def test_two_people_accepting_one_link_at_once_one_joins_the_other_is_told(run_scenario):
    run_scenario(scenario_two_people_accept_one_link_at_once)


def test_one_invite_form_sent_twice_at_once_makes_one_invitation(run_scenario):
    run_scenario(scenario_one_invite_form_sent_twice_at_once)
