"""Main characters: the statistics pages (one event, every event) and staff's page for the slips' free text
that no certain match names (tournaments.services.characters)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from . import characters, selectors_characters
from .errors import ActionError
from .http_cache import public_page
from .models import Event
from .permissions import can, event_staff_required
from .services import characters as character_services
from .tables import CharacterStatisticsTable

CHART_LINES = 15  # the charts show the most played; the table has every one
SIZES = {"3": 3, "4": 4}


def table_size(request: HttpRequest) -> int | None:
    """``?size=3`` or ``?size=4``; anything else is every table."""
    return SIZES.get(request.GET.get("size", "")[:2])


def _chart_data(statistics: characters.Statistics) -> dict:
    # The bars draw the share of games (tables), so the most played are chosen and ordered by it; the table
    # below lists every line by plays (a character twice at one table is two plays, one game).
    lines = sorted(
        statistics.lines,
        key=lambda line: (-(line.overall.share.value or 0), -line.overall.games, line.label.casefold()),
    )[:CHART_LINES]
    by_key = {c.key: c for c in selectors_characters.main_characters()}
    return {
        "labels": [line.label for line in lines],
        # On a phone a label takes two lines: the name, then the set.
        "short": [
            [by_key[line.key].name, by_key[line.key].set_name] if line.key in by_key else [line.label]
            for line in lines
        ],
        "share": [round((line.overall.share.value or 0) * 100, 1) for line in lines],
        "win_rate": [round((line.overall.win_rate.value or 0) * 100, 1) for line in lines],
        "games": [line.overall.games for line in lines],
        "par": round(statistics.par_win_rate * 100, 1) if statistics.par_win_rate is not None else None,
    }


def statistics_context(request: HttpRequest, statistics: characters.Statistics, size: int | None) -> dict:
    return {
        "statistics": statistics,
        "table": CharacterStatisticsTable(statistics.lines),
        "chart": _chart_data(statistics),
        "chart_lines": min(CHART_LINES, len(statistics.lines)),
        "size": size,
        "sizes": [("", "Every table"), ("3", "3 players"), ("4", "4 players")],
        "catalogue_size": len(selectors_characters.main_characters()),
    }


def _event_key(request: HttpRequest, slug: str) -> str:
    event = get_object_or_404(Event, slug=slug)
    return f"{event.pk}|{event.name}|{selectors_characters.statistics_key(event_ids=[event.pk])}"


@require_safe
@public_page(_event_key)
def event_characters(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    size = table_size(request)
    statistics = selectors_characters.event_character_statistics(event=event, table_size=size)
    context = statistics_context(request, statistics, size)
    context.update(
        event=event,
        is_staff=request.user.is_authenticated and can(request.user, event, "run"),
    )
    return render(request, "tournaments/characters.html", context)


@require_safe
@public_page(lambda request: selectors_characters.statistics_key())
def all_characters(request: HttpRequest) -> HttpResponse:
    size = table_size(request)
    statistics = selectors_characters.character_statistics(table_size=size)
    return render(request, "tournaments/characters.html", statistics_context(request, statistics, size))


@require_http_methods(["GET", "HEAD", "POST"])
@event_staff_required("run")
def characters_check(request: HttpRequest, event: Event) -> HttpResponse:
    """The event's free-text main characters that no certain match names: staff pick one, or leave it."""
    if request.method == "POST":
        texts = {u.key: u for u in selectors_characters.unmatched_texts(event=event)}
        found = texts.get(request.POST.get("text", "")[:32])
        wanted = (request.POST.get("character") or request.POST.get("typed") or "").strip()[:300]
        if found is None:
            messages.warning(
                request, "That text is no longer waiting: someone matched or changed it already."
            )
        elif not wanted:
            messages.error(request, f"Pick a main character for “{found.text}”, or leave it as it is.")
        else:
            match = characters.match(wanted, selectors_characters.main_characters())
            try:
                if not match.certain:
                    raise ActionError(
                        f"“{wanted[:60]}” is not one main character of the list: pick one from it."
                    )
                changed = character_services.main_character_choose(
                    event=event, text=found.text, key=match.character.key, user=request.user
                )
            except ActionError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(
                    request,
                    f"“{found.text}” is now {match.character.label} on {changed} slip line{pluralize(changed)}.",
                )
        return redirect(reverse("tournaments:characters_check", args=[event.slug]))
    return render(
        request,
        "tournaments/characters_check.html",
        {
            "event": event,
            "texts": selectors_characters.unmatched_texts(event=event),
            "catalogue_size": len(selectors_characters.main_characters()),
        },
    )
