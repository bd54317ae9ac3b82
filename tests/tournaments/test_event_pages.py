import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import add_staff, make_event, make_players, make_user
from tests.tournaments.flow import play_round
from tournaments.models import EventStaff, Round, Seat, Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def running_event(players: int, *, played: int = 1, organizer=None):
    event = make_event(organizer=organizer or make_user())
    make_players(event, players)
    event = rounds.event_start(event=event)
    rng = random.Random(players)
    for number in range(1, played + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)
    if played < (event.swiss_rounds or 0):
        rounds.round_pair(event=event, number=played + 1, publish=True)
    event.refresh_from_db()
    return event


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    "page", ["tournaments:standings", "tournaments:pairings", "tournaments:event_detail"]
)
def test_public_pages_make_the_same_number_of_queries_for_more_players(client, page):
    counts = []
    for players in (8, 40):
        event = running_event(players)
        kwargs = {"slug": event.slug, **({"number": 2} if page == "tournaments:pairings" else {})}
        url = reverse(page, kwargs=kwargs)
        count_queries(client, url)  # warm the standings cache like a busy event would
        counts.append(count_queries(client, url))
    assert counts[0] == counts[1]


def test_standings_export_csv_with_every_tiebreaker(client):
    event = running_event(8)
    response = client.get(reverse("tournaments:standings", kwargs={"slug": event.slug}), {"_export": "csv"})
    header = response.content.decode().splitlines()[0]
    assert header == "#,Player,Pts,SV,Opp. rate,VP,1st,2nd,3rd,4th,Games"
    assert len(response.content.decode().splitlines()) == 9


def test_api_round_lists_tables_in_turn_order(client):
    event = running_event(8)
    data = client.get(reverse("tournaments:api_round", kwargs={"slug": event.slug, "number": 1})).json()
    assert data["kind"] == "swiss" and data["status"] == "closed"
    assert [len(t["players"]) for t in data["tables"]] == [4, 4]
    assert [p["seat"] for p in data["tables"][0]["players"]] == [1, 2, 3, 4]
    assert {p["placement"] for p in data["tables"][0]["players"]} == {1, 2, 3, 4}


def test_api_standings_and_event(client):
    event = running_event(8)
    standings = client.get(reverse("tournaments:api_standings", kwargs={"slug": event.slug})).json()
    assert [row["rank"] for row in standings["standings"]] == list(range(1, 9))
    assert set(standings["standings"][0]["tiebreakers"]) >= {"super_villains", "opponents_points_rate", "vp"}
    detail = client.get(reverse("tournaments:api_event", kwargs={"slug": event.slug})).json()
    assert detail["swiss_rounds"] == 4 and len(detail["players"]) == 8 and len(detail["rounds"]) == 2


def slip_data(table: Table, vps: list[int], version: int) -> dict:
    data = {"version": version}
    for seat, vp in zip(Seat.objects.filter(table=table).order_by("seat"), vps, strict=True):
        prefix = f"seat{seat.pk}"
        data.update({f"{prefix}-vp": vp, f"{prefix}-super_villains": 1, f"{prefix}-main_character": ""})
    return data


def judge_client(client, event):
    judge = make_user()
    add_staff(event, judge, EventStaff.Role.JUDGE)
    client.force_login(judge)
    return client


def round_2_table_1(client):
    """An 8-player event with round 1 played and round 2 paired; table 1 of round 2, its slip page, and
    the client logged in as a judge."""
    event = running_event(8)
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    url = reverse("tournaments:table_result", kwargs={"slug": event.slug, "number": 2, "table": 1})
    return event, table, url, judge_client(client, event)


def stored_vps(table: Table) -> list[int]:
    return list(Seat.objects.filter(table=table).order_by("seat").values_list("vp", flat=True))


