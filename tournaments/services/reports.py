"""Results from the table: a player reports the match slip (12.070), the others confirm it (12.080).

A report is checked by the engine like a judge's entry (``results.outcome``) but changes nothing on the
seats until every player still in the event has confirmed it; then it is saved exactly as a judge's
entry would be, and the table's history names who reported and who confirmed. A dispute, or a confirmation
missing after the event's ``confirm_minutes``, puts the table in front of a judge. A judge's entry always
wins (``results.result_enter`` settles any open report). A missing confirmation never costs points by
itself: refusing to sign (12.100) is a judge's decision.

Every write locks the round, then the table (as ``results`` does), so a report, a confirmation, a judge's
entry and closing the round happen one after the other.
"""

from __future__ import annotations

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from ..errors import ActionError
from ..models import Registration, Seat, SlipConfirmation, SlipReport, Table
from . import results
from .results import SeatEntry


class AlreadyReported(ActionError):
    """Someone else reported this table first: the page shows their report to confirm or dispute."""

    def __init__(self, report: SlipReport, name: str) -> None:
        if report.status == SlipReport.Status.DISPUTED:
            text = f"{name}'s report of this table is disputed: a judge will settle it."
        else:
            text = f"{name} reported this table's slip first: check it, then confirm it or dispute it."
        super().__init__(text)
        self.report = report


def _entries_json(entries: list[SeatEntry], seats: list[Seat]) -> dict:
    by_seat = {s.pk: s.registration_id for s in seats}
    return {
        str(by_seat[e.seat_id]): {
            "vp": e.vp,
            "super_villains": e.super_villains,
            "main_character": e.main_character.strip()[:120],
            "main_character_key": e.main_character_key[:300],
            "left_game": e.left_game,
            "outright_win": e.outright_win,
        }
        for e in entries
    }


def report_entries(report: SlipReport, seats: list[Seat]) -> list[SeatEntry]:
    """The report as slip lines for the seats (the judge's form starts from them)."""
    lines = []
    for seat in seats:
        line = report.entries.get(str(seat.registration_id), {})
        lines.append(
            SeatEntry(
                seat_id=seat.pk,
                vp=line.get("vp") or 0,
                super_villains=line.get("super_villains") or 0,
                main_character=line.get("main_character") or "",
                main_character_key=line.get("main_character_key") or "",
                left_game=line.get("left_game"),
                outright_win=bool(line.get("outright_win")),
                refused_to_sign=seat.refused_to_sign,  # 12.100 stays a judge's decision
            )
        )
    return lines


def report_answer(report: SlipReport) -> dict[int, int]:
    return {int(k): int(v) for k, v in (report.recent_super_villain or {}).items()}


def must_confirm(seats: list[Seat]) -> list[Seat]:
    """Who signs the slip: every player at the table still in the event (a player who dropped or was
    disqualified has gone)."""
    return [s for s in seats if not s.registration.dropped and not s.registration.disqualified]


def _check_open_for_players(table: Table, *, by_staff: bool) -> None:
    round = table.round
    if not by_staff and not round.event.player_reporting:
        raise ActionError("The judges enter this event's results: hand the signed match slip to a judge.")
    if not round.published:
        raise ActionError("This round's tables are not published yet.")
    if round.closed:
        raise ActionError(f"{round.label} is closed: ask a judge to correct a result.")
    if table.has_result:
        raise ActionError(f"Table {table.number}'s result is already in: ask a judge to correct it.")


def _seat_of(seats: list[Seat], registration: Registration) -> Seat:
    seat = next((s for s in seats if s.registration_id == registration.pk), None)
    if seat is None:
        raise ActionError("You are not seated at this table.")
    return seat


def report_submit(
    *,
    table: Table,
    registration: Registration,
    user,
    entries: list[SeatEntry],
    recent_super_villain: dict[int, int] | None = None,
    by_staff: bool = False,
) -> SlipReport:
    """``registration`` (a player at the table) reports the slip; they sign it by reporting it.

    A player may replace their own report while nobody else has confirmed it; anyone else who reports
    meanwhile gets ``AlreadyReported`` with the report to confirm or dispute."""
    with transaction.atomic():
        table, seats = results._locked_table(table)
        _check_open_for_players(table, by_staff=by_staff)
        _seat_of(seats, registration)
        current = SlipReport.objects.filter(table=table, status__in=SlipReport.OPEN).first()
        if current is not None:
            others = current.confirmations.exclude(registration=current.reported_by_id).exists()
            if (
                current.reported_by_id != registration.pk
                or current.status != SlipReport.Status.PENDING
                or others
            ):
                name = next(
                    s.registration.player.public_name
                    for s in seats
                    if s.registration_id == current.reported_by_id
                )
                raise AlreadyReported(current, name)
        results._apply(entries, seats)
        for seat in seats:
            seat.refused_to_sign = False  # a report never says a player refused (12.100 is a judge's call)
        result = results.outcome(table, seats, recent_super_villain, public=True)
        if current is not None:
            current.status = SlipReport.Status.REPLACED
            current.closed_at = timezone.now()
            current.closed_by = user
            current.save(update_fields=["status", "closed_at", "closed_by"])
        try:
            with transaction.atomic():
                report = SlipReport.objects.create(
                    table=table,
                    reported_by=registration,
                    user=user,
                    entries=_entries_json(entries, seats),
                    recent_super_villain={p: i for i, p in enumerate(result.answer, start=1)},
                )
        except IntegrityError:
            # Another report of this table committed between our check and our insert.
            current = SlipReport.objects.get(table=table, status__in=SlipReport.OPEN)
            raise AlreadyReported(current, current.reported_by.player.public_name) from None
        SlipConfirmation.objects.create(
            report=report, registration=registration, user=user, by_staff=by_staff
        )
        _accept_if_signed(report, table, user=user)
    return report


