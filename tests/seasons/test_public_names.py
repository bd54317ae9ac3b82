"""Privacy in the season standings: a person shows under the one public-name rule
(``tournaments.people.public_name``), so one record choosing the short name hides the full name from the
page, the CSV and the API, even when it is an older record than the one the standings name them by."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.factories import make_user
from tests.pages import read_pages
from tests.seasons.helpers import finished_event, make_season
from tournaments.models import Event, Player

pytestmark = pytest.mark.django_db

FULL = "Annabel Quixotic"
SHORT = "Annabel Q."


def link(user, *events: Event) -> list[Player]:
    """The first player of each event, linked to ``user`` under the full name: one person, oldest first."""
    ids = [event.registrations.order_by("pk").first().player_id for event in events]
    Player.objects.filter(pk__in=ids).update(user=user, name=FULL, sort_name="")
    return list(Player.objects.filter(pk__in=ids).order_by("pk"))


def visitor_views(client, season) -> dict[str, str]:
    urls = {
        "page": season.get_absolute_url(),
        "filtered page": season.get_absolute_url() + "?q=annabel",
        "csv": reverse("seasons:csv", args=[season.slug]),
        "api": f"/api/seasons/{season.slug}/standings/",
    }
    return read_pages(client, urls)


@pytest.mark.parametrize(
    "older_in_season", [True, False], ids=["older record in the season", "older record outside it"]
)
def test_an_older_record_choosing_the_short_name_hides_the_full_name(client, older_in_season):
    boss = make_user()
    older_date = datetime.date(2026, 2, 7) if older_in_season else datetime.date(2025, 11, 7)
    first = finished_event(boss, date=older_date)
    second = finished_event(boss, date=datetime.date(2026, 3, 7), seed=2)
    older, newer = link(make_user("annabel"), first, second)
    Player.objects.filter(pk=older.pk).update(public_short_name=True)
    season = make_season(boss, events=[first, second] if older_in_season else [second])
    for what, text in visitor_views(client, season).items():
        assert "Quixotic" not in text, what
        assert SHORT in text, what


def test_the_full_name_shows_when_no_record_chose_the_short_one(client):
    boss = make_user()
    first = finished_event(boss, date=datetime.date(2026, 2, 7))
    second = finished_event(boss, date=datetime.date(2026, 3, 7), seed=2)
    link(make_user("annabel"), first, second)
    season = make_season(boss, events=[first, second])
    for what, text in visitor_views(client, season).items():
        assert FULL in text, what
