"""A whole 9-player event run through the pages in a real browser, every slip entered by hand."""

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def enter_round(page, base: str) -> None:
    """Enter every table's slip on the round page, then close the round."""
    links = page.locator("#round-tables a:has-text('Enter slip')")
    for i in range(links.count()):
        page.locator("#round-tables a:has-text('Enter slip')").first.click()
        vp_inputs = page.locator("input[name$='-vp']")
        for seat in range(vp_inputs.count()):
            vp_inputs.nth(seat).fill(str(40 - 7 * seat - i))
        page.click("#save-slip")
        page.wait_for_selector("text=saved.")
    page.click("#close-round")
    page.wait_for_selector("text=closed; standings updated")


def test_nine_players_from_round_one_to_the_final_ranking(page, phone_page, live_server):
    organizer = make_user("desk")
    event = make_event(organizer=organizer, name="Browser Nine")
    make_players(event, 9)
    page.goto(live_server.url + reverse("account_login"))
    page.fill("#id_login", "desk")
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")

    rounds_url = live_server.url + reverse("tournaments:rounds", kwargs={"slug": event.slug})
    page.goto(rounds_url)
    page.click("button:has-text('Start the event')")
    page.wait_for_selector("text=4 Swiss rounds (9.070)")

    for number in range(1, 5):
        page.goto(rounds_url)
        # Round 1 as a draft the desk checks and then publishes; the others paired and published at once.
        page.click("#pair-next" if number == 1 else "#pair-publish")
        page.wait_for_selector(f"h1:has-text('Round {number}')")
        if number == 1:
            page.click("#publish-round")
            page.wait_for_selector("#published-at")
        assert page.locator(".table-card").count() == 3  # 9 players: three 3-player tables (9.010)
        enter_round(page, live_server.url)

    page.goto(rounds_url)
    page.click("#start-playoffs-publish")
    page.wait_for_selector("h1:has-text('Final')")
    enter_round(page, live_server.url)

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    page.goto(rounds_url)
    assert page.locator("#final-ranking li").count() == 9

    phone_page.goto(live_server.url + reverse("tournaments:standings", kwargs={"slug": event.slug}))
    rows = phone_page.locator("table.standings tbody tr")
    assert rows.count() == 9
    assert (
        phone_page.locator("#final-ranking li").count() == 8
    )  # the play-off places; the rest follow the standings
    # Phone-sized: the standings fit the screen without sideways scrolling of the page itself.
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1
