"""A player finds their table on a phone, and the answer survives the page's live refresh."""

import pytest

from tests.factories import make_event, make_players, make_user
from tournaments.models import Registration
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_find_my_table_filters_and_survives_a_refresh(phone_page, live_server):
    event = make_event(organizer=make_user())
    make_players(event, 12)
    registration = Registration.objects.get(player__name="Player 007")
    registration.player.name = "Liam O'Neill"
    registration.player.save()
    event = rounds.event_start(event=event)
    rounds.round_pair(event=event, number=1, publish=True)

    phone_page.goto(live_server.url + event.get_absolute_url())
    phone_page.fill("#find-my-table", "o’neill")  # a phone's curly apostrophe
    visible = phone_page.locator(".table-card:visible")
    assert visible.count() == 1 and "Liam O'Neill" in visible.first.inner_text()
    phone_page.evaluate(
        "url => new Promise(done => { htmx.ajax('GET', url, '#event-live').then(done); })",
        live_server.url + f"/e/{event.slug}/live/",
    )
    assert phone_page.input_value("#find-my-table") == "o’neill"
    assert phone_page.locator(".table-card:visible").count() == 1
