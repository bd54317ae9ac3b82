"""Draft and published rounds: a paired round is a draft only staff see until it is published."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from judging.models import TimeCall
from tests.factories import add_staff, make_event, make_players, make_user
from tests.permissions import RUN, VISITORS, log_in_as, outcome
from tests.tournaments.flow import play_round
from tournaments.errors import ActionError
from tournaments.models import EventStaff, PrintJob, ResultChange, Round, Seat
from tournaments.services import printing, rounds

pytestmark = pytest.mark.django_db


def started_event(players: int = 8, rounds_override: int | None = None):
    event = make_event(organizer=make_user())
    make_players(event, players)
    return rounds.event_start(event=event, rounds_override=rounds_override)


def draft_round(players: int = 8) -> Round:
    event = started_event(players)
    return rounds.round_pair(event=event, number=1)


def judge_of(event):
    user = make_user()
    add_staff(event, user, EventStaff.Role.JUDGE)
    return user


def player_at(round: Round, client):
    """Log ``client`` in as the player in seat 1 of table 1 (their account linked to the registration)."""
    seat = Seat.objects.select_related("registration__player").get(round=round, table__number=1, seat=1)
    user = make_user()
    seat.registration.player.user = user
    seat.registration.player.save()
    client.force_login(user)
    return seat


def publish(round: Round) -> Round:
    return rounds.round_publish(round=round)


# --- Pairing makes a draft; publishing shows it ------------------------------------------


def test_a_paired_round_is_a_draft():
    assert not draft_round().published


def test_pair_and_publish_makes_it_public_at_once():
    event = started_event()
    assert rounds.round_pair(event=event, number=1, publish=True).published


def test_publishing_twice_keeps_the_first_time():
    round = publish(draft_round())
    first = round.published_at
    assert publish(round).published_at == first


def test_the_desk_pairs_a_draft_with_pair(client):
    event = started_event()
    client.force_login(judge_of(event))
    response = client.post(
        reverse("tournaments:round_pair", kwargs={"slug": event.slug}), {"number": 1}, follow=True
    )
    assert not Round.objects.get(event=event, number=1).published
    assert "Draft: only staff see these tables." in response.content.decode()


def test_the_desk_pairs_and_publishes_with_pair_and_publish(client):
    event = started_event()
    client.force_login(judge_of(event))
    url = reverse("tournaments:round_pair", kwargs={"slug": event.slug})
    response = client.post(url, {"number": 1, "publish": "1"}, follow=True)
    assert Round.objects.get(event=event, number=1).published
    assert 'id="published-at"' in response.content.decode()


def test_the_publish_button_publishes_the_draft(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_publish", kwargs={"slug": round.event.slug, "number": 1})
    response = client.post(url, follow=True)
    round.refresh_from_db()
    assert round.published
    assert "Round 1 published" in response.content.decode()


def test_publishing_again_from_the_page_says_so_and_keeps_the_time(client):
    round = publish(draft_round())
    first = round.published_at
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_publish", kwargs={"slug": round.event.slug, "number": 1})
    response = client.post(url, follow=True)
    round.refresh_from_db()
    assert round.published_at == first
    assert "Round 1 was already published." in response.content.decode()


def test_publishing_a_round_that_does_not_exist_is_a_404(client):
    event = started_event()
    client.force_login(judge_of(event))
    url = reverse("tournaments:round_publish", kwargs={"slug": event.slug, "number": 7})
    assert client.post(url).status_code == 404


def test_pairing_a_published_round_again_makes_it_a_draft_and_says_so(client):
    round = publish(draft_round())
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_repair", kwargs={"slug": round.event.slug, "number": 1})
    response = client.post(url, follow=True)
    round.refresh_from_db()
    assert not round.published
    assert "It is a draft again" in response.content.decode()


def test_a_draft_cannot_be_closed():
    round = draft_round()
    with pytest.raises(ActionError, match="Publish round 1 first"):
        rounds.round_close(round=round)


def test_the_staff_page_of_a_published_round_says_when(client):
    round = publish(draft_round())
    client.force_login(judge_of(round.event))
    page = client.get(reverse("tournaments:round_staff", kwargs={"slug": round.event.slug, "number": 1}))
    html = page.content.decode()
    assert "Published " in html and "Draft: only staff see" not in html


def play_swiss(event, seed: int) -> None:
    rng = random.Random(seed)
    for number in range(1, event.swiss_rounds + 1):
        play_round(rounds.round_pair(event=event, number=number, publish=True), rng)


@pytest.mark.parametrize("publish", [True, False])
def test_the_desk_seats_the_play_offs_as_a_draft_or_published(client, publish):
    event = started_event()
    play_swiss(event, 1)
    client.force_login(judge_of(event))
    page = client.get(reverse("tournaments:rounds", kwargs={"slug": event.slug})).content.decode()
    assert 'id="start-playoffs-publish"' in page
    data = {"publish": "1"} if publish else {}
    client.post(reverse("tournaments:playoffs_start", kwargs={"slug": event.slug}), data)
    assert Round.objects.exclude(kind=Round.Kind.SWISS).get(event=event).published == publish


@pytest.mark.parametrize("publish", [True, False])
def test_the_desk_seats_the_final_as_a_draft_or_published(client, publish):
    event = started_event(rounds_override=5)  # five Swiss rounds: semi-finals first (9.090)
    play_swiss(event, 2)
    play_round(rounds.playoffs_start(event=event, publish=True), random.Random(3))
    client.force_login(judge_of(event))
    page = client.get(reverse("tournaments:rounds", kwargs={"slug": event.slug})).content.decode()
    assert 'id="seat-final-publish"' in page
    data = {"publish": "1"} if publish else {}
    client.post(reverse("tournaments:final_start", kwargs={"slug": event.slug}), data)
    assert Round.objects.get(event=event, kind=Round.Kind.FINAL).published == publish


# --- The public never sees a draft ------------------------------------------------------


def test_the_event_page_hides_a_draft(client):
    round = draft_round()
    html = client.get(round.event.get_absolute_url()).content.decode()
    assert "Table 1" not in html
    assert "not published yet" in html


def test_the_event_page_shows_a_published_round(client):
    round = publish(draft_round())
    assert "Table 1" in client.get(round.event.get_absolute_url()).content.decode()


def test_the_live_part_of_the_event_page_follows_the_latest_published_round(client):
    event = started_event()
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(2))
    rounds.round_pair(event=event, number=2)
    response = client.get(reverse("tournaments:event_live", kwargs={"slug": event.slug}))
    assert response.context["round"].number == 1
    assert [r.number for r in response.context["earlier_rounds"]] == []


@pytest.mark.parametrize("visitor", ["anonymous", "player", "other_judge"])
def test_the_pairings_page_of_a_draft_is_a_404_for_the_public(client, visitor):
    round = draft_round()
    log_in_as(client, visitor, round.event)
    url = reverse("tournaments:pairings", kwargs={"slug": round.event.slug, "number": 1})
    assert client.get(url).status_code == 404


def test_staff_see_the_pairings_of_a_draft_with_the_draft_banner(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:pairings", kwargs={"slug": round.event.slug, "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    assert 'id="draft-banner"' in response.content.decode()


def test_the_pairings_page_shows_a_published_round_to_everyone(client):
    round = publish(draft_round())
    url = reverse("tournaments:pairings", kwargs={"slug": round.event.slug, "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    assert 'id="draft-banner"' not in response.content.decode()


def test_publishing_reaches_a_pairings_page_rendered_before(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:pairings", kwargs={"slug": round.event.slug, "number": 1})
    client.get(url)  # cached while a draft
    publish(round)
    client.logout()
    assert client.get(url).status_code == 200


def test_the_player_page_leaves_out_a_draft(client):
    round = draft_round()
    seat = Seat.objects.filter(round=round).first()
    url = reverse("tournaments:player", kwargs={"slug": round.event.slug, "pk": seat.registration_id})
    assert client.get(url).context["history"] == []
    publish(round)
    assert [h["round"].number for h in client.get(url).context["history"]] == [1]


def test_the_standings_bracket_leaves_out_a_draft_play_off(client):
    event = started_event()
    play_swiss(event, 3)
    semi = rounds.playoffs_start(event=event)
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    assert client.get(url).context["bracket"] == []
    publish(semi)
    assert [r.number for r, _ in client.get(url).context["bracket"]] == [semi.number]


def test_the_api_lists_only_published_rounds(client):
    round = draft_round()
    url = reverse("tournaments:api_event", kwargs={"slug": round.event.slug})
    assert client.get(url).json()["rounds"] == []
    publish(round)
    assert [r["number"] for r in client.get(url).json()["rounds"]] == [1]


def test_the_api_round_of_a_draft_is_a_404_even_for_staff(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:api_round", kwargs={"slug": round.event.slug, "number": 1})
    assert client.get(url).status_code == 404
    publish(round)
    assert client.get(url).status_code == 200


# --- Judging pages: the table page, the time call, the projector --------------------------


def table_url(round: Round, name: str = "judging:table") -> str:
    return reverse(name, kwargs={"slug": round.event.slug, "number": round.number, "table": 1})


def test_the_table_page_of_a_draft_is_a_404_for_the_player_seated_there(client):
    round = draft_round()
    player_at(round, client)
    assert client.get(table_url(round)).status_code == 404


def test_the_table_page_of_a_draft_is_a_404_for_anonymous_visitors(client):
    round = draft_round()
    assert client.get(table_url(round)).status_code == 404


def test_staff_open_the_table_page_of_a_draft(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    assert client.get(table_url(round)).status_code == 200


def test_the_table_page_opens_once_published(client):
    round = publish(draft_round())
    assert client.get(table_url(round)).status_code == 200


def test_a_player_cannot_call_time_at_a_draft_table(client):
    round = draft_round()
    player_at(round, client)
    response = client.post(table_url(round, "judging:time_call"), {"active_seat": 1})
    assert response.status_code == 404
    assert not TimeCall.objects.filter(table__round=round).exists()


def test_the_projector_and_its_clock_follow_the_latest_published_round(client):
    event = started_event()
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(4))
    rounds.round_pair(event=event, number=2)
    client.force_login(judge_of(event))  # a staff laptop on the room's screen still shows no draft
    assert client.get(reverse("judging:projector", kwargs={"slug": event.slug})).context["round"].number == 1
    clock = reverse("judging:clock_json", kwargs={"slug": event.slug})
    assert client.get(clock).json()["round"] == 1
    assert client.get(clock, {"staff": "1"}).json()["round"] == 2


def test_the_clock_of_a_draft_is_not_given_to_the_public_asking_as_staff(client):
    round = draft_round()
    clock = reverse("judging:clock_json", kwargs={"slug": round.event.slug})
    assert client.get(clock, {"staff": "1"}).json() == {"round": None}


# --- My events, printouts ---------------------------------------------------------------


def test_my_events_shows_no_table_for_a_draft(client):
    round = draft_round()
    player_at(round, client)
    url = reverse("accounts:my_events")
    table = reverse("tournaments:table", kwargs={"slug": round.event.slug, "number": 1, "table": 1})
    assert table not in client.get(url).content.decode()
    publish(round)
    assert table in client.get(url).content.decode()


@pytest.mark.parametrize("kind", [PrintJob.Kind.PAIRINGS_BY_NAME, PrintJob.Kind.PAIRINGS_BY_TABLE])
def test_the_wall_sheets_of_a_draft_are_refused(kind):
    round = draft_round()
    with pytest.raises(ActionError, match="Publish round 1 first"):
        printing.print_request(round=round, kind=kind)
    assert not PrintJob.objects.exists()


def test_the_play_off_seating_of_a_draft_is_refused():
    event = started_event()
    play_swiss(event, 5)
    playoff = rounds.playoffs_start(event=event)
    with pytest.raises(ActionError, match=f"Publish {playoff.label.lower()} first"):
        printing.print_request(round=playoff, kind=PrintJob.Kind.PLAYOFFS)


def test_match_slips_of_a_draft_may_be_printed_ahead():
    round = draft_round()
    job, created = printing.print_request(round=round, kind=PrintJob.Kind.SLIPS)
    assert created


def test_the_wall_sheets_print_once_published():
    round = publish(draft_round())
    job, created = printing.print_request(round=round, kind=PrintJob.Kind.PAIRINGS_BY_TABLE)
    assert created


def test_the_print_centre_says_to_publish_first(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    page = client.get(reverse("tournaments:print_center", kwargs={"slug": round.event.slug, "number": 1}))
    html = page.content.decode()
    assert "Publish round 1 first" in html
    assert 'id="print-slips-button"' in html
    assert 'id="print-pairings_by_table-button"' not in html


# --- A swap after publishing is marked on the public pairings ------------------------------


def swap(round: Round, a: tuple[int, int], b: tuple[int, int]) -> None:
    first = Seat.objects.get(round=round, table__number=a[0], seat=a[1])
    second = Seat.objects.get(round=round, table__number=b[0], seat=b[1])
    rounds.seats_swap(round=round, first=first, second=second)


def pairings_html(client, round: Round) -> str:
    url = reverse("tournaments:pairings", kwargs={"slug": round.event.slug, "number": round.number})
    return client.get(url).content.decode()


def test_a_swap_before_publishing_is_not_marked(client):
    round = draft_round()
    swap(round, (1, 1), (2, 1))
    publish(round)
    assert "Changed " not in pairings_html(client, round)


def test_a_swap_at_one_table_after_publishing_names_the_seats(client):
    round = publish(draft_round())
    pairings_html(client, round)  # rendered (and cached) before the swap
    swap(round, (1, 3), (1, 2))
    html = pairings_html(client, round)
    assert "Changed " in html
    assert "seats 2 and 3" in html


def test_a_swap_between_tables_after_publishing_names_the_other_table(client):
    round = publish(draft_round())
    swap(round, (1, 2), (2, 4))
    html = pairings_html(client, round)
    assert "seat 2 (swapped with table 2)" in html
    assert "seat 4 (swapped with table 1)" in html


def test_the_swap_note_names_no_player(client):
    round = publish(draft_round())
    swap(round, (1, 2), (2, 4))
    html = pairings_html(client, round)
    notes = [line for line in html.splitlines() if "swap-note" in line]
    assert notes
    assert not any("Player " in line for line in notes)


def test_an_older_swap_without_seats_is_marked_without_seat_numbers(client):
    round = publish(draft_round())
    swap(round, (1, 2), (2, 4))
    change = ResultChange.objects.get(action="swap")
    change.after = {"tables": [1, 2]}
    change.save()
    cache.clear()
    html = pairings_html(client, round)
    assert "a seat (swapped with table 2)" in html


# --- Who may publish -------------------------------------------------------------------


@pytest.mark.parametrize("visitor", VISITORS)
def test_publishing_is_for_the_event_staff_who_run_it(client, visitor):
    round = draft_round()
    log_in_as(client, visitor, round.event)
    url = reverse("tournaments:round_publish", kwargs={"slug": round.event.slug, "number": 1})
    response = client.post(url)
    assert outcome(response) == RUN[visitor]
    round.refresh_from_db()
    assert round.published == (RUN[visitor] == "ok")


@pytest.mark.parametrize("visitor", VISITORS)
def test_publishing_needs_a_post(client, visitor):
    round = draft_round()
    log_in_as(client, visitor, round.event)
    url = reverse("tournaments:round_publish", kwargs={"slug": round.event.slug, "number": 1})
    assert client.get(url).status_code in (302, 403, 405)
    round.refresh_from_db()
    assert not round.published


def test_a_published_round_offers_to_start_the_clock_until_it_runs(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_staff", kwargs={"slug": round.event.slug, "number": 1})
    assert 'id="start-clock"' not in client.get(url).content.decode()  # a draft: players are not seated yet
    rounds.round_publish(round=round)
    page = client.get(url).content.decode()
    assert 'id="start-clock"' in page
    client.post(reverse("judging:clock_action", kwargs={"slug": round.event.slug}), {"action": "start"})
    assert 'id="start-clock"' not in client.get(url).content.decode()


def test_a_closed_round_points_on_to_the_next_one(client):
    round = draft_round()
    rounds.round_publish(round=round)
    play_round(round, random.Random(3))
    client.force_login(judge_of(round.event))
    page = client.get(reverse("tournaments:round_staff", kwargs={"slug": round.event.slug, "number": 1}))
    assert reverse("tournaments:rounds", kwargs={"slug": round.event.slug}) in page.content.decode()
    assert 'id="next-round"' in page.content.decode()


def test_a_drafts_tables_are_marked_draft_not_playing(client):
    round = draft_round()
    client.force_login(judge_of(round.event))
    url = reverse("tournaments:round_staff", kwargs={"slug": round.event.slug, "number": 1})
    page = client.get(url).content.decode()
    assert (
        '<span class="badge warn">draft</span>' in page and '<span class="badge">playing</span>' not in page
    )
    rounds.round_publish(round=round)
    assert '<span class="badge">playing</span>' in client.get(url).content.decode()
