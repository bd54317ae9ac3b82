"""The lists of a player's history and of a head-to-head (rows are tournaments.history dataclasses).

Every name in them is the public one; names sit in ``<bdi>`` so a right-to-left name keeps the line in
order. Numbers stay numbers in the CSV (``value_*`` gives the plain value, ``render_*`` the words).
"""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from .history import EventLine, Meeting, Opponent
from .names import ordinal

PHONE_HIDDEN = {"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}
STAGES = {"swiss": "Round {}", "semifinal": "Semi-final", "final": "Final"}


def round_label(kind: str, number: int) -> str:
    return STAGES.get(kind, "Round {}").format(number)


def points_text(points: float | None) -> str:
    return "—" if points is None else f"{points:g}"


class HistoryEventsTable(tables.Table):
    date = tables.DateColumn(format="j M Y", verbose_name="Date")
    name = tables.Column(verbose_name="Event")
    place = tables.Column(empty_values=(), verbose_name="Place", order_by=("finished", "place"))
    games = tables.Column(verbose_name="Games")
    wins = tables.Column(verbose_name="Wins", attrs=PHONE_HIDDEN)
    points = tables.Column(verbose_name="Pts", attrs=PHONE_HIDDEN)

    class Meta:
        attrs = {"class": "history-events"}
        orderable = False

    def render_name(self, record: EventLine, value: str):
        url = reverse("tournaments:event_detail", kwargs={"slug": record.slug})
        return format_html('<a href="{}">{}</a>', url, value)

    def render_place(self, record: EventLine) -> str:
        if not record.started:
            words = "Not started yet"
        elif not record.finished:
            words = "In progress"
            if record.games:
                words += (
                    f" · {record.points:g} pts after {record.games} game{'s' if record.games != 1 else ''}"
                )
        elif record.place is not None:
            words = f"{ordinal(record.place)} of {record.of}"
        else:
            words = "Did not play" if not record.games else "—"
        if record.dropped and not record.started:
            return format_html('{} <span class="badge">withdrawn</span>', words)
        if record.dropped:
            after = f" after round {record.dropped_after_round}" if record.dropped_after_round else ""
            return format_html('{} <span class="badge">dropped{}</span>', words, after)
        if record.records > 1:
            return format_html('{} <span class="badge">entered twice</span>', words)
        return words

    def value_place(self, record: EventLine):
        return record.place if record.place is not None else ""

    def render_points(self, value: float) -> str:
        return points_text(value)


class OpponentsTable(tables.Table):
    name = tables.Column(verbose_name="Opponent")
    games = tables.Column(verbose_name="Games together")
    ahead = tables.Column(verbose_name="You ahead")
    behind = tables.Column(verbose_name="They ahead")

    class Meta:
        attrs = {"class": "history-opponents"}
        orderable = False

    def __init__(self, *args, player_id: int, player_name: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.vs_url = reverse("tournaments:player_vs", kwargs={"pk": player_id, "other": 0})[:-2]
        # The column heads say whose figures they are: "Ann S. ahead", not "You" on a public page.
        self.columns["ahead"].column.verbose_name = f"{player_name} ahead"

    def render_name(self, record: Opponent, value: str):
        return format_html('<a href="{}{}/"><bdi>{}</bdi></a>', self.vs_url, record.player_id, value)

    def value_name(self, value: str) -> str:
        return value


class MeetingsTable(tables.Table):
    date = tables.DateColumn(accessor="event_date", format="j M Y", verbose_name="Date", attrs=PHONE_HIDDEN)
    event = tables.Column(accessor="event_name", verbose_name="Event")
    round = tables.Column(empty_values=(), accessor="round_number", verbose_name="Round")
    table = tables.Column(accessor="table_number", verbose_name="Table")
    size = tables.Column(verbose_name="Players", attrs=PHONE_HIDDEN)
    placement = tables.Column(verbose_name="Place")
    points = tables.Column(verbose_name="Pts", attrs=PHONE_HIDDEN)
    other_placement = tables.Column(verbose_name="Their place")
    other_points = tables.Column(verbose_name="Their pts", attrs=PHONE_HIDDEN)

    class Meta:
        attrs = {"class": "history-meetings"}
        orderable = False

    def __init__(self, *args, name: str, other_name: str, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.columns["placement"].column.verbose_name = f"{name}: place"
        self.columns["points"].column.verbose_name = f"{name}: pts"
        self.columns["other_placement"].column.verbose_name = f"{other_name}: place"
        self.columns["other_points"].column.verbose_name = f"{other_name}: pts"

    def render_event(self, record: Meeting, value: str):
        url = reverse("tournaments:event_detail", kwargs={"slug": record.event_slug})
        return format_html('<a href="{}">{}</a>', url, value)

    def render_round(self, record: Meeting) -> str:
        return round_label(record.round_kind, record.round_number)

    def render_placement(self, value: int) -> str:
        return ordinal(value)

    def render_other_placement(self, value: int) -> str:
        return ordinal(value)

    def render_points(self, value) -> str:
        return points_text(value)

    def render_other_points(self, value) -> str:
        return points_text(value)
