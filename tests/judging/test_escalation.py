"""Escalation advice: flags at the organizer's thresholds, on the form and on the dashboard."""

import pytest

from judging import escalation, selectors, services
from judging.models import Infraction
from tests.judging.helpers import judge, running_event

W = "warning"


def test_the_third_warning_for_the_same_infraction_flags_an_upgrade():
    advice = escalation.advise([("10.060", W), ("10.060", W)], upgrade_at=3, review_at=0, adding="10.060")
    assert [f.kind for f in advice.flags] == [escalation.UPGRADE]
    assert "3rd warning for 10.060" in advice.flags[0].text


def test_a_different_infraction_does_not_flag_an_upgrade():
    advice = escalation.advise([("10.060", W), ("10.060", W)], upgrade_at=3, review_at=0, adding="10.010")
    assert advice.flags == ()


def test_the_third_penalty_in_total_flags_a_review():
    advice = escalation.advise([("10.060", W), ("10.010", W)], upgrade_at=3, review_at=3, adding="11.040")
    assert [f.kind for f in advice.flags] == [escalation.REVIEW]


def test_a_threshold_of_zero_turns_the_flag_off():
    advice = escalation.advise([("10.060", W)] * 5, upgrade_at=0, review_at=0, adding="10.060")
    assert advice.flags == ()


def test_counts_by_infraction_most_first():
    advice = escalation.advise(
        [("10.010", W), ("10.060", W), ("10.060", "game_loss")], upgrade_at=3, review_at=3
    )
    assert advice.by_rule == (("10.060", 2), ("10.010", 1))


@pytest.mark.django_db
def test_the_dashboard_lists_players_who_reached_a_threshold():
    event, players = running_event(4)
    user = judge(event)
    slow = Infraction.objects.get(rule="10.060")
    for _ in range(3):
        services.penalty_record(event=event, user=user, infraction=slow, type=W, registration=players[0])
    services.penalty_record(event=event, user=user, infraction=slow, type=W, registration=players[1])
    lines = selectors.dashboard(event=event)
    assert [line.registration for line in lines] == [players[0]]
    assert {f.kind for f in lines[0].advice.flags} == {escalation.UPGRADE, escalation.REVIEW}


@pytest.mark.django_db
def test_void_penalties_do_not_count():
    event, players = running_event(4)
    user = judge(event)
    slow = Infraction.objects.get(rule="10.060")
    penalties = [
        services.penalty_record(event=event, user=user, infraction=slow, type=W, registration=players[0])
        for _ in range(3)
    ]
    services.penalty_void(penalty=penalties[0], user=user, reason="wrong table")
    assert selectors.dashboard(event=event) == []


@pytest.mark.django_db
def test_the_organizers_thresholds_apply():
    event, players = running_event(4)
    services.policy_save(event=event, defaults={}, upgrade_at=2, review_at=10)
    user = judge(event)
    slow = Infraction.objects.get(rule="10.060")
    services.penalty_record(event=event, user=user, infraction=slow, type=W, registration=players[0])
    advice = selectors.registration_advice(event=event, registration=players[0], adding="10.060")
    assert [f.kind for f in advice.flags] == [escalation.UPGRADE]
