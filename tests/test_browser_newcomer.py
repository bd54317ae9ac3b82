"""The issue's walk, in Debian's Chromium: a newcomer signs up as an organizer, creates an event, invites a
judge who signs up from the link and sees the staff pages; a player signs up, registers for a capped event,
is waitlisted, is promoted when someone withdraws, and sees the event under "My events".

Emails are read from Django's in-memory outbox: what `make run` prints on the console.
"""

from __future__ import annotations

import re

import pytest
from django.core import mail

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
    page.wait_for_selector("h1:has-text('Verify')")
    # The link the console shows under `make run`.
    page.goto(emailed_link(email, "/accounts/confirm-email/"))
    page.click("button:has-text('Confirm')")
    page.wait_for_selector("h1:has-text('My events')")


def new_context(chromium, phone: bool = False):
    if phone:
        context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    else:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    return context
