"""Every judging URL, for every kind of visitor: who gets in, who is refused.

Expected outcomes: "login" (redirect to the login page), 403, 404, or "ok" (200, or a redirect after a POST).
"""

import pytest
from django.urls import reverse

from judging import services
from judging.models import Infraction, Penalty
from tests.factories import make_user
from tests.judging.helpers import running_event, seat_round, time_up
from tests.permissions import MANAGE, PUBLIC, RUN, VISITORS, log_in_as, outcome
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

# Seated player at the table (the "player" visitor sits at table 1) and staff may act there.
AT_TABLE = {**RUN, "player": "ok"}


def setup(client, visitor):
    event, players = running_event(4)
    round = seat_round(event, players)
    time_up(round)
    penalty = services.penalty_record(
        event=event,
        user=None,
        infraction=Infraction.objects.get(rule="10.060"),
        type="warning",
        registration=players[1],
    )
    log_in_as(client, visitor, event, registration=players[0])
    return event, players, penalty


def kwargs_for(name, event, players, penalty):
    kwargs = {"slug": event.slug}
    if name in (
        "judging:table",
        "judging:time_call",
        "judging:turns_done",
        "judging:table_extend",
        "tournaments:report_confirm_for",
    ):
        kwargs.update(number=1, table=1)
    elif name == "judging:penalty":
        kwargs["pk"] = penalty.pk
    elif name == "judging:player_history":
        kwargs["player"] = players[1].player_id
    return kwargs


URLS = [
    ("judging:board", "get", None, RUN),
    ("judging:clock_action", "post", {"action": "pause", "reason": "announcement"}, RUN),
    ("judging:table_extend", "post", {"minutes": 5, "reason": "ruling"}, RUN),
    ("judging:penalties", "get", None, RUN),
    ("judging:penalty_new", "get", None, RUN),
    ("judging:penalty_players", "get", None, RUN),
    ("judging:penalty_advice", "get", None, RUN),
    ("judging:penalty", "get", None, RUN),
    ("judging:penalty", "post", {"action": "void", "reason": "mistake"}, RUN),
    ("judging:player_history", "get", None, RUN),
    ("judging:policy", "get", None, MANAGE),
    ("judging:announcement", "get", None, RUN),
    ("judging:announcement", "post", {"announcement": "Lunch until 13:30"}, RUN),
    ("judging:projector", "get", None, PUBLIC),
    ("judging:clock_json", "get", None, PUBLIC),
    ("judging:table", "get", None, PUBLIC),
    ("judging:time_call", "post", {"active_seat": 3}, AT_TABLE),
    # Staff confirm a reported slip for a player (a player confirms for themselves on their own page).
    ("tournaments:report_confirm_for", "post", {"report": "1", "seat": "1"}, RUN),
]


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("name", "method", "data", "expected"), URLS)
def test_judging_urls(client, visitor, name, method, data, expected):
    event, players, penalty = setup(client, visitor)
    url = reverse(name, kwargs=kwargs_for(name, event, players, penalty))
    response = getattr(client, method)(url, data or {})
    assert outcome(response) == expected[visitor]


@pytest.mark.parametrize("visitor", VISITORS)
def test_penalty_recording(client, visitor):
    event, players, _ = setup(client, visitor)
    before = Penalty.objects.count()
    data = {
        "registration": players[2].pk,
        "infraction": Infraction.objects.get(rule="10.010").pk,
        "type": "warning",
    }
    response = client.post(reverse("judging:penalty_new", kwargs={"slug": event.slug}), data)
    assert outcome(response) == RUN[visitor]
    assert Penalty.objects.count() == before + (1 if RUN[visitor] == "ok" else 0)


@pytest.mark.parametrize("visitor", ["judge", "organizer", "head_judge"])
def test_only_the_head_judge_disqualifies(client, visitor):
    event, players, _ = setup(client, visitor)
    data = {
        "registration": players[2].pk,
        "infraction": Infraction.objects.get(rule="10.070").pk,
        "type": "disqualification",
        "description": "marked cards",
    }
    client.post(reverse("judging:penalty_new", kwargs={"slug": event.slug}), data)
    assert Registration.objects.get(pk=players[2].pk).disqualified == (visitor == "head_judge")


def test_the_public_sees_penalties_only_when_published(client):
    event, _, _ = setup(client, "anonymous")
    url = reverse("judging:public_penalties", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 404
    event.publish_penalties = True
    event.save()
    assert "Slow play" in client.get(url).content.decode()


def test_a_player_sees_their_own_penalties_only(client):
    event, players, _ = setup(client, "anonymous")
    owner, other = make_user(), make_user()
    players[1].player.user = owner
    players[1].player.save()
    client.force_login(owner)
    assert "Slow play" in client.get(reverse("judging:my_penalties")).content.decode()
    client.force_login(other)
    assert "Slow play" not in client.get(reverse("judging:my_penalties")).content.decode()


def test_a_player_at_another_table_cannot_record_the_time_call(client):
    event, players = running_event(8)
    round = seat_round(event, players)
    time_up(round)
    user = make_user()
    players[5].player.user = user  # table 2
    players[5].player.save()
    client.force_login(user)
    url = reverse("judging:time_call", kwargs={"slug": event.slug, "number": 1, "table": 1})
    assert client.post(url, {"active_seat": 3}).status_code == 403
