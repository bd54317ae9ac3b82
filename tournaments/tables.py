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
