"""An organizer runs registration in a real browser, start to finish."""

import pytest
from django.urls import reverse

from tests.factories import make_user
from tournaments.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [f"Player {letter} Tester" for letter in "ABCDEFGHIJKL"]


def log_in(page, live_server, username):
    page.goto(live_server.url + reverse("account_login"))
    page.fill("#id_login", username)
    page.fill("#id_password", "pw")
    page.click("button[type=submit]")


def test_organizer_registers_checks_in_and_drops(page, live_server):
    make_user("orga")
    log_in(page, live_server, "orga")

    page.click("text=New event")
    page.fill("#id_name", "Browser Open")
    page.fill("#id_date", "2026-12-19")
    page.fill("#id_venue", "Test Store")
    page.click("button:has-text('Create event')")
    page.wait_for_selector("text=Add many")

    page.click("text=Add many")
    # Twelve players, one of them with an empty name in the CSV.
    bad = (
        "name,email\n"
        + "\n".join(f"{n},{i}@example.com" for i, n in enumerate(NAMES[:11]))
        + "\n,12@example.com"
    )
    page.fill("#id_text", bad)
    page.click("button:has-text('Preview')")
    page.wait_for_selector("#preview")
    assert "The name is empty." in page.inner_text("#preview")
    assert page.locator("button:has-text('Import')").count() == 0

    fixed = page.input_value("#id_text").replace("\n,12@example.com", f"\n{NAMES[11]},12@example.com")
    page.fill("#id_text", fixed)
    page.click("button:has-text('Preview')")
    page.click("button:has-text('Import 12 players')")
    page.wait_for_selector("text=12 players added.")

    for name in NAMES:
        page.click(f"button[aria-label='Check in {name}']")
        page.wait_for_selector(f"button[aria-label='Checked in {name}']")

    assert page.inner_text("#counts") == "12 active · 12 checked in · 12 registered"  # updated in place

    page.once("dialog", lambda dialog: dialog.accept())
    page.click(f"button[aria-label='Drop {NAMES[3]}']")
    page.wait_for_selector(f"button[aria-label='Undo drop of {NAMES[3]}']")

    page.click("text=Public page")
    page.wait_for_selector("#active-players")
    assert page.inner_text("#active-count") == "11 active"
    listed = page.locator("#active-players li").all_inner_texts()
    assert len(listed) == 11 and NAMES[3] not in listed
    assert Registration.objects.filter(checked_in=True, dropped_at__isnull=True).count() == 11