def _locked_report(report: SlipReport) -> tuple[SlipReport, Table, list[Seat]]:
    table, seats = results._locked_table(report.table)
    report = SlipReport.objects.select_related("reported_by__player").get(pk=report.pk)
    return report, table, seats


def _refuse_unless_pending(report: SlipReport, seats: list[Seat]) -> None:
    if report.status == SlipReport.Status.PENDING:
        return
    # Players read these: the names as the players chose to show them.
    names = {s.registration_id: s.registration.player.public_name for s in seats}
    reasons = {
        SlipReport.Status.SETTLED: "A judge has entered this table's result: it is shown on the page.",
        SlipReport.Status.ACCEPTED: "Everyone has confirmed this slip: the result is in.",
        SlipReport.Status.REPLACED: f"{names.get(report.reported_by_id, 'The reporter')} changed the report: "
        "check the new values, then confirm or dispute them.",
        SlipReport.Status.DISPUTED: f"{names.get(report.disputed_by_id, 'A player')} disputed this report: "
        "a judge will settle it.",
    }
    raise ActionError(reasons[report.status])


def report_confirm(
    *, report: SlipReport, registration: Registration, user, by_staff: bool = False
) -> SlipReport:
    """``registration`` signs the reported slip (12.080). The last signature puts the result in."""
    with transaction.atomic():
        report, table, seats = _locked_report(report)
        _refuse_unless_pending(report, seats)
        _seat_of(seats, registration)
        SlipConfirmation.objects.get_or_create(
            report=report, registration=registration, defaults={"user": user, "by_staff": by_staff}
        )
        _accept_if_signed(report, table, user=user)
    return report


def report_dispute(
    *, report: SlipReport, registration: Registration, user, reason: str, by_staff: bool = False
) -> SlipReport:
    """``registration`` disputes the reported slip: the table needs a judge (12.070)."""
    reason = reason.strip()
    if not reason:
        raise ActionError("Say what is wrong with the slip, e.g. “my VP are 34, not 31”.")
    with transaction.atomic():
        report, table, seats = _locked_report(report)
        _refuse_unless_pending(report, seats)
        _seat_of(seats, registration)
        report.status = SlipReport.Status.DISPUTED
        report.disputed_by = registration
        report.dispute_reason = reason[:300]
        report.save(update_fields=["status", "disputed_by", "dispute_reason"])
    return report


def _accept_if_signed(report: SlipReport, table: Table, *, user) -> None:
    seats = list(Seat.objects.filter(table=table).select_related("registration__player").order_by("seat"))
    signatures = {c.registration_id: c for c in report.confirmations.all()}
    if any(s.registration_id not in signatures for s in must_confirm(seats)):
        return
    reporter = next(s for s in seats if s.registration_id == report.reported_by_id)
    confirmed = [
        s.registration.player.name
        + (" (by staff for them)" if signatures[s.registration_id].by_staff else "")
        for s in seats
        if s.registration_id in signatures and s is not reporter
    ]
    note = f"reported by {reporter.registration.player.name}"
    note += " (by staff for them)" if signatures[reporter.registration_id].by_staff else ""
    note += f"; confirmed by {', '.join(confirmed)}" if confirmed else ""
    results.result_enter(
        table=table,
        entries=report_entries(report, seats),
        expected_version=table.version,
        user=report.user,
        recent_super_villain=report_answer(report) or None,
        reason=note[:300],
        action="report",
    )
    report.status = SlipReport.Status.ACCEPTED
    report.closed_at = timezone.now()
    report.closed_by = user
    report.save(update_fields=["status", "closed_at", "closed_by"])


def report_overdue(report: SlipReport, *, minutes: int, now: datetime.datetime | None = None) -> bool:
    """A confirmation is missing after the time the event sets: the table needs a judge."""
    now = now or timezone.now()
    return (
        report.status == SlipReport.Status.PENDING and report.at + datetime.timedelta(minutes=minutes) <= now
    )
