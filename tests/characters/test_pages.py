"""The statistics pages (one event, every event), the staff page for unmatched text, and the API."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import add_staff, make_user
from tests.history.test_counted_games import simulated_event
from tournaments.models import EventStaff, ResultChange, Seat, Table
from tournaments.selectors_characters import character_statistics, main_characters, text_key
from tournaments.services import results
from tournaments.services.characters import main_character_choose

from .helpers import BATMAN, import_characters

pytestmark = pytest.mark.django_db


def event_url(event, **query):
    path = reverse("tournaments:event_characters", args=[event.slug])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_the_event_page_shows_charts_and_the_same_figures_in_a_table(client):
    import_characters()
    event = simulated_event(13, 5)
    body = client.get(event_url(event)).content.decode()
    assert 'id="chart-share"' in body and 'id="chart-win"' in body
    assert "vendor/chartjs/chart.umd.min.js" in body
    assert "<th" in body and "Win rate" in body and "games)" in body
    assert "Batman (Base Set)" in body or "Starfire" in body


def test_the_table_size_filter_keeps_its_tables(client):
    import_characters()
    event = simulated_event(13, 5)
    assert client.get(event_url(event, size=3)).status_code == 200
    stats = character_statistics(event_ids=[event.pk], table_size=3)
    assert stats.games_by_size[4] == 0 and stats.games_by_size[3] == stats.games > 0


@pytest.mark.parametrize("size", ["5", "x", "", "3%00", "9" * 50])
def test_odd_sizes_show_every_table(client, size):
    import_characters()
    event = simulated_event()
    assert client.get(event_url(event, size=size)).status_code == 200


def test_an_unknown_event_is_a_404(client):
    assert client.get(reverse("tournaments:event_characters", args=["nope"])).status_code == 404


def test_an_event_without_games_says_so(client):
    import_characters()
    event = simulated_event()
    Seat.objects.update(main_character="", main_character_key="")
    body = client.get(event_url(event)).content.decode()
    assert "No counted game has a main character" in body and "chart-share" not in body


def test_the_all_events_page_counts_every_event(client):
    import_characters()
    one, two = simulated_event(9, 1), simulated_event(9, 2)
    both = character_statistics()
    assert (
        both.games
        == character_statistics(event_ids=[one.pk]).games + character_statistics(event_ids=[two.pk]).games
    )
    assert client.get(reverse("tournaments:all_characters") + "?size=4").status_code == 200


def test_the_statistics_follow_a_corrected_slip():
    import_characters()
    event = simulated_event()
    before = character_statistics(event_ids=[event.pk])
    seat = Seat.objects.filter(round__event=event).exclude(main_character_key=BATMAN.key).first()

    seats = list(Seat.objects.filter(table=seat.table).order_by("seat"))
    entries = [
        results.SeatEntry(
            seat_id=s.pk,
            vp=s.vp,
            super_villains=s.super_villains,
            main_character="Batman (Base Set)",
            main_character_key=BATMAN.key,
            left_game=s.left_game,
            outright_win=s.outright_win,
        )
        for s in seats
    ]
    table = seat.table
    results.result_enter(
        table=table,
        entries=entries,
        expected_version=table.version,
        user=None,
        reason="main character corrected",
        recent_super_villain={s.registration_id: n for n, s in enumerate(seats, start=1)},
    )
    after = character_statistics(event_ids=[event.pk])

    def batman(stats):
        return next((line.overall.games for line in stats.lines if line.key == BATMAN.key), 0)

    assert batman(after) > batman(before)


def test_the_selector_reads_as_many_queries_for_two_events_as_for_one():
    import_characters()
    one = simulated_event(9, 1)
    with CaptureQueriesContext(connection) as first:
        character_statistics(event_ids=[one.pk])
    two = simulated_event(13, 2)
    with CaptureQueriesContext(connection) as second:
        character_statistics(event_ids=[one.pk, two.pk])
    assert len(first) == len(second)


# --- Staff: the free text to check ----------------------------------------------------------------------


def check_url(event):
    return reverse("tournaments:characters_check", args=[event.slug])


def staff_client(client, event, user=None):
    """``client`` logged in as a judge of the event (``user``, or a new one)."""
    user = user or make_user()
    add_staff(event, user, EventStaff.Role.JUDGE)
    client.force_login(user)
    return client


def with_text(event, text, count=3):
    pks = list(Seat.objects.filter(round__event=event).order_by("pk").values_list("pk", flat=True)[:count])
    Seat.objects.filter(pk__in=pks).update(main_character=text, main_character_key="")
    return pks


def test_the_staff_page_groups_the_text_with_counts_and_the_closest_names(client):
    import_characters()
    event = simulated_event()
    with_text(event, "Starfire", 3)
    body = staff_client(client, event).get(check_url(event)).content.decode()
    assert "<bdi>Starfire</bdi>" in body and '<td class="num">3</td>' in body
    assert 'value="Starfire (Teen Titans)"' in body and 'value="Starfire (Teen Titans Go)"' in body


def test_staff_pick_a_main_character_for_every_line_with_that_text(client):
    import_characters()
    event = simulated_event()
    pks = with_text(event, "Starfire", 3)
    client = staff_client(client, event)
    response = client.post(
        check_url(event), {"text": text_key("Starfire"), "character": "Starfire (Teen Titans Go)"}
    )
    assert response.status_code == 302
    assert set(Seat.objects.filter(pk__in=pks).values_list("main_character_key", flat=True)) == {
        "main_character/starfire/teen-titans-go"
    }


def test_a_second_pick_of_the_same_text_is_told_it_is_done(client):
    import_characters()
    event = simulated_event()
    with_text(event, "Starfire", 2)
    client = staff_client(client, event)
    data = {"text": text_key("Starfire"), "character": "Starfire (Teen Titans)"}
    client.post(check_url(event), data)
    response = client.post(check_url(event), data, follow=True)
    assert "no longer waiting" in response.content.decode()


@pytest.mark.parametrize(
    "data",
    [
        {"text": "nope", "character": "Batman (Base Set)"},
        {"text": "", "typed": ""},
        {"character": "Zzyzx"},
        {"text": "x" * 5000, "typed": "\x00"},
    ],
)
def test_odd_posts_change_nothing_and_never_500(client, data):
    import_characters()
    event = simulated_event()
    pks = with_text(event, "Starfire", 2)
    response = staff_client(client, event).post(check_url(event), data)
    assert response.status_code == 302
    assert set(Seat.objects.filter(pk__in=pks).values_list("main_character", flat=True)) == {"Starfire"}


def test_an_uncertain_typed_choice_is_refused(client):
    import_characters()
    event = simulated_event()
    pks = with_text(event, "Batman, Superman", 2)
    response = staff_client(client, event).post(
        check_url(event), {"text": text_key("Batman, Superman"), "typed": "Starfire"}, follow=True
    )
    assert "not one main character of the list" in response.content.decode()
    assert set(Seat.objects.filter(pk__in=pks).values_list("main_character_key", flat=True)) == {""}


def test_the_staff_page_is_for_staff(client):
    import_characters()
    event = simulated_event()
    assert client.get(check_url(event)).status_code == 302
    client.force_login(make_user())
    assert client.get(check_url(event)).status_code == 403


# --- Staff's pick in each table's history ------------------------------------------------------------------


STARFIRE_KEY = "main_character/starfire/teen-titans"


def text_at_tables(event, text, tables):
    """``text`` with no key on every seat of the event's first ``tables`` tables; their ids."""
    ids = list(Table.objects.filter(round__event=event).order_by("pk").values_list("pk", flat=True)[:tables])
    Seat.objects.filter(table_id__in=ids).update(main_character=text, main_character_key="")
    return ids


