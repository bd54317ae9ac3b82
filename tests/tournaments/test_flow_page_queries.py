"""The public standings and pairings pages read in a number of queries that does not grow with the players."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_event, make_players
from tests.tournaments.flow import play_round
from tournaments import selectors
from tournaments.models import Event
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def event_after_two_rounds(players: int) -> Event:
    event = make_event()
    make_players(event, players)
    event = rounds.event_start(event=event)
    for number in (1, 2):
        play_round(rounds.round_pair(event=event, number=number, publish=True), random.Random(number))
    return Event.objects.get(pk=event.pk)


def queries_for(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("page", ["standings/", "rounds/2/"])
def test_a_public_page_reads_as_many_queries_for_37_players_as_for_9(client, page):
    small, large = event_after_two_rounds(9), event_after_two_rounds(37)
    assert queries_for(client, f"/e/{small.slug}/{page}") == queries_for(client, f"/e/{large.slug}/{page}")


def test_the_standings_lines_know_their_event_without_a_query(django_assert_num_queries):
    event = event_after_two_rounds(9)
    lines = selectors.event_standings(event)
    with django_assert_num_queries(0):
        assert {str(line.registration) for line in lines}
