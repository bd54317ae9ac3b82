"""The room's wall screen (judging:projector): no site chrome, the pairings by name while a round runs, the
standings between rounds, the final ranking after the event, and the staff's announcement."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from judging import services
from judging.models import TableExtension
from tests.factories import make_event, make_players, make_user
from tests.judging.helpers import judge, running_event, seat_round, start_clock
from tests.judging.projector_helpers import between_rounds, finished, hall_event
from tests.tournaments.flow import play_round, play_table
from tournaments.models import Event, Table
from tournaments.services import rounds

pytestmark = pytest.mark.django_db


def screen_url(event: Event) -> str:
    return reverse("judging:projector", kwargs={"slug": event.slug})


def announcement_url(event: Event) -> str:
    return reverse("judging:announcement", kwargs={"slug": event.slug})


def running_round(players: int = 8):
    event, registrations = running_event(players)
    return event, registrations, seat_round(event, registrations)


def test_it_shows_no_site_header_navigation_or_footer(client):
    event, _, _ = running_round()
    page = client.get(screen_url(event)).content.decode()
    assert 'class="topbar"' not in page and 'class="footer"' not in page and "Skip to content" not in page
    assert page.count("<main") == 1 and page.count("<h1") == 1
    assert '<html lang="en">' in page and f"<title>Find your table · {event.name}</title>" in page


def test_it_lists_the_pairings_by_name_with_table_and_seat(client):
    event, registrations, _ = running_round()
    page = client.get(screen_url(event)).content.decode()
    rows = re.findall(
        r'<bdi class="n">([^<]+)</bdi><span class="t">.*?(\d+)</span><span class="s">.*?(\d+)</span>', page
    )
    # Player 001..008 at two tables of four, as seat_round seated them.
    assert rows == [
        (r.player.public_sort_name, str(1 + i // 4), str(1 + i % 4)) for i, r in enumerate(registrations)
    ]
    assert [name for name, *_ in rows] == sorted(name for name, *_ in rows)


def test_it_sorts_the_names_alphabetically_whatever_the_tables(client):
    event = hall_event(players=12)
    rounds.round_pair(event=event, number=1, publish=True)
    page = client.get(screen_url(event)).content.decode()
    names = re.findall(r'<bdi class="n">([^<]+)</bdi>', page)
    assert len(names) == 12 and names == sorted(names)


def test_it_shows_the_clock_and_the_tables_with_extra_time(client):
    event, _, round = running_round(12)
    start_clock(round, minutes_ago=10)
    TableExtension.objects.create(table=Table.objects.get(round=round, number=2), minutes=7, reason="ruling")
    page = client.get(screen_url(event)).content.decode()
    assert 'class="judging-clock' in page and ">50:00<" in page
    assert re.search(r"Table <strong>2</strong></span> <span class=\"screen-plus\">\+7 min", page)


def test_it_leaves_out_the_extra_time_of_a_table_whose_result_is_in(client):
    event, _, round = running_round(8)
    table = Table.objects.get(round=round, number=1)
    TableExtension.objects.create(table=table, minutes=7, reason="ruling")
    play_table(table, random.Random(1))
    assert "+7 min" not in client.get(screen_url(event)).content.decode()


def test_it_never_shows_a_draft_round(client):
    event, registrations, _ = running_round()
    client.force_login(judge(event))  # a staff laptop on the room's screen
    round = Table.objects.filter(round__event=event).first().round
    play_round(round, random.Random(2))
    rounds.round_pair(event=event, number=2)  # a draft
    response = client.get(screen_url(event))
    assert response.context["screen"].kind == "standings"
    assert "Find your table" not in response.content.decode()


def test_it_shows_the_standings_between_rounds(client):
    event = hall_event(players=12)
    between_rounds(event)
    page = client.get(screen_url(event)).content.decode()
    assert "Standings after round 1" in page and "judging-clock" not in page
    places = re.findall(r'<li><span class="p">(\d+)</span>', page)
    assert places[:3] == ["1", "2", "3"] and len(places) == 12


def test_it_shows_the_final_ranking_and_no_clock_after_the_event(client):
    event = finished(hall_event(players=16))
    assert event.status == Event.Status.FINISHED
    ranking = rounds.final_ranking(event)
    page = client.get(screen_url(event)).content.decode()
    assert "Final ranking" in page and "judging-clock" not in page and "not started" not in page
    names = re.findall(r'<li><span class="p">\d+</span><bdi class="n">([^<]+)</bdi>', page)
    assert names == [r.player.public_name for r in ranking]
    assert f"Champion: <span><bdi>{ranking[0].player.public_name}</bdi>" in page


def test_it_waits_for_round_one_without_a_clock(client):
    event = make_event(status=Event.Status.RUNNING)
    make_players(event, 8)
    page = client.get(screen_url(event)).content.decode()
    assert "Pairings appear here" in page and "judging-clock" not in page


def test_it_shows_the_announcement(client):
    event, _, _ = running_round()
    services.announcement_set(event=event, text="Lunch until 13:30")
    page = client.get(screen_url(event)).content.decode()
    assert '<p class="screen-announcement" id="screen-announcement">Lunch until 13:30</p>' in page


def test_it_polls_for_its_live_part(client):
    event, _, _ = running_round()
    page = client.get(screen_url(event)).content.decode()
    assert (
        'id="screen-live"' in page and 'hx-trigger="every 15s"' in page and 'hx-select="#screen-live"' in page
    )


def test_it_reloads_whole_when_the_screen_changes(client):
    event, _, round = running_round()
    key = client.get(screen_url(event)).context["screen"].key
    play_round(round, random.Random(3))
    response = client.get(screen_url(event), {"screen": key}, headers={"HX-Request": "true"})
    assert response["HX-Refresh"] == "true"


def test_it_answers_a_poll_with_the_page_while_the_screen_stays(client):
    event, _, _ = running_round()
    key = client.get(screen_url(event)).context["screen"].key
    response = client.get(screen_url(event), {"screen": key}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "HX-Refresh" not in response


def test_it_takes_a_shorter_page_interval_from_the_address(client):
    event, _, _ = running_round()
    page = client.get(screen_url(event), {"page_seconds": "2"}).content.decode()
    assert 'data-page-seconds="2"' in page


# --- The announcement form ----------------------------------------------------------------


def test_staff_save_the_announcement(client):
    event, _, _ = running_round()
    client.force_login(judge(event))
    board = reverse("judging:board", kwargs={"slug": event.slug})
    response = client.post(announcement_url(event), {"announcement": "  Lunch   until 13:30 ", "next": board})
    assert response.status_code == 302 and response["Location"] == board
    event.refresh_from_db()
    assert event.announcement == "Lunch until 13:30"


def test_staff_clear_the_announcement(client):
    event, _, _ = running_round()
    services.announcement_set(event=event, text="Lunch")
    client.force_login(judge(event))
    client.post(announcement_url(event), {"announcement": ""})
    event.refresh_from_db()
    assert event.announcement == ""


def test_it_refuses_a_too_long_announcement_and_keeps_the_text(client):
    event, _, _ = running_round()
    services.announcement_set(event=event, text="Lunch")
    client.force_login(judge(event))
    typed = "Round 3 starts late " * 11  # 220 characters
    response = client.post(announcement_url(event), {"announcement": typed})
    assert response.status_code == 400
    page = response.content.decode()
    assert "at most 200 characters" in page and f'value="{typed}"' in page
    event.refresh_from_db()
    assert event.announcement == "Lunch"


def test_a_player_cannot_set_the_announcement(client):
    event, _, _ = running_round()
    client.force_login(make_user())
    assert client.post(announcement_url(event), {"announcement": "Free pizza"}).status_code == 403
    event.refresh_from_db()
    assert event.announcement == ""


def test_a_visitor_is_sent_to_log_in_to_set_the_announcement(client):
    event, _, _ = running_round()
    response = client.post(announcement_url(event), {"announcement": "Free pizza"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_the_board_and_the_rounds_page_carry_the_announcement_form(client):
    event, _, _ = running_round()
    services.announcement_set(event=event, text="Lunch until 13:30")
    client.force_login(judge(event))
    for name in ("judging:board", "tournaments:rounds"):
        page = client.get(reverse(name, kwargs={"slug": event.slug})).content.decode()
        assert f'action="{announcement_url(event)}"' in page, name
        assert 'value="Lunch until 13:30"' in page, name
        assert f'href="{screen_url(event)}"' in page, name


def test_the_event_page_links_the_wall_screen(client):
    event, _, _ = running_round()
    page = client.get(event.get_absolute_url()).content.decode()
    assert f'<a href="{screen_url(event)}">Wall screen (clock &amp; pairings)</a>' in page
