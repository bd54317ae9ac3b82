"""Reads for the season pages, the CSV and the API: the standings computed from the events on every read.

Nothing computed is stored. Each event's places are cached under a key holding its ``results_version``
and status (and who each of its records is), so a result corrected after the event ended changes the
key and the season shows the correction at once. A page costs a fixed number of queries whatever the
number of players: the season's events, the events' registrations, then the cache (and on a miss,
``final_places`` and ``counted_games`` for the events that changed).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from django.core.cache import cache

from ratings.selectors import ratings_for
from tournaments.models import Event, Registration
from tournaments.people import NameRecord, person_key, public_name
from tournaments.selectors_games import account_chose_short, counted_games, final_places

from . import points as season_points
from .models import Season, SeasonEvent
from .standings import TIE_NOTE, TIEBREAKERS, SeasonEventResult, SeasonLine, best_places, season_standings

CACHE_SECONDS = 24 * 3600
MAX_QUERY = 100  # characters of the name filter that are used


@dataclass
class SeasonEventView:
    event: Event
    finished: bool
    players: int  # people who played a counted game (finished events)


@dataclass
class SeasonStandings:
    season: Season
    events: list[SeasonEventView]
    lines: list[SeasonLine]
    names: dict[str, str] = field(default_factory=dict)
    records: dict[str, int] = field(default_factory=dict)  # person -> their latest record (the history link)


def season_events(season: Season) -> list[Event]:
    """The season's events in date order. One query."""
    return [
        se.event
        for se in SeasonEvent.objects.filter(season=season)
        .select_related("event")
        .order_by("event__date", "event__pk")
    ]


def _places_key(event: Event, people: list[tuple[int, str]]) -> str:
    digest = hashlib.sha256(json.dumps(sorted(people), separators=(",", ":")).encode()).hexdigest()[:16]
    return f"season-places:{event.pk}:{event.results_version}:{event.status}:{digest}"


def _event_places(events: list[Event], people: dict[int, dict[int, str]]) -> dict[int, dict[str, int]]:
    """{event id: {person: final place}} of the finished events, among the people who played at least one
    counted game there; a person under two records keeps the better place. Cached per event version."""
    finished = [e for e in events if e.status == Event.Status.FINISHED]
    keys = {e.pk: _places_key(e, list(people.get(e.pk, {}).items())) for e in finished}
    found = cache.get_many(list(keys.values())) if keys else {}
    places = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [e for e in finished if e.pk not in places]
    if missing:
        played = {
            seat.registration_id
            for game in counted_games(event_ids=[e.pk for e in missing])
            for seat in game.seats
        }
        ranked = final_places(missing)
        fresh = {}
        for event in missing:
            persons = people.get(event.pk, {})
            fresh[event.pk] = best_places(
                (persons[reg], place)
                for reg, place in ranked.get(event.pk, {}).items()
                if reg in played and reg in persons
            )
        cache.set_many({keys[pk]: value for pk, value in fresh.items()}, CACHE_SECONDS)
        places.update(fresh)
    return places


def standings(season: Season) -> SeasonStandings:
    """The season's standings, computed from its events. Two queries, and the cache."""
    events = season_events(season)
    rows = (
        Registration.objects.filter(event__in=[e.pk for e in events])
        .annotate(account_short=account_chose_short("player__user_id"))
        .values_list(
            "pk",
            "event_id",
            "player_id",
            "player__user_id",
            "player__name",
            "player__public_short_name",
            "account_short",
        )
    )
    people: dict[int, dict[int, str]] = {}
    records: dict[str, list[NameRecord]] = {}  # person -> their records in the season (latest: the record id)
    latest: dict[str, int] = {}  # person -> their latest record in the season (the history link)
    for pk, event_id, player_id, user_id, name, short, account_short in rows:
        person = person_key(player_id=player_id, user_id=user_id)
        people.setdefault(event_id, {})[pk] = person
        # A record of the account outside the season may be the one that chose the short name.
        records.setdefault(person, []).append(NameRecord(name, short or account_short, latest=(player_id,)))
        latest[person] = max(latest.get(person, 0), player_id)
    names = {person: public_name(named) for person, named in records.items()}
    places = _event_places(events, people)
    results = [SeasonEventResult(event_id=e.pk, places=places.get(e.pk)) for e in events]
    lines = season_standings(results, season.points, names)
    views = [
        SeasonEventView(event=e, finished=e.pk in places, players=len(places.get(e.pk, {}))) for e in events
    ]
    return SeasonStandings(season=season, events=views, lines=lines, names=names, records=latest)


def standings_version(result: SeasonStandings) -> str:
    """A fingerprint of everything the standings table shows (events, points, names): the rendered table
    is cached under it, so any change, a correction or a renamed player, makes a new one."""
    data = (
        result.season.points,
        [(v.event.pk, v.event.name, v.finished) for v in result.events],
        [(line.rank, line.person, line.name, line.points, line.event_points) for line in result.lines],
    )
    return hashlib.sha256(repr(data).encode()).hexdigest()[:24]


def _ratings_digest(ratings: dict) -> str:
    shown = sorted(
        (p, round(v.rating, 1), round(v.uncertainty, 1), v.games, v.provisional) for p, v in ratings.items()
    )
    return hashlib.sha256(repr(shown).encode()).hexdigest()[:12]


def filter_lines(lines: list[SeasonLine], query: str) -> list[SeasonLine]:
    """The lines whose name holds ``query`` (any case); every line for an empty query. Ranks stay."""
    query = " ".join(query[:MAX_QUERY].casefold().split())
    if not query:
        return lines
    return [line for line in lines if query in " ".join(line.name.casefold().split())]


def season_page(season: Season, *, query: str = "") -> dict:
    """Everything the season's public page shows, as one context dict (other parts add their sections
    to it: a ratings column, main-character statistics)."""
    result = standings(season)
    ratings = ratings_for(line.person for line in result.lines)
    return {
        "season": season,
        "events": result.events,
        "lines": filter_lines(result.lines, query),
        "all_lines": result.lines,
        "query": query[:MAX_QUERY],
        "scheme_text": season_points.describe(season.points),
        "tiebreakers": TIEBREAKERS,
        "tie_note": TIE_NOTE,
        "standings": result,
        # The ratings are recomputed apart from the results: what the table shows of them is in its version.
        "standings_version": f"{standings_version(result)}:{_ratings_digest(ratings)}",
        "ratings": ratings,
        "records": result.records,
    }


def finished_event_ids(season: Season) -> list[int]:
    """The season's finished events (those that count). One query."""
    return list(
        SeasonEvent.objects.filter(season=season, event__status=Event.Status.FINISHED)
        .order_by("event__date", "event__pk")
        .values_list("event_id", flat=True)
    )


def event_seasons(event: Event) -> list[Season]:
    """The seasons an event counts in. One query."""
    return list(Season.objects.filter(season_events__event=event).order_by("-start_date", "name"))
