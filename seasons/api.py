"""The seasons' read API: the list of seasons and a season's standings, as JSON (registered on
``tournaments.api.api`` under ``/api/seasons/``). Rate limited like the rest of the API; lists take
``limit`` and ``offset`` and report ``count``."""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Router, Schema
from ninja.decorators import decorate_view
from ninja.pagination import paginate

from config.ratelimits import limit_api
from ratings.selectors import ratings_for
from tournaments.api import ERRORS, Page
from tournaments.api_routing import get_and_head

from . import selectors
from .models import Season
from .points import describe
from .standings import TIEBREAKERS

router = Router(tags=["seasons"])


class SeasonOut(Schema):
    slug: str
    name: str
    start_date: datetime.date
    end_date: datetime.date
    points: str = Field(description="The points scheme in words.")


class SeasonEventPointsOut(Schema):
    event: str = Field(description="The event's slug.")
    points: int | None = Field(
        description="Season points from this event; null: did not play it (or it is not finished)."
    )


class SeasonStandingOut(Schema):
    rank: int
    player: str = Field(description="The name public pages show (the player's privacy choice respected).")
    points: int
    best_finish: int
    event_wins: int
    events_played: int
    events: list[SeasonEventPointsOut]
    person: str = Field(description='Who: "u<account id>" or "p<record id>", as in /api/ratings/<person>/.')
    rating: float | None = Field(description="The player's rating across every counted game (mu - 3 sigma).")
    provisional: bool | None = Field(description="Fewer than 10 counted games; null without a rating.")


class SeasonsPage(Page):
    items_attribute = "seasons"

    class Output(Schema):
        count: int
        seasons: list


class SeasonStandingsPage(Page):
    items_attribute = "standings"

    class Output(Schema):
        count: int
        tiebreakers: list[str]
        standings: list

    def paginate_queryset(self, queryset, pagination, request, **params):
        return {
            **super().paginate_queryset(queryset, pagination, request, **params),
            "tiebreakers": list(TIEBREAKERS),
        }


def read(path: str, **options):
    return get_and_head(router, path, **options)


@read("/", response={200: list[SeasonOut], **ERRORS}, url_name="api_seasons", summary="Seasons")
@decorate_view(limit_api)
@paginate(SeasonsPage)
def seasons(request: HttpRequest):
    """Every season, latest first."""
    return [
        SeasonOut(
            slug=s.slug, name=s.name, start_date=s.start_date, end_date=s.end_date, points=describe(s.points)
        )
        for s in Season.objects.order_by("-start_date", "name", "pk")
    ]


@read(
    "/{slug:slug}/standings/",
    response={200: list[SeasonStandingOut], **ERRORS},
    url_name="api_season_standings",
    summary="Season standings",
)
@decorate_view(limit_api)
@paginate(SeasonStandingsPage)
def season_standings(request: HttpRequest, slug: str):
    """The season's standings from its finished events, best first, with the tiebreakers in order."""
    result = selectors.standings(get_object_or_404(Season, slug=slug))
    slugs = [view.event.slug for view in result.events]
    ratings = ratings_for(line.person for line in result.lines)
    return [
        SeasonStandingOut(
            rank=line.rank,
            player=line.name,
            points=line.points,
            best_finish=line.best_finish,
            event_wins=line.event_wins,
            events_played=line.events_played,
            events=[
                SeasonEventPointsOut(event=slug, points=points)
                for slug, points in zip(slugs, line.event_points, strict=True)
            ],
            person=line.person,
            rating=round(ratings[line.person].rating, 3) if line.person in ratings else None,
            provisional=ratings[line.person].provisional if line.person in ratings else None,
        )
        for line in result.lines
    ]
