"""Season pages: the public list and standings (with CSV), and the organizers' pages."""

from __future__ import annotations

import csv
import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST, require_safe

from accounts.views import organizer_needed
from ratings.selectors import ratings_for
from tournaments import page_cache, selectors_characters
from tournaments.errors import ActionError
from tournaments.http_cache import public_page
from tournaments.models import Event
from tournaments.tables import configure_pages
from tournaments.views_characters import statistics_context, table_size

from . import selectors, services
from .forms import OrganizerForm, SeasonEventForm, SeasonForm
from .models import Season
from .permissions import (
    can_create_seasons,
    can_remove_event,
    events_organized_by,
    is_season_organizer,
    season_organizer_required,
)
from .tables import SeasonStandingsTable, SeasonTable

PER_PAGE = 100


@require_safe
def season_list(request: HttpRequest) -> HttpResponse:
    seasons = Season.objects.annotate(event_count=Count("season_events")).order_by(
        "-start_date", "name", "pk"
    )
    table = SeasonTable(seasons)
    configure_pages(request, table, per_page=PER_PAGE)
    return render(
        request,
        "seasons/season_list.html",
        {"table": table, "can_create": can_create_seasons(request.user), "empty": not seasons.exists()},
    )


@require_safe
def season_detail(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    context = selectors.season_page(season, query=request.GET.get("q", ""))

    def build() -> str:
        table = SeasonStandingsTable(
            context["lines"], events=context["events"], ratings=context["ratings"], records=context["records"]
        )
        configure_pages(request, table, per_page=PER_PAGE)
        return render_to_string("seasons/_standings_table.html", {"table": table}, request=request)

    # Rendering a long table costs more than computing it: cached until the standings change.
    params = "&".join(f"{k}={request.GET.get(k, '')}" for k in ("page", "q"))
    name = f"season-html:{season.pk}:{hashlib.sha256(params.encode()).hexdigest()[:16]}"
    context["table_html"] = page_cache.build_once(name, context["standings_version"], build)
    context["is_organizer"] = is_season_organizer(request.user, season)
    return render(request, "seasons/season_detail.html", context)


def _csv_cell(value) -> str | int:
    """A spreadsheet would run a name that starts like a formula: quote it."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _characters_key(request: HttpRequest, slug: str) -> str:
    season = get_object_or_404(Season, slug=slug)
    events = selectors.finished_event_ids(season)
    return f"{season.pk}|{season.name}|{selectors_characters.statistics_key(event_ids=events)}"


@require_safe
@public_page(_characters_key)
def season_characters(request: HttpRequest, slug: str) -> HttpResponse:
    """Main-character statistics over the season's finished events (the event page's own, reused)."""
    season = get_object_or_404(Season, slug=slug)
    size = table_size(request)
    events = selectors.finished_event_ids(season)
    statistics = selectors_characters.character_statistics(event_ids=events, table_size=size)
    context = statistics_context(request, statistics, size)
    context["season"] = season
    return render(request, "tournaments/characters.html", context)


@require_safe
def season_csv(request: HttpRequest, slug: str) -> HttpResponse:
    season = get_object_or_404(Season, slug=slug)
    result = selectors.standings(season)
    lines = selectors.filter_lines(result.lines, request.GET.get("q", ""))  # the page's name filter
    ratings = ratings_for(line.person for line in lines)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{season.slug}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(
        ["rank", "player", "points", "best_finish", "event_wins", "events_played", "rating", "provisional"]
        + [_csv_cell(view.event.name) for view in result.events]
    )
    for line in lines:
        rating = ratings.get(line.person)
        writer.writerow(
            [
                line.rank,
                _csv_cell(line.name),
                line.points,
                line.best_finish,
                line.event_wins,
                line.events_played,
                "" if rating is None else round(rating.rating, 1),
                "" if rating is None else ("yes" if rating.provisional else "no"),
            ]
            + ["" if p is None else p for p in line.event_points]
        )
    return response


@login_required
def season_create(request: HttpRequest) -> HttpResponse:
    if not can_create_seasons(request.user):
        return organizer_needed(request)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(user=request.user, **form.season_fields())
        except services.FieldError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, f"{season.name} created. Add your events next.")
            return redirect("seasons:manage", slug=season.slug)
    status = 400 if form.is_bound else 200
    return render(request, "seasons/season_form.html", {"form": form, "creating": True}, status=status)


@season_organizer_required
def season_edit(request: HttpRequest, season: Season) -> HttpResponse:
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(season))
    saved_now = None
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_save(
                season=season, fields=form.season_fields(), version=form.cleaned_data.get("version")
            )
        except services.SeasonConflict as exc:
            form.add_error(None, exc.message)
            saved_now = exc.season
        except services.FieldError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, "Season saved.")
            return redirect("seasons:manage", slug=season.slug)
    if saved_now is not None:
        # The next save is made knowingly over what is saved now.
        form.data = form.data.copy()
        form.data["version"] = saved_now.version
    status = 409 if saved_now else 400 if form.is_bound else 200
    return render(
        request,
        "seasons/season_form.html",
        {"form": form, "season": season, "saved_now": saved_now, "saved_text": _scheme_text(saved_now)},
        status=status,
    )


def _scheme_text(season: Season | None) -> str:
    from .points import describe

    return describe(season.points) if season else ""


def _manage(request: HttpRequest, season: Season, *, event_form=None, organizer_form=None, status=200):
    in_season = season.season_events.values("event_id")
    addable = events_organized_by(request.user).exclude(pk__in=in_season)
    # Only events the season's dates hold are offered (the service says why any other is refused).
    addable = addable.filter(date__gte=season.start_date, date__lte=season.end_date)
    events = list(Event.objects.filter(season_entries__season=season).order_by("date", "pk"))
    for event in events:
        event.removable = can_remove_event(request.user, season, event)
    return render(
        request,
        "seasons/season_manage.html",
        {
            "season": season,
            "events": events,
            "organizers": list(season.organizers.select_related("user")),
            "event_form": event_form or SeasonEventForm(events=addable),
            "organizer_form": organizer_form or OrganizerForm(),
            "scheme_text": _scheme_text(season),
        },
        status=status,
    )


@season_organizer_required
def season_manage(request: HttpRequest, season: Season) -> HttpResponse:
    return _manage(request, season)


@require_POST
@season_organizer_required
def season_event_add(request: HttpRequest, season: Season) -> HttpResponse:
    in_season = season.season_events.values("event_id")
    form = SeasonEventForm(request.POST, events=events_organized_by(request.user).exclude(pk__in=in_season))
    if form.is_valid():
        event = form.cleaned_data["event"]
        try:
            services.season_event_add(season=season, event=event, user=request.user)
        except services.FieldError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, f"{event.name} now counts in {season.name}.")
            return redirect("seasons:manage", slug=season.slug)
    return _manage(request, season, event_form=form, status=400)


@require_POST
@season_organizer_required
def season_event_remove(request: HttpRequest, season: Season, event_id: int) -> HttpResponse:
    event = Event.objects.filter(pk=event_id).first()
    try:
        removed = event is not None and services.season_event_remove(
            season=season, event=event, user=request.user
        )
    except ActionError as exc:
        messages.error(request, exc.message)
        return redirect("seasons:manage", slug=season.slug)
    if removed:
        messages.success(request, f"{event.name} no longer counts in {season.name}.")
    else:
        messages.info(request, "That event was not in the season (removed meanwhile?).")
    return redirect("seasons:manage", slug=season.slug)


@require_POST
@season_organizer_required
def season_organizer_add(request: HttpRequest, season: Season) -> HttpResponse:
    form = OrganizerForm(request.POST)
    if form.is_valid():
        try:
            organizer = services.season_organizer_add(
                season=season, who=form.cleaned_data["who"], user=request.user
            )
        except ActionError as exc:
            form.add_error("who", exc.message)
        else:
            messages.success(request, f"{organizer.user.username} now organizes {season.name} with you.")
            return redirect("seasons:manage", slug=season.slug)
    return _manage(request, season, organizer_form=form, status=400)
