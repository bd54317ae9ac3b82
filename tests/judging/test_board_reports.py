"""The judges' board shows where each table's match slip stands: not reported, reported and waiting for
confirmations, disputed, needing a judge, confirmed by the table or by a judge."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from judging import selectors
from tests.judging.helpers import enter_result, judge, time_up
from tests.judging.report_helpers import (
    confirm,
    dispute,
    published_round,
    report,
    reported_minutes_ago,
    table_of,
)
from tournaments.errors import ActionError
from tournaments.models import Event
from tournaments.selectors_reports import round_open_tables
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def board_state(round, number):
    _, tables = selectors.round_board(round=round)
    return next(t for t in tables if t.table.number == number)


def test_a_table_nobody_reported_is_not_reported():
    _, round = published_round()
    state = board_state(round, 1)
    assert state.status == selectors.PLAYING
    assert state.status_label == "Not reported (playing)"


def test_a_reported_table_counts_its_confirmations():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    confirm(slip, 2)
    state = board_state(round, 1)
    assert state.status == selectors.REPORTED
    assert state.report.count_text == "2 of 4 confirmed"
    assert "waiting for: Player 003, Player 004" in state.detail


def test_a_table_everyone_confirmed_is_confirmed_by_the_table():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    for seat in (2, 3, 4):
        confirm(slip, seat)
    state = board_state(round, 1)
    assert state.status == selectors.RESULT_IN
    assert state.detail == "by the table"


def test_a_judges_entry_is_confirmed_by_a_judge():
    _, round = published_round()
    enter_result(table_of(round, 1), [40, 30, 20, 10])
    assert board_state(round, 1).detail == "by a judge"


def test_a_judges_correction_of_a_confirmed_report_is_by_a_judge():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    for seat in (2, 3, 4):
        confirm(slip, seat)
    enter_result(table_of(round, 1), [40, 30, 20, 35])
    assert board_state(round, 1).detail == "by a judge"


def test_a_disputed_table_says_who_disputed_and_why():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    dispute(slip, 3, "my VP are 34, not 20")
    state = board_state(round, 1)
    assert state.status == selectors.DISPUTED and state.needs_judge
    assert state.detail.startswith("Disputed by Player 003: “my VP are 34, not 20”")


def test_a_confirmation_missing_after_the_events_minutes_needs_a_judge():
    _, round = published_round(confirm_minutes=10)
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    reported_minutes_ago(slip, 11)
    state = board_state(round, 1)
    assert state.status == selectors.NEEDS_JUDGE
    assert "still missing: Player 002, Player 003, Player 004" in state.detail


def test_a_report_within_the_events_minutes_still_waits():
    _, round = published_round(confirm_minutes=30)
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    reported_minutes_ago(slip, 15)
    assert board_state(round, 1).status == selectors.REPORTED


def test_a_report_beats_the_clock_running_out():
    _, round = published_round()
    time_up(round)
    report(table_of(round, 1), [40, 30, 20, 10])
    assert board_state(round, 1).status == selectors.REPORTED
    assert board_state(round, 2).status == selectors.TIME_CALLED


def test_tables_needing_a_judge_come_first():
    _, round = published_round(16)
    time_up(round)
    enter_result(table_of(round, 1), [40, 30, 20, 10])
    report(table_of(round, 2), [40, 30, 20, 10])
    late = report(table_of(round, 3), [40, 30, 20, 10])
    reported_minutes_ago(late, 60)
    dispute(report(table_of(round, 4), [40, 30, 20, 10]), 2, "wrong VP")
    _, tables = selectors.round_board(round=round)
    order = [t.table.number for t in selectors.sort_by_status(tables)]
    assert order == [4, 3, 2, 1]


def reported_tables(players):
    """A round of ``players`` with every kind of table: disputed, late, waiting, confirmed, by a judge."""
    _, round = published_round(players, confirm_minutes=5)
    time_up(round)
    numbers = list(round.tables.order_by("number").values_list("number", flat=True))
    for number in numbers:
        kind = number % 4
        slip = report(table_of(round, number), [40, 30, 20, 10]) if kind else None
        if kind == 1:
            dispute(slip, 2, "wrong VP")
        elif kind == 2:
            reported_minutes_ago(slip, 6)
        elif kind == 3:
            confirm(slip, 2)
    return round


def count_board_queries(round) -> int:
    round = round.__class__.objects.get(pk=round.pk)
    with CaptureQueriesContext(connection) as queries:
        selectors.round_board(round=round)
    return len(queries)


def test_the_board_reads_as_many_queries_for_16_tables_as_for_4():
    small = count_board_queries(reported_tables(16))
    large = count_board_queries(reported_tables(64))
    assert small == large <= 10


def test_the_open_tables_say_how_many_need_a_judge():
    _, round = published_round(16)
    enter_result(table_of(round, 1), [40, 30, 20, 10])
    report(table_of(round, 2), [40, 30, 20, 10])
    dispute(report(table_of(round, 3), [40, 30, 20, 10]), 2, "wrong VP")
    _, tables = selectors.round_board(round=round)
    expected = "3 of 4 tables still open: 1 needs a judge, 1 waiting for confirmations, 1 not reported."
    assert selectors.board_open_tables(tables).sentence == expected
    assert round_open_tables(round=round, event=round.event).sentence == expected


def test_the_desk_counts_a_late_report_as_needing_a_judge():
    event, round = published_round(8, confirm_minutes=5)
    reported_minutes_ago(report(table_of(round, 1), [40, 30, 20, 10]), 6)
    counts = round_open_tables(round=round, event=Event.objects.get(pk=event.pk))
    assert counts.need_judge == [1] and counts.not_reported == [2]


def test_closing_the_round_says_which_tables_wait_for_what():
    _, round = published_round(16)
    enter_result(table_of(round, 1), [40, 30, 20, 10])
    report(table_of(round, 2), [40, 30, 20, 10])
    dispute(report(table_of(round, 3), [40, 30, 20, 10]), 2, "wrong VP")
    with pytest.raises(ActionError) as refused:
        rounds.round_close(round=round)
    assert refused.value.message == (
        "3 tables have no result yet (disputed, a judge settles it: 3; "
        "reported, waiting for confirmations: 2; nothing reported: 4)."
    )


def test_the_board_page_shows_the_reports_and_links_to_settle(client):
    event, round = published_round(16)
    report(table_of(round, 2), [40, 30, 20, 10])
    dispute(report(table_of(round, 3), [40, 30, 20, 10]), 2, "my VP are 34")
    client.force_login(judge(event))
    page = client.get(reverse("judging:board", kwargs={"slug": event.slug})).content.decode()
    assert "4 of 4 tables still open: 1 needs a judge, 1 waiting for confirmations, 2 not reported." in page
    assert "Reported, waiting for confirmations · 1 of 4 confirmed" in page
    assert "Disputed by Player 010: “my VP are 34”" in page
    settle = reverse("tournaments:table_result", kwargs={"slug": event.slug, "number": 1, "table": 3})
    assert f'href="{settle}?next=/judging/e/{event.slug}/staff/rounds/1/">Settle</a>' in page
    assert page.index('id="table-3"') < page.index('id="table-2"') < page.index('id="table-4"')


@pytest.mark.parametrize("url_name", ["tournaments:round_staff", "tournaments:rounds"])
def test_the_round_page_and_the_desk_show_the_open_tables(client, url_name):
    event, round = published_round(8)
    dispute(report(table_of(round, 1), [40, 30, 20, 10]), 2, "wrong VP")
    client.force_login(event.staff.get().user)
    kwargs = {"slug": event.slug, **({"number": 1} if url_name == "tournaments:round_staff" else {})}
    page = client.get(reverse(url_name, kwargs=kwargs)).content.decode()
    assert "2 of 2 tables still open: 1 needs a judge, 1 not reported." in page


def test_the_tables_own_page_follows_the_report_too():
    _, round = published_round()
    slip = report(table_of(round, 1), [40, 30, 20, 10])
    assert selectors.table_clock(table=table_of(round, 1)).status == selectors.REPORTED
    dispute(slip, 2, "wrong VP")
    assert selectors.table_clock(table=table_of(round, 1)).status == selectors.DISPUTED


def test_it_refreshes_the_board_in_place_with_one_element_named_board(client):
    event, round = published_round()
    client.force_login(judge(event))
    url = reverse("judging:board", args=[event.slug])
    page = client.get(url).content.decode()
    assert page.count('id="board"') == 1 and 'id="board-live"' in page
    fragment = client.get(url, headers={"HX-Request": "true", "HX-Target": "board-live"}).content.decode()
    assert "<html" not in fragment and fragment.count('id="board"') == 1
