"""A season (series): events that a group of organizers puts together, with dates and a points scheme.

Standings are never stored: they are computed from the events on every read (``seasons.selectors``), so
a result corrected after an event ended reaches the season at once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from tournaments.models import Event

from .points import DEFAULT_SCHEME

# Words the season URLs use after /seasons/: a season may not be called that.
RESERVED_SLUGS = frozenset({"new"})


def default_points() -> dict:
    return dict(DEFAULT_SCHEME)


class Season(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    start_date = models.DateField()
    end_date = models.DateField()
    description = models.TextField(max_length=2000, blank=True)
    # seasons.points: {"preset": ..., "places": [...] (custom), "attendance": n}
    points = models.JSONField(default=default_points)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Bumped on every save of the season's form: two organizers editing at once never overwrite each other.
    version = models.PositiveIntegerField(default=0, editable=False)
    events = models.ManyToManyField(Event, through="SeasonEvent", related_name="seasons")

    class Meta:
        ordering = ["-start_date", "name"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if not self.slug:
            self.slug = unique_slug(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("seasons:detail", kwargs={"slug": self.slug})


def unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "season"
    if base in RESERVED_SLUGS:
        base = f"{base}-season"
    slug, n = base, 2
    while Season.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


class SeasonOrganizer(models.Model):
    """An account that shares the season: edits it, adds the events it organizes, adds co-organizers."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="organizers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_roles")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="one_organizer_row_per_season")
        ]
        ordering = ["added_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user} organizes {self.season}"


class SeasonEvent(models.Model):
    """An event counted in a season. An event may count in several seasons."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="season_events")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="season_entries")
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["season", "event"], name="event_once_per_season")]
        ordering = ["event__date", "event__pk"]

    def __str__(self) -> str:
        return f"{self.event} in {self.season}"