def test_a_staff_pick_logs_one_change_per_table_it_changed_with_who_picked(client):
    import_characters()
    event = simulated_event()
    tables = text_at_tables(event, "Starfire", 2)
    judge = make_user()
    staff_client(client, event, judge).post(
        check_url(event), {"text": text_key("Starfire"), "character": "Starfire (Teen Titans)"}
    )
    changes = ResultChange.objects.filter(action="main_character")
    assert sorted(changes.values_list("table_id", flat=True)) == sorted(tables)
    assert set(changes.values_list("user_id", flat=True)) == {judge.pk}


def test_a_staff_picks_change_shows_each_players_main_character_before_and_after():
    import_characters()
    event = simulated_event()
    [table] = text_at_tables(event, "Starfire", 1)
    main_character_choose(event=event, text="Starfire", key=STARFIRE_KEY, user=make_user())
    change = ResultChange.objects.get(table_id=table, action="main_character")
    names = Seat.objects.filter(table_id=table).values_list("registration__player__name", flat=True)
    assert sorted(change.differences()) == sorted(
        f"{name}: main character Starfire → Starfire (Teen Titans)" for name in names
    )
    assert change.action_label == "Main character chosen"


def test_a_staff_pick_gives_each_table_it_changed_a_new_version():
    import_characters()
    event = simulated_event()
    tables = text_at_tables(event, "Starfire", 2)
    before = dict(Table.objects.filter(round__event=event).values_list("pk", "version"))
    main_character_choose(event=event, text="Starfire", key=STARFIRE_KEY)
    after = dict(Table.objects.filter(round__event=event).values_list("pk", "version"))
    assert {pk for pk in after if after[pk] != before[pk]} == set(tables)
    assert all(after[pk] == before[pk] + 1 for pk in tables)


