"""Reads for main characters: the catalogue (the DCDB Main Characters of the rulings database) and the
statistics of who played what, per event, per list of events (a season) and across every event.

The catalogue is read once per import of the rule documents: its cache key is the DCDB documents'
count, highest id and latest import time, which every import, re-parse or new edition changes. A card
is re-created when its document is re-imported, so the slips hold its ``key``, never a foreign key.

Statistics are ``characters.statistics`` over ``selectors_games.counted_games`` (two queries), cached
under the events' results versions (every saved slip of a closed round, every close, reopen and staff
match bumps it) and the catalogue's key.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Count, Max, Q

from rulings.models import Card, Document
from rulings.parsers.base import GAME_DCDB, MAIN_CHARACTER, normalise

from . import characters, page_cache, request_memo
from .characters import MainCharacter, Play, Statistics
from .models import Event, Seat
from .selectors_games import counted_games

_catalogue_lock = threading.Lock()
_catalogue: dict[str, tuple[MainCharacter, ...]] = {}  # fingerprint -> catalogue (the latest only)


def catalogue_version() -> str:
    """Changes with every import of a DCDB rule document (one query, once per reading request)."""
    return request_memo.memoized(("main-characters-version",), _catalogue_version)


def _catalogue_version() -> str:
    found = Document.objects.filter(game__code=GAME_DCDB).aggregate(
        n=Count("pk"), current=Count("pk", filter=Q(is_current=True)), last=Max("pk"), at=Max("imported_at")
    )
    at = found["at"].isoformat() if found["at"] else ""
    return f"{found['n']}:{found['current']}:{found['last']}:{at}"


def main_characters() -> tuple[MainCharacter, ...]:
    """The DCDB Main Characters of the current rule documents, one per card key, by name then set."""
    version = catalogue_version()
    with _catalogue_lock:
        if version in _catalogue:
            return _catalogue[version]
    cards = (
        Card.objects.filter(game__code=GAME_DCDB, category=MAIN_CHARACTER, document__is_current=True)
        .order_by("document_id", "pk")
        .prefetch_related("aliases")
    )
    by_key: dict[str, MainCharacter] = {}
    for card in cards:
        if card.key not in by_key:
            aliases = tuple(
                alias.alias for alias in card.aliases.all() if normalise(alias.alias) != card.normalised_name
            )
            by_key[card.key] = MainCharacter(
                key=card.key, name=card.name, set_name=card.set_name, aliases=aliases
            )
        elif not by_key[card.key].aliases and card.aliases.all():
            old = by_key[card.key]
            extra = tuple(alias.alias for alias in card.aliases.all())
            by_key[card.key] = MainCharacter(old.key, old.name, old.set_name, extra)
    found = tuple(sorted(by_key.values(), key=lambda c: (c.name.casefold(), c.set_name.casefold(), c.key)))
    with _catalogue_lock:
        _catalogue.clear()
        _catalogue[version] = found
    return found


def labels_by_key(catalogue: Iterable[MainCharacter]) -> dict[str, str]:
    return {character.key: character.label for character in catalogue}


# --- Statistics ----------------------------------------------------------------------------------------


def _plays(event_ids: list[int] | None) -> list[Play]:
    return [
        Play(
            game=number,
            table_size=game.size,
            placement=seat.placement,
            main_character=seat.main_character,
            main_character_key=seat.main_character_key,
        )
        for number, game in enumerate(counted_games(event_ids=event_ids))
        for seat in game.seats
    ]


def _results_version(event_ids: list[int] | None) -> str:
    events = Event.objects.order_by("pk")
    if event_ids is not None:
        events = events.filter(pk__in=event_ids)
    rows = list(events.values_list("pk", "results_version"))
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:20]


def statistics_key(*, event_ids: Iterable[int] | None = None) -> str:
    """Changes whenever the statistics of ``event_ids`` (every event when None) may change: a slip of a
    closed round, a close or reopen, a staff match, an import of the rule documents. Two queries."""
    ids = sorted({int(pk) for pk in event_ids}) if event_ids is not None else None
    return f"{_results_version(ids)}:{catalogue_version()}"


def character_statistics(
    *, event_ids: Iterable[int] | None = None, table_size: int | None = None
) -> Statistics:
    """Main-character statistics over the counted games of ``event_ids`` (every event when None), only
    tables of ``table_size`` players when given. What the season page calls with its events' ids."""
    ids = sorted({int(pk) for pk in event_ids}) if event_ids is not None else None
    catalogue = main_characters()
    scope = "all" if ids is None else hashlib.sha256(repr(ids).encode()).hexdigest()[:16]
    version = statistics_key(event_ids=ids)
    return page_cache.build_once(
        f"characters:{scope}:{table_size or 'any'}",
        version,
        lambda: characters.statistics(_plays(ids), table_size=table_size, labels=labels_by_key(catalogue)),
    )


def event_character_statistics(*, event: Event, table_size: int | None = None) -> Statistics:
    return character_statistics(event_ids=[event.pk], table_size=table_size)


# --- Old free-text entries -----------------------------------------------------------------------------


@dataclass(frozen=True)
class UnmatchedText:
    """One free text that slips of an event hold and no certain match names, with its seats."""

    text: str
    count: int
    seat_ids: tuple[int, ...]
    closest: tuple[MainCharacter, ...]
    key: str  # a form-safe id for the text: its hash


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def unmatched_texts(*, event: Event) -> list[UnmatchedText]:
    """The event's main characters written as free text and not matched, grouped by their exact text,
    most seats first; each with the catalogue's closest names (one query plus the catalogue's)."""
    catalogue = main_characters()
    rows = (
        Seat.objects.filter(round__event=event, main_character_key="")
        .exclude(main_character="")
        .order_by("pk")
        .values_list("pk", "main_character")
    )
    seats: dict[str, list[int]] = {}
    for pk, text in rows:
        seats.setdefault(text, []).append(pk)
    found = [
        UnmatchedText(
            text=text,
            count=len(ids),
            seat_ids=tuple(ids),
            closest=characters.closest(text, catalogue),
            key=text_key(text),
        )
        for text, ids in seats.items()
    ]
    found.sort(key=lambda u: (-u.count, u.text.casefold()))
    return found
