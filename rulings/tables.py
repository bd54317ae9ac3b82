from __future__ import annotations

import django_tables2 as tables
from django.utils.html import format_html

from .models import Card, Document


class DocumentTable(tables.Table):
    title = tables.Column(linkify=lambda record: record.get_absolute_url())
    # On a phone the title names the game already; the column would push "Entries" off the screen.
    game = tables.Column(
        accessor="game__name", attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}
    )
    edition = tables.Column()
    authority = tables.Column(attrs={"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}})
    entry_count = tables.Column(verbose_name="Entries")
    is_current = tables.BooleanColumn(verbose_name="Current")

    class Meta:
        model = Document
        fields = ("title", "game", "edition", "authority", "entry_count", "is_current")
        orderable = False


class CardTable(tables.Table):
    name = tables.Column()
    set_name = tables.Column(verbose_name="Set")
    ruling_count = tables.Column(verbose_name="Rulings")

    class Meta:
        model = Card
        fields = ("name", "set_name", "ruling_count")
        orderable = False

    def render_name(self, record: Card, value: str) -> str:
        pages = getattr(record, "pages", [])
        if pages:
            return format_html('<a href="{}">{}</a>', pages[0].get_absolute_url(), value)
        return value
