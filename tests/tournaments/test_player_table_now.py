"""A player's own pages: "Your table now" while a published round runs, and dropping themselves (9.030)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_user
from tests.judging.helpers import enter_result, running_event, seat_round
from tournaments.errors import ActionError
from tournaments.models import Registration, Round, Table
from tournaments.services.self_drop import registration_self_drop

pytestmark = pytest.mark.django_db


def seated(published: bool = True):
    event, registrations = running_event(8)
    round = seat_round(event, registrations, published=published)
    user = make_user("ann")
    ann = registrations[0]
    ann.player.user = user
    ann.player.save()
    return event, round, ann, user


def player_url(registration: Registration) -> str:
    return reverse("tournaments:player", kwargs={"slug": registration.event.slug, "pk": registration.pk})


def drop_url(registration: Registration) -> str:
    return reverse("tournaments:self_drop", kwargs={"slug": registration.event.slug, "pk": registration.pk})


def test_my_events_shows_your_table_now_with_a_link_to_it(client):
    event, round, ann, user = seated()
    client.force_login(user)
    body = client.get(reverse("accounts:my_events")).content.decode()
    assert "Your table now" in body and "Table 1 · Seat 1" in body
    assert reverse("tournaments:table", kwargs={"slug": event.slug, "number": 1, "table": 1}) in body
    assert "When the game ends, report the match slip." in body


def test_a_draft_round_is_not_shown_to_the_player(client):
    _, _, ann, user = seated(published=False)
    client.force_login(user)
    assert "Your table now" not in client.get(reverse("accounts:my_events")).content.decode()
    assert "Your table now" not in client.get(player_url(ann)).content.decode()


def test_the_player_page_shows_the_card_to_its_owner_only(client):
    _, _, ann, user = seated()
    client.force_login(user)
    assert "Your table now" in client.get(player_url(ann)).content.decode()
    client.force_login(make_user("bob"))
    body = client.get(player_url(ann)).content.decode()
    assert "Your table now" not in body and "Drop from this event" not in body


def test_the_card_says_what_to_do_next_after_a_result(client):
    _, round, ann, user = seated()
    enter_result(Table.objects.get(round=round, number=1), [30, 20, 10, 5])
    client.force_login(user)
    assert "Result in: you placed 1st." in client.get(player_url(ann)).content.decode()


def test_during_a_game_dropping_is_refused_call_a_judge(client):
    _, _, ann, user = seated()
    client.force_login(user)
    body = client.get(drop_url(ann)).content.decode()
    assert "Your game is still going: call a judge (9.040)." in body
    client.post(drop_url(ann), {"confirm": "1"})
    ann.refresh_from_db()
    assert not ann.dropped


def test_between_rounds_the_player_drops_after_confirming(client):
    _, round, ann, user = seated()
    for table in Table.objects.filter(round=round):
        enter_result(table, [30, 20, 10, 5])
    round.status = Round.Status.CLOSED
    round.save()
    client.force_login(user)
    assert "You will not be paired again" in client.get(drop_url(ann)).content.decode()
    response = client.post(drop_url(ann), {"confirm": "1"})
    assert response.status_code == 302
    ann.refresh_from_db()
    assert ann.dropped and ann.dropped_after_round == 1


def test_a_player_whose_game_is_over_may_drop_before_the_round_closes():
    _, round, ann, user = seated()
    enter_result(Table.objects.get(round=round, number=1), [30, 20, 10, 5])
    registration = registration_self_drop(registration=ann, user=user)
    assert registration.dropped_after_round == 1


def test_only_the_owner_drops_a_registration(client):
    _, _, ann, _ = seated()
    client.force_login(make_user("bob"))
    assert client.get(drop_url(ann)).status_code == 403
    assert client.post(drop_url(ann), {"confirm": "1"}).status_code == 403
    with pytest.raises(ActionError):
        registration_self_drop(registration=ann, user=make_user("eve"))


def test_the_drop_page_sends_a_visitor_to_log_in(client):
    _, _, ann, _ = seated()
    response = client.get(drop_url(ann))
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_my_events_reads_in_the_same_number_of_queries_for_more_events(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, _, _, user = seated()
    client.force_login(user)
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("accounts:my_events"))
    event, registrations = running_event(4)
    round = seat_round(event, registrations)
    round.published_at = timezone.now()
    round.save()
    registrations[2].player.user = user
    registrations[2].player.save()
    with CaptureQueriesContext(connection) as two:
        body = client.get(reverse("accounts:my_events")).content.decode()
    assert body.count("Your table now") == 2
    assert len(two) == len(one)