def test_the_second_judge_saving_a_stale_slip_sees_a_conflict(client):
    event, table, url, client = round_2_table_1(client)
    first = client.post(url, slip_data(table, [40, 30, 20, 10], version=0))
    assert first.status_code == 302
    second = client.post(url, slip_data(table, [10, 20, 30, 40], version=0))
    body = second.content.decode()
    assert "while you were editing" in body and 'id="conflict"' in body
    assert stored_vps(table) == [40, 30, 20, 10]


def test_the_second_judges_typed_values_stay_in_the_form_after_a_conflict(client):
    event, table, url, client = round_2_table_1(client)
    client.post(url, slip_data(table, [40, 30, 20, 10], version=0))
    body = client.post(url, slip_data(table, [11, 22, 33, 44], version=0)).content.decode()
    slip = body.split('class="card slip"')[1]
    assert [int(v) for v in re.findall(r'name="seat\d+-vp" value="(\d+)"', slip)] == [11, 22, 33, 44]
    # Saving again (the form now carries the current version) keeps the second judge's values.
    version = re.search(r'name="version" value="(\d+)"', slip).group(1)
    assert client.post(url, slip_data(table, [11, 22, 33, 44], version=int(version))).status_code == 302
    assert stored_vps(table) == [11, 22, 33, 44]


def test_a_refused_tie_answer_asks_the_question_again_with_the_numbers_typed(client):
    event, table, url, client = round_2_table_1(client)
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    answer = slip_data(table, [30, 30, 20, 10], version=0)
    answer.update({f"recent_{seats[0].registration_id}": 1, f"recent_{seats[1].registration_id}": 1})
    body = client.post(url, answer).content.decode()
    assert "Give each tied player a different number" in body
    assert 'id="recent-question"' in body and "Not saved yet" in body
    assert f'name="recent_{seats[0].registration_id}" value="1"' in body
    assert not Table.objects.get(pk=table.pk).has_result


def test_saving_returns_to_the_page_the_judge_came_from(client):
    event, table, url, client = round_2_table_1(client)
    came_from = reverse("judging:table", args=[event.slug, 2, 1])
    assert f'name="next" value="{came_from}"' in client.get(url, {"next": came_from}).content.decode()
    response = client.post(url, {**slip_data(table, [40, 30, 20, 10], version=0), "next": came_from})
    assert response.headers["Location"] == came_from


def test_saving_never_goes_to_another_site(client):
    event, table, url, client = round_2_table_1(client)
    response = client.post(
        url, {**slip_data(table, [40, 30, 20, 10], version=0), "next": "https://evil.example/"}
    )
    assert response.headers["Location"] == reverse("tournaments:round_staff", args=[event.slug, 2])


def test_the_history_says_what_a_correction_changed(client):
    event, table, url, client = round_2_table_1(client)
    client.post(url, slip_data(table, [40, 30, 20, 10], version=0))
    client.post(url, slip_data(table, [40, 30, 20, 35], version=1))
    body = client.get(url).content.decode()
    fourth = Seat.objects.get(table=table, seat=4).registration.player.name
    first = Seat.objects.get(table=table, seat=1).registration.player.name
    assert f"{fourth}: VP 10 → 35, place 4 → 2, points 2 → 3" in body
    # The first entry lists what was entered.
    assert f"{first}: VP 40, SV 1, place 1, points 5" in body


def test_a_tie_on_vp_and_super_villains_asks_who_defeated_one_most_recently(client):
    event, table, url, client = round_2_table_1(client)
    response = client.post(url, slip_data(table, [30, 30, 20, 10], version=0))
    assert 'id="recent-question"' in response.content.decode()
    assert not Table.objects.get(pk=table.pk).has_result
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    answer = slip_data(table, [30, 30, 20, 10], version=0)
    answer.update({f"recent_{seats[1].registration_id}": 1, f"recent_{seats[0].registration_id}": 2})
    assert client.post(url, answer).status_code == 302
    assert Seat.objects.get(pk=seats[1].pk).placement == 1


