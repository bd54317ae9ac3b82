from __future__ import annotations

import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django_tables2 import RequestConfig

from .models import Registration


def configure_pages(request: HttpRequest, table: tables.Table, *, per_page: int) -> None:
    """Sorting and the page from the request, ``per_page`` rows a page whatever the request says.

    django-tables2's own RequestConfig also takes ``?per_page=`` from the visitor: a negative one made its
    paginator fail (a 500), and the standings page caches its table under a key without it.
    """
    RequestConfig(request, paginate=False).configure(table)
    try:
        table.paginate(page=int(request.GET.get(table.prefixed_page_field, 1)), per_page=per_page)
    except (ValueError, PageNotAnInteger):
        table.paginate(page=1, per_page=per_page)
    except EmptyPage:
        table.paginate(page=table.paginator.num_pages, per_page=per_page)


class RegistrationTable(tables.Table):
    name = tables.Column(accessor="player__name", verbose_name="Player", order_by=("player__sort_name",))
    email = tables.Column(
        accessor="player__email",
        verbose_name="Email",
        attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}},
    )
    checked_in = tables.TemplateColumn(
        template_name="tournaments/_checkin_cell.html", verbose_name="Checked in", exclude_from_export=True
    )
    checked_in_export = tables.BooleanColumn(accessor="checked_in", verbose_name="Checked in", visible=False)
    status = tables.Column(empty_values=(), verbose_name="Status", order_by=("dropped_at",))
    notes = tables.Column(attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}})
    actions = tables.TemplateColumn(
        template_name="tournaments/_registration_actions.html",
        verbose_name="Actions",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        model = Registration
        fields = ("name", "email", "checked_in", "status", "notes")
        sequence = ("name", "email", "checked_in", "checked_in_export", "status", "notes", "actions")
        attrs = {"class": "registrations"}
        row_attrs = {"id": lambda record: f"registration-{record.pk}"}
        per_page = 200

    def render_status(self, record: Registration) -> str:
        if record.disqualified:
            status = "Disqualified"
        elif record.dropped:
            status = "Dropped" + (
                f" after round {record.dropped_after_round}" if record.dropped_after_round else ""
            )
        elif record.waitlisted:
            position = getattr(self, "waitlist_positions", {}).get(record.pk)
            status = f"Waitlisted #{position}" if position else "Waitlisted"
        else:
            status = "Active"
        # A late entry has 0 points for the rounds before it joined: say so where staff look.
        if record.joined_round > 1:
            status += f" · late entry, from round {record.joined_round}"
        return status

    def value_status(self, record: Registration) -> str:
        return self.render_status(record)


PHONE_HIDDEN = {"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}


class StandingsTable(tables.Table):
    """Rank, player, points, each tiebreaker, placements 1st-4th. Rows are selectors.StandingLine.

    Columns read plain attributes of the line (no render method per cell): a big event's page
    renders a hundred rows at a time, and is re-fetched by every phone in the room.
    """

    rank = tables.Column(verbose_name="#")
    player = tables.Column(accessor="name", verbose_name="Player", order_by=("name",))
    points = tables.Column(accessor="points_text", verbose_name="Pts", order_by=("points",))
    super_villains = tables.Column(
        accessor="super_villains_text", verbose_name="SV", order_by=("tiebreakers__super_villains",)
    )
    opponents_points_rate = tables.Column(
        accessor="opponents_rate_text",
        verbose_name="Opp. rate",
        order_by=("tiebreakers__opponents_points_rate",),
    )
    vp = tables.Column(accessor="vp_text", verbose_name="VP", order_by=("tiebreakers__vp",))
    first = tables.Column(accessor="firsts", verbose_name="1st", attrs=PHONE_HIDDEN)
    second = tables.Column(accessor="seconds", verbose_name="2nd", attrs=PHONE_HIDDEN)
    third = tables.Column(accessor="thirds", verbose_name="3rd", attrs=PHONE_HIDDEN)
    fourth = tables.Column(accessor="fourths", verbose_name="4th", attrs=PHONE_HIDDEN)
    games = tables.Column(verbose_name="Games", attrs=PHONE_HIDDEN)

    class Meta:
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: "" if record.active else "inactive"}
        orderable = True

    def __init__(self, *args, event=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.player_url = (
            reverse("tournaments:player", kwargs={"slug": event.slug, "pk": 0})[:-2] if event else ""
        )

    def render_player(self, record, value):
        status = "" if record.active else format_html(' <span class="badge">{}</span>', "dropped")
        return format_html('<a href="{}{}/">{}</a>{}', self.player_url, record.registration.pk, value, status)

    def value_player(self, record, value):
        return value


# --- Main-character statistics (tournaments.characters) -------------------------------------------------


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value * 100:.0f}%"


def _place(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


class FigureColumn(tables.Column):
    """A figure and, beside it in brackets, the number of games it was computed from (the header says so)."""

    def __init__(self, *args, shown=_percent, **kwargs) -> None:
        self.shown = shown
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("empty_values", ())
        super().__init__(*args, **kwargs)

    def render(self, value) -> str:
        return format_html(
            '{}&nbsp;<span class="small muted">({})</span>', self.shown(value.value), value.games
        )


def _hide_phone() -> dict:
    return {"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}


class CharacterStatisticsTable(tables.Table):
    """One line per main character (``characters.CharacterLine``), most played first."""

    label = tables.Column(verbose_name="Main character", orderable=False)
    # On a phone the number of games shows beside the average place and the win rate only.
    games = tables.Column(
        accessor="overall__games", verbose_name="Games", orderable=False, attrs=_hide_phone()
    )
    share = FigureColumn(accessor="overall__share", verbose_name="Share (of games)")
    average_place = FigureColumn(
        accessor="overall__average_place", verbose_name="Average place (games)", shown=_place
    )
    win_rate = FigureColumn(accessor="overall__win_rate", verbose_name="Win rate (games)")
    three = FigureColumn(accessor="label", verbose_name="Win rate at 3 players (games)", attrs=_hide_phone())
    four = FigureColumn(accessor="label", verbose_name="Win rate at 4 players (games)", attrs=_hide_phone())

    class Meta:
        attrs = {"class": "characters"}
        orderable = False

    def render_three(self, record) -> str:
        return self.columns["three"].column.render(record.by_size[3].win_rate)

    def render_four(self, record) -> str:
        return self.columns["four"].column.render(record.by_size[4].win_rate)

    def render_label(self, record) -> str:
        if record.matched:
            return format_html("<bdi>{}</bdi>", record.label)
        return format_html('<bdi>{}</bdi> <span class="small">(free text, not matched)</span>', record.label)
