"""The read API's players (tournaments.api_players): a player's history and a head-to-head as JSON."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_registration, make_user
from tests.history.helpers import first_player, one_person, simulated_event
from tournaments.models import Player
from tournaments.selectors_games import counted_games

pytestmark = pytest.mark.django_db


def api_player(pk) -> str:
    return reverse("tournaments:api_player", kwargs={"pk": pk})


def api_vs(pk, other) -> str:
    return reverse("tournaments:api_player_vs", kwargs={"pk": pk, "other": other})


@pytest.fixture
def ann():
    first, second = simulated_event(9, 1), simulated_event(9, 2)
    return one_person(make_user("ann"), first_player(first), first_player(second))


def test_it_answers_a_players_history_with_numbers_as_numbers(client, ann):
    response = client.get(api_player(ann[0].pk))
    assert response.status_code == 200
    data = response.json()
    assert data["name"] == "Ann Archer" and data["player"] == ann[0].pk
    assert len(data["events"]) == 2
    event = data["events"][0]
    assert isinstance(event["place"], int) and isinstance(event["of"], int) and event["finished"] is True
    assert isinstance(event["points"], float)
    totals = data["totals"]
    assert totals["games"] == len(counted_games(player_ids=[p.pk for p in ann]))
    assert isinstance(totals["average_place"], float) and 0 <= totals["win_rate"] <= 1
    assert sum(size["games"] for size in totals["by_size"]) == totals["games"]
    opponent = data["opponents"][0]
    assert set(opponent) == {"player", "name", "games", "ahead", "behind"}
    assert opponent["ahead"] + opponent["behind"] <= opponent["games"]


def test_the_history_and_the_page_agree(client, ann):
    page = client.get(reverse("tournaments:player_history", kwargs={"pk": ann[0].pk})).context["page"]
    data = client.get(api_player(ann[0].pk)).json()
    assert [o["player"] for o in data["opponents"]] == [o.player_id for o in page.history.opponents]
    assert data["totals"]["wins"] == page.history.totals.wins


def test_it_answers_a_head_to_head(client, ann):
    opponent = client.get(api_player(ann[0].pk)).json()["opponents"][0]
    data = client.get(api_vs(ann[0].pk, opponent["player"])).json()
    assert data["games"] == opponent["games"] == len(data["meetings"])
    assert (data["ahead"], data["behind"]) == (opponent["ahead"], opponent["behind"])
    meeting = data["meetings"][0]
    assert meeting["stage"] in {"swiss", "semifinal", "final"} and isinstance(meeting["placement"], int)
    assert data["other"]["name"] == opponent["name"]


def test_a_head_to_head_of_people_who_never_met_is_empty(client):
    one, other = first_player(simulated_event(9, 1)), first_player(simulated_event(9, 2))
    data = client.get(api_vs(one.pk, other.pk)).json()
    assert data["games"] == 0 and data["meetings"] == [] and data["average_place"] is None


def test_a_player_with_no_games_has_the_events_and_zero_totals(client):
    registration = make_registration(make_event(name="Gotham Open"), "Bruce Wayne")
    data = client.get(api_player(registration.player.pk)).json()
    assert [e["name"] for e in data["events"]] == ["Gotham Open"]
    assert data["totals"]["games"] == 0 and data["totals"]["average_place"] is None


def test_it_answers_an_unknown_player_with_a_json_404(client):
    response = client.get(api_player(987654))
    assert response.status_code == 404
    assert "no player" in response.json()["detail"]
    assert client.get(api_vs(987654, 1)).status_code == 404


def test_it_answers_a_record_that_never_entered_with_a_json_404(client):
    player = Player.objects.create(name="Selina Kyle")
    assert client.get(api_player(player.pk)).status_code == 404


def test_it_answers_a_head_to_head_of_one_person_with_a_json_400(client, ann):
    for other in ann:
        response = client.get(api_vs(ann[0].pk, other.pk))
        assert response.status_code == 400
        assert response.json()["detail"] == "Both numbers are records of the same player."


@pytest.mark.parametrize(
    "path",
    ["/api/players/abc/", "/api/players/99999999999999999999/", "/api/players/1/vs/99999999999999999999/"],
)
def test_odd_numbers_get_a_json_error(client, path):
    response = client.get(path)
    assert response.status_code in {400, 404}
    assert response["Content-Type"].startswith("application/json")


def test_it_answers_head_requests(client, ann):
    assert client.head(api_player(ann[0].pk)).status_code == 200
