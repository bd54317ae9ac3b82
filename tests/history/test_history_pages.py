"""The public pages of a player's history (/players/<pk>/), the head-to-head (/players/<pk>/vs/<other>/),
the CSV of a player's games, and the links to them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_registration, make_user
from tests.history.helpers import first_player, one_person, simulated_event
from tournaments.models import Event, Player, Registration, Seat
from tournaments.selectors_games import counted_games, final_places

pytestmark = pytest.mark.django_db


def history_url(player: Player | int) -> str:
    return reverse("tournaments:player_history", kwargs={"pk": getattr(player, "pk", player)})


def vs_url(player, other) -> str:
    return reverse("tournaments:player_vs", kwargs={"pk": player.pk, "other": other.pk})


@pytest.fixture
def two_events():
    return simulated_event(9, 1), simulated_event(9, 2)


@pytest.fixture
def ann(two_events):
    """Ann Archer: one account, one record in each of the two events."""
    first, second = two_events
    return one_person(make_user("ann"), first_player(first), first_player(second))


def test_it_shows_every_event_of_every_record_of_the_account(client, two_events, ann):
    response = client.get(history_url(ann[1]))
    assert response.status_code == 200
    lines = response.context["page"].history.events
    assert {line.event_id for line in lines} == {e.pk for e in two_events}
    for event in two_events:
        assert reverse("tournaments:event_detail", kwargs={"slug": event.slug}) in response.text


def test_the_page_is_the_same_from_any_record_of_the_person(client, ann):
    one, two = (client.get(history_url(p)).context["page"].history for p in ann)
    assert one.totals == two.totals and one.events == two.events


def test_it_shows_the_final_place_of_n(client, two_events, ann):
    event = two_events[0]
    registration = Registration.objects.get(event=event, player=ann[0])
    place = final_places([event])[event.pk][registration.pk]
    response = client.get(history_url(ann[0]))
    line = next(line for line in response.context["page"].history.events if line.event_id == event.pk)
    assert (line.place, line.of) == (place, 9)
    assert "of 9" in response.text


def test_the_totals_count_every_counted_game_of_the_person(client, ann):
    games = counted_games(player_ids=[p.pk for p in ann])
    totals = client.get(history_url(ann[0])).context["totals"]
    assert totals.games == len(games) and totals.events == 2
    wins = sum(1 for g in games for s in g.seats if s.player_id in {p.pk for p in ann} and s.placement == 1)
    assert totals.wins == wins


def test_a_record_without_an_account_and_the_same_name_is_another_person(client, two_events, ann):
    namesake = first_player(two_events[0], 1)
    Player.objects.filter(pk=namesake.pk).update(name="Ann Archer")
    page = client.get(history_url(namesake)).context["page"]
    assert page.person.record_ids == (namesake.pk,)
    assert [line.event_id for line in page.history.events] == [two_events[0].pk]
    mine = client.get(history_url(ann[0])).context["page"]
    assert namesake.pk not in mine.person.record_ids


def test_two_records_of_one_person_in_one_event_make_one_event_line(client, two_events):
    event = two_events[0]
    one, two = first_player(event, 0), first_player(event, 1)
    one_person(make_user("twice"), one, two)
    response = client.get(history_url(one))
    lines = response.context["page"].history.events
    assert len(lines) == 1 and lines[0].records == 2
    places = final_places([event])[event.pk]
    registrations = Registration.objects.filter(event=event, player__in=[one, two])
    assert lines[0].place == min(places[r.pk] for r in registrations)
    # Every game of either record counts (they sat at different tables, or once at one table).
    games = counted_games(player_ids=[one.pk, two.pk])
    assert response.context["totals"].games == len(games)
    assert "entered twice" in response.text


def test_an_event_still_running_shows_in_progress(client, two_events, ann):
    Event.objects.filter(pk=two_events[1].pk).update(status=Event.Status.RUNNING)
    response = client.get(history_url(ann[0]))
    line = next(line for line in response.context["page"].history.events if line.event_id == two_events[1].pk)
    assert line.place is None and line.in_progress
    assert "In progress" in response.text


def test_a_player_with_no_counted_games_gets_the_events_only(client):
    event = make_event(name="Gotham Open")
    registration = make_registration(event, "Bruce Wayne")
    response = client.get(history_url(registration.player))
    assert response.status_code == 200
    assert "Gotham Open" in response.text and "No counted games yet" in response.text
    assert "Not started yet" in response.text
    assert "Nobody yet" in response.text


def test_a_dropped_player_is_marked_dropped(client, two_events, ann):
    Registration.objects.filter(player=ann[0]).update(dropped_at="2026-01-10T12:00Z", dropped_after_round=2)
    assert "dropped after round 2" in client.get(history_url(ann[0])).text


def test_an_unknown_player_is_a_clear_404(client):
    response = client.get(history_url(987654))
    assert response.status_code == 404
    assert "no player with this number" in response.text


def test_a_record_that_never_entered_an_event_is_not_found(client):
    player = Player.objects.create(name="Selina Kyle")
    assert client.get(history_url(player)).status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/players/99999999999999999999/",
        "/players/99999999999999999999/vs/1/",
        "/players/1/vs/99999999999999999999/",
        "/players/99999999999999999999/games.csv",
        "/players/-1/",
        "/players/abc/",
    ],
)
def test_odd_numbers_are_not_found(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "query", [{"e-page": "abc"}, {"o-page": "-3"}, {"o-page": "99999"}, {"e-sort": "x" * 500}]
)
def test_odd_query_parameters_still_show_the_page(client, ann, query):
    assert client.get(history_url(ann[0]), query).status_code == 200


def test_the_opponents_link_to_the_head_to_head(client, ann):
    response = client.get(history_url(ann[0]))
    opponent = response.context["page"].history.opponents[0]
    assert (
        reverse("tournaments:player_vs", kwargs={"pk": ann[0].pk, "other": opponent.player_id})
        in response.text
    )


def test_the_head_to_head_lists_every_game_both_sat_at(client, ann):
    opponent = client.get(history_url(ann[0])).context["page"].history.opponents[0]
    other = Player.objects.get(pk=opponent.player_id)
    response = client.get(vs_url(ann[0], other))
    assert response.status_code == 200
    h2h = response.context["h2h"]
    assert len(h2h.games) == opponent.games
    assert (h2h.ahead, h2h.behind) == (opponent.ahead, opponent.behind)
    shared = {
        (s.round.event_id, s.round.number, s.table.number)
        for s in Seat.objects.filter(
            registration__player=other, table__seats__registration__player__in=ann
        ).select_related("round", "table")
    }
    assert {(m.event_slug, m.round_number, m.table_number) for m in h2h.games} == {
        (Event.objects.get(pk=e).slug, r, t) for e, r, t in shared
    }


def test_the_head_to_head_of_people_who_never_met_says_so(client, two_events):
    one = first_player(two_events[0])
    other = first_player(two_events[1])
    response = client.get(vs_url(one, other))
    assert response.status_code == 200
    assert "have not sat at the same table" in response.text


def test_the_head_to_head_of_a_player_with_themself_goes_to_their_history(client, ann):
    response = client.get(vs_url(ann[0], ann[0]))
    assert response.status_code == 302 and response.url == history_url(ann[0])
    response = client.get(vs_url(ann[0], ann[1]))  # two records of one account: one person
    assert response.status_code == 302 and response.url == history_url(ann[0])


def test_the_head_to_head_with_an_unknown_player_is_a_404(client, ann):
    response = client.get(reverse("tournaments:player_vs", kwargs={"pk": ann[0].pk, "other": 987654}))
    assert response.status_code == 404


def test_the_csv_has_one_row_per_game_with_numbers(client, ann):
    response = client.get(reverse("tournaments:player_games_csv", kwargs={"pk": ann[0].pk}))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = response.content.decode().strip().splitlines()
    assert rows[0].startswith("Player,Date,Event,Round,Stage,Table")
    assert len(rows) - 1 == len(counted_games(player_ids=[p.pk for p in ann]))
    assert rows[1].split(",")[8] in {"1", "2", "3", "4"}


def test_the_event_player_page_links_to_the_history(client, two_events, ann):
    registration = Registration.objects.get(event=two_events[0], player=ann[0])
    response = client.get(
        reverse("tournaments:player", kwargs={"slug": two_events[0].slug, "pk": registration.pk})
    )
    assert history_url(ann[0]) in response.text


def test_my_events_links_my_history_for_a_player_with_records(client, ann):
    client.force_login(ann[0].user)
    response = client.get(reverse("accounts:my_events"))
    assert 'id="my-history"' in response.text
    response = client.get(reverse("accounts:my_history"))
    assert response.status_code == 302 and response.url in {history_url(p) for p in ann}


def test_my_history_without_records_goes_back_to_my_events(client):
    client.force_login(make_user("nobody"))
    assert 'id="my-history"' not in client.get(reverse("accounts:my_events")).text
    response = client.get(reverse("accounts:my_history"), follow=True)
    assert "no events yet" in response.text


def test_the_player_sees_it_is_their_own_history(client, ann):
    client.force_login(ann[0].user)
    assert 'id="own-history"' in client.get(history_url(ann[0])).text
    client.logout()
    assert 'id="own-history"' not in client.get(history_url(ann[0])).text
