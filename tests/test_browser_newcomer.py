"""The issue's walk, in Debian's Chromium: a newcomer signs up as an organizer, creates an event, invites a
judge who signs up from the link and sees the staff pages; a player signs up, registers for a capped event,
is waitlisted, is promoted when someone withdraws, and sees the event under "My events".

Emails are read from Django's in-memory outbox: what `make run` prints on the console.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Dcdb-walk-2026!"


def emailed_link(to: str, path_part: str) -> str:
    for message in reversed(mail.outbox):
        if to in message.to:
            for link in re.findall(r"https?://\S+", message.body):
                if path_part in link:
                    return link
    raise AssertionError(f"no email to {to} with a {path_part} link")


def sign_up(page, base: str, username: str, email: str) -> None:
    page.goto(base + "/")
    page.click("header >> text=Sign up")
    page.fill("#id_email", email)
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button:has-text('Create account')")
    page.wait_for_selector("h1:has-text('Check your email')")
    # The link the console shows under `make run`.
    page.goto(emailed_link(email, "/accounts/confirm-email/"))
    page.click("button:has-text('Confirm')")
    page.wait_for_selector("h1:has-text('My events')")


def wait_for_text(page, text: str, timeout: int) -> None:
    """Wait for a text; when it never comes, fail with the page the browser is on, to say why."""
    try:
        page.wait_for_selector(f"text={text}", timeout=timeout)
    except PlaywrightTimeoutError:
        raise AssertionError(
            f"{text!r} never showed; the browser is on {page.url}:\n{page.inner_text('body')[:1500]}"
        ) from None


def new_context(chromium, phone: bool = False):
    if phone:
        context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    else:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    return context


def test_a_newcomer_organizes_invites_a_judge_and_players_register_through_a_waitlist(chromium, live_server):
    base = live_server.url

    # An organizer signs up (link from the console), creates a capped event and opens registration.
    organizer = new_context(chromium).new_page()
    sign_up(organizer, base, "olga", "olga@example.org")
    organizer.click("text=New event")
    organizer.fill("#id_name", "Walkthrough Open")
    organizer.fill("#id_date", "2026-12-19")
    organizer.uncheck("#id_sanctioned")
    organizer.fill("#id_player_cap", "3")
    organizer.click("button:has-text('Create event')")
    organizer.wait_for_selector("h1:has-text('Walkthrough Open')")
    for name in ("Desk Player One", "Desk Player Two"):
        organizer.click("text=Add a player")
        organizer.fill("#id_name", name)
        organizer.click("button:has-text('Add player')")
        organizer.wait_for_selector(f"text={name} added")
    organizer.click("button:has-text('Open it')")
    organizer.wait_for_selector("text=Self-registration is open")

    # ... and invites a judge by email.
    organizer.click("nav >> text=Staff")
    organizer.fill("#id_email", "jo@example.org")
    organizer.select_option("#id_role", "judge")
    organizer.click("button:has-text('Send invitation')")
    organizer.wait_for_selector("text=jo@example.org")

    # The judge opens the link from the email, creates an account there and accepts.
    judge = new_context(chromium, phone=True).new_page()
    judge.goto(emailed_link("jo@example.org", "/invitations/"))
    judge.click("a.button:has-text('Create an account')")
    assert judge.input_value("#id_email") == "jo@example.org"
    judge.fill("#id_username", "jo")
    judge.fill("#id_password1", PASSWORD)
    judge.fill("#id_password2", PASSWORD)
    judge.click("button:has-text('Create account')")
    judge.click("button:has-text('Accept as jo')")
    wait_for_text(judge, "You are now judge of Walkthrough Open", timeout=30_000)
    assert judge.locator("text=Desk Player One").count() >= 1  # the event's staff pages: the players list
    judge.goto(base + "/me/")
    assert judge.locator(".my-events >> text=Walkthrough Open").count() == 1

    event_url = base + "/e/" + organizer.url.split("/e/")[1].split("/")[0] + "/"

    # A player signs up and takes the last place.
    first = new_context(chromium, phone=True).new_page()
    sign_up(first, base, "pia", "pia@example.org")
    first.goto(event_url)
    first.fill("#entry input[name=name]", "Pia Player")
    first.click("#register")
    first.wait_for_selector(".my-entry")

    # A second player signs up: the event is full, so they join the waitlist.
    second = new_context(chromium, phone=True).new_page()
    sign_up(second, base, "quinn", "quinn@example.org")
    second.goto(event_url)
    second.fill("#entry input[name=name]", "Quinn Player")
    assert second.inner_text("#register") == "Join the waitlist"
    second.click("#register")
    second.wait_for_selector("text=you are on the waitlist, 1st in line")
    second.goto(base + "/me/")
    assert "Waitlisted (1st in line)" in second.inner_text(".my-events")

    # The first player withdraws; the waitlisted player is promoted and told by email.
    first.goto(event_url)
    first.click("#withdraw")
    first.click("#withdraw-confirm")
    first.wait_for_selector("text=You have withdrawn from Walkthrough Open")
    assert any(
        "You have a place at Walkthrough Open" in m.subject
        for m in mail.outbox
        if "quinn@example.org" in m.to
    )

    second.goto(base + "/me/")
    assert "Registered" in second.inner_text(".my-events")
    assert "Walkthrough Open" in second.inner_text(".my-events")
