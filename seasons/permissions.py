"""Who may do what with seasons.

- Create a season: anyone who may create events (``accounts.permissions.can_create_events``).
- Edit it, add or remove its events, add co-organizers: its organizers (a superuser counts as one).
- Add an event: a season organizer who also organizes that event (``tournaments.permissions``).
- Remove an event: a season organizer who organizes that event, or who created the season; a
  co-organizer cannot take out an event of someone else's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from accounts.permissions import can_create_events
from tournaments.models import Event, EventStaff
from tournaments.permissions import can

from .models import Season, SeasonOrganizer

can_create_seasons = can_create_events


def is_season_organizer(user, season: Season) -> bool:
    if not user.is_authenticated:
        return False
    return user.is_superuser or SeasonOrganizer.objects.filter(season=season, user=user).exists()


def can_add_event(user, season: Season, event: Event) -> bool:
    return is_season_organizer(user, season) and can(user, event, "manage")


def can_remove_event(user, season: Season, event: Event) -> bool:
    if not is_season_organizer(user, season):
        return False
    return user.is_superuser or season.created_by_id == user.pk or can(user, event, "manage")


def events_organized_by(user) -> QuerySet[Event]:
    """The events ``user`` organizes (every event for a superuser), latest first."""
    events = Event.objects.order_by("-date", "name", "pk")
    if user.is_superuser:
        return events
    organized = EventStaff.objects.filter(user=user, role=EventStaff.Role.ORGANIZER).values("event_id")
    return events.filter(pk__in=organized)


def season_organizer_required(view: Callable) -> Callable:
    """Load the season named by the ``slug`` URL argument; anonymous visitors go to the login page, an
    account that does not organize it gets 403. The view receives ``season`` instead of ``slug``."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        season = get_object_or_404(Season, slug=slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_season_organizer(request.user, season):
            raise PermissionDenied("You do not organize this season.")
        return view(request, *args, season=season, **kwargs)

    return wrapper
