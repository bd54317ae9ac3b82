"""The wall screen in Debian's Chromium at a projector's 1920×1080 and 1280×720: it fills the screen, the
clock reads from across the room, nothing runs off the side, the list pages by itself, and axe-core finds
nothing. Each test saves its screenshot under its tmp_path."""

from __future__ import annotations

import pytest
from django.urls import reverse

from judging import services
from tests.judging.projector_helpers import between_rounds, finished, hall_event, round_running
from tests.test_accessibility import axe_source, violations
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"1080p": (1920, 1080), "720p": (1280, 720)}


@pytest.fixture(params=SCREENS.values(), ids=SCREENS.keys())
def screen(request, chromium):
    width, height = request.param
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def open_screen(page, live_server, event, **query) -> None:
    url = live_server.url + reverse("judging:projector", kwargs={"slug": event.slug})
    if query:
        url += "?" + "&".join(f"{k}={v}" for k, v in query.items())
    page.goto(url)
    page.wait_for_selector(".screen-page")


def shot(page, tmp_path, name: str) -> None:
    width = page.viewport_size["width"]
    page.screenshot(path=tmp_path / f"projector-{name}-{width}.png")


def layout(page) -> dict:
    return page.evaluate(
        """() => ({
            width: innerWidth,
            height: innerHeight,
            mainWidth: document.querySelector("main").getBoundingClientRect().width,
            mainHeight: document.querySelector("main").getBoundingClientRect().height,
            scrollWidth: document.documentElement.scrollWidth,
            clockSize: parseFloat(getComputedStyle(document.querySelector(".clock-time") || document.body).fontSize),
            rowSize: parseFloat(getComputedStyle(document.querySelector(".screen-rows li")).fontSize),
            columns: document.querySelectorAll(".screen-page:not([hidden]) .screen-col").length,
        })"""
    )


def test_it_fills_the_screen_with_a_big_clock_during_a_round(screen, live_server, tmp_path):
    event = hall_event(announcement="Lunch until 13:30 · the top 8 is announced at 18:00")
    round_running(event)
    open_screen(screen, live_server, event)
    shot(screen, tmp_path, "round")
    box = layout(screen)
    assert box["mainWidth"] >= 0.9 * box["width"] and box["mainHeight"] >= 0.9 * box["height"]
    assert box["clockSize"] >= 0.06 * box["height"]
    assert box["rowSize"] >= 0.03 * box["height"]
    assert box["scrollWidth"] <= box["width"]
    assert box["columns"] >= 2
    assert screen.inner_text(".screen-announcement").startswith("Lunch until 13:30")
    assert "Table 3" in screen.inner_text(".screen-extra") and "+5 min" in screen.inner_text(".screen-extra")


def test_it_shows_the_next_page_of_names_after_the_interval(screen, live_server, tmp_path):
    event = hall_event(players=100)
    round_running(event)
    open_screen(screen, live_server, event, page_seconds=1)
    assert screen.inner_text("[data-screen-page-label]").startswith("Page 1 of ")
    first = screen.inner_text(".screen-page:not([hidden])")
    screen.wait_for_selector("[data-screen-page-label]:text('Page 2 of')")
    assert screen.inner_text(".screen-page:not([hidden])") != first
    assert layout(screen)["scrollWidth"] <= screen.viewport_size["width"]


def test_it_shows_the_standings_between_rounds(screen, live_server, tmp_path):
    event = hall_event(announcement="Round 2 starts at 11:15")
    between_rounds(event)
    open_screen(screen, live_server, event)
    shot(screen, tmp_path, "standings")
    box = layout(screen)
    assert box["scrollWidth"] <= box["width"] and box["mainWidth"] >= 0.9 * box["width"]
    assert not screen.query_selector(".judging-clock")
    assert "Standings after round 1" in screen.inner_text("h2")


def test_it_shows_the_final_ranking_and_no_clock_after_the_event(screen, live_server, tmp_path):
    event = finished(hall_event(players=16))
    open_screen(screen, live_server, event)
    shot(screen, tmp_path, "final")
    assert not screen.query_selector(".judging-clock")
    assert "not started" not in screen.inner_text("body")
    assert "Final ranking" in screen.inner_text("h2")
    assert layout(screen)["scrollWidth"] <= screen.viewport_size["width"]


def test_it_finds_no_accessibility_violations(screen, live_server):
    event = hall_event(announcement="Lunch until 13:30")
    round_running(event)
    open_screen(screen, live_server, event)
    assert not violations(screen, axe_source())


def test_it_updates_the_announcement_without_a_reload_or_a_new_clock(chromium, live_server):
    event = hall_event(players=12, announcement="Lunch until 13:30")
    round_running(event)
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.clock.install()
        open_screen(page, live_server, event)
        page.evaluate(
            "window.sameDocument = true; window.theClock = document.querySelector('.judging-clock')"
        )
        services.announcement_set(event=event, text="Round 2 starts at 11:15")
        page.clock.run_for(16_000)  # past the 15 s poll
        page.wait_for_selector(".screen-announcement:text('Round 2 starts at 11:15')")
        assert page.evaluate("window.sameDocument") is True
        # The clock is the same element: its script keeps counting down in it.
        assert page.evaluate("window.theClock === document.querySelector('.judging-clock')") is True
        # The new list is paged again: the pager lays it out on htmx's settle, a moment after the swap.
        assert page.wait_for_selector(".screen-page:not([hidden])")
    finally:
        context.close()


def test_it_turns_to_the_pairings_by_itself_when_the_next_round_is_published(chromium, live_server):
    event = hall_event(players=12)
    between_rounds(event)
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.clock.install()
        open_screen(page, live_server, event)
        assert not page.query_selector(".judging-clock")
        rounds.round_pair(event=event, number=2, publish=True)
        page.clock.run_for(16_000)  # the poll finds another screen: the page loads again whole
        page.wait_for_selector("h2:text('Find your table')")
        assert page.inner_text(".screen-round") == "Round 2"
    finally:
        context.close()


def test_on_a_phone_it_is_one_column_no_wider_than_the_phone(chromium, live_server, tmp_path):
    event = hall_event(announcement="Lunch until 13:30")
    round_running(event)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        open_screen(page, live_server, event)
        shot(page, tmp_path, "phone")
        measured = layout(page)
        assert measured["scrollWidth"] <= 390
        clock = page.locator(".screen-clock").bounding_box()
        names = page.locator(".screen-list").bounding_box()
        assert names["y"] >= clock["y"] + clock["height"]  # stacked, not side by side
    finally:
        context.close()
