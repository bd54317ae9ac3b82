"""Each event's own time zone: its pages, printouts and exports show times in it; the database keeps UTC.

``EventTimeZoneMiddleware`` activates the zone of the event a request is about (any URL with the event's
``slug``), so templates, forms (a registration deadline typed by the organizer) and ``timezone.localtime``
all use it without each view saying so. The slug's zone is remembered in the cache, so an event page
costs no extra query; saving an event forgets it.
"""

from __future__ import annotations

import functools
import zoneinfo

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

CACHE_SECONDS = 3600
EVENT_APPS = frozenset({"tournaments", "judging"})  # the URL namespaces whose ``slug`` names an event
_PREFIX = "event-tz:"


@functools.cache
def time_zone_names() -> frozenset[str]:
    """The IANA names this machine knows (the ``tzdata`` package where the system has none)."""
    return frozenset(zoneinfo.available_timezones())


def time_zone_choices() -> list[tuple[str, str]]:
    """For a select: the zones grouped by region as people look for them ("Europe/London" → "Europe / London")."""
    return [(name, name.replace("/", " / ").replace("_", " ")) for name in sorted(time_zone_names())]


def forget_time_zone(slug: str) -> None:
    cache.delete(_PREFIX + slug)


def event_time_zone(slug: str) -> str | None:
    """The time zone name of the event with this slug (None when there is no such event)."""
    from .models import Event

    if len(slug) > Event._meta.get_field("slug").max_length:
        return None  # no event has it (and a long key would not suit every cache)
    key = _PREFIX + slug
    name = cache.get(key)
    if name is None:
        name = Event.objects.filter(slug=slug).values_list("time_zone", flat=True).first() or ""
        cache.set(key, name, CACHE_SECONDS)
    return name or None


def default_for(user) -> str:
    """A new event's zone: the organizer's last event's, else the site's (``TIME_ZONE``)."""
    from .models import Event

    if user is not None and user.is_authenticated:
        last = (
            Event.objects.filter(created_by=user).order_by("-pk").values_list("time_zone", flat=True).first()
        )
        if last:
            return last
    return settings.TIME_ZONE


class EventTimeZoneMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs) -> None:
        match = request.resolver_match
        if match is None or not set(match.namespaces) & EVENT_APPS:
            return  # e.g. a rulings document's slug is not an event's
        slug = view_kwargs.get("slug")
        name = event_time_zone(slug) if isinstance(slug, str) else None
        if name is None and match.url_name == "event_create":
            name = default_for(request.user)
        if name in time_zone_names():
            timezone.activate(zoneinfo.ZoneInfo(name))
