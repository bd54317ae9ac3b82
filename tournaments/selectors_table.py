"""Reads for the players' side of a round: one table's page (seats, the reported slip, who signed it) and
the "Your table now" card of a player's pages. Each reads in a fixed number of queries.

The placements a reported slip would give come from the engine (``results.slip_outcome``, a dry run that
saves nothing): nothing here knows a rule of the game.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.urls import reverse

from .errors import ActionError
from .models import Event, Registration, Round, Seat, SlipConfirmation, SlipReport, Table
from .names import ordinal
from .services import reports, results

# What a player at the table does next.
REPORT = "report"  # nobody has reported the slip: fill it in when the game ends
CONFIRM = "confirm"  # someone reported it: check it, confirm or dispute
WAITING = "waiting"  # this player signed; others have not yet
DISPUTED = "disputed"  # a judge is coming
RESULT = "result"  # the result is in
JUDGES_ONLY = "judges_only"  # the event's judges enter the results: hand the slip to a judge
CLOSED = "closed"  # the round is closed


@dataclass
class ReportLine:
    seat: Seat
    entry: dict
    place: int | None = None
    points: float | None = None
    reason: str = ""


@dataclass
class ReportView:
    """An open report (or the last one that closed) with the placements it gives and who signed it."""

    report: SlipReport
    lines: list[ReportLine]
    reporter: Seat | None
    signed: list[Seat]  # in turn order, the reporter included
    unsigned: list[Seat]  # who still has to confirm
    problem: str = ""  # the engine refused the slip as it stands now (a seat changed since): a judge decides
    by_staff: frozenset[int] = frozenset()  # registrations a member of staff confirmed for

    @property
    def others_signed(self) -> list[Seat]:
        return [s for s in self.signed if self.reporter is None or s.pk != self.reporter.pk]

    @property
    def changeable(self) -> bool:
        """The reporter may change the report while nobody else has confirmed it."""
        return self.report.status == SlipReport.Status.PENDING and not self.others_signed


@dataclass
class TablePage:
    event: Event
    round: Round
    table: Table
    seats: list[Seat]
    mine: Seat | None
    report: ReportView | None
    step: str
    waiting_for: int = 0

    @property
    def opponents(self) -> list[Seat]:
        return [s for s in self.seats if self.mine is None or s.pk != self.mine.pk]

    @property
    def may_change_report(self) -> bool:
        """The viewer reported the open slip and nobody else has confirmed it yet."""
        report = self.report
        return bool(
            self.mine
            and report
            and report.changeable
            and report.reporter
            and report.reporter.pk == self.mine.pk
        )


def report_view(
    report: SlipReport,
    table: Table,
    seats: list[Seat],
    signed_ids: set[int],
    by_staff: frozenset[int] = frozenset(),
) -> ReportView:
    """The report's lines with the placements the engine gives them. No query."""
    by_reg = {s.registration_id: s for s in seats}
    lines = [ReportLine(s, report.entries.get(str(s.registration_id), {})) for s in seats]
    problem = ""
    try:
        outcome = results.slip_outcome(
            table=table,
            seats=seats,
            entries=reports.report_entries(report, seats),
            answer=reports.report_answer(report) or None,
            public=True,
        )
    except ActionError as exc:
        problem = exc.message
    else:
        placed = {int(p.player): p for p in outcome.placements}
        for line in lines:
            p = placed.get(line.seat.registration_id)
            if p is not None:
                line.place, line.points, line.reason = p.place, p.points, p.reason
        lines.sort(key=lambda line: (line.place or 99, line.seat.seat))
    must = reports.must_confirm(seats)
    return ReportView(
        report=report,
        lines=lines,
        reporter=by_reg.get(report.reported_by_id),
        signed=[s for s in seats if s.registration_id in signed_ids],
        unsigned=[s for s in must if s.registration_id not in signed_ids],
        problem=problem,
        by_staff=by_staff,
    )


def _step(
    event: Event,
    round: Round,
    table: Table,
    mine: Seat | None,
    report: SlipReport | None,
    unsigned: list[Seat],
) -> tuple[str, int]:
    """What a player at the table does next, and how many confirmations are still missing."""
    if table.has_result:
        return RESULT, 0
    if round.closed:
        return CLOSED, 0
    if report is not None and report.status == SlipReport.Status.DISPUTED:
        return DISPUTED, 0
    if not event.player_reporting:
        return JUDGES_ONLY, 0
    if report is None or not report.open:
        return REPORT, 0
    if mine is not None and any(s.pk == mine.pk for s in unsigned):
        return CONFIRM, len(unsigned)
    return WAITING, len(unsigned)


