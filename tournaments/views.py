"""Registration-phase pages: events, players, check-in, drops, staff.

Views stay thin: they parse the request, call a service, and render. A service's
``ActionError`` becomes a message on the page; the data is left as it was.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST
from django_tables2.export import TableExport

from accounts.permissions import can_create_events
from accounts.views import organizer_needed

from . import public_etags, services, time_zones
from .errors import ActionError
from .forms import DropForm, EventForm, PlayerAddForm, RosterForm, StaffForm
from .http import export_format, posted_id, safe_next
from .http_cache import public_page
from .models import Event, EventStaff, Registration, Round
from .permissions import can, event_staff_required, role_for
from .selectors import waitlist_positions
from .tables import RegistrationTable, configure_pages
from .views_entries import entry_context
from .views_invitations import staff_page
from .views_public import event_home


@public_page(public_etags.event_list)
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.annotate(
        players=Count(
            "registrations",
            filter=Q(registrations__dropped_at__isnull=True, registrations__waitlisted_at__isnull=True),
        )
    ).order_by("-date", "name")
    mine = set()
    if request.user.is_authenticated:
        mine = set(EventStaff.objects.filter(user=request.user).values_list("event_id", flat=True))
    return render(request, "tournaments/event_list.html", {"events": events, "mine": mine})


@public_page(public_etags.event_page)
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return event_page(request, get_object_or_404(Event, slug=slug))


def event_page(request: HttpRequest, event: Event, *, entry_form=None, status: int = 200) -> HttpResponse:
    """The public event page; while registration runs, with the registration card (views_entries)."""
    active = (
        Registration.objects.filter(event=event)
        .entered()
        .select_related("player")
        .order_by("player__sort_name")
    )
    context = {"event": event, "active": active, "role": role_for(request.user, event)}
    if event.in_registration:
        context.update(entry_context(request, event, form=entry_form))
        context["waitlist"] = Registration.objects.filter(event=event).waitlist().select_related("player")
    else:
        context.update(event_home(request, event))
    return render(request, "tournaments/event_detail.html", context, status=status)


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not can_create_events(request.user):
        # Says what is missing (a verified email, or the administrator's approval) and how to get it.
        return organizer_needed(request)
    form = EventForm(request.POST or None, initial={"time_zone": time_zones.default_for(request.user)})
    existing = None
    if request.method == "POST" and form.is_valid():
        try:
            event = services.event_create(user=request.user, **form.event_fields())
        except services.DuplicateEvent as exc:
            form.add_error("name", exc.message)
            existing = exc.event
        else:
            messages.success(request, f"{event.name} created. Add players next.")
            return redirect("tournaments:registrations", slug=event.slug)
    return render(
        request, "tournaments/event_form.html", {"form": form, "creating": True, "existing": existing}
    )


@event_staff_required("manage")
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    form = EventForm(request.POST or None, instance=event)
    saved_now: list[tuple[str, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            services.event_settings_save(
                event=event, fields=form.event_fields(), version=form.cleaned_data["version"]
            )
        except services.SettingsConflict as conflict:
            # Keep everything the organizer typed; show what is saved now where it differs, and take
            # the new version so that saving again (having compared) keeps this form's values.
            saved_now = [form.saved_value(conflict.event, name) for name in conflict.changed]
            data = request.POST.copy()
            data["version"] = conflict.event.settings_version
            form = EventForm(data, instance=event)
            form.add_error(None, conflict.message)
        except ActionError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, "Event settings saved.")
            _after_cap_change(request, event)
            return redirect("tournaments:registrations", slug=event.slug)
    return render(
        request, "tournaments/event_form.html", {"form": form, "event": event, "saved_now": saved_now}
    )


def _after_cap_change(request: HttpRequest, event: Event) -> None:
    """A raised cap gives its new places to the waitlist; a cap below the players with a place
    moves nobody, and says how many are over."""
    promoted = services.waitlist_fill(event=event, user=request.user)
    if promoted:
        names = ", ".join(str(r.player) for r in promoted)
        messages.info(request, f"Promoted from the waitlist into the new places: {names}.")
    event.refresh_from_db()
    if event.player_cap is not None:
        entered = Registration.objects.filter(event=event).entered().count()
        if entered > event.player_cap:
            messages.warning(
                request,
                f"{entered} players already have a place, {entered - event.player_cap} over the cap of "
                f"{event.player_cap}. Nobody was moved to the waitlist; places that come free are not "
                "filled until the event is under the cap.",
            )


@event_staff_required("manage")
def event_delete(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST":
        if request.POST.get("confirm_name", "").strip() != event.name:
            messages.error(request, "Type the event's name exactly to delete it.")
            return render(request, "tournaments/event_delete.html", {"event": event}, status=400)
        try:
            name = services.event_delete(event=event)
        except ActionError as exc:
            messages.error(request, exc.message)
            return render(request, "tournaments/event_delete.html", {"event": event}, status=409)
        messages.success(request, f"{name} was deleted.")
        return redirect("tournaments:event_list")
    return render(request, "tournaments/event_delete.html", {"event": event})


def _registration_table(request: HttpRequest, event: Event) -> RegistrationTable:
    registrations = Registration.objects.filter(event=event).select_related("player", "event")
    query = request.GET.get("q", "").strip()
    if query:
        registrations = registrations.filter(
            Q(player__name__icontains=query) | Q(player__email__icontains=query)
        )
    table = RegistrationTable(registrations, order_by=request.GET.get("sort", "name"))
    table.event = event
    table.waitlist_positions = waitlist_positions(event)
    configure_pages(request, table, per_page=500)
    return table


@event_staff_required("run")
def registrations(request: HttpRequest, event: Event) -> HttpResponse:
    table = _registration_table(request, event)
    if wanted := export_format(request):
        return TableExport(wanted, table).response(f"{event.slug}-registrations.{wanted}")
    counts = _counts(event)
    context = {
        "event": event,
        "table": table,
        "counts": counts,
        "add_form": PlayerAddForm(),
        "query": request.GET.get("q", ""),
        "can_manage": can(request.user, event, "manage"),
    }
    if request.htmx and request.htmx.target == "registration-table":
        response = render(request, "tournaments/_registration_table.html", context)
    else:
        response = render(request, "tournaments/registrations.html", context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))  # Back never shows the table alone
    return response


@event_staff_required("run")
def player_add(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlayerAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            data = dict(form.cleaned_data)
            registration = services.registration_add(event=event, user=data.pop("username"), **data)
        except ActionError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, f"{registration.player} added.")
            return redirect("tournaments:registrations", slug=event.slug)
    return render(request, "tournaments/player_add.html", {"event": event, "form": form})


@event_staff_required("run")
def roster_bulk_add(request: HttpRequest, event: Event) -> HttpResponse:
    """Paste or upload, preview every row, import only on confirmation."""
    form = RosterForm(request.POST or None, request.FILES or None)
    roster = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["text"]
        if "confirm" in request.POST:
            try:
                created = services.roster_import(event=event, text=text)
            except ActionError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"{len(created)} players added.")
                return redirect("tournaments:registrations", slug=event.slug)
        roster = services.roster_preview(event=event, text=text)
        # Show the text (from an upload too) so bad rows can be fixed in place.
        form = RosterForm(initial={"text": text})
    return render(
        request, "tournaments/roster_bulk_add.html", {"event": event, "form": form, "roster": roster}
    )


def _counts(event: Event) -> dict:
    return Registration.objects.filter(event=event).aggregate(
        total=Count("pk"),
        active=Count("pk", filter=Q(dropped_at__isnull=True, waitlisted_at__isnull=True)),
        waitlisted=Count("pk", filter=Q(dropped_at__isnull=True, waitlisted_at__isnull=False)),
        checked_in=Count(
            "pk", filter=Q(dropped_at__isnull=True, waitlisted_at__isnull=True, checked_in=True)
        ),
    )


def _registration(event: Event, pk: int) -> Registration:
    return get_object_or_404(Registration.objects.select_related("player", "event"), event=event, pk=pk)


def _row_or_redirect(request: HttpRequest, event: Event, registration: Registration) -> HttpResponse:
    if request.htmx:
        table = RegistrationTable([registration])
        table.event = event
        table.waitlist_positions = waitlist_positions(event)
        return render(
            request,
            "tournaments/_registration_row.html",
            {"row": table.rows[0], "table": table, "event": event, "counts": _counts(event)},
        )
    return redirect("tournaments:registrations", slug=event.slug)


@require_POST
@event_staff_required("run")
def registration_check_in(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    registration = _registration(event, pk)
    try:
        registration = services.registration_set_checked_in(
            registration=registration, checked_in=request.POST.get("checked_in") == "1"
        )
    except ActionError as exc:
        messages.error(request, exc.message)
    return _row_or_redirect(request, event, registration)


@require_POST
@event_staff_required("run")
def check_in_all(request: HttpRequest, event: Event) -> HttpResponse:
    count = services.registrations_check_in_all(event=event)
    messages.success(request, f"{count} player{'s' if count != 1 else ''} checked in.")
    return redirect("tournaments:registrations", slug=event.slug)


@require_POST
@event_staff_required("run")
def registration_drop(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    form = DropForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    registration = _registration(event, pk)
    after_round = event.rounds.filter(status=Round.Status.CLOSED).count()
    registration = services.registration_drop(
        registration=registration, reason=reason, after_round=after_round
    )
    messages.info(request, f"{registration.player} dropped (9.030).")
    back = safe_next(request)
    if back and not request.htmx:  # dropped from another page (a round's "left a game" box): back there
        return redirect(back)
    return _row_or_redirect(request, event, registration)


@require_POST
@event_staff_required("run")
def registration_undrop(request: HttpRequest, event: Event, pk: int) -> HttpResponse:
    try:
        registration = services.registration_undrop(registration=_registration(event, pk))
    except ActionError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:registrations", slug=event.slug)
    messages.info(request, f"{registration.player} is back in the event.")
    if event.rounds.exclude(kind=Round.Kind.SWISS).exists():
        messages.warning(
            request,
            f"The play-offs were seated while {registration.player} was out, and keep their tables. "
            "To seat them again from the standings, undo the play-off round before any result is in.",
        )
    return _row_or_redirect(request, event, registration)


@require_POST
@event_staff_required("manage")
def self_registration_toggle(request: HttpRequest, event: Event) -> HttpResponse:
    event.self_registration_open = request.POST.get("open") == "1"
    event.save(update_fields=["self_registration_open"])
    messages.success(
        request,
        "Self-registration is open." if event.self_registration_open else "Self-registration is closed.",
    )
    return redirect("tournaments:registrations", slug=event.slug)


@event_staff_required("manage")
def staff_manage(request: HttpRequest, event: Event) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST":
        if "remove" in request.POST:
            pk = posted_id(request.POST["remove"])
            staff = EventStaff.objects.filter(event=event, pk=pk).first() if pk is not None else None
            if staff is None:
                messages.error(request, "That person is not on this event's staff any more.")
                return redirect("tournaments:staff", slug=event.slug)
            try:
                services.staff_remove(staff=staff)
            except ActionError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, f"{staff.user} removed from the staff.")
            return redirect("tournaments:staff", slug=event.slug)
        if form.is_valid():
            try:
                staff = services.staff_add(event=event, **form.cleaned_data)
            except ActionError as exc:
                form.add_error("username", exc.message)
            else:
                messages.success(request, f"{staff.user} is {staff.get_role_display().lower()}.")
                return redirect("tournaments:staff", slug=event.slug)
    return staff_page(request, event, form=form)
