"""Reads of the players' reports for staff pages: where each table's match slip stands.

A table with no result is either not reported, reported and waiting for confirmations (12.080), disputed,
or overdue (a confirmation missing after the event's ``confirm_minutes``). Disputed and overdue tables
need a judge. Each read here takes a fixed number of queries whatever the number of tables.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field

from django.utils import timezone

from .models import Event, ResultChange, Round, Seat, SlipConfirmation, SlipReport, Table
from .selectors import TableView
from .services.reports import must_confirm, report_overdue

# How a table's result came in: the last entry in its history that set the slip.
BY_THE_TABLE = "table"
BY_A_JUDGE = "judge"
_SLIP_ACTIONS = ("result", "correction", "report", "override")


@dataclass
class ReportState:
    """An open report of one table with who has signed it and who has not."""

    report: SlipReport
    seats: list[Seat]
    confirmations: list[SlipConfirmation]
    overdue: bool

    @property
    def disputed(self) -> bool:
        return self.report.status == SlipReport.Status.DISPUTED

    @property
    def needs_judge(self) -> bool:
        return self.disputed or self.overdue

    @property
    def signers(self) -> list[Seat]:
        return must_confirm(self.seats)

    @property
    def confirmed(self) -> list[Seat]:
        signed = {c.registration_id for c in self.confirmations}
        return [s for s in self.signers if s.registration_id in signed]

    @property
    def waiting(self) -> list[Seat]:
        signed = {c.registration_id for c in self.confirmations}
        return [s for s in self.signers if s.registration_id not in signed]

    @property
    def count_text(self) -> str:
        return f"{len(self.confirmed)} of {len(self.signers)} confirmed"

    def name_of(self, registration_id: int | None) -> str:
        seat = next((s for s in self.seats if s.registration_id == registration_id), None)
        return seat.registration.player.name if seat else "a player"

    @property
    def signatures(self) -> list[tuple[str, SlipConfirmation]]:
        """Who signed, in the order they did, with their names."""
        return [(self.name_of(c.registration_id), c) for c in self.confirmations]

    @property
    def reporter(self) -> str:
        return self.name_of(self.report.reported_by_id)

    @property
    def disputer(self) -> str:
        return self.name_of(self.report.disputed_by_id)

    @property
    def summary(self) -> str:
        """One line for a judge: who reported, who signed, who is awaited, or who disputed and why."""
        if self.disputed:
            return (
                f"Disputed by {self.disputer}: “{self.report.dispute_reason}” (reported by {self.reporter})"
            )
        text = f"Reported by {self.reporter} at {timezone.localtime(self.report.at):%H:%M}"
        if self.overdue:  # the badge says only that a judge is needed: say how far the signatures got
            text += f" · {self.count_text}"
        if self.waiting:
            waiting = ", ".join(s.registration.player.name for s in self.waiting)
            text += f" · {'still missing' if self.overdue else 'waiting for'}: {waiting}"
        return text


def _open_reports(tables: list[Table]):
    return SlipReport.objects.filter(table__in=[t.pk for t in tables], status__in=SlipReport.OPEN)


def round_reports(
    *, event: Event, tables: list[TableView], now: datetime.datetime | None = None
) -> dict[int, ReportState]:
    """The open report of each table (by table id) that has one, with its confirmations. Two queries."""
    now = now or timezone.now()
    reports = list(_open_reports([v.table for v in tables]))
    confirmations: dict[int, list[SlipConfirmation]] = defaultdict(list)
    if reports:
        for confirmation in SlipConfirmation.objects.filter(
            report__in=[r.pk for r in reports]
        ).select_related("user"):
            confirmations[confirmation.report_id].append(confirmation)
    seats = {v.table.pk: v.seats for v in tables}
    return {
        r.table_id: ReportState(
            report=r,
            seats=seats[r.table_id],
            confirmations=confirmations[r.pk],
            overdue=report_overdue(r, minutes=event.confirm_minutes, now=now),
        )
        for r in reports
    }


def table_report(*, table: Table, seats: list[Seat]) -> ReportState | None:
    """The open report of one table, if any. Two queries (one when there is none)."""
    states = round_reports(event=table.round.event, tables=[TableView(table, seats)])
    return states.get(table.pk)


def results_by(*, round: Round) -> dict[int, str]:
    """For each table with a result: whether the table's confirmed report or a judge put it in. One query."""
    last: dict[int, str] = {}
    changes = (
        ResultChange.objects.filter(table__round=round, action__in=_SLIP_ACTIONS)
        .order_by("at", "pk")
        .values_list("table_id", "action")
    )
    for table_id, action in changes:
        last[table_id] = BY_THE_TABLE if action == "report" else BY_A_JUDGE
    return last


@dataclass
class OpenTables:
    """How many tables of a round still have no result, and why."""

    total: int
    open: int
    need_judge: list[int] = field(default_factory=list)  # table numbers
    waiting: list[int] = field(default_factory=list)  # reported, waiting for confirmations
    not_reported: list[int] = field(default_factory=list)

    @property
    def sentence(self) -> str:
        if not self.total:
            return "No tables."
        if not self.open:
            return f"All {self.total} tables have a result."
        parts = []
        if self.need_judge:
            parts.append(f"{len(self.need_judge)} need{'s' if len(self.need_judge) == 1 else ''} a judge")
        if self.waiting:
            parts.append(f"{len(self.waiting)} waiting for confirmations")
        if self.not_reported:
            parts.append(f"{len(self.not_reported)} not reported")
        tables = "table" if self.total == 1 else "tables"
        return f"{self.open} of {self.total} {tables} still open: {', '.join(parts)}."


def open_tables(tables: list[Table], *, reported: dict[int, bool]) -> OpenTables:
    """Count from tables already loaded; ``reported`` maps the id of each table with an open report to
    whether that report needs a judge (disputed, or a confirmation overdue)."""
    counts = OpenTables(total=len(tables), open=0)
    for table in sorted(tables, key=lambda t: t.number):
        if table.has_result:
            continue
        counts.open += 1
        if table.pk not in reported:
            counts.not_reported.append(table.number)
        elif reported[table.pk]:
            counts.need_judge.append(table.number)
        else:
            counts.waiting.append(table.number)
    return counts


def round_open_tables(*, round: Round, event: Event) -> OpenTables:
    """The desk's count for one round, without seats. Two queries."""
    tables = list(Table.objects.filter(round=round))
    now = timezone.now()
    reported = {
        r.table_id: r.status == SlipReport.Status.DISPUTED
        or report_overdue(r, minutes=event.confirm_minutes, now=now)
        for r in _open_reports(tables)
    }
    return open_tables(tables, reported=reported)
