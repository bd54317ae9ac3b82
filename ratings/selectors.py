"""Reading the stored ratings (never computing them): for the leaderboard, the API and the partial other
pages include. Names are read from the player record at read time, so the privacy choice holds at once: the
rated record's name (the person's latest counted game), short if any record of the person chose so."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from tournaments.people import NameRecord, public_name
from tournaments.selectors_games import account_chose_short

from .core import PROVISIONAL_GAMES, Z
from .models import PlayerRating, RatingState


@dataclass(frozen=True)
class RatingView:
    person: str
    public_name: str
    rating: float  # mu - 3 sigma, what the pages show as "the rating"
    mu: float
    sigma: float
    games: int
    provisional: bool
    last_played: datetime.date | None
    computed_at: datetime.datetime | None = None  # when the ratings were last recomputed
    rank: int | None = None  # place on the leaderboard (1 = highest rating), where asked for
    player_id: int | None = None  # the person's latest record: their history page opens on it
    provisional_games: ClassVar[int] = PROVISIONAL_GAMES

    @property
    def uncertainty(self) -> float:
        """The ± shown beside the rating: 3 sigma, the margin the rating subtracts from mu."""
        return Z * self.sigma


_FIELDS = (
    "person",
    "mu",
    "sigma",
    "rating",
    "games",
    "provisional",
    "last_played",
    "updated_at",
    "player_id",
    "player__name",
    "player__public_short_name",
)


def _rows():
    return PlayerRating.objects.annotate(account_short=account_chose_short("player__user_id")).values(
        *_FIELDS, "account_short"
    )


def _view(row: dict, rank: int | None = None) -> RatingView:
    # The rated record stands for the person: it chose the short name if it or another record did.
    short = bool(row["player__public_short_name"]) or row["account_short"]
    return RatingView(
        person=row["person"],
        public_name=public_name([NameRecord(row["player__name"] or "?", short)]),
        rating=row["rating"],
        mu=row["mu"],
        sigma=row["sigma"],
        games=row["games"],
        provisional=row["provisional"],
        last_played=row["last_played"],
        computed_at=row["updated_at"],
        rank=rank,
        player_id=row["player_id"],
    )


def ratings_for(persons: Iterable[str]) -> dict[str, RatingView]:
    """The stored rating of each of ``persons`` (``tournaments.people.person_key``) that has one; one query."""
    wanted = list(dict.fromkeys(persons))
    if not wanted:
        return {}
    rows = _rows().filter(person__in=wanted)
    return {row["person"]: _view(row) for row in rows}


def with_rank(view: RatingView) -> RatingView:
    """The rating with its place on the leaderboard (1 + how many rate higher; ties share). One query."""
    higher = PlayerRating.objects.filter(rating__gt=view.rating).count()
    return dataclasses.replace(view, rank=higher + 1)


def leaderboard(*, query: str = "") -> list[RatingView]:
    """Everyone rated, highest rating first, ranked (ties share a place); ``query`` keeps those whose public
    name contains it (never the hidden part of a name). One query."""
    rows = _rows().order_by("-rating", "person")
    views: list[RatingView] = []
    rank, previous = 0, None
    for n, row in enumerate(rows, start=1):
        if row["rating"] != previous:
            rank, previous = n, row["rating"]
        views.append(_view(row, rank))
    needle = query.strip().casefold()
    if needle:
        views = [v for v in views if needle in v.public_name.casefold()]
    return views


def last_computed() -> RatingState | None:
    return RatingState.objects.filter(computed_at__isnull=False).first()


PROVISIONAL_TEXT = (
    f"Provisional: fewer than {PROVISIONAL_GAMES} counted games, so the rating can still move a lot."
)
