"""What everyone sees: pairings, standings, a player's rounds, the play-off bracket (the JSON API is
tournaments.api).

Pages poll with htmx while a round runs, so a phone on the table shows new pairings and
results without a manual reload.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from . import exports, page_cache, public_etags, public_pairings, selectors, selectors_table
from .http import export_format, posted_id
from .http_cache import public_page
from .models import Event, Registration, Round
from .permissions import role_for
from .services import rounds as round_services
from .tables import StandingsTable, configure_pages

POLL_SECONDS = 20
# The public pages show the play-off places; everyone after them follows the Swiss standings below.
FINAL_RANKING_SHOWN = 8
TIEBREAKER_WORDS = {
    "super_villains": "Super-Villains defeated (SV)",
    "opponents_points_rate": "opponents' points rate",
    "vp": "total VP",
}


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


@dataclass(frozen=True)
class PairingsAsk:
    """What a visitor asked of a split round's pairings (tournaments.public_pairings): every table (the
    wall display), one page of tables, the tables of a name, or by default the directory."""

    everything: bool = False
    page: int | None = None
    query: str = ""

    @classmethod
    def of(cls, request: HttpRequest) -> PairingsAsk:
        return cls(
            everything=request.GET.get("all") == "1",
            page=posted_id(request.GET.get("page")),
            query=" ".join(request.GET.get("q", "").split())[: public_pairings.QUERY_MAX_CHARS],
        )


def _pairings_context(event: Event, round: Round | None, ask: PairingsAsk | None = None) -> dict:
    """The round's tables, rendered once per change of the round's tables (by one request at a time:
    the others serve the previous version meanwhile). A large round answers what was asked of it."""
    context = {"event": event, "round": round, "poll_seconds": POLL_SECONDS}
    if round is None:
        return context
    ask = ask or PairingsAsk()
    tables, key = public_pairings.round_pairings(round, public_pairings.pairings_key(round))
    split = public_pairings.split(len(tables))
    pairings_url = reverse("tournaments:pairings", kwargs={"slug": event.slug, "number": round.number})
    base = {
        **context,
        "player_url": reverse("tournaments:player", kwargs={"slug": event.slug, "pk": 0})[:-2],
        "pairings_url": pairings_url,
    }
    context.update(pairings_split=split, pairings_url=pairings_url, ask=ask, table_count=len(tables))
    if split:
        context["pages"] = public_pairings.page_ranges(tables)

    def body(shown: list[public_pairings.TableLine], **extra) -> str:
        alphabetical = public_pairings.alphabetical(shown, only=extra.pop("only", ""))
        return render_to_string(
            "tournaments/_pairings_body.html",
            {**base, "tables": shown, "alphabetical": alphabetical, **extra},
        )

    searched = public_pairings.normalized(ask.query)
    if not split or ask.everything:
        html = page_cache.build_once(f"pairings-html:{round.pk}:all", key, lambda: body(tables))
    elif searched and len(searched) >= public_pairings.FIND_MIN_CHARS:
        # A name: a few tables, rendered from the cached data for each asker (cheap).
        found, more = public_pairings.find(tables, ask.query)
        html = body(found, only=searched, find_query=ask.query, find_more=more, found=True)
    elif ask.page:
        number = min(ask.page, public_pairings.page_count(len(tables)))
        html = page_cache.build_once(
            f"pairings-html:{round.pk}:page:{number}",
            key,
            lambda: body(public_pairings.page(tables, number), page=number),
        )
        context["page"] = number
    else:
        html = render_to_string(
            "tournaments/_pairings_directory.html",
            {
                **base,
                "table_count": len(tables),
                "results_in": sum(t.has_result for t in tables),
                "pages": context["pages"],
                "too_short": bool(searched),
            },
        )
    context["pairings_body"] = html
    return context


def event_home(request: HttpRequest, event: Event) -> dict:
    """Extra context for the public event page once the event has started."""
    round = selectors.current_public_round(event)
    context = _pairings_context(event, round)
    rounds = list(selectors.public_rounds(event))
    context["earlier_rounds"] = [r for r in rounds if r != round]
    context["final_ranking"] = round_services.final_ranking(event, limit=FINAL_RANKING_SHOWN)
    return context


@require_safe
@public_page(public_etags.pairings, varies_on_htmx=True)
def pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _event(slug)
    round = get_object_or_404(Round, event=event, number=number)
    role = role_for(request.user, event)
    if not selectors.round_visible(round, staff=bool(role)):
        raise Http404("This round's pairings are not published yet.")
    if wanted := export_format(request):
        seats = exports.published_seats(event).filter(round=round) if round.published else []
        table = exports.ResultsTable(seats)
        return TableExport(wanted, table).response(f"{event.slug}-round-{round.number}.{wanted}")
    context = _pairings_context(event, round, PairingsAsk.of(request))
    context["role"] = role
    if request.htmx:
        return render(request, "tournaments/_pairings.html", context)
    return render(request, "tournaments/pairings.html", context)


@require_safe
def results_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """Every game's result of the published rounds, one row per player per game."""
    event = _event(slug)
    table = exports.ResultsTable(exports.published_seats(event))
    return TableExport("csv", table).response(f"{event.slug}-results.csv")


