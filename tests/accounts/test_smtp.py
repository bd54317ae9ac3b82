"""Account email through a real SMTP server (aiosmtpd) on loopback, as production sends it."""

from __future__ import annotations

import email
import email.policy

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Sink

from tests.accounts.helpers import LINK
from tests.conftest import free_port

pytestmark = pytest.mark.django_db


class Inbox(Sink):
    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"


@pytest.fixture
def smtp_server(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield inbox
    finally:
        controller.stop()


def test_it_sends_the_sign_up_confirmation_over_smtp_and_the_link_works(client, smtp_server):
    from allauth.account.models import EmailAddress

    response = client.post(
        "/accounts/signup/",
        {
            "username": "smtpuser",
            "email": "smtp@example.org",
            "password1": "a-Long-pass-4411",
            "password2": "a-Long-pass-4411",
        },
    )
    assert response.status_code == 302
    assert len(smtp_server.messages) == 1
    message = smtp_server.messages[0]
    assert message["To"] == "smtp@example.org"
    body = message.get_body(preferencelist=("plain",)).get_content()
    link = next(link for link in LINK.findall(body) if "/accounts/confirm-email/" in link)
    path = link.split("://", 1)[1].split("/", 1)[1]
    assert client.post("/" + path).status_code == 302
    assert EmailAddress.objects.get(email="smtp@example.org").verified
