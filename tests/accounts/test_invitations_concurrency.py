"""Two clicks at the same moment on one invitation, with real threads and database connections
(the harness: tests/concurrency.py, in a subprocess on SQLite)."""

from __future__ import annotations

import pytest

from tests.concurrency import at_once, unique_user
from tests.factories import make_event
from tournaments import services
from tournaments.errors import ActionError
from tournaments.models import EventStaff, StaffInvitation

pytestmark = pytest.mark.django_db(transaction=True)


def _invitation() -> StaffInvitation:
    event = make_event(organizer=unique_user())
    return services.invitation_send(event=event, email="jo@example.org", role="judge", by=None, build_url=str)


def scenario_one_person_clicks_accept_twice() -> None:
    invitation = _invitation()
    jo = unique_user()
    outcomes = at_once(*[lambda: services.invitation_accept(invitation=invitation, user=jo).pk] * 2)
    assert [exc for _, exc in outcomes] == [None, None]
    assert EventStaff.objects.filter(event=invitation.event, user=jo).count() == 1


def scenario_two_people_accept_one_link_at_once() -> None:
    invitation = _invitation()
    ann, bob = unique_user(), unique_user()
    outcomes = at_once(
        lambda: services.invitation_accept(invitation=invitation, user=ann),
        lambda: services.invitation_accept(invitation=invitation, user=bob),
    )
    refused = [exc for _, exc in outcomes if isinstance(exc, ActionError)]
    assert len(refused) == 1 and "already accepted" in refused[0].message
    assert EventStaff.objects.filter(event=invitation.event, role="judge").count() == 1


def scenario_one_invite_form_sent_twice_at_once() -> None:
    event = make_event(organizer=unique_user())
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
