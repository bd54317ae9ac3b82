"""Season standings from the events' final places. Pure: no Django.

Input: the season's events in date order, each with {person: final place} (``None`` while the event is
still being played: it shows as in progress and gives no points yet), the points scheme and the names
to show. Output: one line per person who played a finished event, best first.

The tiebreakers, in order (stated on the season's page):

1. season points, more first;
2. best single finish, the higher place first;
3. event wins, more first;
4. events played, more first.

People equal on all four share the rank and are listed by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .points import event_points

TIEBREAKERS = (
    "Season points (more first)",
    "Best single finish (the higher place first)",
    "Event wins (more first)",
    "Events played (more first)",
)
TIE_NOTE = "People equal on all four share the rank and are listed by name."


@dataclass(frozen=True)
class SeasonEventResult:
    event_id: int
    places: Mapping[str, int] | None  # person -> final place; None: the event is not finished


@dataclass(frozen=True)
class SeasonLine:
    rank: int
    person: str  # tournaments.people.person_key
    name: str
    points: int
    events_played: int
    best_finish: int
    event_wins: int
    event_points: tuple[int | None, ...]  # per event of the season, in order; None: did not play it


def best_places(pairs: Iterable[tuple[str, int]]) -> dict[str, int]:
    """{person: place} from (person, place) pairs: a person in one event under two records counts once,
    with the better place."""
    places: dict[str, int] = {}
    for person, place in pairs:
        if person not in places or place < places[person]:
            places[person] = place
    return places


def season_standings(
    events: Sequence[SeasonEventResult], scheme: Mapping, names: Mapping[str, str]
) -> list[SeasonLine]:
    totals: dict[str, list[int | None]] = {}
    for index, event in enumerate(events):
        if event.places is None:
            continue
        players = len(event.places)
        for person, place in event.places.items():
            row = totals.setdefault(person, [None] * len(events))
            row[index] = event_points(scheme, place, players)

    rows = []
    for person, per_event in totals.items():
        places = [e.places[person] for e in events if e.places is not None and person in e.places]
        rows.append(
            (
                sum(p for p in per_event if p is not None),
                min(places),
                places.count(1),
                len(places),
                person,
                tuple(per_event),
            )
        )

    def order(row) -> tuple:
        points, best, wins, played, person, _ = row
        return (-points, best, -wins, -played, names.get(person, "").casefold(), person)

    rows.sort(key=order)
    lines: list[SeasonLine] = []
    for n, (points, best, wins, played, person, per_event) in enumerate(rows, start=1):
        same = lines and (
            lines[-1].points,
            lines[-1].best_finish,
            lines[-1].event_wins,
            lines[-1].events_played,
        )
        rank = lines[-1].rank if same == (points, best, wins, played) else n
        lines.append(
            SeasonLine(
                rank=rank,
                person=person,
                name=names.get(person, ""),
                points=points,
                events_played=played,
                best_finish=best,
                event_wins=wins,
                event_points=per_event,
            )
        )
    return lines
