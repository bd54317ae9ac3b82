"""The read API's players: a player's history across events and a head-to-head (``/api/players/...``).

The same data as the pages (tournaments.views_history), from the same selector, with the same privacy:
every name is the public one. ``{pk}`` is any record of the person; the answer is the whole person.
Registered on ``tournaments.api.api`` with one ``add_router`` line; rate limited like every endpoint.
"""

from __future__ import annotations

import datetime

from django.http import HttpRequest
from django.urls import reverse
from ninja import Field, Router, Schema, Status
from ninja.decorators import decorate_view

from config.ratelimits import limit_api
from ratings.schemas import RatingOut, rating_json

from . import selectors_history
from .api_routing import get_and_head
from .api_schemas import ErrorOut, RateLimitedOut, RoundKind
from .history import Tally

router = Router(tags=["players"])
ERRORS = {400: ErrorOut, 404: ErrorOut, 429: RateLimitedOut}
UNKNOWN = "There is no player with this number, or they have not entered an event."


class TallyOut(Schema):
    games: int
    wins: int = Field(description="Games finished 1st.")
    win_rate: float | None = Field(description="Wins per game, 0 to 1; empty without games.")
    average_place: float | None = Field(description="Average placement (1 = won); empty without games.")


class SizeTallyOut(TallyOut):
    size: int = Field(description="Players at the table.")


class TotalsOut(TallyOut):
    events: int = Field(description="Events with at least one counted game.")
    by_size: list[SizeTallyOut]


class PlayerEventOut(Schema):
    slug: str
    name: str
    date: datetime.date
    started: bool = Field(description="False while the event takes registrations.")
    finished: bool
    place: int | None = Field(description="Final place once the event is finished; empty before.")
    of: int | None = Field(description="Players in the final ranking.")
    games: int
    wins: int
    points: float
    dropped: bool
    records: int = Field(description="Records of this player entered in the event (2: entered twice).")
    url: str


class OpponentOut(Schema):
    player: int = Field(description="A record of the opponent (the one met last): its history's number.")
    name: str
    games: int = Field(description="Counted games at the same table.")
    ahead: int = Field(description="Games the player finished ahead of this opponent.")
    behind: int = Field(description="Games this opponent finished ahead.")


class PlayerHistoryOut(Schema):
    player: int
    name: str = Field(description="The public name (the player's privacy choice).")
    url: str
    events: list[PlayerEventOut] = Field(description="Latest first.")
    totals: TotalsOut
    opponents: list[OpponentOut] = Field(description="Most games together first.")
    rating: RatingOut | None = Field(
        description="The stored rating (recomputed when results change), null before a counted game."
    )


class MeetingOut(Schema):
    event: str = Field(description="The event's slug.")
    event_name: str
    date: datetime.date
    round: int
    stage: RoundKind
    table: int
    size: int
    placement: int
    points: float | None
    other_placement: int
    other_points: float | None


class PlayerRefOut(Schema):
    player: int
    name: str
    url: str


class HeadToHeadOut(Schema):
    player: PlayerRefOut
    other: PlayerRefOut
    games: int
    ahead: int = Field(description="Games the player finished ahead of the other.")
    behind: int
    wins: int
    other_wins: int
    average_place: float | None
    other_average_place: float | None
    meetings: list[MeetingOut] = Field(description="Every counted game both sat at, oldest first.")


def _tally(tally: Tally) -> dict:
    return {
        "games": tally.games,
        "wins": tally.wins,
        "win_rate": tally.win_rate,
        "average_place": tally.average_place,
    }


def _ref(person: selectors_history.Person) -> dict:
    url = reverse("tournaments:player_history", kwargs={"pk": person.player_id})
    return {"player": person.player_id, "name": person.name, "url": url}


def _operation(path: str, *, url_name: str, **options):
    """GET (and HEAD, kept out of the OpenAPI document), rate limited."""

    def register(view):
        return get_and_head(router, path, url_name=url_name, **options)(decorate_view(limit_api)(view))

    return register


@_operation(
    "/{int:pk}/",
    response={200: PlayerHistoryOut, **ERRORS},
    url_name="api_player",
    summary="A player's history",
)
def player(request: HttpRequest, pk: int):
    """A player's events with final places, totals (overall and per table size) and the opponents met."""
    page = selectors_history.player_history(player_id=pk)
    if page is None or not (page.history.events or page.games):
        return Status(404, {"detail": UNKNOWN})
    result, totals = page.history, page.history.totals
    return {
        **_ref(page.person),
        # The history's own name rule (short if any of the person's records chose it) wins over the rating's.
        "rating": {**rating_json(page.rating), "name": page.person.name} if page.rating else None,
        "events": [
            {
                "slug": line.slug,
                "name": line.name,
                "date": line.date,
                "started": line.started,
                "finished": line.finished,
                "place": line.place,
                "of": line.of,
                "games": line.games,
                "wins": line.wins,
                "points": line.points,
                "dropped": line.dropped,
                "records": line.records,
                "url": reverse("tournaments:event_detail", kwargs={"slug": line.slug}),
            }
            for line in result.events
        ],
        "totals": {
            "events": totals.events,
            **_tally(totals.all),
            "by_size": [{"size": size, **_tally(tally)} for size, tally in totals.sizes],
        },
        "opponents": [
            {"player": o.player_id, "name": o.name, "games": o.games, "ahead": o.ahead, "behind": o.behind}
            for o in result.opponents
        ],
    }


@_operation(
    "/{int:pk}/vs/{int:other}/",
    response={200: HeadToHeadOut, **ERRORS},
    url_name="api_player_vs",
    summary="Head-to-head",
)
def player_vs(request: HttpRequest, pk: int, other: int):
    """Every counted game two players sat at together, from the first player's side, and the summary."""
    page = selectors_history.head_to_head(player_id=pk, other_id=other)
    if page is None:
        return Status(404, {"detail": "One of these two players does not exist."})
    if page.person.key == page.other.key:
        return Status(400, {"detail": "Both numbers are records of the same player."})
    h2h = page.head_to_head
    return {
        "player": _ref(page.person),
        "other": _ref(page.other),
        "games": len(h2h.games),
        "ahead": h2h.ahead,
        "behind": h2h.behind,
        "wins": h2h.wins,
        "other_wins": h2h.other_wins,
        "average_place": h2h.average_place,
        "other_average_place": h2h.other_average_place,
        "meetings": [
            {
                "event": m.event_slug,
                "event_name": m.event_name,
                "date": m.event_date,
                "round": m.round_number,
                "stage": m.round_kind,
                "table": m.table_number,
                "size": m.size,
                "placement": m.placement,
                "points": m.points,
                "other_placement": m.other_placement,
                "other_points": m.other_points,
            }
            for m in h2h.games
        ],
    }
