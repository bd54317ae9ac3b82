"""Small helpers for the tests of reports on staff pages: a published round, a reported table."""

from __future__ import annotations

import datetime

from django.utils import timezone

from tests.judging.helpers import running_event, seat_round
from tournaments.models import Event, Round, Seat, SlipReport, Table
from tournaments.services import reports
from tournaments.services.results import SeatEntry


def published_round(players: int = 8, **event_fields) -> tuple[Event, Round]:
    event, registrations = running_event(players, **event_fields)
    round = seat_round(event, registrations)
    round.published_at = timezone.now()
    round.save(update_fields=["published_at"])
    return event, round


def seats_of(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))


def table_of(round: Round, number: int) -> Table:
    return Table.objects.select_related("round__event").get(round=round, number=number)


def report(table: Table, vps: list[int], *, by_seat: int = 1) -> SlipReport:
    """The player in seat ``by_seat`` reports these VP in turn order."""
    seats = seats_of(table)
    return reports.report_submit(
        table=table,
        registration=seats[by_seat - 1].registration,
        user=None,
        entries=[SeatEntry(seat_id=s.pk, vp=vp) for s, vp in zip(seats, vps, strict=True)],
    )


def confirm(report: SlipReport, seat: int) -> SlipReport:
    registration = seats_of(report.table)[seat - 1].registration
    return reports.report_confirm(report=report, registration=registration, user=None)


def dispute(report: SlipReport, seat: int, reason: str) -> SlipReport:
    registration = seats_of(report.table)[seat - 1].registration
    return reports.report_dispute(report=report, registration=registration, user=None, reason=reason)


def reported_minutes_ago(report: SlipReport, minutes: float) -> None:
    SlipReport.objects.filter(pk=report.pk).update(at=timezone.now() - datetime.timedelta(minutes=minutes))
