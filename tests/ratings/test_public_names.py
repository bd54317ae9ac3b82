"""Privacy on the ratings leaderboard and its API: the rated record's name follows the one public-name rule
(``tournaments.people.public_name``), so an older record of the person choosing the short name is enough."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating
from ratings.services import ratings_recompute
from tests.factories import make_user
from tests.pages import read_pages
from tournaments.models import Event, Player, Registration

from .helpers import simulated_event

pytestmark = pytest.mark.django_db

FULL = "Annabel Quixotic"
SHORT = "Annabel Q."


def link(user, *events: Event) -> list[Player]:
    """A player who played in each event, linked to ``user`` under the full name: one person, oldest first."""
    ids = [
        Registration.objects.filter(event=event, seats__isnull=False).order_by("pk").first().player_id
        for event in events
    ]
    Player.objects.filter(pk__in=ids).update(user=user, name=FULL, sort_name="")
    return list(Player.objects.filter(pk__in=ids).order_by("pk"))


def visitor_views(client, person: str) -> dict[str, str]:
    urls = {
        "page": "/ratings/",
        "filtered page": "/ratings/?q=annabel",
        "api": "/api/ratings/",
        "api for the person": f"/api/ratings/{person}/",
    }
    return read_pages(client, urls)


@pytest.fixture
def annabel():
    """Two records of one account, in two events; the newer one is the rated record."""
    first, second = simulated_event(9, 1), simulated_event(9, 2)
    user = make_user("annabel")
    records = link(user, first, second)
    ratings_recompute()
    assert PlayerRating.objects.get(person=f"u{user.pk}").player_id == records[1].pk
    return user, records


def test_an_older_record_choosing_the_short_name_hides_the_full_name(client, annabel):
    user, (older, newer) = annabel
    Player.objects.filter(pk=older.pk).update(public_short_name=True)
    for what, text in visitor_views(client, f"u{user.pk}").items():
        assert "Quixotic" not in text, what
        assert SHORT in text, what


def test_the_full_name_shows_when_no_record_chose_the_short_one(client, annabel):
    user, _ = annabel
    for what, text in visitor_views(client, f"u{user.pk}").items():
        assert FULL in text, what
