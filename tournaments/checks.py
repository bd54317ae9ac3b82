"""System checks: settings that work on a laptop but not at an event."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning, register

from .printouts import site_url_is_local


@register()
def site_url_check(app_configs, **kwargs) -> list[Warning]:
    # With DEBUG on the development default is expected; in production it would print QR codes that
    # lead nowhere, and nothing else would say so until players scan them.
    if settings.DEBUG or not site_url_is_local():
        return []
    return [
        Warning(
            f"SITE_URL is {settings.SITE_URL}, an address on this machine.",
            hint="Set SITE_URL to the address players reach, e.g. https://dcdb.example.org: the QR codes "
            "on printed match slips link there.",
            id="tournaments.W001",
        )
    ]
