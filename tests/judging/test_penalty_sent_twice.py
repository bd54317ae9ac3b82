"""A penalty form sent twice (the back button, a double tap) records one penalty and says so."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from judging import services
from judging.models import Infraction, Penalty
from tests.judging.helpers import judge, running_event, seat_round

pytestmark = pytest.mark.django_db


def form_for(client, event) -> dict:
    page = client.get(reverse("judging:penalty_new", args=[event.slug])).content.decode()
    token = re.search(r'name="submission" value="([0-9a-f-]+)"', page).group(1)
    registration = event.registrations.order_by("pk").first()
    return {
        "registration": registration.pk,
        "infraction": Infraction.objects.order_by("pk").first().pk,
        "type": "warning",
        "round": event.rounds.order_by("-number").first().pk,
        "description": "looked at a neighbour's hand",
        "submission": token,
    }


def test_the_same_form_sent_again_records_nothing_new_and_shows_the_first_penalty(client):
    event, players = running_event(4)
    seat_round(event, players)
    client.force_login(judge(event))
    data = form_for(client, event)
    url = reverse("judging:penalty_new", args=[event.slug])
    client.post(url, data)
    again = client.post(url, data, follow=True)
    assert Penalty.objects.filter(event=event).count() == 1
    penalty = Penalty.objects.get(event=event)
    assert again.redirect_chain[-1][0] == reverse("judging:penalty", args=[event.slug, penalty.pk])
    assert "already recorded" in again.content.decode()


def test_two_forms_record_two_penalties(client):
    event, players = running_event(4)
    seat_round(event, players)
    client.force_login(judge(event))
    url = reverse("judging:penalty_new", args=[event.slug])
    client.post(url, form_for(client, event))
    client.post(url, form_for(client, event))
    assert Penalty.objects.filter(event=event).count() == 2


def test_each_empty_form_carries_a_new_token(client):
    event, players = running_event(4)
    seat_round(event, players)
    client.force_login(judge(event))
    assert form_for(client, event)["submission"] != form_for(client, event)["submission"]


def test_the_service_refuses_a_token_it_has_seen_and_names_the_first_penalty():
    event, players = running_event(4)
    seat_round(event, players)
    token = uuid.uuid4()
    kwargs = {
        "event": event,
        "user": None,
        "infraction": Infraction.objects.order_by("pk").first(),
        "type": "warning",
        "registration": players[0],
        "submission": token,
    }
    first = services.penalty_record(**kwargs)
    with pytest.raises(services.PenaltyAlreadyRecorded) as refused:
        services.penalty_record(**kwargs)
    assert refused.value.penalty == first
    assert Penalty.objects.filter(event=event).count() == 1


@pytest.mark.parametrize("token", ["abc", "²", "0" * 64, "\x00"])
def test_a_token_that_is_not_one_still_records_the_penalty(client, token):
    event, players = running_event(4)
    seat_round(event, players)
    client.force_login(judge(event))
    data = {**form_for(client, event), "submission": token}
    response = client.post(reverse("judging:penalty_new", args=[event.slug]), data)
    assert response.status_code == 302
    assert Penalty.objects.filter(event=event, submission__isnull=True).count() == 1


def test_another_events_token_is_refused_with_a_message_and_the_form_kept(client):
    event, players = running_event(4)
    seat_round(event, players)
    other, other_players = running_event(4)
    seat_round(other, other_players)
    judge_user = judge(event)
    client.force_login(judge_user)
    data = form_for(client, event)
    client.post(reverse("judging:penalty_new", args=[event.slug]), data)
    client.force_login(judge(other))
    stolen = {**form_for(client, other), "submission": data["submission"]}
    page = client.post(reverse("judging:penalty_new", args=[other.slug]), stolen)
    assert page.status_code == 200 and "already used for another event" in page.content.decode()
    assert "looked at a neighbour" in page.content.decode()  # what was typed is kept
    assert not Penalty.objects.filter(event=other).exists()