def test_negative_vp_is_a_field_error(client):
    event, table, url, client = round_2_table_1(client)
    response = client.post(url, slip_data(table, [-1, 30, 20, 10], version=0))
    assert "VP cannot be negative (1.060)." in response.content.decode()
    assert not Table.objects.get(pk=table.pk).has_result


def test_pairing_twice_from_the_page_creates_one_round(client):
    event = running_event(8, played=1)
    Round.objects.filter(event=event, number=2).delete()
    client = judge_client(client, event)
    url = reverse("tournaments:round_pair", kwargs={"slug": event.slug})
    client.post(url, {"number": 2})
    client.post(url, {"number": 2})
    assert Round.objects.filter(event=event, number=2).count() == 1


ROUND_URLS = [
    ("tournaments:rounds", "get", {}),
    ("tournaments:round_staff", "get", {"number": 2}),
    ("tournaments:round_publish", "post", {"number": 2}),
    ("tournaments:table_result", "get", {"number": 2, "table": 1}),
    ("tournaments:round_close", "post", {"number": 2}),
    ("tournaments:seats_swap", "post", {"number": 2}),
    ("tournaments:event_start", "post", {}),
]


@pytest.mark.parametrize(("name", "method", "extra"), ROUND_URLS)
@pytest.mark.parametrize("visitor", ["anonymous", "player", "other_judge", "judge"])
def test_round_urls_are_staff_only(client, name, method, extra, visitor):
    event = running_event(8)
    if visitor == "player":
        client.force_login(make_user())
    elif visitor == "other_judge":
        other = make_user()
        add_staff(make_event(), other, EventStaff.Role.JUDGE)
        client.force_login(other)
    elif visitor == "judge":
        judge = make_user()
        add_staff(event, judge, EventStaff.Role.JUDGE)
        client.force_login(judge)
    response = getattr(client, method)(reverse(name, kwargs={"slug": event.slug, **extra}))
    if visitor == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response.url
    elif visitor in ("player", "other_judge"):
        assert response.status_code == 403
    elif name == "tournaments:event_start":
        assert response.status_code == 403  # starting the event is the organizer's
    else:
        assert response.status_code in (200, 302)


def test_swapping_two_players_moves_them_and_warns_about_the_pairing(client):
    event = running_event(8)
    round = Round.objects.get(event=event, number=2)
    a = Seat.objects.get(round=round, table__number=1, seat=1)
    b = Seat.objects.get(round=round, table__number=2, seat=1)
    client = judge_client(client, event)
    url = reverse("tournaments:seats_swap", kwargs={"slug": event.slug, "number": 2})
    response = client.post(url, {"first": a.pk, "second": b.pk}, follow=True)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.table.number, b.table.number) == (2, 1)
    messages = [str(m) for m in response.context["messages"]]
    assert "Players swapped." in messages
    # After one round of 8 players somebody at a swapped table has met someone there, or points differ.
    assert any("Table" in m for m in messages)


def test_the_standings_page_finds_a_player_by_name(client):
    event = running_event(8)
    response = client.get(reverse("tournaments:standings", kwargs={"slug": event.slug}), {"q": "player 003"})
    rows = response.content.decode().count("/players/")
    assert "Player 003" in response.content.decode() and rows == 1


def test_a_slip_in_a_running_round_does_not_change_the_standings_until_it_closes(client):
    from tournaments.selectors import standings_key

    event = running_event(8)
    before = standings_key(event)
    round = Round.objects.get(event=event, number=2)
    table = Table.objects.filter(round=round).first()
    from tests.tournaments.flow import play_table

    play_table(table, random.Random(1))
    event.refresh_from_db()
    assert standings_key(event) == before
    play_table(Table.objects.filter(round=round).last(), random.Random(2))
    rounds.round_close(round=round)
    event.refresh_from_db()
    assert standings_key(event) != before


