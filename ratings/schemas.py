"""The JSON shape of a rating, shared by the ratings endpoints and a player's history (tournaments.api_players).

Kept apart from ``ratings.api``, which imports the read API itself: the history router imports this."""

from __future__ import annotations

import datetime

from ninja import Field, Schema

from .selectors import RatingView


class RatingOut(Schema):
    person: str = Field(description='Who: "u<account id>" (all records of one account) or "p<record id>".')
    name: str = Field(description="The public name (the player's privacy choice respected).")
    rank: int | None = Field(None, description="Place on the leaderboard, 1 = highest rating (ties share).")
    rating: float = Field(description="mu - 3 sigma: the skill the player very likely has at least.")
    mu: float = Field(description="Skill estimate (Plackett-Luce, openskill; a newcomer starts at 25).")
    sigma: float = Field(description="Uncertainty of mu (a newcomer starts at 8.33).")
    games: int = Field(description="Counted games the rating comes from.")
    provisional: bool = Field(description="Fewer than 10 counted games.")
    last_played: datetime.date | None


def rating_json(view: RatingView) -> dict:
    return {
        "person": view.person,
        "name": view.public_name,
        "rank": view.rank,
        "rating": round(view.rating, 3),
        "mu": round(view.mu, 3),
        "sigma": round(view.sigma, 3),
        "games": view.games,
        "provisional": view.provisional,
        "last_played": view.last_played,
    }