@require_safe
def calendar(request: HttpRequest, slug: str) -> HttpResponse:
    """The event as a calendar entry (iCalendar), for a phone's or a computer's calendar."""
    event = _event(slug)
    url = request.build_absolute_uri(event.get_absolute_url())
    body = exports.calendar_entry(event, url=url, host=request.get_host().partition(":")[0])
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}.ics"'
    return response


@require_safe
@public_page(public_etags.event_page)
def event_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The part of the public event page that updates while a round runs."""
    event = _event(slug)
    return render(request, "tournaments/_event_live.html", event_home(request, event))


STANDINGS_PER_PAGE = 100


@require_safe
@public_page(public_etags.standings, varies_on_htmx=True)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug)
    query = request.GET.get("q", "").strip()
    if wanted := export_format(request):
        table = StandingsTable(selectors.event_standings(event), event=event)
        RequestConfig(request, paginate=False).configure(table)
        return TableExport(wanted, table).response(f"{event.slug}-standings.{wanted}")
    # Phones poll this page all round long: the rendered table is cached until the standings change.
    params = "&".join(f"{k}={request.GET.get(k, '')}" for k in ("page", "sort", "q"))
    params_digest = hashlib.sha256(params.encode()).hexdigest()[:16]

    def build() -> str:
        lines = selectors.event_standings(event)
        if query:
            lines = [
                line for line in lines if query.casefold() in line.registration.player.public_name.casefold()
            ]
        table = StandingsTable(lines, event=event)
        configure_pages(request, table, per_page=STANDINGS_PER_PAGE)
        return render_to_string("tournaments/_standings_table.html", {"table": table}, request=request)

    table_html = page_cache.build_once(
        f"standings-html:{event.pk}:{params_digest}", selectors.standings_key(event), build
    )
    closed = Round.objects.filter(event=event, kind=Round.Kind.SWISS, status=Round.Status.CLOSED).count()
    context = {
        "event": event,
        "table_html": table_html,
        "query": query,
        "closed": closed,
        "poll_seconds": POLL_SECONDS,
        "final_ranking": round_services.final_ranking(event, limit=FINAL_RANKING_SHOWN),
        "bracket": _bracket(event),
        "tiebreaker_text": ", ".join(
            TIEBREAKER_WORDS[t] for t in selectors.event_tiebreakers(event) if t in TIEBREAKER_WORDS
        ),
    }
    if request.htmx:
        return render(request, "tournaments/_standings.html", context)
    return render(request, "tournaments/standings.html", context)


def _bracket(event: Event) -> list[tuple[Round, list[selectors.TableView]]]:
    playoff_rounds = selectors.public_rounds(event).exclude(kind=Round.Kind.SWISS)
    return [(r, selectors.round_tables(r)) for r in playoff_rounds]


@require_safe
@public_page(public_etags.player)
def player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = _event(slug)
    registration = get_object_or_404(Registration.objects.select_related("player"), event=event, pk=pk)
    history = selectors.player_rounds(event, registration)
    line = next((line for line in selectors.event_standings(event) if line.registration.pk == pk), None)
    ranking = [r.pk for r in round_services.final_ranking(event, limit=FINAL_RANKING_SHOWN)]
    final_place = ranking.index(pk) + 1 if pk in ranking else None
    # The player's own view: their table in the running round, and dropping (9.030).
    owner = request.user.is_authenticated and registration.player.user_id == request.user.pk
    return render(
        request,
        "tournaments/player.html",
        {
            "event": event,
            "registration": registration,
            "history": history,
            "line": line,
            "final_place": final_place,
            "owner": owner,
            "now": selectors_table.your_tables([registration]).get(pk) if owner else None,
            "may_drop": owner and not registration.dropped and event.status in _PLAYING,
            "poll_seconds": POLL_SECONDS,
        },
    )


_PLAYING = (Event.Status.RUNNING, Event.Status.PLAYOFFS)
