"""Ratings for 3- and 4-player games: a replay of every counted game, in order, through openskill's
Plackett–Luce model (the maths is the library's; this module only feeds it).

Pure: no Django. Games in, one ``Rating`` per person out. The same games in the same order give the same
numbers (no randomness, no clock); a correction in an old game changes every rating after it, because the
whole history is replayed from the start.

What a game is here: the people at one table and their placements (1 = won). Equal placements share a rank
(a tie). A seat left out of the game by the caller (a game loss taken as a penalty, a player who left) is
simply absent; a game with fewer than two people left teaches nothing and is skipped. One person seated
twice at a table (two player records of one account) keeps their better placement.

The displayed rating is openskill's ordinal, mu - 3 sigma: the skill the player very likely has at least
(a newcomer starts at 0 and climbs as games shrink the uncertainty sigma and show the skill mu).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# Fewer counted games than this and a rating is provisional: sigma is still large and one game moves it a lot.
PROVISIONAL_GAMES = 10
# The displayed rating is mu - Z * sigma.
Z = 3.0


@dataclass(frozen=True)
class RatedGame:
    """One game: (person, placement) per seat, and the day it was played (for "last played")."""

    seats: Sequence[tuple[str, int]]
    played: datetime.date | None = None


@dataclass(frozen=True)
class Rating:
    person: str
    mu: float
    sigma: float
    rating: float  # mu - 3 sigma
    games: int
    last_played: datetime.date | None

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def _seats(game: RatedGame) -> list[tuple[str, int]]:
    """The game's seats with each person once (their best placement), in the order given."""
    best: dict[str, int] = {}
    for person, placement in game.seats:
        if not isinstance(person, str) or not person:
            raise ValueError(f"a person is a non-empty string, not {person!r}.")
        if isinstance(placement, bool) or not isinstance(placement, int) or placement < 1:
            raise ValueError(f"a placement is a whole number from 1, not {placement!r}.")
        if person not in best or placement < best[person]:
            best[person] = placement
    return list(best.items())


def rate_games(games: Iterable[RatedGame]) -> dict[str, Rating]:
    """Every person's rating after ``games``, replayed in the order given (oldest first)."""
    model = PlackettLuce()
    state: dict[str, object] = {}  # person -> openskill rating
    counts: dict[str, int] = {}
    last: dict[str, datetime.date | None] = {}
    for game in games:
        seats = _seats(game)
        if len(seats) < 2:
            continue
        teams = [[state.get(person) or model.rating()] for person, _ in seats]
        updated = model.rate(teams, ranks=[float(placement) for _, placement in seats])
        for (person, _), (rating,) in zip(seats, updated, strict=True):
            state[person] = rating
            counts[person] = counts.get(person, 0) + 1
            if game.played is not None:
                last[person] = max(game.played, last.get(person) or game.played)
            else:
                last.setdefault(person, None)
    return {
        person: Rating(
            person=person,
            mu=rating.mu,
            sigma=rating.sigma,
            rating=rating.mu - Z * rating.sigma,
            games=counts[person],
            last_played=last.get(person),
        )
        for person, rating in state.items()
    }
