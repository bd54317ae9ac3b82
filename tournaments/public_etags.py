"""What each public page and API answer depends on, as a string for its ETag (tournaments.http_cache).

Built from the version keys the pages already keep (the round's tables and names, the standings key,
the event's own row), in a few queries whatever the size of the event, and never by rendering the page.
Each function takes the view's arguments; a missing event or round raises Http404 as the view would.
Anything a page shows must be covered here, or a client would keep an old copy after a change.
"""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, Q, Sum
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from . import public_pairings, selectors
from .models import Event, Registration, Round, Table
from .services import self_registration_refusal


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def _digest(rows) -> str:
    return hashlib.sha256(repr(list(rows)).encode()).hexdigest()[:24]


def _event_row(event: Event) -> str:
    """Every column of the event: name, status, settings, versions. No query."""
    return _digest((f.attname, getattr(event, f.attname)) for f in event._meta.concrete_fields)


def _seasons(event: Event) -> str:
    """The seasons the event counts in, as its page links them. One query."""
    from seasons.models import Season  # seasons builds on tournaments: imported here, not at the top

    return _digest(Season.objects.filter(season_events__event=event).values_list("pk", "slug", "name"))


def _rounds(event: Event) -> str:
    """The published rounds, with their state. One query."""
    return _digest(
        selectors.public_rounds(event).values_list(
            "pk", "number", "kind", "status", "attempt", "paired_at", "published_at", "closed_at"
        )
    )


def _playoff_tables(event: Event) -> str:
    """The play-off tables (the bracket and the final ranking read their seats). One query."""
    state = (
        Table.objects.filter(round__event=event)
        .exclude(round__kind=Round.Kind.SWISS)
        .aggregate(tables=Count("pk"), versions=Sum("version"), entered=Max("result_entered_at"))
    )
    return repr(sorted(state.items()))


def _registrations(event: Event) -> str:
    """Who is registered, as the public lists show them. One query."""
    return _digest(
        Registration.objects.filter(event=event)
        .order_by("pk")
        .values_list(
            "pk",
            "checked_in",
            "waitlisted_at",
            "dropped_at",
            "disqualified",
            "player__name",
            "player__sort_name",
            "player__public_short_name",
        )
    )


def event_page(request: HttpRequest, slug: str) -> str:
    event = _event(slug)
    if event.in_registration:
        # The lists of players and the waitlist, the places left and whether registration is open
        # (the deadline passes with time, so the refusal is asked, not derived).
        return (
            f"reg|{_event_row(event)}|{_registrations(event)}|{self_registration_refusal(event)}|"
            f"{_seasons(event)}"
        )
    round = selectors.current_public_round(event)
    pairings = public_pairings.pairings_key(round) if round else ""
    return (
        f"live|{_event_row(event)}|{_rounds(event)}|{pairings}|{selectors.standings_key(event)}|"
        f"{_playoff_tables(event)}|{_seasons(event)}"
    )


def pairings(request: HttpRequest, slug: str, number: int) -> str:
    event = _event(slug)
    round = get_object_or_404(Round, event=event, number=number)
    return f"{_event_row(event)}|{round.number}:{round.kind}|{public_pairings.pairings_key(round)}"


def standings(request: HttpRequest, slug: str) -> str:
    event = _event(slug)
    return f"{_event_row(event)}|{_rounds(event)}|{selectors.standings_key(event)}|{_playoff_tables(event)}"


def player(request: HttpRequest, slug: str, pk: int) -> str:
    event = _event(slug)
    # Looked up by its own key first: Django answers an id past the database's integers with "none"
    # there, where a join on the id (seats__registration_id) would overflow (a 500).
    registration = get_object_or_404(Registration.objects.only("pk"), pk=pk, event=event)
    own = Table.objects.filter(seats__registration=registration, round__event=event).aggregate(
        tables=Count("pk"), versions=Sum("version"), entered=Max("result_entered_at")
    )
    return (
        f"{_event_row(event)}|{pk}|{sorted(own.items())}|{_rounds(event)}|{selectors.standings_key(event)}|"
        f"{_playoff_tables(event)}"
    )


def event_list(request: HttpRequest) -> str:
    """The events and how many players each has (the list's own numbers). One query."""
    return _digest(
        Event.objects.order_by("pk")
        .annotate(
            players=Count(
                "registrations",
                filter=Q(registrations__dropped_at__isnull=True, registrations__waitlisted_at__isnull=True),
            )
        )
        .values_list("pk", "slug", "name", "date", "venue", "sanctioned", "status", "players")
    )


def api_events(request: HttpRequest) -> str:
    return _digest(
        Event.objects.order_by("pk").values_list(
            "pk", "slug", "name", "date", "venue", "sanctioned", "status", "swiss_rounds",
            "swiss_rounds_standard", "round_minutes",
        )
    )  # fmt: skip


def api_event(request: HttpRequest, slug: str) -> str:
    event = _event(slug)
    return (
        f"{_event_row(event)}|{_rounds(event)}|{_registrations(event)}|{selectors.standings_key(event)}|"
        f"{_playoff_tables(event)}"
    )


def api_round(request: HttpRequest, slug: str, number: int) -> str:
    event = _event(slug)
    round = get_object_or_404(selectors.public_rounds(event), number=number)
    return f"{event.pk}|{round.number}:{round.kind}|{public_pairings.pairings_key(round)}"


def api_standings(request: HttpRequest, slug: str) -> str:
    event = _event(slug)
    return f"{event.slug}|{selectors.standings_key(event)}"


def api_results(request: HttpRequest, slug: str) -> str:
    """Every game of the published rounds: results and swaps bump the tables' versions, corrections the
    event's results version (in its row); names come with the registrations."""
    event = _event(slug)
    tables = Table.objects.filter(round__event=event, round__published_at__isnull=False).aggregate(
        tables=Count("pk"), versions=Sum("version"), entered=Max("result_entered_at")
    )
    return f"{_event_row(event)}|{_rounds(event)}|{sorted(tables.items())}|{_registrations(event)}"


def api_ranking(request: HttpRequest, slug: str) -> str:
    """The final ranking: the standings it starts from, and the play-off tables that order the top."""
    event = _event(slug)
    return f"{event.slug}|{_rounds(event)}|{selectors.standings_key(event)}|{_playoff_tables(event)}"
