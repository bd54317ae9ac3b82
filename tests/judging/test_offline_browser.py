"""Issue 18: with the hall's wifi down, the calculator still computes, a table's page opened before is still
there, and what a judge enters is never silently lost: the page says it was not saved and keeps it."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse

from judging.models import TimeCall
from judging.time_call import time_call
from tests.judging.helpers import judge, running_event, seat_round, time_up
from tests.offline_helpers import phone, wait_for_service_worker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, base: str, username: str) -> None:
    page.goto(base + reverse("account_login"))
    page.fill("#id_login", username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")
    page.wait_for_url(lambda url: "login" not in url)


def table_at_time(context, base: str):
    """A judge's phone on a 4-player table whose time is up, the page saved by the service worker."""
    event, players = running_event(4)
    round = seat_round(event, players)
    time_up(round)
    judge(event, "judy")
    page = context.new_page()
    log_in(page, base, "judy")
    page.goto(base + reverse("judging:table", kwargs={"slug": event.slug, "number": 1, "table": 1}))
    wait_for_service_worker(page)
    page.wait_for_selector("text=Time! Whose turn is it?")
    return page, round.tables.get()


def test_it_computes_the_extra_turns_offline(chromium, live_server):
    with phone(chromium) as context:
        page = context.new_page()
        page.goto(live_server.url + reverse("judging:calculator"))
        wait_for_service_worker(page)
        context.set_offline(True)
        page.reload()  # the saved copy of the page
        page.select_option("#id_players", "3")
        page.select_option("#id_active_seat", "2")
        page.wait_for_selector("#sequence")
        assert page.inner_text("#sequence .judging-big") == "4 extra turns"
        assert "P2 finishes, then P3, P1, P2, P3; the game ends after P3's turn." in page.inner_text(
            "#sequence"
        )


def test_it_computes_what_the_python_core_computes(page, live_server):
    page.goto(live_server.url + reverse("judging:calculator"))
    cases = [
        (seats, active, list(left))
        for seats in range(2, 6)
        for size in range(0, seats - 1)
        for left in itertools.combinations(range(1, seats + 1), size)
        for active in range(1, seats + 1)
        if active not in left
    ]
    found = page.evaluate(
        "cases => cases.map(([s, a, l]) => { const c = dcdbTimeCall(s, a, l); return [c.extraTurns, c.turns, c.sentence]; })",
        cases,
    )
    expected = []
    for seats, active, left in cases:
        call = time_call(seats, active, left=left)
        expected.append([call.extra_turns, list(call.turns), call.sentence])
    assert found == expected


def test_it_shows_the_offline_banner_with_the_time_the_page_was_saved(chromium, live_server):
    with phone(chromium) as context:
        page = context.new_page()
        page.goto(live_server.url + reverse("judging:calculator"))
        wait_for_service_worker(page)
        assert page.locator("#offline-banner").is_hidden()
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#offline-banner:not([hidden])")
        saved = page.evaluate(
            "caches.match(location.href).then(r => dcdbOffline.clock(new Date(r.headers.get('Date'))))"
        )
        assert re.fullmatch(r"\d\d:\d\d", saved)
        assert page.inner_text("#offline-banner") == f"Offline — showing what was saved at {saved}"


def test_it_shows_a_table_page_opened_before_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page, _ = table_at_time(context, live_server.url)
        context.set_offline(True)
        page.reload()
        assert page.locator("text=Time! Whose turn is it?").is_visible()
        page.wait_for_selector("#offline-banner:not([hidden])")


def test_it_keeps_a_time_call_entered_offline_and_says_it_was_not_saved(chromium, live_server):
    with phone(chromium) as context:
        page, table = table_at_time(context, live_server.url)
        context.set_offline(True)
        page.check("input[name=active_seat][value='3']")
        page.click("button:has-text('Record the time call')")
        assert "Not saved: no network" in page.inner_text(".offline-not-saved")
        assert page.is_checked("input[name=active_seat][value='3']")
        assert not TimeCall.objects.filter(table=table).exists()
        context.set_offline(False)
        page.click("button:has-text('Record the time call')")
        page.wait_for_selector("#extra-turns")
        assert TimeCall.objects.get(table=table).active_seat == 3


def test_it_says_a_turn_ticked_off_offline_was_not_saved(chromium, live_server):
    with phone(chromium) as context:
        page, table = table_at_time(context, live_server.url)
        page.check("input[name=active_seat][value='3']")
        page.click("button:has-text('Record the time call')")
        page.wait_for_selector("#extra-turns")
        context.set_offline(True)
        page.click("button[aria-label='turn 1, P3 is over']")
        assert "Not saved: no network" in page.inner_text(".offline-not-saved")
        assert TimeCall.objects.get(table=table).turns_done == 0
        context.set_offline(False)
        page.click("button[aria-label='turn 1, P3 is over']")
        page.wait_for_selector("#turns-left:text('5')")
        assert TimeCall.objects.get(table=table).turns_done == 1


def test_the_calculator_offers_only_the_seats_the_game_has(page, live_server):
    page.goto(live_server.url + reverse("judging:calculator"))
    page.select_option("#id_players", "4")
    page.select_option("#id_active_seat", "4")
    page.select_option("#id_players", "3")
    assert page.input_value("#id_active_seat") == "3"  # P4 is gone: the last seat there is
    offered = page.eval_on_selector_all(
        "#id_active_seat option:not([disabled])", "os => os.map(o => o.value)"
    )
    assert offered == ["1", "2", "3"]
    page.wait_for_selector("#sequence")
    assert "There is no P4" not in page.inner_text("#calculator-result")
