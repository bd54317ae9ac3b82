"""The bridge for a player's history and a head-to-head: loads the person's records, entries, counted
games and the names to show, and hands them to the pure ``tournaments.history``.

A fixed number of queries whatever the number of events and games (tests/history/test_history_queries.py):
the record, the person's records, their registrations with the events, the registrations of their
finished events (what the final places depend on), the counted games (two) and the opponents' privacy
choices. The final places of a finished event are computed once (``selectors_games.final_places``, a few
queries per event) and kept in the cache under a key of everything the ranking depends on, so a page
view reads them in one cache round trip.

Privacy: every name here is the public one (``tournaments.people.public_name``): a person shows as
"Ann S." if any of their records chose the short name, a record without an account as its own choice says.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.core.cache import cache

from ratings.selectors import RatingView, ratings_for, with_rank

from . import history
from .models import Event, Player, Registration
from .people import NameRecord, is_account_key, key_id, person_key, public_name
from .selectors import _standings_key, event_scoring, event_tiebreakers, pid
from .selectors_games import Game, counted_games, final_places

PLACES_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Person:
    """Who a page is about: the record asked for, and every record of the same person."""

    player_id: int  # the record asked for (its pk is in the URL)
    key: str  # tournaments.people.person_key
    record_ids: tuple[int, ...]
    name: str  # the public name
    records: tuple[NameRecord, ...] = ()  # what the name is made from: every record (latest: its id)


@dataclass(frozen=True)
class PlayerHistoryPage:
    person: Person
    history: history.History
    games: list[Game]  # the person's counted games, oldest first (the CSV reads them)
    names: dict[str, str]  # every opponent's public name, by person key
    rating: RatingView | None = None  # the person's stored rating (ratings app), None before a counted game


@dataclass(frozen=True)
class HeadToHeadPage:
    person: Person
    other: Person
    head_to_head: history.HeadToHead


def person_of(player_id: int) -> Person | None:
    """The person a record belongs to, or None for an unknown record. Two queries at most."""
    player = Player.objects.filter(pk=player_id).values("pk", "user_id", "name", "public_short_name").first()
    if player is None:
        return None
    records = [player]
    if player["user_id"] is not None:
        records = list(
            Player.objects.filter(user_id=player["user_id"])
            .order_by("pk")
            .values("pk", "user_id", "name", "public_short_name")
        )
    names = tuple(NameRecord(r["name"], r["public_short_name"], latest=(0, r["pk"])) for r in records)
    return Person(
        player_id=player_id,
        key=person_key(player_id=player["pk"], user_id=player["user_id"]),
        record_ids=tuple(r["pk"] for r in records),
        name=public_name(names),
        records=names,
    )


def player_history(*, player_id: int) -> PlayerHistoryPage | None:
    """Everything a player's history page shows, or None for an unknown record."""
    person = person_of(player_id)
    if person is None:
        return None
    registrations = list(
        Registration.objects.filter(player_id__in=person.record_ids, waitlisted_at__isnull=True)
        .select_related("event")
        .order_by("event__date", "pk")
    )
    places = _final_places(list({r.event_id: r.event for r in registrations}.values()))
    entries = [
        history.Entry(
            registration_id=r.pk,
            event_id=r.event_id,
            event_slug=r.event.slug,
            event_name=r.event.name,
            event_date=r.event.date,
            finished=r.event.status == Event.Status.FINISHED,
            started=r.event.status != Event.Status.REGISTRATION,
            dropped=r.dropped,
            dropped_after_round=r.dropped_after_round,
            place=places.get(r.event_id, {}).get(r.pk),
            of=len(places[r.event_id]) if r.event_id in places else None,
        )
        for r in registrations
    ]
    games = counted_games(player_ids=person.record_ids)
    person = _named(person, games)
    names = public_names(games, exclude=person.key)
    result = history.player_history(person=person.key, entries=entries, games=games, names=names)
    rating = ratings_for([person.key]).get(person.key)
    rating = with_rank(rating) if rating else None
    return PlayerHistoryPage(person=person, history=result, games=games, names=names, rating=rating)


def head_to_head(*, player_id: int, other_id: int) -> HeadToHeadPage | None:
    """Every game two people sat at together, or None if either record is unknown. The two may be one
    person (``page.person.key == page.other.key``): the view decides what to show."""
    person, other = person_of(player_id), person_of(other_id)
    if person is None or other is None:
        return None
    games = counted_games(player_ids=person.record_ids) if person.key != other.key else []
    games = [g for g in games if history.seat_of(g, other.key) is not None]
    result = history.head_to_head(person=person.key, other=other.key, games=games)
    return HeadToHeadPage(person=_named(person, games), other=_named(other, games), head_to_head=result)


def public_names(games: list[Game], *, exclude: str = "") -> dict[str, str]:
    """The public name of every person at the games: the name they last played under, short if any of
    their records chose so. One query (the accounts among them that chose the short name)."""
    records: dict[str, list[NameRecord]] = {}
    for n, game in enumerate(games):
        for seat in game.seats:
            if seat.person != exclude:
                record = NameRecord(seat.name, seat.short, latest=(n, seat.seat))
                records.setdefault(seat.person, []).append(record)
    accounts = [key_id(key) for key in records if is_account_key(key)]
    if accounts:
        # A record of theirs that sat at none of these games may be the one that chose the short name.
        for user_id, name in Player.objects.filter(user_id__in=accounts, public_short_name=True).values_list(
            "user_id", "name"
        ):
            records[f"u{user_id}"].append(NameRecord(name, short=True, latest=(-1,)))
    return {key: public_name(person) for key, person in records.items()}


def _named(person: Person, games: list[Game]) -> Person:
    """The person under the name they last played under (their latest record's name if no game)."""
    seats = [s for g in games for s in g.seats if s.person == person.key]
    if not seats:
        return person
    played = NameRecord(seats[-1].name, seats[-1].short, latest=(1,))
    return dataclasses.replace(person, name=public_name([*person.records, played]))


def _final_places(events: list[Event]) -> dict[int, dict[int, int]]:
    """``final_places`` of the events, from the cache where it has them. One query for the keys."""
    finished = [e for e in events if e.status == Event.Status.FINISHED]
    if not finished:
        return {}
    active: dict[int, list[str]] = {e.pk: [] for e in finished}
    for event_id, pk, checked_in, dropped_at, disqualified in Registration.objects.filter(
        event_id__in=list(active)
    ).values_list("event_id", "pk", "checked_in", "dropped_at", "disqualified"):
        if checked_in and dropped_at is None and not disqualified:
            active[event_id].append(pid(pk))
    keys = {}
    for event in finished:
        ids = sorted(active[event.pk], key=int)
        standings = _standings_key(event, ids, event_tiebreakers(event), event_scoring(event))
        keys[event.pk] = f"history:places:{standings}"
    found = cache.get_many(list(keys.values()))
    places = {e.pk: found[keys[e.pk]] for e in finished if keys[e.pk] in found}
    missing = [e for e in finished if e.pk not in places]
    if missing:
        fresh = final_places(missing)
        for event in missing:
            places[event.pk] = fresh.get(event.pk, {})
        cache.set_many({keys[e.pk]: places[e.pk] for e in missing}, PLACES_CACHE_SECONDS)
    return {event_id: p for event_id, p in places.items() if p}
