"""Staff pages for running the rounds: start, pair, swap, enter match slips, close, play-offs."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from judging.forms import AnnouncementForm

from . import selectors, selectors_reports
from .errors import ActionError, AlreadyDone
from .forms_results import OverrideForm, SeatResultForm, initial_for, slip_entries
from .http import posted_id, posted_version, safe_next
from .models import Event, Registration, ResultChange, Round, Seat, Table
from .permissions import can, event_staff_required
from .services import reports, results, rounds


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


def _back(event: Event, number: int | None = None) -> HttpResponse:
    if number:
        return redirect("tournaments:round_staff", slug=event.slug, number=number)
    return redirect("tournaments:rounds", slug=event.slug)


@event_staff_required("run")
def rounds_overview(request: HttpRequest, event: Event) -> HttpResponse:
    """The organizer's desk: where the event stands and the one next action."""
    all_rounds = list(Round.objects.filter(event=event).order_by("number"))
    current = all_rounds[-1] if all_rounds else None
    pairable = Registration.objects.filter(event=event, checked_in=True, disqualified=False).entered().count()
    context = {
        "event": event,
        "rounds": all_rounds,
        "current": current,
        "pairable": pairable,
        "can_manage": can(request.user, event, "manage"),
        # The room's wall screen shows this line; the form posts to the judges' side.
        "announcement_form": AnnouncementForm(initial={"announcement": event.announcement}),
        "next_number": (current.number + 1) if current else 1,
    }
    if current is not None and not current.closed:
        context["open_tables"] = selectors_reports.round_open_tables(round=current, event=event)
    if event.status == Event.Status.REGISTRATION:
        from . import swiss

        try:
            context["standard_rounds"] = swiss.swiss_rounds(pairable, sanctioned=event.sanctioned).rounds
        except swiss.SwissError as exc:
            context["start_problem"] = str(exc)
    swiss_closed = sum(1 for r in all_rounds if r.kind == Round.Kind.SWISS and r.closed)
    if event.status == Event.Status.RUNNING and event.swiss_rounds and swiss_closed >= event.swiss_rounds:
        try:
            proposal = rounds.playoffs_proposal(event)
        except ActionError as exc:
            context["playoffs_problem"] = exc.message
        else:
            names = {
                str(r.pk): r.player.name
                for r in Registration.objects.filter(event=event).select_related("player")
            }
            context["proposal"] = [(t.number, [names[p] for p in t.players]) for t in proposal.tables]
            context["proposal_stage"] = proposal.stage
    if event.status == Event.Status.PLAYOFFS or event.status == Event.Status.FINISHED:
        context["final_ranking"] = rounds.final_ranking(event)
        semi = next((r for r in all_rounds if r.kind == Round.Kind.SEMIFINAL), None)
        context["final_due"] = (
            semi is not None and semi.closed and not any(r.kind == Round.Kind.FINAL for r in all_rounds)
        )
    return render(request, "tournaments/rounds.html", context)


@require_POST
@event_staff_required("manage")
def event_start(request: HttpRequest, event: Event) -> HttpResponse:
    override = request.POST.get("rounds", "").strip()
    try:
        event = rounds.event_start(event=event, rounds_override=int(override) if override else None)
    except ValueError:
        messages.error(request, "The number of rounds must be a whole number.")
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        note = " (non-standard: overridden by the organizer)" if event.non_standard else " (9.070)"
        messages.success(request, f"{event.name} started: {event.swiss_rounds} Swiss rounds{note}.")
    return _back(event)


@require_POST
@event_staff_required("run")
def round_pair(request: HttpRequest, event: Event) -> HttpResponse:
    publish = "publish" in request.POST
    try:
        number = int(request.POST["number"])
        round = rounds.round_pair(event=event, number=number, publish=publish)
    except (KeyError, ValueError):
        messages.error(request, "Which round? Reload the page and try again.")
        return _back(event)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(event)
    messages.success(request, _paired_message(round))
    return _back(event, round.number)


def _paired_message(round: Round) -> str:
    if round.published:
        return f"{round.label} paired and published: players see their tables."
    return f"{round.label} paired as a draft: only staff see it until you publish it."


