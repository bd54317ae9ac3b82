"""Downloads of an event's public data for other tools: every game's result as CSV, and a calendar entry.

The pairings, standings, registrations and penalties pages export their own tables (``?_export=csv``); this
module holds the two downloads that are not a page's table.
"""

from __future__ import annotations

import datetime

import django_tables2 as tables
from django.utils import timezone

from .models import Event, Seat


class ResultsTable(tables.Table):
    """One row per player per game: where they sat and how the game ended for them. Numbers stay numbers."""

    round = tables.Column(accessor="round__number", verbose_name="Round")
    stage = tables.Column(accessor="round__kind", verbose_name="Stage")
    table = tables.Column(accessor="table__number", verbose_name="Table")
    seat = tables.Column(verbose_name="Seat")
    player = tables.Column(accessor="registration__player__public_name", verbose_name="Player")
    vp = tables.Column(verbose_name="VP")
    super_villains = tables.Column(verbose_name="Super-Villains")
    placement = tables.Column(verbose_name="Placement")
    points = tables.Column(verbose_name="Points")
    left_game = tables.Column(verbose_name="Left the game (turn order place)")

    def value_points(self, record: Seat):
        # 5.00 → 5, 2.50 → 2.5: what a spreadsheet reads as the number it is.
        return "" if record.points is None else f"{record.points.normalize():f}"

    def value_stage(self, record: Seat) -> str:
        return record.round.get_kind_display()


def published_seats(event: Event):
    """Every seat of the event's published rounds, in round, table and turn order."""
    return (
        Seat.objects.filter(round__event=event, round__published_at__isnull=False)
        .select_related("round", "table", "registration__player")
        .order_by("round__number", "table__number", "seat")
    )


def calendar_entry(event: Event, *, url: str, host: str) -> bytes:
    """The event as an iCalendar file: a whole-day entry on its date (the product keeps no start time),
    at its venue, linking to its page."""
    from icalendar import Calendar
    from icalendar import Event as CalendarEvent

    calendar = Calendar()
    calendar.add("prodid", "-//DCDB Tournament Toolkit//EN")
    calendar.add("version", "2.0")
    entry = CalendarEvent()
    entry.add("uid", f"{event.slug}@{host}")
    entry.add("dtstamp", timezone.now())
    entry.add("dtstart", event.date)
    entry.add("dtend", event.date + datetime.timedelta(days=1))
    entry.add("summary", event.name)
    if event.venue:
        entry.add("location", event.venue)
    entry.add("url", url)
    entry.add("description", f"DC Comics Deck-Building Game tournament. Pairings and standings: {url}")
    calendar.add_component(entry)
    return calendar.to_ical()


class PlayerGamesTable(tables.Table):
    """A player's games across events (rows: tournaments.history.GameLine), public names only."""

    player = tables.Column(verbose_name="Player")
    date = tables.Column(accessor="event_date", verbose_name="Date")
    event = tables.Column(accessor="event_name", verbose_name="Event")
    round = tables.Column(accessor="round_number", verbose_name="Round")
    stage = tables.Column(accessor="round_kind", verbose_name="Stage")
    table = tables.Column(accessor="table_number", verbose_name="Table")
    size = tables.Column(verbose_name="Players at the table")
    seat = tables.Column(verbose_name="Seat")
    placement = tables.Column(verbose_name="Placement")
    points = tables.Column(verbose_name="Points")
    vp = tables.Column(verbose_name="VP")
    opponents = tables.Column(verbose_name="Opponents (turn order)")

    def value_date(self, value) -> str:
        return value.isoformat()

    def value_stage(self, value) -> str:
        return {"swiss": "Swiss", "semifinal": "Semi-final", "final": "Final"}.get(value, value)

    def value_points(self, value) -> str:
        return "" if value is None else f"{value:g}"

    def value_opponents(self, value) -> str:
        return "; ".join(value)
