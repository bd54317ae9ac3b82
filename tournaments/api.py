"""The read API (django-ninja): public data of events as JSON, described by an OpenAPI document.

Mounted at ``/api/`` (tournaments.urls) with its schema at ``/api/openapi.json`` and a docs page at
``/api/docs`` (Swagger UI from ninja's own static files: nothing is loaded from a CDN).

It keeps what the hand-built views tuned for a 2,000-player event: every endpoint is rate limited
(``config.ratelimits.limit_api``, a JSON 429), answers anonymous visitors with an ETag, 304 and public
Cache-Control (``tournaments.http_cache.public_page`` with the ``tournaments.public_etags`` keys), and the
large answers (an event, a round, the standings, the ranking) are serialized once per data version
(``tournaments.page_cache.build_once``) and sent as they were stored. Lists are paginated with
``limit`` and ``offset``. Errors are JSON: ninja's own here, the rest by ``config.middleware``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Field, NinjaAPI, Schema, Swagger
from ninja.decorators import decorate_view
from ninja.errors import ValidationError
from ninja.pagination import LimitOffsetPagination, paginate

from config.ratelimits import limit_api

from . import api_schemas, page_cache, public_etags, public_pairings, selectors
from .api_characters import router as characters_router
from .api_players import router as players_router
from .api_routing import get_and_head
from .api_schemas import (
    ErrorOut,
    EventDetailOut,
    EventOut,
    RankingOut,
    RateLimitedOut,
    ResultOut,
    RoundDetailOut,
    StandingsOut,
)
from .exports import published_seats
from .http_cache import public_page
from .models import Event


class ToolkitAPI(NinjaAPI):
    """The schema is the same for the life of a process (the endpoints are declared at import): built once,
    not on each request for ``/api/openapi.json`` (about 60 ms)."""

    _schemas: dict

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        key = (path_prefix, tuple(sorted((path_params or {}).items())))
        cache = self.__dict__.setdefault("_schemas", {})
        if key not in cache:
            cache[key] = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        return cache[key]


api = ToolkitAPI(
    title="DCDB Tournament Toolkit API",
    version="1.0",
    description=(
        "Read-only public data of DC Comics Deck-Building Game events: the events, their published rounds "
        "with tables and seats, every game's result, the standings and the final ranking; across events: "
        "seasons and their standings, a player's history and head-to-heads, ratings, and main-character "
        "statistics. Names are public names (each player's privacy choice). No "
        "authentication; GET (and HEAD) only; any origin may read it (CORS). Lists take `limit` and "
        "`offset` and report `count`. Event answers carry an ETag: send it back in If-None-Match for a 304. "
        'Errors are JSON: `{"detail": "..."}`. Over the rate limit: 429 with Retry-After.'
    ),
    # The endpoints keep their names in the tournaments namespace (tournaments:api_event, ...);
    # ninja's own pages are tournaments:openapi-json and tournaments:openapi-view.
    urls_namespace="tournaments",
    # Swagger UI's online validator badge would load an image from validator.swagger.io: off.
    docs=Swagger(settings={"validatorUrl": None}),
    # The schema and the docs page count against the API's rate limit like its endpoints.
    docs_decorator=limit_api,
)

ERRORS = {400: ErrorOut, 404: ErrorOut, 429: RateLimitedOut}


def read(path: str, *, url_name: str, **options):
    """A GET (and HEAD) endpoint of the API itself."""
    return get_and_head(api, path, url_name=url_name, **options)


def public_read(etag: Callable[..., str]):
    """The HTTP behaviour of the public pages: the API's rate limit first, then ETag, 304 and public
    Cache-Control for anonymous visitors. Wraps the whole operation (before ninja reads the parameters),
    so a 304 costs no more than computing the ETag."""
    return decorate_view(public_page(etag), limit_api)


def _json(payload: str) -> HttpResponse:
    return HttpResponse(payload, content_type="application/json")


class Page(LimitOffsetPagination):
    """``limit`` (1 to ``MAX_LIMIT``, 100 by default) and ``offset``; the answer reports ``count``."""

    MAX_LIMIT = 1000

    class PageQuery(Schema):
        limit: int = Field(100, ge=1, le=1000, description="How many items (at most 1000).")
        # Bounded: an offset past the database's integers would fail in the query.
        offset: int = Field(0, ge=0, le=10**9, description="How many items to skip.")

    Input = PageQuery

    def __init__(self, **kwargs) -> None:
        super().__init__(max_limit=self.MAX_LIMIT, **kwargs)


class EventsPage(Page):
    items_attribute = "events"

    class Output(Schema):
        count: int
        events: list


class ResultsPage(Page):
    items_attribute = "results"

    class Output(Schema):
        count: int
        results: list


@api.exception_handler(ValidationError)
def bad_request(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """A query parameter that is not what the endpoint takes: 400, with each problem in words."""
    errors = [
        {"loc": [str(part) for part in error.get("loc", ())], "msg": str(error.get("msg", ""))}
        for error in exc.errors
    ]
    detail = "; ".join(f"{'.'.join(e['loc'][1:]) or 'request'}: {e['msg']}" for e in errors)
    return api.create_response(request, {"detail": detail or "Bad request", "errors": errors}, status=400)


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


@read("/events/", response={200: list[EventOut], **ERRORS}, url_name="api_events", summary="Events")
@public_read(public_etags.api_events)
@paginate(EventsPage)
def events(request: HttpRequest):
    """Every event, latest first."""
    return Event.objects.order_by("-date", "name", "pk")


@read(
    "/events/{slug:slug}/",
    response={200: EventDetailOut, **ERRORS},
    url_name="api_event",
    summary="One event",
)
@public_read(public_etags.api_event)
def event(request: HttpRequest, slug: str) -> HttpResponse:
    """The event with its published rounds, its players and its final ranking (names)."""
    event = _event(slug)
    # Built once per change of the event, its rounds or its players (the same inputs as its ETag).
    version = public_etags.api_event(request, slug)
    return _json(
        page_cache.build_once(
            f"api-json:event:{event.pk}", version, lambda: api_schemas.event_detail(event).model_dump_json()
        )
    )


@read(
    "/events/{slug:slug}/rounds/{int:number}/",
    response={200: RoundDetailOut, **ERRORS},
    url_name="api_round",
    summary="A published round",
)
@public_read(public_etags.api_round)
def round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A published round with its tables and seats (a round not yet published is a 404)."""
    round = get_object_or_404(selectors.public_rounds(_event(slug)), number=number)
    # Phones and scoreboards poll it: built once per change of the round's tables, like the page.
    return _json(
        page_cache.build_once(
            f"api-json:round:{round.pk}",
            public_pairings.pairings_key(round),
            lambda: api_schemas.round_detail(round).model_dump_json(),
        )
    )