def test_a_round_with_a_game_loss_cannot_be_paired_again():
    from tournaments.errors import ActionError
    from tournaments.services import results

    event = running_event(8)
    round = Round.objects.get(event=event, number=2)
    seat = Seat.objects.filter(round=round).first()
    results.seat_set_penalty(seat=seat, user=None, reason="11.030", game_loss=True)
    with pytest.raises(ActionError, match="penalty already affects"):
        rounds.round_repair(round=round)
    with pytest.raises(ActionError, match="penalty already affects"):
        rounds.round_undo(round=round)
    assert Seat.objects.get(pk=seat.pk).game_loss


def test_the_same_number_for_two_tied_players_is_refused(client):
    event, table, url, client = round_2_table_1(client)
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    data = slip_data(table, [30, 30, 20, 10], version=0)
    data.update({f"recent_{seats[0].registration_id}": 1, f"recent_{seats[1].registration_id}": 1})
    response = client.post(url, data)
    assert "Give each tied player a different number" in response.content.decode()
    assert not Table.objects.get(pk=table.pk).has_result


def test_a_correction_that_makes_a_new_tie_asks_the_question_again():
    from tournaments.services import results

    event = running_event(8)
    table = Table.objects.get(round__event=event, round__number=2, number=1)
    seats = list(Seat.objects.filter(table=table).order_by("seat"))

    def slip(vps):
        return [
            results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=1) for s, vp in zip(seats, vps, strict=True)
        ]

    results.result_enter(
        table=table, entries=slip([30, 30, 20, 10]), expected_version=0, user=None,
        recent_super_villain={seats[1].registration_id: 1, seats[0].registration_id: 2},
    )  # fmt: skip
    # Same tie, no new answer: the earlier answer still holds.
    results.result_enter(table=table, entries=slip([30, 30, 20, 11]), expected_version=1, user=None)
    # A new tie between players the earlier answer did not cover: asked again.
    with pytest.raises(results.NeedsRecentSuperVillain):
        results.result_enter(table=table, entries=slip([40, 20, 20, 10]), expected_version=2, user=None)


def test_after_a_swap_the_tables_notes_describe_the_new_seating():
    event = running_event(8)
    round = Round.objects.get(event=event, number=2)
    a = Seat.objects.select_related("registration__player").get(round=round, table__number=1, seat=1)
    b = Seat.objects.select_related("registration__player").get(round=round, table__number=2, seat=1)
    rounds.seats_swap(round=round, first=a, second=b)
    for table in Table.objects.filter(round=round):
        texts = [flag["text"] for flag in table.flags]
        assert texts[0] == f"{a.registration.player.name} and {b.registration.player.name} swapped by staff"
        assert all(t.startswith(f"Table {table.number}:") for t in texts[1:])


def test_correcting_a_closed_round_says_the_next_round_was_paired_before(client):
    event = running_event(8)
    table = Table.objects.get(round__event=event, round__number=1, number=1)
    url = reverse("tournaments:table_result", kwargs={"slug": event.slug, "number": 1, "table": 1})
    client = judge_client(client, event)
    data = {**slip_data(table, [10, 20, 30, 40], version=table.version), "reason": "VP added up wrong"}
    page = client.post(url, data, follow=True).content.decode()
    assert "Round 2 was paired from the standings before this correction" in page


def test_an_earlier_round_offers_no_reopen(client):
    event = running_event(8)
    client = judge_client(client, event)
    first = client.get(reverse("tournaments:round_staff", args=[event.slug, 1])).content.decode()
    assert "Reopen for corrections" not in first and "Later rounds are paired from this one" in first


@pytest.mark.parametrize("wanted", ["xlsx", "ods", "yaml", "nonsense"])
def test_an_export_format_the_page_does_not_offer_shows_the_page(client, wanted):
    event = running_event(8)
    response = client.get(reverse("tournaments:standings", args=[event.slug]), {"_export": wanted})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


