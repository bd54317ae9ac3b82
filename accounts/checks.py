"""System checks: account email that works on a laptop but not in production."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register


@register()
def email_check(app_configs, **kwargs) -> list[Warning]:
    # With DEBUG on, links printed in the terminal are the point; in production nobody could verify
    # an address, reset a password or accept an invitation, and nothing else would say so.
    if settings.DEBUG or "console" not in settings.EMAIL_BACKEND and "locmem" not in settings.EMAIL_BACKEND:
        return []
    return [
        Warning(
            f"Email goes to {settings.EMAIL_BACKEND}, not to people.",
            hint="Set EMAIL_HOST (and EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, DEFAULT_FROM_EMAIL): "
            "sign-up, password reset and staff invitations send links by email.",
            id="accounts.W001",
        )
    ]
