"""Signing up through the pages, as a newcomer does, and reading the links out of the emails."""

from __future__ import annotations

import re

from django.core import mail

LINK = re.compile(r"https?://\S+")


def links_in(message) -> list[str]:
    return LINK.findall(message.body)


def last_link(path_part: str) -> str:
    """The last emailed link whose path contains ``path_part``, as a path the test client can open."""
    for message in reversed(mail.outbox):
        for link in links_in(message):
            if path_part in link:
                return re.sub(r"^https?://[^/]+", "", link)
    raise AssertionError(f"no emailed link with {path_part!r} in {len(mail.outbox)} message(s)")


def sign_up(client, username: str, email: str | None = None, password: str = "a-Long-pass-4411"):
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "email": email or f"{username}@example.org",
            "password1": password,
            "password2": password,
        },
    )


def confirm_email(client) -> None:
    """Open the confirmation link of the last email and press Confirm."""
    link = last_link("/accounts/confirm-email/")
    assert client.get(link).status_code == 200
    response = client.post(link)
    assert response.status_code == 302, response.content.decode()[:500]
