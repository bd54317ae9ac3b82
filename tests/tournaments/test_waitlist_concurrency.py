"""Registrations and withdrawals at the same moment, with real threads and real database connections
(on SQLite in a subprocess against a migrated file, as ``tests/concurrency.py`` explains)."""

from __future__ import annotations

import pytest

from tests.concurrency import at_once, unique_user
from tests.factories import make_event, make_registration
from tournaments import services
from tournaments.models import Registration

pytestmark = pytest.mark.django_db(transaction=True)


def scenario_four_players_for_the_last_two_places() -> None:
    event = make_event(self_registration_open=True, sanctioned=False, player_cap=5)
    for i in range(3):
        make_registration(event, f"Seated {i}")
    users = [unique_user() for _ in range(4)]
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
    waiting = [
        services.entry_register(event=event, user=unique_user(), name=f"Waiting {i}") for i in range(3)
    ]
    outcomes = at_once(
        *[lambda r=r: [p.pk for p in services.entry_withdraw(registration=r)] for r in seated[:2]]
    )
    assert [exc for _, exc in outcomes] == [None, None]
    promoted = sorted(pk for pks, _ in outcomes for pk in pks)
    assert promoted == sorted(r.pk for r in waiting[:2])
    assert Registration.objects.filter(event=event).entered().count() == 3


def test_four_players_at_once_for_the_last_two_places(run_scenario):
    run_scenario(scenario_four_players_for_the_last_two_places)


def test_two_withdrawals_at_once_promote_two_different_players(run_scenario):
    run_scenario(scenario_two_withdrawals_promote_two_players)
