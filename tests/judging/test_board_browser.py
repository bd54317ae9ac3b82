"""The judges' board in Chromium: its forms raise no script error."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_user
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_starting_the_clock_raises_no_script_error(chromium, live_server):
    organizer = make_user("desk")
    event = make_event(organizer=organizer, name="Clock Open")
    make_players(event, 8)
    rounds.event_start(event=event)
    rounds.round_pair(event=event, number=1, publish=True)
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(live_server.url + reverse("judging:board", kwargs={"slug": event.slug}))
        page.fill("#id_login", "desk")
        page.fill("#id_password", "pw")
        page.click("button[type=submit]")
        page.click("button:has-text('Start the clock')")
        page.wait_for_load_state()
        # The offline guard read form.action, which the form's input named "action" hides.
        assert errors == []
        assert page.locator("button:has-text('Pause')").count() >= 1
    finally:
        context.close()
