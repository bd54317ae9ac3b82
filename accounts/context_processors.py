from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .permissions import can_create_events


def account(request: HttpRequest) -> dict:
    """``can_create_events`` for the "New event" buttons; asked (one query) only by pages that show one."""
    return {"can_create_events": SimpleLazyObject(lambda: can_create_events(request.user))}
