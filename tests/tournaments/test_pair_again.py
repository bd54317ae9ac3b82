"""Pair again is idempotent: each click names the draw it replaces, so eight clicks draw one new round."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.test_drafts import draft_round, judge_of
from tournaments.errors import ActionError, AlreadyDone
from tournaments.models import Round, Seat, Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def seating(round: Round) -> list[tuple[int, int, int]]:
    return list(
        Seat.objects.filter(round=round)
        .order_by("registration_id")
        .values_list("registration_id", "table__number", "seat")
    )


def staff_page(client, round: Round) -> str:
    url = reverse("tournaments:round_staff", kwargs={"slug": round.event.slug, "number": round.number})
    return client.get(url).content.decode()


def test_it_draws_again_when_the_round_is_at_the_draw_the_page_showed():
    round = draft_round()
    assert rounds.round_repair(round=round, replaces=round.attempt).attempt == 1


def test_a_request_naming_an_earlier_draw_draws_nothing_and_says_which_draw_it_is():
    round = draft_round()
    rounds.round_repair(round=round, replaces=0)
    before = seating(round)
    with pytest.raises(AlreadyDone, match=r"already paired again \(draw 2\)"):
        rounds.round_repair(round=round, replaces=0)
    round.refresh_from_db()
    assert round.attempt == 1
    assert seating(round) == before


def test_a_late_click_is_told_the_round_was_drawn_again_before_it_is_told_of_results():
    round = draft_round()
    rounds.round_repair(round=round, replaces=0)
    Table.objects.filter(round=round, number=1).update(result_entered_at=timezone.now())
    with pytest.raises(AlreadyDone):
        rounds.round_repair(round=round, replaces=0)
    with pytest.raises(ActionError, match="already has results"):
        rounds.round_repair(round=round, replaces=1)


def test_eight_clicks_on_pair_again_draw_one_new_round(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    html = staff_page(client, round)
    posted = re.search(r'name="attempt" value="(\d+)"', html).group(1)
    url = reverse("tournaments:round_repair", kwargs={"slug": round.event.slug, "number": 1})
    answers = [client.post(url, {"attempt": posted}, follow=True).content.decode() for _ in range(8)]
    round.refresh_from_db()
    assert round.attempt == 1
    assert "Round 1 paired again." in answers[0]
    assert all("already paired again (draw 2)" in answer for answer in answers[1:])


def test_the_page_after_a_draw_offers_to_replace_that_draw(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_repair", kwargs={"slug": round.event.slug, "number": 1})
    client.post(url, {"attempt": "0"})
    html = staff_page(client, round)
    assert 'name="attempt" value="1"' in html
    client.post(url, {"attempt": "1"})
    round.refresh_from_db()
    assert round.attempt == 2


@pytest.mark.parametrize("attempt", ["", "x", "²", "9" * 40])
def test_a_missing_or_garbled_draw_number_draws_the_round_as_it_is_now(client, attempt):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_repair", kwargs={"slug": round.event.slug, "number": 1})
    response = client.post(url, {"attempt": attempt})
    assert response.status_code == 302
    round.refresh_from_db()
    assert round.attempt == 1
