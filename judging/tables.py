from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from .models import Penalty
from .selectors import (
    DISPUTED,
    EXTRA_TURNS,
    NEEDS_JUDGE,
    REPORTED,
    RESULT_IN,
    SLIP_DUE,
    TIME_CALLED,
    TableState,
)

STATUS_BADGE = {
    DISPUTED: "bad",
    NEEDS_JUDGE: "bad",
    TIME_CALLED: "bad",
    EXTRA_TURNS: "warn",
    SLIP_DUE: "warn",
    REPORTED: "warn",
    RESULT_IN: "ok",
}


class BoardTable(tables.Table):
    """The judge view's tables, most urgent first (the order comes from the selector)."""

    number = tables.Column(accessor="table__number", verbose_name="Table", orderable=False)
    status = tables.Column(accessor="status", verbose_name="Status", orderable=False)
    time = tables.Column(accessor="remaining", verbose_name="Time", orderable=False, empty_values=())
    players = tables.Column(accessor="seats", verbose_name="Players", orderable=False, empty_values=())
    actions = tables.TemplateColumn(
        template_name="judging/_board_actions.html", verbose_name="Actions", orderable=False, empty_values=()
    )

    class Meta:
        attrs = {"class": "judging-board"}
        row_attrs = {
            "id": lambda record: f"table-{record.table.number}",
            "data-status": lambda record: record.status,
        }
        orderable = False

    def __init__(self, *args, event, round, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        self.round = round

    def render_number(self, record: TableState) -> str:
        url = reverse(
            "judging:table",
            kwargs={"slug": self.event.slug, "number": self.round.number, "table": record.table.number},
        )
        return format_html('<a href="{}">Table {}</a>', url, record.table.number)

    def render_status(self, record: TableState) -> str:
        extra = ""
        if record.status == EXTRA_TURNS:
            extra = f" · {record.turns_left} turn{'s' if record.turns_left != 1 else ''} left"
        elif record.report is not None and record.status == REPORTED:
            extra = f" · {record.report.count_text}"
        elif record.status == RESULT_IN and record.detail:
            extra = f" {record.detail}"  # "Confirmed by the table" / "by a judge"
            return format_html('<span class="badge ok">{}{}</span>', record.status_label, extra)
        badge = format_html(
            '<span class="badge {}">{}{}</span>',
            STATUS_BADGE.get(record.status, ""),
            record.status_label,
            extra,
        )
        if record.detail:
            return format_html('{}<br><span class="small board-detail">{}</span>', badge, record.detail)
        return badge

    def render_time(self, record: TableState) -> str:
        if record.remaining is None:
            return "–"
        text = (
            record.remaining_text
            if record.remaining > 0
            else format_html('<span class="badge bad">{}</span>', "Time up")
        )
        if record.extension_minutes:
            return format_html(
                "{} <span class='small muted'>(+{} min)</span>", text, record.extension_minutes
            )
        return text

    def render_players(self, record: TableState) -> str:
        return format_html_join(", ", "P{} {}", ((s.seat, s.registration.player.name) for s in record.seats))


class PenaltyTable(tables.Table):
    recorded_at = tables.DateTimeColumn(format="H:i", verbose_name="Time")
    who = tables.Column(accessor="who", verbose_name="Player", orderable=False, linkify=False)
    infraction = tables.Column(accessor="infraction__rule", verbose_name="Infraction")
    type = tables.Column(verbose_name="Penalty")
    where = tables.Column(empty_values=(), verbose_name="Round · table", orderable=False)
    description = tables.Column(attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}})

    class Meta:
        model = Penalty
        fields = ("recorded_at", "who", "infraction", "type", "where", "description")
        attrs = {"class": "judging-penalties"}
        row_attrs = {"class": lambda record: "voided" if record.voided else ""}
        orderable = False

    def __init__(self, *args, event, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.event = event

    def render_who(self, record: Penalty) -> str:
        url = reverse("judging:penalty", kwargs={"slug": self.event.slug, "pk": record.pk})
        return format_html('<a href="{}">{}</a>', url, record.who)

    def render_infraction(self, record: Penalty) -> str:
        return f"{record.infraction.rule} {record.infraction.name}"

    def render_type(self, record: Penalty) -> str:
        if record.voided:
            return format_html('<s>{}</s> <span class="badge">void</span>', record.get_type_display())
        return record.get_type_display()

    # The CSV export (?_export=csv): plain words, the date with the time, in the event's time zone.
    def value_recorded_at(self, record: Penalty) -> str:
        return timezone.localtime(record.recorded_at).strftime("%Y-%m-%d %H:%M")

    def value_who(self, record: Penalty) -> str:
        return str(record.who)

    def value_type(self, record: Penalty) -> str:
        return f"{record.get_type_display()} (void)" if record.voided else record.get_type_display()

    def render_where(self, record: Penalty) -> str:
        parts = []
        if record.round_id:
            parts.append(record.round.label)
        if record.at_table:
            parts.append(f"table {record.at_table.number}")
        return " · ".join(parts) or "–"
