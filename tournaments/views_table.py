"""The players' side of a round: their table's page (the printed slip's QR code opens it), where they
report the match slip and the others confirm it (12.070-12.080), and dropping from their own page (9.030).

Views parse, call a service, render. A refusal (``ActionError``) is said on the page, and the form keeps
what was typed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from judging import selectors as judging_selectors

from . import selectors_table
from .errors import ActionError
from .forms_report import (
    DisputeForm,
    initial_from_report,
    report_entries,
    report_forms,
    tie_answer,
    tie_steps,
)
from .http import posted_id
from .models import Event, Registration, Seat, SlipReport, Table
from .permissions import can
from .services import reports, results
from .services.self_drop import registration_self_drop, self_drop_refusal

POLL_SECONDS = 10


def _table(event: Event, number: int, table: int, user) -> Table:
    """The table, 404 while its round is a draft (staff aside)."""
    table_obj = get_object_or_404(
        Table.objects.select_related("round__event", "result_entered_by"),
        round__event=event,
        round__number=number,
        number=table,
    )
    if not table_obj.round.published and not can(user, event, "run"):
        raise Http404("This round is not published yet.")
    return table_obj


def _public_names(seats) -> dict[str, str]:
    return {str(s.registration_id): s.registration.player.public_name for s in seats}


def _tie_groups(table: Table, seats, entries) -> tuple[tuple[str, ...], ...]:
    """The ties the engine would ask about for this slip (nothing is saved); () when there is none, or
    when the slip is refused (the service says why)."""
    try:
        results.slip_outcome(table=table, seats=seats, entries=entries)
    except results.NeedsRecentSuperVillain as exc:
        return exc.groups
    except ActionError:
        return ()
    return ()


def table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    table_obj = _table(event, number, table, request.user)
    page = selectors_table.table_page(table=table_obj, user=request.user)
    is_staff = can(request.user, event, "run")
    context = {"page": page, "is_staff": is_staff, "forms": None, "steps": None, "typed": None}
    if request.method == "POST":
        if page.mine is None:
            moved = (
                Seat.objects.filter(round=page.round, registration__player__user=request.user)
                .select_related("table")
                .first()
            )
            if moved is not None:
                # The seating changed after this page was opened (a swap): send them to where they sit now.
                messages.warning(
                    request,
                    f"You now sit at table {moved.table.number}: the seating changed. Nothing was sent.",
                )
                return redirect("tournaments:table", slug=event.slug, number=number, table=moved.table.number)
            raise PermissionDenied("Only the players at this table report and confirm its slip.")
        action = request.POST.get("action")
        if action == "report":
            response = _report(request, page, context)
        elif action in ("confirm", "dispute"):
            response = _sign(request, page, context, action)
        else:
            messages.error(request, "Choose what to do: report, confirm or dispute the slip.")
            response = None
        if response is not None:
            return response
        # Refused: the page again with what was typed, and the slip as it stands now.
        page = selectors_table.table_page(table=table_obj, user=request.user)
        context["page"] = page
        if context["forms"] and page.step != selectors_table.REPORT and not context["typed"]:
            # The slip can no longer be sent from here (reporting turned off, a judge's entry, the close):
            # what was typed stays on the page, to hand to a judge.
            context["typed"] = [(f.seat, f) for f in context["forms"]]
            context["forms"] = None
    return _render(request, context)


def _render(request: HttpRequest, context: dict) -> HttpResponse:
    page = context["page"]
    if context["forms"] is None and page.mine is not None and page.step == selectors_table.REPORT:
        context["forms"] = report_forms(page.seats)
    if context.get("change_forms") is None and page.may_change_report:
        context["change_forms"] = report_forms(
            page.seats, initial=initial_from_report(page.report.report.entries)
        )
    context.setdefault("dispute_form", DisputeForm())
    live = page.step not in (selectors_table.RESULT, selectors_table.CLOSED)
    if live:
        context["state"] = judging_selectors.table_clock(table=page.table)
        context["clock"] = judging_selectors.round_clock(round=page.round)
    context.update(
        event=page.event,
        round=page.round,
        live=live,
        poll_seconds=POLL_SECONDS,
        may_act=page.mine is not None or context["is_staff"],
        result_seats=sorted(page.seats, key=lambda s: (s.placement or 99, s.seat))
        if page.table.has_result
        else [],
    )
    return render(request, "tournaments/table.html", context)


def _back(page: selectors_table.TablePage) -> HttpResponse:
    return redirect(
        "tournaments:table", slug=page.event.slug, number=page.round.number, table=page.table.number
    )


def _report(request: HttpRequest, page: selectors_table.TablePage, context: dict) -> HttpResponse | None:
    forms = report_forms(page.seats, request.POST)
    changing = request.POST.get("changing") == "1"
    context["change_forms" if changing else "forms"] = forms
    if not all(f.is_valid() for f in forms):
        messages.error(request, "Check the slip: the lines in red need fixing.")
        return None
    entries = report_entries(forms)
    groups = _tie_groups(page.table, page.seats, entries)
    answer = None
    if groups:
        steps = tie_steps(request.POST, groups, _public_names(page.seats))
        answer = tie_answer(steps, groups)
        if answer is None:
            context["steps"] = steps
            messages.warning(
                request, "Not sent yet: answer the tie question below the slip (12.050), then send it."
            )
            return None
    try:
        reports.report_submit(
            table=page.table,
            registration=page.mine.registration,
            user=request.user,
            entries=entries,
            recent_super_villain=answer,
        )
    except results.NeedsRecentSuperVillain as exc:
        context["steps"] = tie_steps(None, exc.groups, _public_names(page.seats))
        messages.error(request, exc.refusal or "Answer the tie question, then send the slip.")
        return None
    except reports.AlreadyReported as exc:
        messages.warning(request, exc.message)
        context["typed"] = list(zip(page.seats, forms, strict=True))
        context["forms"] = None
        return None
    except ActionError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(
        request,
        "Slip changed: the others confirm it again."
        if changing
        else "Slip reported: the others confirm it now.",
    )
    return _back(page)


def _sign(
    request: HttpRequest, page: selectors_table.TablePage, context: dict, action: str
) -> HttpResponse | None:
    report = SlipReport.objects.filter(
        table=page.table, pk=posted_id(request.POST.get("report")) or 0
    ).first()
    if report is None:
        messages.error(request, "That report is no longer there: here is the slip as it stands now.")
        return None
    try:
        if action == "confirm":
            report = reports.report_confirm(
                report=report, registration=page.mine.registration, user=request.user
            )
            if report.status == SlipReport.Status.ACCEPTED:
                messages.success(request, "Everyone has confirmed: the result is in.")
            else:
                messages.success(request, "You signed the slip (12.080).")
        else:
            form = DisputeForm(request.POST)
            context["dispute_form"] = form
            if not form.is_valid():
                messages.error(request, "Say what is wrong with the slip.")
                return None
            reports.report_dispute(
                report=report,
                registration=page.mine.registration,
                user=request.user,
                reason=form.cleaned_data["reason"],
            )
            messages.warning(request, "Slip disputed: a judge is coming to your table.")
    except ActionError as exc:
        messages.error(request, exc.message)
        return None
    return _back(page)


# --- Dropping from the player's own page (9.030) ---------------------------------------------------


def drop(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The owner of a registration drops from the event, after a confirmation step."""
    event = get_object_or_404(Event, slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    registration = get_object_or_404(
        Registration.objects.select_related("player", "event"), event=event, pk=pk
    )
    if registration.player.user_id != request.user.pk:
        raise PermissionDenied("Only the player drops themselves; staff drop players from the desk.")
    player_url = reverse("tournaments:player", kwargs={"slug": event.slug, "pk": registration.pk})
    refusal = ""
    if request.method == "POST" and request.POST.get("confirm") == "1":
        try:
            registration_self_drop(registration=registration, user=request.user)
        except ActionError as exc:
            refusal = exc.message
        else:
            messages.success(request, f"You dropped from {event.name} (9.030). Your results so far stay.")
            return redirect(player_url)
    refusal = refusal or self_drop_refusal(registration)
    return render(
        request,
        "tournaments/drop.html",
        {"event": event, "registration": registration, "refusal": refusal, "player_url": player_url},
    )