def test_a_second_pick_of_the_same_text_logs_nothing():
    import_characters()
    event = simulated_event()
    text_at_tables(event, "Starfire", 1)
    main_character_choose(event=event, text="Starfire", key=STARFIRE_KEY)
    assert main_character_choose(event=event, text="Starfire", key=STARFIRE_KEY) == 0
    assert ResultChange.objects.filter(action="main_character").count() == 1


def test_a_staff_pick_takes_as_many_queries_for_many_tables_as_for_one():
    import_characters()
    event = simulated_event(13, 2)
    text_at_tables(event, "Starfire", 1)
    Seat.objects.filter(round__event=event, round__number=2).update(
        main_character="Kory", main_character_key=""
    )
    main_characters()  # the catalogue is read once per import, not per pick
    with CaptureQueriesContext(connection) as one:
        assert main_character_choose(event=event, text="Starfire", key=STARFIRE_KEY) <= 4
    with CaptureQueriesContext(connection) as many:
        assert main_character_choose(event=event, text="Kory", key=STARFIRE_KEY) >= 12
    assert len(one) == len(many)


# --- API ----------------------------------------------------------------------------------------------


def test_the_api_gives_numbers_as_numbers(client):
    import_characters()
    event = simulated_event(13, 5)
    data = client.get(reverse("tournaments:api_event_characters", args=[event.slug])).json()
    first = data["characters"][0]
    assert isinstance(data["games"], int) and isinstance(first["overall"]["win_rate"]["value"], float)
    assert isinstance(first["overall"]["win_rate"]["games"], int)
    assert set(first) == {"key", "label", "matched", "overall", "three_players", "four_players"}
    assert 0 < data["par_win_rate"] < 1


def test_the_api_filters_by_table_size_and_refuses_other_sizes(client):
    import_characters()
    simulated_event(13, 5)
    path = reverse("tournaments:api_characters")
    assert client.get(path + "?size=3").json()["games_four_players"] == 0
    response = client.get(path + "?size=5")
    assert response.status_code == 400 and "size" in response.json()["detail"]
    assert client.get(path + "?size=abc").status_code == 400


def test_the_api_answers_404_for_an_unknown_event(client):
    response = client.get(reverse("tournaments:api_event_characters", args=["nope"]))
    assert response.status_code == 404 and "detail" in response.json()


# --- HTTP caching -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tournaments:event_characters", "tournaments:api_event_characters"])
def test_a_reader_with_the_current_etag_gets_a_304_until_a_slip_changes(client, name):
    import_characters()
    event = simulated_event()
    path = reverse(name, args=[event.slug])
    etag = client.get(path)["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 304
    with_text(event, "Starfire", 1)
    main_character_choose(event=event, text="Starfire", key="main_character/starfire/teen-titans")
    assert client.get(path, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_the_api_answers_head(client):
    import_characters()
    simulated_event()
    assert client.head(reverse("tournaments:api_characters")).status_code == 200
