"""seasons.selectors.standings: computed on read from the events' final places, so corrections show at once;
one person under two records counts once; events in progress give no points; a fixed number of queries."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from seasons import selectors
from tests.factories import make_registration, make_user
from tests.seasons.helpers import finished_event, make_season, running_event
from tournaments.models import Player, Registration, Round, Seat, Table
from tournaments.selectors_games import final_places
from tournaments.services import results

pytestmark = pytest.mark.django_db

LINEAR = {"preset": "linear", "attendance": 0}


def winner(event) -> Registration:
    places = final_places([event])[event.pk]
    return Registration.objects.select_related("player").get(pk=min(places, key=places.get))


def test_every_player_of_a_finished_event_has_a_line_with_their_place_points():
    boss = make_user()
    event = finished_event(boss)
    lines = selectors.standings(make_season(boss, events=[event], points=LINEAR)).lines
    assert len(lines) == 8
    assert [line.points for line in lines] == [8, 7, 6, 5, 4, 3, 2, 1]
    assert lines[0].name == winner(event).player.name


def test_the_same_people_across_two_events_add_up():
    boss = make_user()
    first = finished_event(boss, date=datetime.date(2026, 2, 7))
    second = finished_event(boss, date=datetime.date(2026, 3, 7), seed=2)
    # The second event's records belong to the accounts of the first's: the same people.
    for a, b in zip(first.registrations.order_by("pk"), second.registrations.order_by("pk"), strict=True):
        Player.objects.filter(pk__in=[a.player_id, b.player_id]).update(user=make_user())
    lines = selectors.standings(make_season(boss, events=[first, second], points=LINEAR)).lines
    assert len(lines) == 8
    assert all(line.events_played == 2 for line in lines)
    assert sum(line.points for line in lines) == 2 * 36


def test_an_event_in_two_seasons_counts_in_each():
    boss = make_user()
    event = finished_event(boss)
    league = make_season(boss, events=[event], name="League")
    series = make_season(boss, events=[event], name="Series", points={"preset": "top_heavy", "attendance": 0})
    assert selectors.standings(league).lines[0].points == 10
    assert selectors.standings(series).lines[0].points == 25


def test_a_person_in_one_event_under_two_records_counts_once_with_the_better_place():
    boss = make_user()
    event = finished_event(boss)
    places = final_places([event])[event.pk]
    by_place = sorted(places, key=places.get)
    second, seventh = (Registration.objects.get(pk=pk) for pk in (by_place[1], by_place[6]))
    ann = make_user("ann")
    for registration in (second, seventh):
        registration.player.user = ann
        registration.player.save()
    lines = selectors.standings(make_season(boss, events=[event], points=LINEAR)).lines
    ann_lines = [line for line in lines if line.person == f"u{ann.pk}"]
    assert len(ann_lines) == 1
    assert ann_lines[0].best_finish == 2
    assert len(lines) == 7


def test_a_correction_after_the_event_finished_changes_the_season_at_once():
    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event])
    before = selectors.standings(season).lines
    final = Table.objects.get(round__event=event, round__kind=Round.Kind.FINAL)
    seats = list(Seat.objects.filter(table=final).order_by("placement"))
    # The judge finds the final's slip was read upside down: the last is the winner.
    results.result_override(
        table=final,
        order=[s.registration_id for s in reversed(seats)],
        reason="slip read upside down",
        expected_version=final.version,
        user=boss,
    )
    after = selectors.standings(season).lines
    assert before[0].person != after[0].person
    assert after[0].person == f"p{seats[-1].registration.player_id}"
    assert after[0].points == 10


def test_an_event_in_progress_shows_and_gives_no_points_yet():
    boss = make_user()
    done = finished_event(boss)
    running = running_event(boss)
    result = selectors.standings(make_season(boss, events=[done, running]))
    assert [(view.event, view.finished) for view in result.events] == [(done, True), (running, False)]
    assert all(line.event_points[1] is None for line in result.lines)
    assert all(line.events_played == 1 for line in result.lines)


def test_public_pages_show_the_short_name_a_player_chose():
    boss = make_user()
    event = finished_event(boss)
    player = winner(event).player
    player.name, player.public_short_name = "Ann Marie Smith", True
    player.save()
    lines = selectors.standings(make_season(boss, events=[event])).lines
    assert lines[0].name == "Ann S."


def test_the_name_filter_keeps_the_ranks():
    boss = make_user()
    lines = selectors.standings(make_season(boss, events=[finished_event(boss)])).lines
    found = selectors.filter_lines(lines, "  PLAYER   003 ")
    assert [line.name for line in found] == ["Player 003"]
    assert found[0].rank == next(line.rank for line in lines if line.name == "Player 003")
    assert selectors.filter_lines(lines, "") == lines
    assert selectors.filter_lines(lines, "x" * 10_000) == []


def test_the_number_of_queries_does_not_grow_with_players_or_events():
    boss = make_user()
    small = make_season(boss, events=[finished_event(boss, players=8)], name="Small")
    big = make_season(
        boss,
        events=[finished_event(boss, players=13), finished_event(boss, players=12, seed=3)],
        name="Big",
    )
    counts = []
    for season in (small, big):
        selectors.standings(season)  # fills the cache
        with CaptureQueriesContext(connection) as queries:
            selectors.standings(season)
        counts.append(len(queries))
    assert counts[0] == counts[1] == 2


def test_every_player_who_played_earns_the_attendance_points():
    boss = make_user()
    event = finished_event(boss)
    season = make_season(boss, events=[event], points={"preset": "custom", "places": [5], "attendance": 2})
    lines = selectors.standings(season).lines
    assert [line.points for line in lines] == [7] + [2] * 7


def test_a_registered_player_who_never_played_earns_nothing():
    boss = make_user()
    event = finished_event(boss)
    # Checked in but never seated: the event's ranking lists them last, the season leaves them out.
    absent = make_registration(event, "Never Came", checked_in=True)
    assert absent.pk in final_places([event])[event.pk]
    lines = selectors.standings(make_season(boss, events=[event])).lines
    assert all(line.person != f"p{absent.player_id}" for line in lines)


def test_the_name_shown_is_the_persons_latest_record():
    boss = make_user()
    event = finished_event(boss)
    ann = make_user("ann")
    first, second = event.registrations.order_by("pk")[:2]
    Player.objects.filter(pk=first.player_id).update(user=ann, name="Ann Old")
    Player.objects.filter(pk=second.player_id).update(user=ann, name="Ann New")
    lines = selectors.standings(make_season(boss, events=[event])).lines
    assert [line.name for line in lines if line.person == f"u{ann.pk}"] == ["Ann New"]
