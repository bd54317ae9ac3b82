"""The ratings in the read API: the leaderboard (paginated like every list) and one person's rating.

Registered on ``tournaments.api.api`` under ``/api/ratings/``. Rate limited like the rest; no ETag (a
name's privacy choice changes what the answer shows without changing the ratings)."""

from __future__ import annotations

from django.http import Http404, HttpRequest
from ninja import Query, Router, Schema
from ninja.decorators import decorate_view
from ninja.pagination import paginate

from config.ratelimits import limit_api
from tournaments.api import ERRORS, Page
from tournaments.api_routing import get_and_head
from tournaments.people import valid_key

from . import selectors
from .schemas import RatingOut, rating_json

router = Router(tags=["Ratings"])


def read(path: str, **options):
    return get_and_head(router, path, **options)


class RatingsPage(Page):
    items_attribute = "ratings"

    class Output(Schema):
        count: int
        ratings: list


@read("/", response={200: list[RatingOut], **ERRORS}, url_name="api_ratings", summary="Ratings")
@decorate_view(limit_api)
@paginate(RatingsPage)
def ratings(request: HttpRequest, q: str = Query("", max_length=120, description="Part of a public name.")):
    """Everyone rated, highest rating first (recomputed when results change, not on request)."""
    return [rating_json(view) for view in selectors.leaderboard(query=q)]


@read("/{person}/", response={200: RatingOut, **ERRORS}, url_name="api_rating", summary="One person's rating")
@decorate_view(limit_api)
def rating(request: HttpRequest, person: str):
    """One person's rating; 404 when they have none (no counted game yet, or unknown)."""
    view = selectors.ratings_for([person]).get(person) if valid_key(person) else None
    if view is None:
        raise Http404("No rating for this person.")
    return rating_json(selectors.with_rank(view))
