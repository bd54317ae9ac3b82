"""The statistics pages in Chromium: the charts draw at a phone's width and a desk's, inside the page, and
axe-core finds nothing to fix."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.history.test_counted_games import simulated_event
from tests.test_accessibility import axe_source, violations

from .helpers import import_characters

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def statistics_url(live_server) -> str:
    import_characters()
    event = simulated_event(13, 5)
    return live_server.url + reverse("tournaments:event_characters", args=[event.slug])


def drawn_charts(page) -> list[dict]:
    page.wait_for_function("() => typeof Chart !== 'undefined' && Chart.getChart('chart-win') !== undefined")
    return page.evaluate(
        "() => [...document.querySelectorAll('canvas')].map(c => ({id: c.id, width: c.getBoundingClientRect().width,"
        " right: c.getBoundingClientRect().right, bars: Chart.getChart(c).data.labels.length}))"
    )


def test_the_charts_fit_a_phone(phone_page, statistics_url):
    phone_page.goto(statistics_url)
    charts = drawn_charts(phone_page)
    assert [c["id"] for c in charts] == ["chart-share", "chart-win"]
    assert all(c["width"] > 100 and c["right"] <= 390 and c["bars"] > 0 for c in charts)
    assert phone_page.evaluate("() => document.documentElement.scrollWidth") <= 390


def test_the_charts_sit_side_by_side_on_a_desk(page, statistics_url):
    page.goto(statistics_url)
    charts = drawn_charts(page)
    assert charts[0]["right"] < charts[1]["right"] and all(c["width"] > 300 for c in charts)


@pytest.mark.parametrize("width", [390, 1280])
def test_axe_finds_nothing_on_the_statistics_pages(chromium, live_server, statistics_url, width):
    context = chromium.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        found = []
        for url in (statistics_url, live_server.url + reverse("tournaments:all_characters") + "?size=3"):
            page.goto(url)
            drawn_charts(page)
            found += violations(page, axe_source())
    finally:
        context.close()
    assert not found, "\n".join(found)
