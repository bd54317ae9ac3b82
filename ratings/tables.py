from __future__ import annotations

import django_tables2 as tables
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.html import format_html

PHONE_HIDDEN = {"td": {"class": "hide-phone"}, "th": {"class": "hide-phone"}}


class LeaderboardTable(tables.Table):
    """Rows are ``selectors.RatingView``s, already in rating order (the leaderboard is not re-sorted)."""

    rank = tables.Column(verbose_name="#")
    public_name = tables.Column(verbose_name="Player")
    rating = tables.Column(verbose_name="Rating")
    uncertainty = tables.Column(verbose_name="Skill estimate", attrs=PHONE_HIDDEN)
    games = tables.Column(verbose_name="Games")
    last_played = tables.DateColumn(verbose_name="Last played", attrs=PHONE_HIDDEN, format="j M Y")

    class Meta:
        attrs = {"class": "ratings"}
        orderable = False
        row_attrs = {"class": lambda record: "provisional" if record.provisional else ""}

    def render_public_name(self, record, value):
        badge = format_html(' <span class="badge">{}</span>', "provisional") if record.provisional else ""
        if record.player_id is None:
            return format_html("<bdi>{}</bdi>{}", value, badge)
        url = reverse("tournaments:player_history", args=[record.player_id])
        return format_html('<a href="{}"><bdi>{}</bdi></a>{}', url, value, badge)

    def render_rating(self, value):
        return floatformat(value, 1)  # "0.0", never "-0.0"

    def render_uncertainty(self, value, record):
        """μ ± 3σ: the rating is its low end."""
        return f"{floatformat(record.mu, 1)} ± {floatformat(value, 1)}"
