"""The read API's main-character statistics (tournaments.characters): one event's and every event's.

Numbers are numbers (rates from 0 to 1, ``null`` when there is no game to compute them from), and each
figure carries the number of games it comes from, as on the pages. Registered on ``tournaments.api.api``.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema
from ninja.decorators import decorate_view

from config.ratelimits import limit_api
from seasons import selectors as season_selectors
from seasons.models import Season

from . import characters, selectors_characters
from .api_routing import get_and_head
from .api_schemas import ErrorOut, RateLimitedOut
from .http_cache import public_page
from .models import Event

router = Router(tags=["main characters"])

ERRORS = {400: ErrorOut, 404: ErrorOut, 429: RateLimitedOut}


class FigureOut(Schema):
    value: float | None = Field(description="null when there is no game to compute it from")
    games: int = Field(description="how many games the figure comes from")


class SplitOut(Schema):
    games: int
    share: FigureOut = Field(description="share of games (0-1): the games it was played in")
    average_place: FigureOut = Field(description="1 is best")
    win_rate: FigureOut = Field(description="placement 1 (0-1)")


class CharacterOut(Schema):
    key: str = Field(description='the rulings card key, or "text:…" for free text not matched')
    label: str
    matched: bool
    overall: SplitOut
    three_players: SplitOut
    four_players: SplitOut


class CharacterStatisticsOut(Schema):
    table_size: int | None
    games: int = Field(description="counted games with a main character on the slip")
    games_three_players: int
    games_four_players: int
    plays: int = Field(description="player-games with a main character")
    unrecorded: int = Field(description="player-games without a main character, not counted")
    par_win_rate: float | None = Field(description="the win rate chance alone gives (1 in 3 or 4)")
    characters: list[CharacterOut]


class SizeQuery(Schema):
    size: int | None = Field(None, ge=3, le=4, description="only tables of 3 or of 4 players")


def _split(split: characters.Split) -> dict:
    return {
        "games": split.games,
        "share": vars(split.share),
        "average_place": vars(split.average_place),
        "win_rate": vars(split.win_rate),
    }


def _event_key(request: HttpRequest, slug: str) -> str:
    event = get_object_or_404(Event, slug=slug)
    return f"{event.pk}|{selectors_characters.statistics_key(event_ids=[event.pk])}"


def _all_key(request: HttpRequest) -> str:
    return selectors_characters.statistics_key()


def read(path: str, *, url_name: str, **options):
    return get_and_head(router, path, url_name=url_name, **options)


def statistics_json(statistics: characters.Statistics, *, table_size: int | None) -> dict:
    return {
        "table_size": table_size,
        "games": statistics.games,
        "games_three_players": statistics.games_by_size[3],
        "games_four_players": statistics.games_by_size[4],
        "plays": statistics.plays,
        "unrecorded": statistics.unrecorded,
        "par_win_rate": statistics.par_win_rate,
        "characters": [
            {
                "key": line.key,
                "label": line.label,
                "matched": line.matched,
                "overall": _split(line.overall),
                "three_players": _split(line.by_size[3]),
                "four_players": _split(line.by_size[4]),
            }
            for line in statistics.lines
        ],
    }


@read(
    "/events/{slug:slug}/characters/",
    response={200: CharacterStatisticsOut, **ERRORS},
    url_name="api_event_characters",
    summary="Main characters of an event",
)
@decorate_view(public_page(_event_key), limit_api)
def event_characters(request: HttpRequest, slug: str, query: Query[SizeQuery]):
    """Per main character over the event's counted games: games, share of games, average place and win
    rate, overall and at 3- and 4-player tables."""
    event = get_object_or_404(Event, slug=slug)
    found = selectors_characters.event_character_statistics(event=event, table_size=query.size)
    return statistics_json(found, table_size=query.size)


@read(
    "/characters/",
    response={200: CharacterStatisticsOut, **ERRORS},
    url_name="api_characters",
    summary="Main characters of every event",
)
@decorate_view(public_page(_all_key), limit_api)
def all_characters(request: HttpRequest, query: Query[SizeQuery]):
    """The same over the counted games of every event."""
    size = query.size
    return statistics_json(selectors_characters.character_statistics(table_size=size), table_size=size)


def _season_key(request: HttpRequest, slug: str) -> str:
    season = get_object_or_404(Season, slug=slug)
    return selectors_characters.statistics_key(event_ids=season_selectors.finished_event_ids(season))


@read(
    "/seasons/{slug:slug}/characters/",
    response={200: CharacterStatisticsOut, **ERRORS},
    url_name="api_season_characters",
    summary="Main characters of a season",
)
@decorate_view(public_page(_season_key), limit_api)
def season_characters(request: HttpRequest, slug: str, query: Query[SizeQuery]):
    """The same over the counted games of a season's finished events."""
    season = get_object_or_404(Season, slug=slug)
    events = season_selectors.finished_event_ids(season)
    found = selectors_characters.character_statistics(event_ids=events, table_size=query.size)
    return statistics_json(found, table_size=query.size)