@require_POST
@event_staff_required("run")
def round_publish(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Make a draft public: the pairings pages, players' pages, the API and the wall sheets show it."""
    round = _round(event, number)
    was_published = round.published
    round = rounds.round_publish(round=round)
    if was_published:
        messages.info(request, f"{round.label} was already published.")
    else:
        messages.success(request, f"{round.label} published: players see their tables.")
    return _back(event, number)


@event_staff_required("run")
def round_staff(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round = _round(event, number)
    tables = selectors.round_tables(round)
    reports = selectors_reports.round_reports(event=event, tables=tables)
    context = {
        "event": event,
        "round": round,
        "tables": tables,
        "rows": [(t, reports.get(t.table.pk)) for t in tables],
        "open_tables": selectors_reports.open_tables(
            [t.table for t in tables], reported={pk: r.needs_judge for pk, r in reports.items()}
        ),
        "done": sum(1 for t in tables if t.table.has_result),
        "can_manage": can(request.user, event, "manage"),
        "seats": [s for t in tables for s in t.seats],
        "later_rounds": list(Round.objects.filter(event=event, number__gt=round.number).order_by("number")),
        # Published and no clock yet: the page offers to start it (the judges' board has it too).
        "clock_started": round.published and hasattr(round, "clock"),
        # 9.040: leaving a game is leaving the event or conceding only this game; the page asks which.
        "left_in_event": [
            (t.table, s) for t in tables for s in t.seats if s.left_game and s.registration.dropped_at is None
        ],
    }
    if request.htmx and request.htmx.target == "round-tables":
        return render(request, "tournaments/_round_tables_staff.html", context)
    return render(request, "tournaments/round_staff.html", context)


def _round_action(request: HttpRequest, event: Event, number: int, action, done: str) -> HttpResponse:
    """``done`` names the round as "{round}": "Round 3", "Semi-finals", "Final"."""
    round = _round(event, number)
    try:
        action(round=round)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(event, number)
    messages.success(request, done.format(round=round.label))
    if Round.objects.filter(pk=round.pk).exists():
        return _back(event, number)
    return _back(event)


@require_POST
@event_staff_required("run")
def round_repair(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round = _round(event, number)
    # The draw the page showed: a second click (or another organizer's) finds the round already drawn again.
    replaces = posted_id(request.POST.get("attempt"))
    try:
        rounds.round_repair(round=round, replaces=replaces)
    except AlreadyDone as exc:
        messages.info(request, exc.message)
        return _back(event, number)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(event, number)
    done = f"{round.label} paired again."
    if round.published:
        done += " It is a draft again: players no longer see it until you publish it."
    messages.success(request, done)
    return _back(event, number)


@require_POST
@event_staff_required("run")
def round_undo(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, rounds.round_undo, "{round} removed.")


@require_POST
@event_staff_required("run")
def round_close(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, rounds.round_close, "{round} closed; standings updated.")


@require_POST
@event_staff_required("run")
def round_reopen(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_action(request, event, number, rounds.round_reopen, "{round} reopened for corrections.")


@require_POST
@event_staff_required("run")
def seats_swap(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round = _round(event, number)
    picked = [posted_id(request.POST.get(name)) for name in ("first", "second")]
    seats = {s.pk: s for s in Seat.objects.filter(round=round, pk__in=[p for p in picked if p is not None])}
    if len(seats) != 2:
        messages.error(request, "Choose two different players of this round to swap.")
        return _back(event, number)
    try:
        warnings = rounds.seats_swap(
            round=round, first=seats[int(picked[0])], second=seats[int(picked[1])], user=request.user
        )
    except ActionError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Players swapped.")
        for warning in warnings:
            messages.warning(request, warning)
    return _back(event, number)


@require_POST
@event_staff_required("run")
def playoffs_start(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        round = rounds.playoffs_start(event=event, publish="publish" in request.POST)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(event)
    shown = "published" if round.published else "a draft only staff see until you publish it"
    messages.success(
        request, f"{round.label} seated ({shown}); turn order follows the Swiss standings (9.100)."
    )
    return _back(event, round.number)


@require_POST
@event_staff_required("run")
def final_start(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        round = rounds.final_start(event=event, publish="publish" in request.POST)
    except ActionError as exc:
        messages.error(request, exc.message)
        return _back(event)
    if round.published:
        messages.success(request, "The final is seated and published.")
    else:
        messages.success(request, "The final is seated as a draft: only staff see it until you publish it.")
    return _back(event, round.number)


def _seat_forms(
    seats: list[Seat], data=None, *, initial_from: list[Seat] | None = None
) -> list[SeatResultForm]:
    source = {s.pk: s for s in (initial_from or seats)}
    return [SeatResultForm(data, seat=s, initial=initial_for(source[s.pk])) for s in seats]


def _report_forms(seats: list[Seat], entries: list[results.SeatEntry]) -> list[SeatResultForm]:
    """The judge's form started from an open report: settling a dispute is fixing one number."""
    by_seat = {e.seat_id: e for e in entries}
    return [
        SeatResultForm(
            seat=s,
            initial={
                "vp": by_seat[s.pk].vp,
                "super_villains": by_seat[s.pk].super_villains,
                "main_character": by_seat[s.pk].main_character,
                "left_game": by_seat[s.pk].left_game,
                "outright_win": by_seat[s.pk].outright_win,
                "refused_to_sign": by_seat[s.pk].refused_to_sign,
            },
        )
        for s in seats
    ]


def _ask_report_answer(context: dict, table: Table, seats: list[Seat], state) -> None:
    """When the report answered the tie question (12.050), put it on the page with the report's answer."""
    answer = reports.report_answer(state.report)
    if not answer:
        return
    try:
        results.slip_outcome(table=table, seats=seats, entries=reports.report_entries(state.report, seats))
    except results.NeedsRecentSuperVillain as exc:
        ask(context, exc, {f"recent_{reg}": n for reg, n in answer.items()})
        context["question_from_report"] = True
    except ActionError:
        pass


@event_staff_required("run")
def table_result(request: HttpRequest, event: Event, number: int, table: int) -> HttpResponse:
    """Enter or correct one table's match slip."""
    round = _round(event, number)
    table_obj = get_object_or_404(
        Table.objects.select_related("round", "result_entered_by"), round=round, number=table
    )
    seats = list(Seat.objects.filter(table=table_obj).select_related("registration__player").order_by("seat"))
    forms = _seat_forms(seats, request.POST or None)
    back = safe_next(request)
    context = {
        "event": event,
        "round": round,
        "table": table_obj,
        "version": table_obj.version,
        "question": None,
        "next": back,
    }
    if request.method == "POST" and "override" not in request.POST:
        if all(f.is_valid() for f in forms):
            entries = slip_entries(forms)
            try:
                results.result_enter(
                    table=table_obj,
                    entries=entries,
                    expected_version=posted_version(request.POST.get("version")),
                    user=request.user,
                    recent_super_villain=tie_answer(request.POST, seats),
                    reason=request.POST.get("reason", ""),
                )
            except results.ResultConflict as exc:
                messages.error(request, exc.message)
                # The form keeps what this judge typed; the box shows what the other one saved, and
                # the form now carries the current version, so saving again keeps this judge's values.
                context["version"] = exc.table.version
                context["conflict"] = exc.seats
            except results.NeedsRecentSuperVillain as exc:
                ask(context, exc, request.POST)
            except ActionError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"Table {table_obj.number} saved.")
                if round.closed and (warning := _paired_before_correction(round)):
                    messages.warning(request, warning)
                return redirect(back or reverse("tournaments:round_staff", args=[event.slug, number]))
    elif request.method == "POST":
        return _override(request, event, round, table_obj, seats)
    report = selectors_reports.table_report(table=table_obj, seats=seats)
    if request.method != "POST":
        forms = _seat_forms(seats)
        if report is not None and not table_obj.has_result:
            forms = _report_forms(seats, reports.report_entries(report.report, seats))
            _ask_report_answer(context, table_obj, seats, report)
    context["report"] = report
    changes = list(ResultChange.objects.filter(table=table_obj).select_related("user")[:20])
    context.update(
        {
            "rows": list(zip(seats, forms, strict=True)),
            "override_form": OverrideForm(seats=seats),
            "changes": changes,
        }
    )
    return render(request, "tournaments/table_result.html", context)


def _paired_before_correction(round: Round) -> str:
    """What a correction to a closed round leaves behind: later rounds were paired (or the play-offs
    seated) from the standings before it, and keep their tables."""
    later = list(Round.objects.filter(event=round.event, number__gt=round.number).order_by("number"))
    if not later:
        return ""
    nxt = later[0]
    if (
        len(later) == 1
        and nxt.kind == Round.Kind.SWISS
        and not nxt.tables.filter(result_entered_at__isnull=False).exists()
    ):
        return (
            f"{nxt.label} was paired from the standings before this correction. Use “Pair again” on {nxt.label} "
            "if its tables should follow the corrected standings."
        )
    labels = ", ".join(r.label for r in later)
    return (
        f"{labels} {'was' if len(later) == 1 else 'were'} paired from the standings before this correction "
        "and keep their tables; the standings now include it."
    )


def ask(context: dict, question: results.NeedsRecentSuperVillain, data) -> None:
    """Put the 12.050 question on the page, with any numbers already typed (and why an answer was refused)."""
    context["question"] = [
        [(p, question.names[p], data.get(f"recent_{p}", "")) for p in group] for group in question.groups
    ]
    context["question_text"] = question.prompt
    context["question_error"] = question.refusal


def tie_answer(data, seats: list[Seat]) -> dict[int, int] | None:
    """The typed answer to "who defeated a Super-Villain most recently?": a number per tied player."""
    numbers = {s.registration_id: posted_id(data.get(f"recent_{s.registration_id}")) for s in seats}
    return {reg: n for reg, n in numbers.items() if n is not None} or None


def _override(
    request: HttpRequest, event: Event, round: Round, table: Table, seats: list[Seat]
) -> HttpResponse:
    form = OverrideForm(request.POST, seats=seats)
    try:
        version = posted_version(request.POST.get("version"))
        if request.POST.get("override") == "clear":
            results.result_clear_override(table=table, expected_version=version, user=request.user)
            messages.success(request, "Override removed; placement follows the slip again.")
        elif form.is_valid() and len(form.cleaned_data["order"]) == len(seats):
            results.result_override(
                table=table,
                order=form.cleaned_data["order"],
                reason=form.cleaned_data["reason"],
                expected_version=version,
                user=request.user,
            )
            messages.success(request, "Placement overridden.")
        else:
            messages.error(request, "Give every place a different player and a reason.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:table_result", slug=event.slug, number=round.number, table=table.number)
