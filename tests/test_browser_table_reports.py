"""Issue 14's walk: four phones at one table report and confirm the slip; a second table disputes and a
judge settles it from the board; the standings follow. Debian's Chromium, one browser context per person."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from django.urls import reverse

from tests.factories import add_staff, make_event, make_players, make_user
from tournaments import printouts
from tournaments.models import Seat, SlipReport, Table
from tournaments.services import rounds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def phone(chromium):
    context = chromium.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(15_000)
    return context


def log_in(page, username: str) -> None:
    page.fill("#id_login", username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")


def fill_slip(page, vps: list[int]) -> None:
    inputs = page.locator("#report input[name$='-vp']")
    assert inputs.count() == len(vps)
    for i, vp in enumerate(vps):
        inputs.nth(i).fill(str(vp))


def test_four_phones_report_and_confirm_a_table_and_a_judge_settles_a_dispute(chromium, page, live_server):
    organizer = make_user("desk")
    judge = make_user("judy")
    event = make_event(organizer=organizer, name="Phones Open")
    add_staff(event, judge, "judge")
    for registration in make_players(event, 8):
        registration.player.user = make_user(f"p{registration.player.name[-3:]}")
        registration.player.save()
    rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    first, second = Table.objects.filter(round=round).order_by("number")
    usernames = {
        t.number: [
            s.registration.player.user.username
            for s in Seat.objects.filter(table=t)
            .select_related("registration__player__user")
            .order_by("seat")
        ]
        for t in (first, second)
    }
    contexts = [phone(chromium) for _ in range(4)]
    try:
        phones = [c.new_page() for c in contexts]
        # The reporter scans the slip's QR code while logged out: log in, and back to the table.
        qr = urlparse(printouts.result_url(round, 1))
        phones[0].goto(live_server.url + qr.path)
        log_in(phones[0], usernames[1][0])
        phones[0].wait_for_selector("h1:has-text('Table 1')")
        assert phones[0].url.endswith(qr.path)
        # The three others log in and open their table; seat 2 keeps the page open while the slip is reported.
        for i in (1, 2, 3):
            phones[i].goto(live_server.url + reverse("account_login") + f"?next={qr.path}")
            log_in(phones[i], usernames[1][i])
            phones[i].wait_for_selector("#report")
        fill_slip(phones[0], [41, 33, 27, 19])
        phones[0].click("#send-slip")
        phones[0].wait_for_selector("text=the others confirm it now")
        # Live: seat 2's page shows the slip to confirm without a reload.
        phones[1].wait_for_selector("#confirm-slip", timeout=25_000)
        for i in (1, 2, 3):
            phones[i].reload()
            phones[i].click("#confirm-slip")
        phones[3].wait_for_selector("text=the result is in")
        first.refresh_from_db()
        assert first.has_result
        placed = [s.placement for s in Seat.objects.filter(table=first).order_by("seat")]
        assert placed == [1, 2, 3, 4]
        assert "confirmed by" in first.changes.first().reason

        # Table 2: reported, then disputed.
        for i in range(4):
            contexts[i].clear_cookies()
        table2 = reverse("tournaments:table", kwargs={"slug": event.slug, "number": 1, "table": 2})
        phones[0].goto(live_server.url + reverse("account_login") + f"?next={table2}")
        log_in(phones[0], usernames[2][0])
        fill_slip(phones[0], [30, 28, 25, 10])
        phones[0].click("#send-slip")
        phones[0].wait_for_selector("#reported-slip")
        phones[1].goto(live_server.url + reverse("account_login") + f"?next={table2}")
        log_in(phones[1], usernames[2][1])
        phones[1].click("summary:has-text('Dispute')")
        phones[1].fill("textarea[name=reason]", "I had 31 VP, not 28")
        phones[1].click("#dispute-slip")
        phones[1].wait_for_selector("text=A judge is coming")
        assert SlipReport.objects.get(table=second, status=SlipReport.Status.DISPUTED)

        # The judge, on the board, settles it: one number fixed, saved.
        page.goto(live_server.url + reverse("account_login"))
        log_in(page, "judy")
        page.goto(live_server.url + reverse("judging:board", kwargs={"slug": event.slug}))
        page.wait_for_selector("text=I had 31 VP, not 28")
        page.click("#board a:has-text('Settle')")
        page.locator("input[name$='-vp']").nth(1).fill("31")
        page.click("#save-slip")
        page.wait_for_selector("text=saved.")
        second.refresh_from_db()
        assert second.has_result
        assert [s.vp for s in Seat.objects.filter(table=second).order_by("seat")] == [30, 31, 25, 10]
        assert SlipReport.objects.get(table=second).status == SlipReport.Status.SETTLED
        # The disputing player sees the judge's result.
        phones[1].reload()
        phones[1].wait_for_selector("#result")

        # The organizer closes the round; the standings follow on a phone.
        page.goto(
            live_server.url + reverse("tournaments:round_staff", kwargs={"slug": event.slug, "number": 1})
        )
        page.click("#close-round")
        page.wait_for_selector("text=closed; standings updated")
        phones[2].goto(live_server.url + reverse("tournaments:standings", kwargs={"slug": event.slug}))
        rows = phones[2].locator("table.standings tbody tr")
        assert rows.count() == 8
        assert "5" in rows.first.inner_text()
    finally:
        for context in contexts:
            context.close()
