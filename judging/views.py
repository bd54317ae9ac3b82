"""Judging pages: the round clock, the judge view, table pages with time calls, penalties.

Views stay thin: parse the request, call a service or a selector, render. A service's
``ActionError`` becomes a message on the page and the data is left as it was.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_tables2.export import TableExport

from tournaments.errors import ActionError
from tournaments.http import export_format, posted_id, safe_next
from tournaments.models import Event, Player, Registration, Round, Table
from tournaments.permissions import can, event_staff_required
from tournaments.selectors import current_public_round

from . import selectors, services
from . import time_call as time_calls
from .forms import (
    AnnouncementForm,
    CalculatorForm,
    ExtendForm,
    PauseForm,
    PenaltyChangeForm,
    PenaltyForm,
    PolicyForm,
    TimeCallForm,
    VoidForm,
)
from .models import Penalty
from .tables import BoardTable, PenaltyTable

# --- Index and calculator -------------------------------------------------------------------


def index(request: HttpRequest) -> HttpResponse:
    events = []
    if request.user.is_authenticated:
        events = list(
            Event.objects.filter(staff__user=request.user)
            .exclude(status=Event.Status.FINISHED)
            .order_by("date")
        )
    return render(request, "judging/index.html", {"events": events})


def calculator(request: HttpRequest) -> HttpResponse:
    """Players at the table and whose turn it is → the extra turns. Works without logging in."""
    form = CalculatorForm(request.GET or None)
    result = None
    if form.is_valid():
        players, active = form.cleaned_data["players"], form.cleaned_data["active_seat"]
        try:
            call = time_calls.time_call(players, active)
        except time_calls.TimeCallError as exc:
            form.add_error(None, str(exc))
        else:
            result = {"turns": call.extra_turns, "order": [active, *call.turns], "sentence": call.sentence}
    template = "judging/_calculator_result.html" if request.htmx else "judging/calculator.html"
    return render(request, template, {"form": form, "result": result})


# --- The round clock ---------------------------------------------------------------------


def _round(event: Event, number: int | None) -> Round:
    round = selectors.staff_round(event=event, number=number)
    if round is None:
        raise Http404("No round has been paired yet.")
    return round


# The wall screen asks for what changed every POLL_SECONDS, and shows the next page of its list every
# PAGE_SECONDS (``?page_seconds=`` for a quicker room, and for the tests).
PROJECTOR_POLL_SECONDS = 15
PROJECTOR_PAGE_SECONDS = 12


def projector(request: HttpRequest, slug: str) -> HttpResponse:
    """The room's wall screen, full screen: the clock and the pairings by name, the standings between
    rounds, the final ranking after the event, and the staff's announcement. Public, like the pairings on
    the wall."""
    event = get_object_or_404(Event, slug=slug)
    # The room's screen shows what the room may see, even when a staff account opened it: never a draft.
    screen = selectors.projector_screen(event=event)
    if request.htmx and request.GET.get("screen", screen.key) != screen.key:
        # A new round, the standings or the end of the event: another layout, so the page loads again whole.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    page_seconds = posted_id(request.GET.get("page_seconds")) or PROJECTOR_PAGE_SECONDS
    context = {
        "event": event,
        "screen": screen,
        "round": screen.round,
        "clock": screen.clock,
        "poll_seconds": PROJECTOR_POLL_SECONDS,
        "page_seconds": min(max(page_seconds, 1), 120),
    }
    return render(request, "judging/projector.html", context)


@event_staff_required("run")
def announcement(request: HttpRequest, event: Event) -> HttpResponse:
    """The announcement line on the wall screen; the judges' board and the staff's rounds page post here."""
    form = AnnouncementForm(request.POST or None, initial={"announcement": event.announcement})
    if form.is_bound and form.is_valid():
        try:
            text = services.announcement_set(event=event, text=form.cleaned_data["announcement"])
        except ActionError as exc:
            form.add_error("announcement", exc.message)
        else:
            messages.success(
                request, "The wall screen shows the announcement." if text else "No announcement."
            )
            return redirect(safe_next(request, reverse("judging:board", kwargs={"slug": event.slug})))
    context = {"event": event, "form": form, "next": safe_next(request)}
    return render(request, "judging/announcement.html", context, status=400 if form.is_bound else 200)


def clock_json(request: HttpRequest, slug: str) -> JsonResponse:
    """The server's clock for the pages' countdown script; they re-sync with it every few seconds."""
    event = get_object_or_404(Event, slug=slug)
    # The judges' board (?staff=1) follows the latest round, draft or not; every other page the latest
    # published one, so a draft never reaches the room's screen or a player's phone.
    staff = request.GET.get("staff") == "1" and can(request.user, event, "run")
    round = selectors.staff_round(event=event) if staff else current_public_round(event)
    if round is None:
        return JsonResponse({"round": None})
    data = selectors.round_clock(round=round).as_json()
    table_number = posted_id(request.GET.get("table"))
    if table_number is not None:
        table = Table.objects.filter(round=round, number=table_number).select_related("round__event").first()
        if table is not None:
            state = selectors.table_clock(table=table)
            data.update(remaining=state.remaining, text=state.remaining_text, status=state.status)
    response = JsonResponse(data)
    response["Cache-Control"] = "no-store"
    return response


@event_staff_required("run")
def board(request: HttpRequest, event: Event, number: int | None = None) -> HttpResponse:
    """The judge view: clock controls and every table by status."""
    round = selectors.staff_round(event=event, number=number)
    context = {
        "event": event,
        "round": round,
        "can_manage": can(request.user, event, "manage"),
        "announcement_form": AnnouncementForm(initial={"announcement": event.announcement}),
    }
    if round is not None:
        state, tables = selectors.round_board(round=round)
        ordered = selectors.sort_by_status(tables)
        context.update(
            clock=state,
            board=BoardTable(ordered, event=event, round=round),
            extra_turns=[t for t in ordered if t.status == selectors.EXTRA_TURNS],
            counts=[
                (key, selectors.STATUS_LABELS[key], n)
                for key in selectors.STATUS_ORDER
                if (n := sum(1 for t in tables if t.status == key))
            ],
            open_tables=selectors.board_open_tables(tables),
            pause_form=PauseForm(),
        )
    if request.htmx and request.htmx.target == "board-live":
        return render(request, "judging/_board.html", context)
    return render(request, "judging/board.html", context)


@require_POST
@event_staff_required("run")
def clock_action(request: HttpRequest, event: Event) -> HttpResponse:
    round = _round(event, None)
    action = request.POST.get("action")
    try:
        if action == "start":
            services.clock_start(round=round, user=request.user)
            messages.success(request, f"{round.label}: the clock is running.")
        elif action == "pause":
            services.clock_pause(round=round, user=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, "The clock is paused.")
        elif action == "resume":
            services.clock_resume(round=round, user=request.user)
            messages.success(request, "The clock is running again.")
        else:
            messages.error(request, "Unknown clock action.")
    except ActionError as exc:
        messages.error(request, exc.message)
    return redirect("judging:board", slug=event.slug)


def _table(event: Event, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event"), round__event=event, round__number=number, number=table
    )


@require_POST
@event_staff_required("run")
def table_extend(request: HttpRequest, event: Event, number: int, table: int) -> HttpResponse:
    table_obj = _table(event, number, table)
    form = ExtendForm(request.POST)
    if form.is_valid():
        try:
            services.table_extend(table=table_obj, user=request.user, **form.cleaned_data)
            messages.success(request, f"Table {table}: +{form.cleaned_data['minutes']} min.")
        except ActionError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, "Give the minutes (1–60) and a reason.")
    return redirect(safe_next(request, reverse("judging:board", kwargs={"slug": event.slug})))


# --- A table's page: its clock, the time call and the extra turns --------------------------


def _may_act_at_table(request: HttpRequest, event: Event, state) -> bool:
    """Staff of the event, or a player seated at this table (through their account)."""
    user = request.user
    if not user.is_authenticated:
        return False
    if can(user, event, "run"):
        return True
    return any(s.registration.player.user_id == user.pk for s in state.seats)


def _published_table(request: HttpRequest, event: Event, number: int, table: int) -> Table:
    """A table of a published round; a draft's tables are for the event's staff only (404 for others)."""
    table_obj = _table(event, number, table)
    if not table_obj.round.published and not can(request.user, event, "run"):
        raise Http404("This round is not published yet.")
    return table_obj


def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    table_obj = _published_table(request, event, number, table)
    state = selectors.table_clock(table=table_obj)
    is_staff = can(request.user, event, "run") if request.user.is_authenticated else False
    context = {
        "event": event,
        "round": table_obj.round,
        "state": state,
        "clock_state": selectors.round_clock(round=table_obj.round),
        "may_act": _may_act_at_table(request, event, state),
        "is_staff": is_staff,
        "form": TimeCallForm(seats=state.seats, call=state.time_call),
        "extend_form": ExtendForm(),
    }
    if request.htmx and request.htmx.target == "time-call":
        return render(request, "judging/_time_call.html", context)
    return render(request, "judging/table.html", context)


@require_POST
def time_call(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    table_obj = _published_table(request, event, number, table)
    state = selectors.table_clock(table=table_obj)
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    if not _may_act_at_table(request, event, state):
        raise PermissionDenied("Only the event's judges and the players at this table can call time here.")
    form = TimeCallForm(request.POST, seats=state.seats)
    if form.is_valid():
        try:
            services.time_call_record(
                table=table_obj,
                user=request.user,
                active_seat=form.cleaned_data["active_seat"],
                seats_left=form.cleaned_data["seats_left"],
                # A judge may correct a recorded call; a player records it once.
                correcting=bool(request.POST.get("correct")) and can(request.user, event, "run"),
            )
        except ActionError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, "Choose whose turn it is.")
    return redirect("judging:table", slug=slug, number=number, table=table)


@require_POST
def turns_done(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    table_obj = _published_table(request, event, number, table)
    state = selectors.table_clock(table=table_obj)
    if not _may_act_at_table(request, event, state):
        raise PermissionDenied("Only the event's judges and the players at this table can tick off turns.")
    try:
        services.time_call_set_done(table=table_obj, turns_done=int(request.POST.get("done", "-1")))
    except (ActionError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", "Which turn is over?"))
    if request.htmx:
        state = selectors.table_clock(table=table_obj)
        context = {
            "event": event,
            "round": table_obj.round,
            "state": state,
            "may_act": True,
            "is_staff": can(request.user, event, "run") if request.user.is_authenticated else False,
        }
        return render(request, "judging/_sequence.html", context)
    return redirect("judging:table", slug=slug, number=number, table=table)


# --- Penalties ------------------------------------------------------------------------------


def _advice_for(event: Event, registration: Registration | None, infraction) -> object | None:
    if registration is None:
        return None
    return selectors.registration_advice(
        event=event, registration=registration, adding=infraction.rule if infraction else None
    )


@event_staff_required("run")
def penalty_new(request: HttpRequest, event: Event) -> HttpResponse:
    may_disqualify = can(request.user, event, "disqualify")
    catalogue = selectors.event_catalogue(event=event)
    form = PenaltyForm(request.POST or None, event=event, may_disqualify=may_disqualify)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            penalty = services.penalty_record(
                event=event,
                user=request.user,
                infraction=data["infraction"],
                type=data["type"],
                registration=data["registration"],
                spectator_name=data["spectator_name"],
                round=data["round"],
                description=data["description"],
                submission=data["submission"],
            )
        except services.PenaltyAlreadyRecorded as exc:
            messages.info(request, exc.message)
            return redirect("judging:penalty", slug=event.slug, pk=exc.penalty.pk)
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            where = f" (table {penalty.table.number})" if penalty.table_id else ""
            messages.success(
                request, f"{penalty.get_type_display()} for {penalty.who}{where}: {penalty.infraction}."
            )
            return redirect(safe_next(request, reverse("judging:penalty_new", kwargs={"slug": event.slug})))
    # A refused form shows the same player picker again: the table or name the judge used, and the
    # player they chose.
    table_number = (request.POST.get("table") if form.is_bound else "") or request.GET.get("table") or ""
    query = request.POST.get("q", "").strip() if form.is_bound else ""
    choices = []
    if posted_id(table_number) is not None:
        choices = selectors.player_choices(event=event, table_number=posted_id(table_number))
    elif query:
        choices = selectors.player_choices(event=event, query=query)
    selected = form.data.get("registration") if form.is_bound else None
    if selected and not any(str(c.registration.pk) == selected for c in choices):
        registration = (
            Registration.objects.filter(event=event, pk=posted_id(selected)).select_related("player").first()
        )
        if registration:
            choices.insert(0, selectors.PlayerChoice(registration, None, None))
    round = selectors.staff_round(event=event)
    if not form.is_bound:
        first = catalogue[0] if catalogue else None
        form.initial = {"round": round, "infraction": first.infraction if first else None}
        form.initial["type"] = first.default if first else "warning"
    context = {
        "event": event,
        "form": form,
        "catalogue": catalogue,
        "choices": choices,
        "selected": str(selected or ""),
        "round": round,
        "table_number": table_number,
        "query": query,
        "tables": list(round.tables.order_by("number").values_list("number", flat=True)) if round else [],
        "next": safe_next(request),
    }
    return render(request, "judging/penalty_new.html", context)


@event_staff_required("run")
def penalty_players(request: HttpRequest, event: Event) -> HttpResponse:
    """The player picker: by name, or everyone at one table of the current round."""
    table_number = request.GET.get("table", "")
    query = request.GET.get("q", "").strip()
    number = posted_id(table_number)
    choices = selectors.player_choices(event=event, query=query, table_number=number)
    context = {"choices": choices, "selected": "", "query": "" if number is not None else query}
    return render(request, "judging/_player_choices.html", context)


@event_staff_required("run")
def penalty_advice(request: HttpRequest, event: Event) -> HttpResponse:
    """Earlier penalties of the chosen player in this event, and the flags for the chosen infraction."""
    reg_id = posted_id(request.GET.get("registration"))
    registration = None
    if reg_id is not None:
        registration = Registration.objects.filter(event=event, pk=reg_id).select_related("player").first()
    infraction_id = posted_id(request.GET.get("infraction"))
    infraction = None
    if infraction_id is not None:
        infraction = next(
            (
                line.infraction
                for line in selectors.event_catalogue(event=event)
                if line.infraction.pk == infraction_id
            ),
            None,
        )
    advice = _advice_for(event, registration, infraction)
    return render(
        request, "judging/_advice.html", {"advice": advice, "registration": registration, "event": event}
    )


@event_staff_required("run")
def penalties(request: HttpRequest, event: Event) -> HttpResponse:
    """Every penalty of the event, and the head judge's dashboard of flags."""
    table = PenaltyTable(selectors.event_penalties(event=event), event=event)
    if wanted := export_format(request):
        return TableExport(wanted, table).response(f"{event.slug}-penalties.{wanted}")
    context = {
        "event": event,
        "table": table,
        "dashboard": selectors.dashboard(event=event),
        "can_manage": can(request.user, event, "manage"),
    }
    return render(request, "judging/penalties.html", context)


