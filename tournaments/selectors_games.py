"""Every counted game as plain data: the one bridge that player histories, ratings and main-character
statistics read games through.

A counted game is a table of a closed round (Swiss, semi-final or final) whose seats all have a
placement. Rounds still being played, and tables whose result is missing, are not counted. Games come
in the order they were played: event date, event, round number, table number, so a replay of them
(the ratings) is deterministic.

Two queries whatever the number of games: the seats with their registrations and players, and the
events' names.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from .models import Event, Player, Round, Seat, public_name_for
from .people import person_key


@dataclass(frozen=True)
class GameSeat:
    registration_id: int
    player_id: int
    person: str  # tournaments.people.person_key
    name: str
    public_name: str  # the record's own choice; a person's name on history pages: selectors_history
    seat: int  # turn order, 1 goes first
    placement: int  # 1 = won the game
    points: float | None
    vp: int | None
    main_character: str
    main_character_key: str = ""  # the rulings card key when matched (tournaments.characters)
    short: bool = False  # this record chose the short public name


@dataclass(frozen=True)
class Game:
    event_id: int
    event_slug: str
    event_name: str
    event_date: datetime.date
    round_number: int
    round_kind: str  # Round.Kind value
    table_number: int
    seats: tuple[GameSeat, ...]  # in turn order

    @property
    def size(self) -> int:
        return len(self.seats)


def counted_games(
    *, event_ids: Iterable[int] | None = None, player_ids: Iterable[int] | None = None
) -> list[Game]:
    """The counted games, oldest first; only those of ``event_ids`` and/or those in which one of
    ``player_ids`` sat, when given."""
    seats = Seat.objects.filter(round__status=Round.Status.CLOSED)
    if event_ids is not None:
        seats = seats.filter(round__event_id__in=list(event_ids))
    if player_ids is not None:
        tables = Seat.objects.filter(registration__player_id__in=list(player_ids)).values("table_id")
        seats = seats.filter(table_id__in=tables)
    rows = seats.values_list(
        "table_id",
        "table__number",
        "round__number",
        "round__kind",
        "round__event_id",
        "registration_id",
        "registration__player_id",
        "registration__player__user_id",
        "registration__player__name",
        "registration__player__public_short_name",
        "seat",
        "placement",
        "points",
        "vp",
        "main_character",
        "main_character_key",
    )
    tables: dict[int, list] = {}
    for row in rows:
        tables.setdefault(row[0], []).append(row)
    events = {
        e["pk"]: e
        for e in Event.objects.filter(pk__in={r[0][4] for r in tables.values()}).values(
            "pk", "slug", "name", "date"
        )
    }

    games = []
    for table_rows in tables.values():
        if any(r[11] is None for r in table_rows):
            continue  # a result still missing: not a counted game
        first = table_rows[0]
        event = events[first[4]]
        table_rows.sort(key=lambda r: r[10])
        games.append(
            Game(
                event_id=first[4],
                event_slug=event["slug"],
                event_name=event["name"],
                event_date=event["date"],
                round_number=first[2],
                round_kind=first[3],
                table_number=first[1],
                seats=tuple(
                    GameSeat(
                        registration_id=r[5],
                        player_id=r[6],
                        person=person_key(player_id=r[6], user_id=r[7]),
                        name=r[8],
                        public_name=public_name_for(r[8], short=r[9]),
                        seat=r[10],
                        placement=r[11],
                        points=float(r[12]) if r[12] is not None else None,
                        vp=r[13],
                        main_character=r[14],
                        main_character_key=r[15],
                        short=r[9],
                    )
                    for r in table_rows
                ),
            )
        )
    games.sort(key=lambda g: (g.event_date, g.event_id, g.round_number, g.table_number))
    return games


def final_places(events: Iterable[Event]) -> dict[int, dict[int, int]]:
    """Each finished event's final ranking as {event id: {registration id: place}} (1 = the winner).

    An event counts once its final is closed (its status is then "finished"); events still running
    are absent. The ranking is ``services.rounds.final_ranking``: the final table, the semi-finals,
    then the Swiss standings. A few queries per event, none per player; cached with the standings.
    """
    from .services.rounds import final_ranking  # services import selectors: import here, not at the top

    places: dict[int, dict[int, int]] = {}
    for event in events:
        if event.status != Event.Status.FINISHED:
            continue
        ranking = final_ranking(event)
        if ranking:
            places[event.pk] = {registration.pk: n for n, registration in enumerate(ranking, start=1)}
    return places


def account_chose_short(user_id_path: str) -> Exists:
    """In a query of records (``user_id_path`` leads from its rows to a record's account id, such as
    "player__user_id"): whether any record of that account chose the short public name. What
    ``people.public_name`` needs of the records the query does not load, read in the same query; false
    for a record without an account."""
    return Exists(Player.objects.filter(user_id=OuterRef(user_id_path), public_short_name=True))