def test_the_standings_download_as_json(client):
    event = running_event(8)
    response = client.get(reverse("tournaments:standings", args=[event.slug]), {"_export": "json"})
    assert len(response.json()) == 8


def test_undoing_a_drop_after_the_play_offs_were_seated_says_they_keep_their_tables(client):
    from tournaments.models import Registration
    from tournaments.services import registration as registration_services

    event = running_event(8, played=4)
    ann = Registration.objects.filter(event=event).first()
    registration_services.registration_drop(registration=ann, reason="by mistake", after_round=4)
    rounds.playoffs_start(event=event, publish=True)
    client = judge_client(client, event)
    page = client.post(reverse("tournaments:undrop", args=[event.slug, ann.pk]), follow=True).content.decode()
    assert "back in the event" in page
    assert "The play-offs were seated while" in page


def test_a_refused_tie_answer_on_an_impossible_slip_says_what_is_wrong_with_the_slip(client):
    event, table, url, client = round_2_table_1(client)
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    answer = slip_data(table, [30, 30, 20, 10], version=0)
    answer.update(
        {f"{prefix}-left_game": n for prefix, n in ((f"seat{seats[2].pk}", 1), (f"seat{seats[3].pk}", 1))}
    )
    answer.update({f"recent_{seats[0].registration_id}": 1, f"recent_{seats[1].registration_id}": 1})
    response = client.post(url, answer)
    assert response.status_code == 200
    assert "Two players cannot have left the game at the same moment" in response.content.decode()
    assert not Table.objects.get(pk=table.pk).has_result


def test_after_a_swap_each_table_carries_the_engines_flags_for_its_new_seating():
    """Worked out again by the engine for the new seating: the flags of players the swap did not move stay."""
    from tournaments import selectors, swiss

    event = running_event(12, played=2)
    round = Round.objects.get(event=event, number=3)
    a = Seat.objects.get(round=round, table__number=1, seat=2)
    b = Seat.objects.get(round=round, table__number=3, seat=4)
    rounds.seats_swap(round=round, first=a, second=b)
    played = selectors.played_rounds(event, before=3)
    for table in Table.objects.filter(round=round, number__in=[1, 3]):
        seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
        names = {str(s.registration_id): s.registration.player.name for s in seats}
        expected = swiss.table_flags([str(s.registration_id) for s in seats], played)
        stored = [(flag["kind"], flag["text"]) for flag in table.flags[1:]]
        assert stored == [
            (f.kind, f"Table {table.number}: " + dataclasses_replace_names(f, names).text) for f in expected
        ]


def dataclasses_replace_names(flag, names):
    import dataclasses

    return dataclasses.replace(
        flag,
        player=names.get(flag.player, flag.player),
        opponent=names.get(flag.opponent) if flag.opponent else None,
    )


def test_it_isolates_names_in_any_script_so_a_right_to_left_name_keeps_its_place(client):
    event = make_event()
    registrations = make_players(event, 8)
    registrations[0].player.name = "محمد علي"
    registrations[0].player.save()
    rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    play_round(round, random.Random(3))
    pairings = client.get(reverse("tournaments:pairings", args=[event.slug, 1])).content.decode()
    assert re.search(r"<bdi>محمد علي</bdi></a> — [1-4](st|nd|rd|th), ", pairings)


def test_a_players_page_says_a_result_in_the_open_round_is_not_counted_yet(client):
    from tests.tournaments.flow import play_table

    event = running_event(8)
    table = Table.objects.filter(round__event=event, round__number=2).first()
    play_table(table, random.Random(1))
    seat = Seat.objects.filter(table=table).first()
    page = client.get(reverse("tournaments:player", args=[event.slug, seat.registration_id])).content.decode()
    assert page.count("not counted yet</span>") == 1  # round 2's row; round 1 is closed
    assert "in 1 game" in page