@event_staff_required("run")
def penalty_detail(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    penalty = get_object_or_404(
        Penalty.objects.select_related(
            "registration__player", "infraction", "round", "table", "seat__table", "recorded_by"
        ),
        event=event,
        pk=pk,
    )
    change_form = PenaltyChangeForm(
        initial={"infraction": penalty.infraction, "description": penalty.description}
    )
    void_form = VoidForm()
    if request.method == "POST":
        try:
            if request.POST.get("action") == "void":
                void_form = VoidForm(request.POST)
                if void_form.is_valid():
                    services.penalty_void(
                        penalty=penalty, user=request.user, reason=void_form.cleaned_data["reason"]
                    )
                    messages.success(request, "The penalty is void; its effect is lifted.")
                    return redirect("judging:penalty", slug=event.slug, pk=pk)
            else:
                change_form = PenaltyChangeForm(request.POST)
                if change_form.is_valid():
                    if services.penalty_change(
                        penalty=penalty, user=request.user, **change_form.cleaned_data
                    ):
                        messages.success(request, "The penalty is changed.")
                    else:
                        messages.info(request, "Nothing to change: the penalty already says that.")
                    return redirect("judging:penalty", slug=event.slug, pk=pk)
        except ActionError as exc:
            messages.error(request, exc.message)
    context = {
        "event": event,
        "penalty": penalty,
        "log": penalty.log.select_related("user"),
        "change_form": change_form,
        "void_form": void_form,
        "may_void": penalty.type != "disqualification" or can(request.user, event, "disqualify"),
    }
    return render(request, "judging/penalty_detail.html", context)


@event_staff_required("run")
def player_history(request: HttpRequest, event: Event, player: int) -> HttpResponse:
    """A player's penalties at every event, for this event's staff (the player must be entered here)."""
    player_obj = get_object_or_404(Player, pk=player, registrations__event=event)
    history = selectors.player_penalties(player=player_obj)
    return render(
        request, "judging/player_history.html", {"event": event, "player": player_obj, "history": history}
    )


@event_staff_required("manage")
def policy(request: HttpRequest, event: Event) -> HttpResponse:
    """The organizer's default penalty per infraction and escalation thresholds for this event."""
    catalogue = selectors.event_catalogue(event=event)
    current = selectors.policy(event)
    form = PolicyForm(
        request.POST or None,
        catalogue=catalogue,
        initial={"upgrade_at": current.upgrade_at, "review_at": current.review_at},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.policy_save(
                event=event,
                defaults=form.defaults(),
                upgrade_at=form.cleaned_data["upgrade_at"],
                review_at=form.cleaned_data["review_at"],
            )
        except ActionError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Penalty settings saved.")
            return redirect("judging:penalties", slug=event.slug)
    return render(request, "judging/policy.html", {"event": event, "form": form})


def public_penalties(request: HttpRequest, slug: str) -> HttpResponse:
    """Penalties for everyone, only once the organizer publishes them; void ones are left out."""
    event = get_object_or_404(Event, slug=slug)
    if not event.publish_penalties:
        raise Http404("This event does not publish its penalties.")
    penalties = selectors.event_penalties(event=event, include_void=False)
    return render(request, "judging/public_penalties.html", {"event": event, "penalties": penalties})


@login_required
def my_penalties(request: HttpRequest) -> HttpResponse:
    """A player's own penalties, through the account linked to their player record."""
    penalties = selectors.user_penalties(user=request.user)
    return render(request, "judging/my_penalties.html", {"penalties": penalties})
