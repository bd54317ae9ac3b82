"""Issue 18: axe-core finds no accessibility violations on the main pages of every role, at a phone's width
(390 px) and a desk's (1280 px), in Debian's Chromium.

axe-core is the npm registry's build, as the ``axe-playwright-python`` wheel ships it (requirements-dev.txt).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.urls import reverse

from rulings import search, services
from tests.factories import add_staff, make_event, make_players, make_user
from tests.judging.helpers import time_up
from tests.offline_helpers import phone, wait_for_service_worker
from tests.rulings.conftest import dcdb_document, vs_document
from tests.seasons.helpers import finished_event, make_season
from tests.tournaments.flow import play_round
from tournaments.models import Seat
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = {"phone": 390, "desk": 1280}


def axe_source() -> str:
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def violations(page, source: str) -> list[str]:
    page.add_script_tag(content=source)
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations'], rules: {'target-size': {enabled: true}}}))"
        ".violations"
        ".map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 4)}))"
    )
    # axe-core 4.x no longer checks plain duplicate ids; a label then points at the wrong field.
    twice = page.evaluate(
        "() => { const seen = new Set(), twice = new Set();"
        " for (const e of document.querySelectorAll('[id]')) { (seen.has(e.id) ? twice : seen).add(e.id); }"
        " return [...twice]; }"
    )
    return [f"{v['id']}: {v['help']} at {', '.join(v['nodes'])}" for v in found] + [
        f"duplicate id {name!r}" for name in twice
    ]


def log_in(context, base: str, username: str) -> None:
    page = context.new_page()
    page.goto(base + reverse("account_login"))
    page.fill("#id_login", username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.close()


@pytest.fixture
def event_in_progress():
    for document in (dcdb_document(), vs_document()):
        services.import_document(parsed=document, parser_version="test")
    search.rebuild_index()
    organizer = make_user("desk")
    judge = make_user("judy")
    event = make_event(organizer=organizer, name="Axe Open", publish_penalties=True)
    add_staff(event, judge, "judge")
    registrations = make_players(event, 12)
    player = make_user("pam")
    registrations[0].player.user = player
    registrations[0].player.save()
    rounds.event_start(event=event)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    # Main characters on round 1's slips, for the statistics pages' charts: a matched one and free text.
    for n, played in enumerate(Seat.objects.filter(round__event=event, round__number=1).order_by("pk")):
        played.main_character, played.main_character_key = (
            ("Captain Widget (Base Set)", "main_character/captain-widget/base")
            if n % 3
            else ("Cap Wigdet", "")
        )
        played.save(update_fields=["main_character", "main_character_key"])
    second = rounds.round_pair(event=event, number=2, publish=True)
    seat = Seat.objects.select_related("table").get(table__round=second, registration=registrations[0])
    # A season holding a finished event (its standings table) and this one (in progress).
    make_season(organizer, events=[finished_event(organizer), event], name="Axe Season", end_date=event.date)
    return event, seat.table, registrations[0]


def pages_by_role(event, table, registration) -> dict[str, list[str]]:
    slug = event.slug
    number = table.round.number
    # Someone who sat at the player's table in round 1: their head-to-head has a game.
    met = (
        Seat.objects.filter(table__seats__registration=registration, round__number=1)
        .exclude(registration=registration)
        .values_list("registration__player_id", flat=True)
        .first()
    )
    player = registration.player_id
    return {
        "": [
            reverse("tournaments:event_list"),
            reverse("tournaments:event_detail", args=[slug]),
            reverse("tournaments:pairings", args=[slug, number]),
            reverse("tournaments:standings", args=[slug]),
            reverse("tournaments:event_characters", args=[slug]),
            reverse("tournaments:all_characters"),
            reverse("tournaments:table", args=[slug, number, table.number]),
            reverse("rulings:index") + "?q=extra+turns",
            reverse("rulings:index") + "?q=9.020",
            reverse("rulings:index") + "?q=gadgetman",
            reverse("rulings:glossary", args=["vs"]),
            reverse("rulings:rule", args=["dcdb", "9.020"]),
            reverse("judging:projector", args=[slug]),
            reverse("judging:public_penalties", args=[slug]),
            reverse("tournaments:player_history", args=[player]),
            reverse("tournaments:player_vs", args=[player, met]),
            reverse("ratings:leaderboard"),
            reverse("account_login"),
            reverse("account_signup"),
            reverse("seasons:list"),
            reverse("seasons:detail", args=["axe-season"]),
        ],
        "pam": [
            reverse("accounts:my_events"),
            reverse("tournaments:table", args=[slug, number, table.number]),
            reverse("tournaments:player", args=[slug, registration.pk]),
        ],
        "judy": [
            reverse("judging:board", args=[slug]),
            reverse("judging:table", args=[slug, number, table.number]),
            reverse("judging:penalty_new", args=[slug]),
            reverse("judging:calculator"),
        ],
        "desk": [
            reverse("tournaments:registrations", args=[slug]),
            reverse("tournaments:rounds", args=[slug]),
            reverse("tournaments:round_staff", args=[slug, 1]),
            reverse("tournaments:round_staff", args=[slug, number]),
            reverse("tournaments:table_result", args=[slug, number, table.number]),
            reverse("tournaments:table_result", args=[slug, 1, 1]),
            reverse("tournaments:print_center", args=[slug, number]),
            reverse("tournaments:staff", args=[slug]),
            reverse("tournaments:characters_check", args=[slug]),
            reverse("judging:penalties", args=[slug]),
            reverse("tournaments:event_edit", args=[slug]),
            reverse("seasons:create"),
            reverse("seasons:edit", args=["axe-season"]),
            reverse("seasons:manage", args=["axe-season"]),
        ],
    }


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_it_finds_no_violations_on_the_main_pages_of_every_role(
    chromium, live_server, event_in_progress, width
):
    source = axe_source()
    found = []
    for username, paths in pages_by_role(*event_in_progress).items():
        context = chromium.new_context(viewport={"width": width, "height": 900})
        context.set_default_timeout(15_000)
        try:
            if username:
                log_in(context, live_server.url, username)
            page = context.new_page()
            for path in paths:
                response = page.goto(live_server.url + path)
                assert response.status == 200, path
                found += [f"{username or 'anonymous'} {path}: {v}" for v in violations(page, source)]
        finally:
            context.close()
    assert not found, "\n".join(found)


def test_it_finds_no_violations_in_what_the_pages_show_offline(chromium, live_server, event_in_progress):
    """Issue 18: the offline banner, the search of the saved copy, the calculator's own result and the
    note that a time call was not saved."""
    event, table, _ = event_in_progress
    time_up(table.round)
    source = axe_source()
    found = []
    with phone(chromium) as context:
        log_in(context, live_server.url, "judy")
        page = context.new_page()
        table_url = live_server.url + reverse(
            "judging:table", args=[event.slug, table.round.number, table.number]
        )
        page.goto(table_url)
        wait_for_service_worker(page)
        page.goto(live_server.url + reverse("rulings:index"))
        context.set_offline(True)
        page.fill("#id_q", "time is called")
        page.wait_for_selector(".offline-note")
        found += violations(page, source)
        page.goto(live_server.url + reverse("judging:calculator"))
        page.select_option("#id_active_seat", "2")
        page.wait_for_selector("#sequence")
        found += violations(page, source)
        page.goto(table_url)
        page.check("input[name=active_seat][value='1']")
        page.click("button:has-text('Record the time call')")
        page.wait_for_selector(".offline-not-saved")
        page.wait_for_selector("#offline-banner:not([hidden])")
        found += violations(page, source)
    assert not found, "\n".join(found)
