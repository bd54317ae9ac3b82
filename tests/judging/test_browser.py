"""A judge on a phone: the clock runs out, time is called during P3's turn, then a warning and a game loss."""

import pytest
from django.urls import reverse

from judging.catalogue import seed
from judging.models import Infraction
from tests.judging.helpers import enter_result, judge, running_event, seat_round, time_up
from tournaments.selectors import event_standings
from tournaments.services.rounds import round_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, live_server, username):
    page.goto(live_server.url + reverse("account_login"))
    page.fill("#id_login", username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "login" not in url)


def record_penalty(page, live_server, event, name, *, penalty, round_pk):
    page.goto(live_server.url + reverse("judging:penalty_new", kwargs={"slug": event.slug}))
    page.fill("#player-search", name.split()[-1])
    page.click(f"#player-choices label:has-text('{name}')")
    page.select_option("#id_infraction", label="10.060 Slow play")
    page.check(f"input[name=type][value={penalty}]")
    page.select_option("#id_round", value=str(round_pk))
    page.click("button:has-text('Record the penalty')")
    page.wait_for_selector(".message.success")


def test_time_call_and_penalties_on_a_phone(phone_page, live_server):
    page = phone_page
    # A transactional test run before this one empties every table, the migrated catalogue too.
    seed(Infraction)
    event, players = running_event(4)
    first = seat_round(event, players)
    enter_result(first.tables.get(), [40, 30, 20, 10])
    round_close(round=first)
    second = seat_round(event, players, number=2)
    time_up(second)
    judge(event, "judy")
    log_in(page, live_server, "judy")

    page.goto(
        live_server.url + reverse("judging:table", kwargs={"slug": event.slug, "number": 2, "table": 1})
    )
    page.wait_for_selector("text=Time! Whose turn is it?")
    page.check("input[name=active_seat][value='3']")
    page.click("button:has-text('Record the time call')")
    assert page.inner_text("#extra-turns") == "5"
    page.click("button[aria-label='turn 1, P3 is over']")
    page.wait_for_selector("#turns-left:text('5')")

    leader = players[0].player.name
    assert event_standings(event)[0].registration == players[0]
    record_penalty(page, live_server, event, leader, penalty="warning", round_pk=first.pk)
    page.goto(live_server.url + reverse("judging:penalty_new", kwargs={"slug": event.slug}))
    page.fill("#player-search", leader.split()[-1])
    page.click(f"#player-choices label:has-text('{leader}')")
    page.wait_for_selector("#advice:has-text('1 earlier penalty')")
    record_penalty(page, live_server, event, leader, penalty="game_loss", round_pk=first.pk)

    event.refresh_from_db()
    assert event_standings(event)[0].registration == players[1]
