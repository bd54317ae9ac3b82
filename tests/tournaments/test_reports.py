"""Players report the match slip, the others confirm it (12.070, 12.080): the services."""

from __future__ import annotations

import pytest

from tests.factories import make_event, make_players, make_user
from tournaments.errors import ActionError
from tournaments.models import ResultChange, Round, Seat, SlipReport, Table
from tournaments.services import reports, results, rounds

pytestmark = pytest.mark.django_db


def seated_table(players: int = 8, *, publish: bool = True) -> tuple[Table, list[Seat]]:
    """Round 1 of a started event, published; every player has an account. The first table and its seats."""
    event = make_event()
    for registration in make_players(event, players):
        registration.player.user = make_user()
        registration.player.save()
    rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=publish)
    table = Table.objects.filter(round=round).order_by("number").first()
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__player__user").order_by("seat")
    )
    return table, seats


def slip(seats: list[Seat], vps: list[int], svs: list[int] | None = None) -> list[results.SeatEntry]:
    svs = svs or [1] * len(seats)
    return [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=sv, main_character="Batman")
        for s, vp, sv in zip(seats, vps, svs, strict=True)
    ]


def report(table, seats, vps=(40, 30, 20, 10), by=0, **kwargs) -> SlipReport:
    seat = seats[by]
    return reports.report_submit(
        table=table,
        registration=seat.registration,
        user=seat.registration.player.user,
        entries=slip(seats, list(vps)),
        **kwargs,
    )


def confirm(report_, seat) -> SlipReport:
    return reports.report_confirm(
        report=report_, registration=seat.registration, user=seat.registration.player.user
    )


def test_a_report_changes_nothing_until_the_table_confirms():
    table, seats = seated_table()
    report(table, seats)
    table.refresh_from_db()
    assert not table.has_result
    assert list(Seat.objects.filter(table=table).values_list("vp", flat=True)) == [None] * 4


def test_the_last_confirmation_puts_the_result_in_and_the_history_names_everyone():
    table, seats = seated_table()
    made = report(table, seats)
    for seat in seats[1:]:
        confirm(made, seat)
    table.refresh_from_db()
    assert table.has_result
    assert [s.placement for s in Seat.objects.filter(table=table).order_by("seat")] == [1, 2, 3, 4]
    change = ResultChange.objects.get(table=table)
    assert change.action == "report"
    names = [s.registration.player.name for s in seats]
    assert change.reason == f"reported by {names[0]}; confirmed by {', '.join(names[1:])}"
    assert SlipReport.objects.get(pk=made.pk).status == SlipReport.Status.ACCEPTED


def test_confirming_twice_counts_once():
    table, seats = seated_table()
    made = report(table, seats)
    confirm(made, seats[1])
    confirm(made, seats[1])
    assert made.confirmations.count() == 2  # the reporter and seat 2
    assert not Table.objects.get(pk=table.pk).has_result


def test_a_second_player_reporting_gets_the_first_report_to_confirm():
    table, seats = seated_table()
    first = report(table, seats)
    with pytest.raises(reports.AlreadyReported) as refused:
        report(table, seats, vps=(10, 20, 30, 40), by=1)
    assert refused.value.report.pk == first.pk
    assert SlipReport.objects.filter(table=table).count() == 1


def test_the_reporter_may_change_the_report_until_someone_confirms():
    table, seats = seated_table()
    first = report(table, seats)
    second = report(table, seats, vps=(41, 30, 20, 10))
    assert SlipReport.objects.get(pk=first.pk).status == SlipReport.Status.REPLACED
    confirm(second, seats[1])
    with pytest.raises(reports.AlreadyReported):
        report(table, seats, vps=(42, 30, 20, 10))


def test_confirming_a_replaced_report_says_it_changed():
    table, seats = seated_table()
    first = report(table, seats)
    report(table, seats, vps=(41, 30, 20, 10))
    with pytest.raises(ActionError, match="changed the report"):
        confirm(first, seats[1])


def test_a_dispute_needs_a_reason_and_stops_confirmations():
    table, seats = seated_table()
    made = report(table, seats)
    with pytest.raises(ActionError, match="what is wrong"):
        reports.report_dispute(report=made, registration=seats[2].registration, user=None, reason="  ")
    reports.report_dispute(report=made, registration=seats[2].registration, user=None, reason="I had 33 VP")
    with pytest.raises(ActionError, match="disputed"):
        confirm(made, seats[1])
    made.refresh_from_db()
    assert made.status == SlipReport.Status.DISPUTED and made.dispute_reason == "I had 33 VP"


def test_a_judges_entry_wins_over_an_open_report():
    table, seats = seated_table()
    made = report(table, seats)
    judge = make_user()
    results.result_enter(table=table, entries=slip(seats, [10, 20, 30, 40]), expected_version=0, user=judge)
    made.refresh_from_db()
    assert made.status == SlipReport.Status.SETTLED and made.closed_by == judge
    with pytest.raises(ActionError, match="judge has entered"):
        confirm(made, seats[1])
    assert [s.vp for s in Seat.objects.filter(table=table).order_by("seat")] == [10, 20, 30, 40]


def test_a_judges_entry_from_a_page_loaded_before_the_table_confirmed_still_wins():
    table, seats = seated_table()
    made = report(table, seats)
    for seat in seats[1:]:
        confirm(made, seat)
    # The judge opened the form at version 0, before the last confirmation put the report in.
    results.result_enter(
        table=table, entries=slip(seats, [10, 20, 30, 40]), expected_version=0, user=make_user()
    )
    assert [s.vp for s in Seat.objects.filter(table=table).order_by("seat")] == [10, 20, 30, 40]
    assert ResultChange.objects.filter(table=table).first().action == "correction"