@read(
    "/events/{slug:slug}/results/",
    response={200: list[ResultOut], **ERRORS},
    url_name="api_results",
    summary="Results per game",
)
@public_read(public_etags.api_results)
@paginate(ResultsPage)
def results(request: HttpRequest, slug: str):
    """Every game of the published rounds, one item per player per game, in round, table and turn order."""
    return published_seats(_event(slug))


@read(
    "/events/{slug:slug}/standings/",
    response={200: StandingsOut, **ERRORS},
    url_name="api_standings",
    summary="Standings",
)
@public_read(public_etags.api_standings)
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The Swiss standings after the closed rounds, with the event's tiebreakers in order."""
    event = _event(slug)
    return _json(
        page_cache.build_once(
            f"api-json:standings:{event.pk}",
            selectors.standings_key(event),
            lambda: api_schemas.standings(event).model_dump_json(),
        )
    )


@read(
    "/events/{slug:slug}/ranking/",
    response={200: RankingOut, **ERRORS},
    url_name="api_ranking",
    summary="Final ranking",
)
@public_read(public_etags.api_ranking)
def ranking(request: HttpRequest, slug: str) -> HttpResponse:
    """The final ranking once the final is closed (empty before): every player, first place first."""
    event = _event(slug)
    version = public_etags.api_ranking(request, slug)
    return _json(
        page_cache.build_once(
            f"api-json:ranking:{event.pk}", version, lambda: api_schemas.ranking(event).model_dump_json()
        )
    )


# Other apps' endpoints, each on its own ninja Router (imported here, at the end: they use Page and ERRORS).
from ratings.api import router as ratings_router  # noqa: E402

api.add_router("/players/", players_router)  # a player across events, head-to-head (api_players)
api.add_router("/seasons/", "seasons.api.router")
api.add_router("/ratings/", ratings_router)
api.add_router("", characters_router)  # main-character statistics (api_characters)
