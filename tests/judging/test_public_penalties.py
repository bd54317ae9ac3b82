"""What players and the public see of penalties: never the judge's note, and the table the player sits at."""

import pytest
from django.urls import reverse

from judging import services
from judging.models import Infraction
from tests.judging.helpers import judge, running_event, seat_of, seat_round
from tournaments.models import Event, Seat
from tournaments.services.rounds import seats_swap

pytestmark = pytest.mark.django_db


def warning_with_note(event, registration):
    return services.penalty_record(
        event=event,
        user=judge(event),
        infraction=Infraction.objects.get(rule="10.060"),
        type="warning",
        registration=registration,
        description="STAFF NOTE: watch this player next round",
    )


def test_the_public_list_never_shows_the_judges_note(client):
    event, players = running_event(8)
    seat_round(event, players)
    warning_with_note(event, players[0])
    Event.objects.filter(pk=event.pk).update(publish_penalties=True)
    page = client.get(reverse("judging:public_penalties", args=[event.slug])).content.decode()
    assert players[0].player.name in page and "10.060" in page
    assert "STAFF NOTE" not in page


def test_a_staff_page_shows_the_note(client):
    event, players = running_event(8)
    seat_round(event, players)
    warning_with_note(event, players[0])
    client.force_login(judge(event))
    page = client.get(reverse("judging:penalties", args=[event.slug])).content.decode()
    assert "STAFF NOTE" in page


def test_the_table_follows_a_swap_made_after_the_penalty(client):
    event, players = running_event(8)
    round = seat_round(event, players)
    first, other = seat_of(round, players[0]), seat_of(round, players[4])
    assert (first.table.number, other.table.number) == (1, 2)
    penalty = warning_with_note(event, players[0])
    seats_swap(round=round, first=first, second=other)
    Event.objects.filter(pk=event.pk).update(publish_penalties=True)
    page = client.get(reverse("judging:public_penalties", args=[event.slug])).content.decode()
    assert "Round 1 · table 2" in page
    penalty.refresh_from_db()
    assert penalty.at_table == Seat.objects.get(pk=first.pk).table