def _shown_report(reports_of_table: list[SlipReport]) -> SlipReport | None:
    """The open report; else the last accepted or settled one (the page says who reported and confirmed)."""
    open_report = next((r for r in reports_of_table if r.open), None)
    if open_report is not None:
        return open_report
    return next(
        (r for r in reports_of_table if r.status in (SlipReport.Status.ACCEPTED, SlipReport.Status.SETTLED)),
        None,
    )


def table_page(*, table: Table, user) -> TablePage:
    """One table as the players see it. Four queries."""
    round, event = table.round, table.round.event
    seats = list(
        Seat.objects.filter(table=table).select_related("registration__player", "round").order_by("seat")
    )
    mine = None
    if user.is_authenticated:
        mine = next((s for s in seats if s.registration.player.user_id == user.pk), None)
    report = _shown_report(list(SlipReport.objects.filter(table=table).order_by("-at", "-pk")[:5]))
    view = None
    if report is not None:
        signatures = list(
            SlipConfirmation.objects.filter(report=report).values_list("registration_id", "by_staff")
        )
        view = report_view(
            report, table, seats, {r for r, _ in signatures}, frozenset(r for r, staff in signatures if staff)
        )
    step, waiting = _step(event, round, table, mine, report, view.unsigned if view else [])
    return TablePage(event, round, table, seats, mine, view, step, waiting)


# --- "Your table now" on a player's pages ----------------------------------------------------------


@dataclass
class YourTable:
    registration: Registration
    round: Round
    table: Table
    seat: Seat
    seats: list[Seat] = field(default_factory=list)  # everyone at the table, in turn order
    step: str = REPORT
    waiting_for: int = 0
    reporter: str = ""

    @property
    def opponents(self) -> list[Seat]:
        return [s for s in self.seats if s.pk != self.seat.pk]

    @property
    def url(self) -> str:
        return reverse(
            "tournaments:table",
            kwargs={"slug": self.round.event.slug, "number": self.round.number, "table": self.table.number},
        )

    @property
    def next_text(self) -> str:
        if self.step == RESULT:
            if self.seat.placement:
                return f"Result in: you placed {ordinal(self.seat.placement)}."
            return "Result in."
        if self.step == CLOSED:
            return "The round is closed."
        if self.step == DISPUTED:
            return "The slip is disputed: a judge is coming."
        if self.step == JUDGES_ONLY:
            return "When the game ends, sign the match slip and hand it to a judge."
        if self.step == REPORT:
            return "When the game ends, report the match slip."
        if self.step == CONFIRM:
            return f"{self.reporter} reported the slip: check it, then confirm or dispute."
        return f"You signed the slip; waiting for {self.waiting_for} more to confirm."


def your_tables(registrations: list[Registration]) -> dict[int, YourTable]:
    """Each registration's table in its event's current published round, while that round runs.
    Four queries whatever the number of registrations."""
    ids = [r.pk for r in registrations if not r.dropped]
    if not ids:
        return {}
    own = list(
        Seat.objects.filter(
            registration_id__in=ids, round__published_at__isnull=False, round__status=Round.Status.PAIRED
        ).select_related("table", "round__event", "registration__player")
    )
    # Only the event's latest round counts (an earlier round still open is a judge's business).
    latest: dict[int, Seat] = {}
    for seat in own:
        held = latest.get(seat.registration_id)
        if held is None or seat.round.number > held.round.number:
            latest[seat.registration_id] = seat
    table_ids = [s.table_id for s in latest.values()]
    at_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table_id__in=table_ids).select_related("registration__player").order_by("seat")
    ):
        at_table[seat.table_id].append(seat)
    open_reports = {
        r.table_id: r for r in SlipReport.objects.filter(table_id__in=table_ids, status__in=SlipReport.OPEN)
    }
    signed: dict[int, set[int]] = defaultdict(set)
    for report_id, reg_id in SlipConfirmation.objects.filter(
        report__in=list(open_reports.values())
    ).values_list("report_id", "registration_id"):
        signed[report_id].add(reg_id)
    cards = {}
    for reg_id, seat in latest.items():
        seats = at_table[seat.table_id]
        report = open_reports.get(seat.table_id)
        unsigned = []
        reporter = ""
        if report is not None:
            unsigned = [s for s in reports.must_confirm(seats) if s.registration_id not in signed[report.pk]]
            reporter = next(
                (
                    s.registration.player.public_name
                    for s in seats
                    if s.registration_id == report.reported_by_id
                ),
                "",
            )
        step, waiting = _step(seat.round.event, seat.round, seat.table, seat, report, unsigned)
        cards[reg_id] = YourTable(
            registration=seat.registration,
            round=seat.round,
            table=seat.table,
            seat=seat,
            seats=seats,
            step=step,
            waiting_for=waiting,
            reporter=reporter,
        )
    return cards
