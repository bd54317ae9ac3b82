"""The player picker on the penalty form: by table or name, forgiving how a name is typed, and kept
when the form is refused."""

import pytest
from django.urls import reverse

from tests.judging.helpers import judge, running_event, seat_round
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


def event_with(names: list[str]):
    event, players = running_event(len(names))
    for registration, name in zip(players, names, strict=True):
        Player.objects.filter(pk=registration.player_id).update(name=name)
    seat_round(event, players)
    return event


def picker(client, event, **params) -> str:
    client.force_login(judge(event))
    return client.get(reverse("judging:penalty_players", args=[event.slug]), params).content.decode()


def test_a_name_is_found_without_its_apostrophe_or_accents(client):
    event = event_with(["Shaun O'Neill", "Zoë Łukasiewicz", "Ann Archer", "Bob Berg"])
    assert "O&#x27;Neill" in picker(client, event, q="oneill")
    assert "Łukasiewicz" in picker(client, event, q="zoe lukas")


def test_a_typo_finds_the_closest_names(client):
    event = event_with(["Clark Laurent", "Ann Archer", "Bob Berg", "Cid Costa"])
    page = picker(client, event, q="Laurant")
    assert "Clark Laurent" in page and "Ann Archer" not in page


def test_no_match_says_so(client):
    event = event_with(["Ann Archer", "Bob Berg", "Cid Costa", "Dee Diaz"])
    assert "No player in this event matches “zzz”." in picker(client, event, q="zzz")


def test_a_refused_penalty_keeps_the_table_and_its_players(client):
    event = event_with(["Ann Archer", "Bob Berg", "Cid Costa", "Dee Diaz"])
    client.force_login(judge(event))
    url = reverse("judging:penalty_new", args=[event.slug])
    page = client.post(url, {"table": "1", "q": "", "type": "warning"}).content.decode()
    assert '<option value="1" selected>Table 1</option>' in page
    for name in ("Ann Archer", "Bob Berg", "Cid Costa", "Dee Diaz"):
        assert name in page
    assert Registration.objects.filter(event=event).count() == 4
