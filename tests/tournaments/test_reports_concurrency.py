"""Players, judges and the organizer acting on one table or round at the same moment (``tests/concurrency.py``).

Every write of a result locks the round, then the table: reports, confirmations, a judge's entry and closing
the round happen one after the other, on SQLite (a subprocess on a file) and PostgreSQL alike.
"""

from __future__ import annotations

import pytest

from tests.concurrency import at_once, unique_user
from tests.factories import make_event, make_players
from tournaments.errors import ActionError
from tournaments.models import Event, ResultChange, Round, Seat, SlipReport, Table
from tournaments.services import reports, results, rounds

pytestmark = pytest.mark.django_db(transaction=True)


def published_round(players: int = 8) -> Round:
    event = make_event()
    for registration in make_players(event, players):
        registration.player.user = unique_user()
        registration.player.save()
    rounds.event_start(event=event)
    return rounds.round_pair(event=event, number=1, publish=True)


def seats_of(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))


def slip(seats: list[Seat], vps: list[int]) -> list[results.SeatEntry]:
    return [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=1) for s, vp in zip(seats, vps, strict=True)
    ]


def submit(table: Table, seat: Seat, vps: list[int]) -> SlipReport:
    return reports.report_submit(
        table=table,
        registration=seat.registration,
        user=seat.registration.player.user,
        entries=slip(seats_of(table), vps),
    )


def confirm(report: SlipReport, seat: Seat) -> SlipReport:
    return reports.report_confirm(
        report=report, registration=seat.registration, user=seat.registration.player.user
    )


# --- Scenarios -------------------------------------------------------------------------------


def scenario_two_players_report_at_once() -> None:
    round = published_round()
    table = Table.objects.filter(round=round).order_by("number").first()
    seats = seats_of(table)
    outcomes = at_once(
        lambda: submit(table, seats[0], [40, 30, 20, 10]), lambda: submit(table, seats[1], [10, 20, 30, 40])
    )
    made = [r for r, exc in outcomes if exc is None]
    refused = [exc for _, exc in outcomes if exc is not None]
    assert len(made) == 1 and len(refused) == 1, outcomes
    # The second sees the first report, to confirm or dispute.
    assert isinstance(refused[0], reports.AlreadyReported) and refused[0].report.pk == made[0].pk
    assert SlipReport.objects.filter(table=table).count() == 1


def scenario_three_confirm_at_once() -> None:
    round = published_round()
    table = Table.objects.filter(round=round).order_by("number").first()
    seats = seats_of(table)
    made = submit(table, seats[0], [40, 30, 20, 10])
    outcomes = at_once(*[lambda seat=seat: confirm(made, seat) for seat in seats[1:]])
    assert [exc for _, exc in outcomes] == [None, None, None]
    assert Table.objects.get(pk=table.pk).has_result
    assert ResultChange.objects.filter(table=table).count() == 1  # the result went in once
    assert SlipReport.objects.get(pk=made.pk).status == SlipReport.Status.ACCEPTED


def scenario_judge_saves_while_players_confirm() -> None:
    round = published_round()
    table = Table.objects.filter(round=round).order_by("number").first()
    seats = seats_of(table)
    made = submit(table, seats[0], [40, 30, 20, 10])
    judge = unique_user()
    outcomes = at_once(
        lambda: results.result_enter(
            table=table, entries=slip(seats, [11, 22, 33, 44]), expected_version=0, user=judge
        ),
        *[lambda seat=seat: confirm(made, seat) for seat in seats[1:]],
    )
    assert outcomes[0][1] is None, outcomes[0]  # the judge's entry always wins
    for _, exc in outcomes[1:]:
        assert exc is None or "judge has entered" in str(exc), exc
    assert [s.vp for s in seats_of(table)] == [11, 22, 33, 44]
    assert SlipReport.objects.get(pk=made.pk).status in (
        SlipReport.Status.SETTLED,
        SlipReport.Status.ACCEPTED,
    )
    assert ResultChange.objects.filter(table=table).first().user_id == judge.pk


def scenario_close_while_the_last_confirmation_lands() -> None:
    round = published_round(12)
    tables = list(Table.objects.filter(round=round).order_by("number"))
    for table in tables[1:]:
        results.result_enter(
            table=table, entries=slip(seats_of(table), [40, 30, 20, 10]), expected_version=0, user=None
        )
    seats = seats_of(tables[0])
    made = submit(tables[0], seats[0], [40, 30, 20, 10])
    confirm(made, seats[1])
    confirm(made, seats[2])
    outcomes = at_once(lambda: rounds.round_close(round=round), lambda: confirm(made, seats[3]))
    assert outcomes[1][1] is None, outcomes[1]
    closed = Round.objects.get(pk=round.pk).closed
    if outcomes[0][1] is None:
        assert closed  # the confirmation came first: every table had its result at the close
    else:
        assert not closed and "no result" in str(outcomes[0][1])
    assert Table.objects.get(pk=tables[0].pk).has_result


def scenario_close_while_a_correction_is_saved() -> None:
    round = published_round(8)
    tables = list(Table.objects.filter(round=round).order_by("number"))
    for table in tables:
        results.result_enter(
            table=table, entries=slip(seats_of(table), [40, 30, 20, 10]), expected_version=0, user=None
        )
    version_before = Event.objects.get(pk=round.event_id).results_version
    outcomes = at_once(
        lambda: rounds.round_close(round=round),
        # A correction with no reason: accepted only while the round is still open.
        lambda: results.result_enter(
            table=tables[0],
            entries=slip(seats_of(tables[0]), [10, 20, 30, 40]),
            expected_version=1,
            user=None,
        ),
    )
    assert outcomes[0][1] is None
    round.refresh_from_db()
    correction = ResultChange.objects.filter(table=tables[0], action="correction").first()
    if outcomes[1][1] is None:
        # Saved before the close: it is counted by the close, never after it without a reason.
        assert correction.at <= round.closed_at
    else:
        assert isinstance(outcomes[1][1], ActionError) and "give a reason" in str(outcomes[1][1])
        assert correction is None
        assert [s.vp for s in seats_of(tables[0])] == [40, 30, 20, 10]
    assert Event.objects.get(pk=round.event_id).results_version == version_before + 1


# --- Tests -----------------------------------------------------------------------------------


def test_two_players_reporting_the_same_table_at_once_make_one_report(run_scenario):
    run_scenario(scenario_two_players_report_at_once)


def test_three_players_confirming_at_once_put_the_result_in_once(run_scenario):
    run_scenario(scenario_three_confirm_at_once)


def test_a_judge_saving_while_players_confirm_wins(run_scenario):
    run_scenario(scenario_judge_saves_while_players_confirm)


def test_closing_the_round_while_the_last_confirmation_lands_never_closes_a_table_without_its_result(
    run_scenario,
):
    run_scenario(scenario_close_while_the_last_confirmation_lands)


def test_closing_the_round_while_a_correction_is_saved_serialises_on_the_round(run_scenario):
    run_scenario(scenario_close_while_a_correction_is_saved)
