from __future__ import annotations

import django_tables2 as tables

from .models import Registration


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
        verbose_name="",
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
            return "Disqualified"
        if record.dropped:
            return "Dropped" + (
                f" after round {record.dropped_after_round}" if record.dropped_after_round else ""
            )
        return "Active"

    def value_status(self, record: Registration) -> str:
        return self.render_status(record)


TIEBREAKER_LABELS = {
    "super_villains": "SV",
    "opponents_points_rate": "Opp. rate",
    "vp": "VP",
}


class StandingsTable(tables.Table):
    """Rank, player, points, each tiebreaker, placements 1st-4th. Rows are selectors.StandingLine."""

    rank = tables.Column(verbose_name="#")
    player = tables.Column(accessor="registration__player__name", verbose_name="Player", linkify=False)
    points = tables.Column(verbose_name="Pts")
    super_villains = tables.Column(accessor="tiebreakers__super_villains", verbose_name="SV", default=0)
    opponents_points_rate = tables.Column(
        accessor="tiebreakers__opponents_points_rate", verbose_name="Opp. rate", default=0
    )
    vp = tables.Column(accessor="tiebreakers__vp", verbose_name="VP", default=0)
    first = tables.Column(
        accessor="placements",
        empty_values=(),
        verbose_name="1st",
        attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}},
    )
    second = tables.Column(
        accessor="placements",
        empty_values=(),
        verbose_name="2nd",
        attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}},
    )
    third = tables.Column(
        accessor="placements",
        empty_values=(),
        verbose_name="3rd",
        attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}},
    )
    fourth = tables.Column(
        accessor="placements",
        empty_values=(),
        verbose_name="4th",
        attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}},
    )
    games = tables.Column(
        verbose_name="Games", attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}
    )

    class Meta:
        attrs = {"class": "standings"}
        row_attrs = {"class": lambda record: "" if record.active else "inactive"}
        orderable = True

    def __init__(self, *args, event=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event

    def _place(self, record, index: int) -> int:
        return record.placements[index] if len(record.placements) > index else 0

    def render_player(self, record, value):
        from django.urls import reverse
        from django.utils.html import format_html

        url = reverse("tournaments:player", kwargs={"slug": self.event.slug, "pk": record.registration.pk})
        status = "" if record.active else format_html(' <span class="badge">{}</span>', "dropped")
        return format_html('<a href="{}">{}</a>{}', url, value, status)

    def value_player(self, record, value):
        return value

    def render_points(self, value):
        return f"{value:g}"

    def render_opponents_points_rate(self, value):
        return f"{value:.3f}"

    def render_vp(self, value):
        return f"{value:g}"

    def render_super_villains(self, value):
        return f"{value:g}"

    def render_first(self, record):
        return self._place(record, 0)

    def render_second(self, record):
        return self._place(record, 1)

    def render_third(self, record):
        return self._place(record, 2)

    def render_fourth(self, record):
        return self._place(record, 3)

    value_first = render_first
    value_second = render_second
    value_third = render_third
    value_fourth = render_fourth
