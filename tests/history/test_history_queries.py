"""The history and head-to-head selectors read in a fixed number of queries, whatever the number of events
and games (the events' final places come from the cache once computed)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from tests.factories import make_user
from tests.history.helpers import first_player, one_person, simulated_event
from tournaments import selectors_history
from tournaments.models import Event, Round, Seat

pytestmark = pytest.mark.django_db


def queries(function, **kwargs) -> int:
    function(**kwargs)  # the first view computes each event's final places; the rest read the cache
    with CaptureQueriesContext(connection) as captured:
        function(**kwargs)
    return len(captured)


def test_the_history_takes_as_many_queries_for_one_event_as_for_four():
    user = make_user("ann")
    events = [simulated_event(9, 1)]
    one_person(user, first_player(events[0]))
    one = queries(selectors_history.player_history, player_id=first_player(events[0]).pk)
    for seed in (2, 3, 4):
        events.append(simulated_event(13, seed))
    one_person(user, *(first_player(e) for e in events))
    four = queries(selectors_history.player_history, player_id=first_player(events[0]).pk)
    assert one == four <= 8


def test_the_head_to_head_takes_as_many_queries_for_one_event_as_for_three():
    user, other_user = make_user("ann"), make_user("bob")
    events = [simulated_event(9, 1)]
    # Two players of the same first table met at least once.
    one_person(user, first_player(events[0], 0))
    one_person(other_user, first_player(events[0], 1), name="Bob Berg")
    one = queries(
        selectors_history.head_to_head,
        player_id=first_player(events[0], 0).pk,
        other_id=first_player(events[0], 1).pk,
    )
    events += [simulated_event(9, 2), simulated_event(9, 3)]
    one_person(user, *(first_player(e, 0) for e in events))
    one_person(other_user, *(first_player(e, 1) for e in events), name="Bob Berg")
    three = queries(
        selectors_history.head_to_head,
        player_id=first_player(events[0], 0).pk,
        other_id=first_player(events[0], 1).pk,
    )
    assert one == three <= 6


def test_a_corrected_final_reaches_the_places_at_once():
    """The cached places are keyed on the event's results version, which every correction bumps."""
    event = simulated_event(9, 1)
    final = list(Seat.objects.filter(round__event=event, round__kind=Round.Kind.FINAL).order_by("placement"))
    winner, second = final[0].registration.player, final[1].registration.player
    assert selectors_history.player_history(player_id=winner.pk).history.events[0].place == 1
    Seat.objects.filter(pk=final[0].pk).update(placement=2)
    Seat.objects.filter(pk=final[1].pk).update(placement=1)
    Event.objects.filter(pk=event.pk).update(results_version=F("results_version") + 1)
    assert selectors_history.player_history(player_id=winner.pk).history.events[0].place == 2
    assert selectors_history.player_history(player_id=second.pk).history.events[0].place == 1
