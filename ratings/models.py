"""Stored ratings: written by ``services.ratings_recompute`` only (a replay of every counted game), read
by pages and the API. Never computed on a page view."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class PlayerRating(models.Model):
    # tournaments.people.person_key: "u<account id>" or "p<player record id>".
    person = models.CharField(max_length=20, unique=True)
    # The record whose name the pages show (the one of the person's latest counted game); read at page time,
    # so a change of the privacy choice shows at once.
    player = models.ForeignKey(
        "tournaments.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.FloatField(db_index=True)  # mu - 3 sigma
    games = models.PositiveIntegerField()
    provisional = models.BooleanField()
    last_played = models.DateField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-rating", "person"]

    def __str__(self) -> str:
        return f"{self.person}: {self.rating:.1f}"


class RatingState(models.Model):
    """One row: what the stored ratings were computed from (a digest of every input) and when."""

    digest = models.CharField(max_length=64, blank=True)
    games = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    # How long the last replay took (seconds), for the staff and the benchmark.
    seconds = models.FloatField(default=0.0)

    def __str__(self) -> str:
        return f"ratings computed at {self.computed_at} from {self.games} games"