def test_a_judge_editing_an_older_version_than_another_judge_still_conflicts():
    table, seats = seated_table()
    results.result_enter(
        table=table, entries=slip(seats, [40, 30, 20, 10]), expected_version=0, user=make_user()
    )
    with pytest.raises(results.ResultConflict):
        results.result_enter(
            table=table, entries=slip(seats, [10, 20, 30, 40]), expected_version=0, user=make_user()
        )


def test_a_tie_that_changes_points_asks_the_reporter_and_the_answer_is_kept():
    table, seats = seated_table()
    with pytest.raises(results.NeedsRecentSuperVillain) as asked:
        report(table, seats, vps=(30, 30, 20, 10))
    assert asked.value.groups == ((str(seats[0].registration_id), str(seats[1].registration_id)),)
    assert not SlipReport.objects.filter(table=table).exists()
    answer = {seats[0].registration_id: 1}
    made = report(table, seats, vps=(30, 30, 20, 10), recent_super_villain=answer)
    for seat in seats[1:]:
        confirm(made, seat)
    placements = [s.placement for s in Seat.objects.filter(table=table).order_by("seat")]
    assert placements == [1, 2, 3, 4]


def test_a_slip_the_rules_refuse_is_refused_with_the_players_name():
    table, seats = seated_table()
    entries = slip(seats, [40, 30, 20, 10])
    entries[0] = results.SeatEntry(seat_id=seats[0].pk, vp=40, left_game=1, outright_win=True)
    with pytest.raises(ActionError, match=seats[0].registration.player.name):
        reports.report_submit(table=table, registration=seats[0].registration, user=None, entries=entries)
    assert not SlipReport.objects.exists()


def test_players_cannot_report_a_draft_round():
    table, seats = seated_table(publish=False)
    with pytest.raises(ActionError, match="not published"):
        report(table, seats)


def test_players_cannot_report_when_the_event_turned_reporting_off():
    table, seats = seated_table()
    table.round.event.player_reporting = False
    table.round.event.save()
    with pytest.raises(ActionError, match="judges enter"):
        report(table, seats)
    # Staff still report for a player.
    assert reports.report_submit(
        table=table,
        registration=seats[0].registration,
        user=make_user(),
        entries=slip(seats, [40, 30, 20, 10]),
        by_staff=True,
    )


def test_a_player_from_another_table_cannot_report_or_confirm():
    table, seats = seated_table()
    stranger = Seat.objects.filter(round=table.round).exclude(table=table).first()
    with pytest.raises(ActionError, match="not seated"):
        reports.report_submit(
            table=table, registration=stranger.registration, user=None, entries=slip(seats, [4, 3, 2, 1])
        )
    made = report(table, seats)
    with pytest.raises(ActionError, match="not seated"):
        reports.report_confirm(report=made, registration=stranger.registration, user=None)


def test_a_player_who_dropped_does_not_have_to_confirm():
    table, seats = seated_table()
    made = report(table, seats)
    dropped = seats[3].registration
    dropped.dropped_at = dropped.created_at
    dropped.save()
    confirm(made, seats[1])
    confirm(made, seats[2])
    assert Table.objects.get(pk=table.pk).has_result


def test_a_missing_confirmation_never_costs_points_by_itself():
    table, seats = seated_table()
    made = report(table, seats)
    made.at = made.at.replace(year=made.at.year - 1)
    made.save()
    assert reports.report_overdue(made, minutes=table.round.event.confirm_minutes)
    assert not Table.objects.get(pk=table.pk).has_result
    assert not Seat.objects.filter(table=table, refused_to_sign=True).exists()


def test_a_closed_round_takes_no_reports():
    table, seats = seated_table()
    for other in Table.objects.filter(round=table.round):
        other_seats = list(Seat.objects.filter(table=other).order_by("seat"))
        results.result_enter(
            table=other,
            entries=slip(other_seats, [40, 30, 20, 10][: len(other_seats)]),
            expected_version=0,
            user=None,
        )
    rounds.round_close(round=table.round)
    assert Round.objects.get(pk=table.round_id).closed
    with pytest.raises(ActionError, match="closed"):
        report(table, seats)


def test_a_swap_is_refused_while_a_table_has_an_open_report():
    table, seats = seated_table()
    report(table, seats)
    other = Seat.objects.filter(round=table.round).exclude(table=table).first()
    with pytest.raises(ActionError, match="already reported a match slip"):
        rounds.seats_swap(round=table.round, first=seats[1], second=other)
    assert Seat.objects.get(pk=seats[1].pk).table_id == table.pk


def test_the_history_says_when_staff_confirmed_for_a_player():
    table, seats = seated_table()
    made = report(table, seats)
    confirm(made, seats[1])
    confirm(made, seats[2])
    reports.report_confirm(report=made, registration=seats[3].registration, user=make_user(), by_staff=True)
    note = ResultChange.objects.get(table=table).reason
    assert note.endswith(f"{seats[3].registration.player.name} (by staff for them)")


def test_a_dispute_reason_is_for_the_table_and_the_judges_not_any_visitor(client):
    from django.urls import reverse

    table, seats = seated_table()
    made = report(table, seats)
    reports.report_dispute(
        report=made, registration=seats[2].registration, user=None, reason="Bob miscounted"
    )
    url = reverse(
        "tournaments:table", kwargs={"slug": table.round.event.slug, "number": 1, "table": table.number}
    )
    client.force_login(seats[1].registration.player.user)
    assert "Bob miscounted" in client.get(url).content.decode()
    elsewhere = Seat.objects.filter(table__round=table.round).exclude(table=table).first()
    client.force_login(elsewhere.registration.player.user)
    page = client.get(url).content.decode()
    assert "disputed this slip" in page and "Bob miscounted" not in page
