"""Who may do what at an event.

Roles are per event (EventStaff). A superuser counts as the organizer of every event.
The capability table below is the single place that decides; views ask it through
``event_staff_required``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from .models import Event, EventStaff

ORGANIZER = EventStaff.Role.ORGANIZER
HEAD_JUDGE = EventStaff.Role.HEAD_JUDGE
JUDGE = EventStaff.Role.JUDGE

# capability -> roles that have it
CAPABILITIES: dict[str, frozenset[str]] = {
    # running the desk: registration, check-in, drops, pairings, results
    "run": frozenset({ORGANIZER, HEAD_JUDGE, JUDGE}),
    # event settings, staff, deleting the event
    "manage": frozenset({ORGANIZER}),
    # 10.080: only the head judge disqualifies
    "disqualify": frozenset({HEAD_JUDGE}),
}


def role_for(user, event: Event) -> str | None:
    if not user.is_authenticated:
        return None
    if user.is_superuser:
        return ORGANIZER
    cache = getattr(user, "_event_roles", None)
    if cache is None:
        cache = user._event_roles = {}
    if event.pk not in cache:
        cache[event.pk] = (
            EventStaff.objects.filter(event=event, user=user).values_list("role", flat=True).first()
        )
    return cache[event.pk]


def can(user, event: Event, capability: str) -> bool:
    role = role_for(user, event)
    return role is not None and role in CAPABILITIES[capability]


def event_staff_required(capability: str = "run") -> Callable:
    """Load the event named by the ``slug`` URL argument and check the user's role.

    Anonymous visitors are sent to the login page; a logged-in user without the
    capability gets 403. The view receives ``event`` instead of ``slug``.
    """

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
            event = get_object_or_404(Event, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not can(request.user, event, capability):
                raise PermissionDenied("You are not on this event's staff with that role.")
            request.event_role = role_for(request.user, event)
            return view(request, *args, event=event, **kwargs)

        return wrapper

    return decorator
