from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from ratings.selectors import PROVISIONAL_TEXT
from tournaments.tables import PHONE_HIDDEN

from .models import Season

RATING_TITLE = "Rating across every counted game (not only this season's), μ − 3σ; see All ratings."


class SeasonTable(tables.Table):
    name = tables.Column(linkify=True, verbose_name="Season", orderable=False)
    start_date = tables.DateColumn(format="N j, Y", verbose_name="From", orderable=False)
    end_date = tables.DateColumn(format="N j, Y", verbose_name="To", orderable=False)
    event_count = tables.Column(verbose_name="Events", orderable=False)

    class Meta:
        model = Season
        fields = ("name", "start_date", "end_date", "event_count")
        attrs = {"class": "seasons"}


class SeasonStandingsTable(tables.Table):
    """Rank, name, season points, the tiebreakers, then the points of each event (hidden on a phone).
    Rows are ``seasons.standings.SeasonLine``; the order is the standings' own."""

    rank = tables.Column(verbose_name="#", orderable=False)
    name = tables.Column(verbose_name="Player", orderable=False)
    points = tables.Column(verbose_name="Pts", orderable=False)
    best_finish = tables.Column(verbose_name="Best", orderable=False)
    # On a phone: rank, name, points, best finish and rating; the rest is in the CSV and on a wider screen.
    event_wins = tables.Column(verbose_name="Wins", orderable=False, attrs=PHONE_HIDDEN)
    events_played = tables.Column(verbose_name="Events", orderable=False, attrs=PHONE_HIDDEN)
    rating = tables.Column(
        verbose_name="Rating", accessor="person", orderable=False, attrs={"th": {"title": RATING_TITLE}}
    )

    class Meta:
        attrs = {"class": "standings season-standings"}
        row_attrs = {"id": lambda record: f"person-{record.person}"}

    def __init__(self, data, *, events=(), ratings=None, records=None, **kwargs) -> None:
        self.ratings = ratings or {}  # person -> ratings.selectors.RatingView
        self.records = records or {}  # person -> the record their history page opens on
        extra = [
            (
                f"event_{n}",
                tables.Column(
                    accessor=f"event_points__{n}",
                    verbose_name=view.event.name,
                    orderable=False,
                    default="–",
                    attrs=PHONE_HIDDEN,
                ),
            )
            for n, view in enumerate(events)
        ]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_name(self, value: str, record):
        pk = self.records.get(record.person)
        if pk is None:
            return format_html("<bdi>{}</bdi>", value)
        url = reverse("tournaments:player_history", args=[pk])
        return format_html('<a href="{}"><bdi>{}</bdi></a>', url, value)

    def render_rating(self, value: str):
        view = self.ratings.get(value)
        if view is None:
            return "–"
        if view.provisional:
            mark = format_html(' <abbr class="small muted" title="{}">prov.</abbr>', PROVISIONAL_TEXT)
            return format_html("{}{}", f"{view.rating:.1f}", mark)
        return f"{view.rating:.1f}"

    def render_best_finish(self, value: int) -> str:
        suffix = "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        return f"{value}{suffix}"
