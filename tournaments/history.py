"""A player's history across events, and a head-to-head between two players: the pure maths.

Takes plain data in (the person's entries, the counted games of ``tournaments.selectors_games`` and the
names to show) and gives dataclasses out; no Django imports, no queries. The bridge that loads the data
is ``tournaments.selectors_history``.

A person is ``tournaments.people.person_key``: every record linked to one account, or one record alone.
When two records of one person sat in the same event (entered twice, later claimed by one account):

- every counted game stays the game it was: a game at which one of the records sat counts once;
- a game at which both records sat (one person in two seats) counts once, with the better placement,
  and the person is nobody's opponent at it;
- the event is one line, with the better final place of the two records.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # plain dataclasses; imported for the type hints only (that module reads the database)
    from .selectors_games import Game, GameSeat


@dataclass(frozen=True)
class Entry:
    """One registration of the person in one event."""

    registration_id: int
    event_id: int
    event_slug: str
    event_name: str
    event_date: object  # datetime.date
    finished: bool
    dropped: bool
    dropped_after_round: int | None
    place: int | None  # the final place, once the event is finished
    of: int | None  # how many players the final ranking has
    started: bool = True  # False while the event takes registrations


@dataclass(frozen=True)
class EventLine:
    event_id: int
    slug: str
    name: str
    date: object  # datetime.date
    finished: bool
    place: int | None
    of: int | None
    games: int
    wins: int
    points: float
    dropped: bool
    dropped_after_round: int | None
    records: int  # registrations of the person in this event: 2 if entered twice
    started: bool = True

    @property
    def in_progress(self) -> bool:
        return self.started and not self.finished


@dataclass(frozen=True)
class Tally:
    """Games, wins (placement 1) and the average placement, of all games or of one table size."""

    games: int = 0
    wins: int = 0
    placements: int = 0  # the sum, for the average

    @property
    def average_place(self) -> float | None:
        return round(self.placements / self.games, 2) if self.games else None

    @property
    def win_rate(self) -> float | None:
        return round(self.wins / self.games, 3) if self.games else None

    def add(self, placement: int) -> Tally:
        return Tally(self.games + 1, self.wins + (placement == 1), self.placements + placement)


@dataclass(frozen=True)
class Totals:
    events: int  # events in which the person played at least one counted game
    all: Tally
    by_size: dict[int, Tally] = field(default_factory=dict)  # table size (3, 4; 5 if allowed) -> tally

    @property
    def games(self) -> int:
        return self.all.games

    @property
    def wins(self) -> int:
        return self.all.wins

    @property
    def average_place(self) -> float | None:
        return self.all.average_place

    @property
    def sizes(self) -> list[tuple[int, Tally]]:
        return sorted(self.by_size.items())


@dataclass(frozen=True)
class Opponent:
    person: str
    player_id: int  # the record to link to: the one met most recently
    name: str  # the public name
    games: int
    ahead: int  # games the person finished ahead of this opponent
    behind: int  # games this opponent finished ahead


@dataclass(frozen=True)
class History:
    person: str
    events: list[EventLine]  # latest first
    totals: Totals
    opponents: list[Opponent]  # most games together first


@dataclass(frozen=True)
class Meeting:
    """One game both people sat at, from the first person's side."""

    event_slug: str
    event_name: str
    event_date: object
    round_number: int
    round_kind: str
    table_number: int
    size: int
    placement: int
    points: float | None
    other_placement: int
    other_points: float | None

    @property
    def ahead(self) -> bool:
        return self.placement < self.other_placement


@dataclass(frozen=True)
class HeadToHead:
    games: list[Meeting]  # oldest first
    ahead: int  # the first person finished ahead
    behind: int
    wins: int  # games the first person won (placement 1)
    other_wins: int
    average_place: float | None
    other_average_place: float | None


def seat_of(game: Game, person: str) -> GameSeat | None:
    """The person's seat at the game; their better one if two of their records sat there."""
    seats = [s for s in game.seats if s.person == person]
    return min(seats, key=lambda s: s.placement) if seats else None


def player_history(
    *, person: str, entries: Iterable[Entry], games: Sequence[Game], names: Mapping[str, str]
) -> History:
    """The person's events (latest first), totals and opponents from their entries and counted games.

    ``games`` are in the order played (``counted_games``); ``names`` maps each opponent's person key to
    the name public pages show.
    """
    played = [(g, seat) for g in games if (seat := seat_of(g, person)) is not None]

    per_event: dict[int, list[tuple[Game, GameSeat]]] = {}
    for game, seat in played:
        per_event.setdefault(game.event_id, []).append((game, seat))
    by_event: dict[int, list[Entry]] = {}
    for entry in entries:
        by_event.setdefault(entry.event_id, []).append(entry)
    lines = []
    for event_id, event_entries in by_event.items():
        first = event_entries[0]
        places = [e.place for e in event_entries if e.place is not None]
        best = min(places) if places else None
        best_entry = next((e for e in event_entries if e.place == best), first)
        event_games = per_event.get(event_id, [])
        lines.append(
            EventLine(
                event_id=event_id,
                slug=first.event_slug,
                name=first.event_name,
                date=first.event_date,
                finished=first.finished,
                place=best,
                of=best_entry.of if best is not None else None,
                games=len(event_games),
                wins=sum(seat.placement == 1 for _, seat in event_games),
                points=sum(seat.points or 0 for _, seat in event_games),
                # Dropped only if every record of the person dropped (one still playing is playing).
                dropped=all(e.dropped for e in event_entries),
                dropped_after_round=max((e.dropped_after_round or 0 for e in event_entries), default=0)
                or None,
                records=len(event_entries),
                started=first.started,
            )
        )
    lines.sort(key=lambda line: (line.date, line.event_id), reverse=True)

    tally, by_size = Tally(), {}
    for game, seat in played:
        tally = tally.add(seat.placement)
        by_size[game.size] = by_size.get(game.size, Tally()).add(seat.placement)
    totals = Totals(events=len(per_event), all=tally, by_size=by_size)

    met: dict[str, dict] = {}
    for game, seat in played:
        for other in game.seats:
            if other.person == person:
                continue
            line = met.setdefault(other.person, {"games": set(), "ahead": 0, "behind": 0})
            key = (game.event_id, game.round_number, game.table_number)
            if key in line["games"]:
                continue  # the opponent in two seats of one game (two records): one game
            line["games"].add(key)
            line["player_id"] = other.player_id  # the latest record met (games come oldest first)
            best = seat_of(game, other.person)
            line["ahead"] += seat.placement < best.placement
            line["behind"] += best.placement < seat.placement
    opponents = [
        Opponent(
            person=key,
            player_id=line["player_id"],
            name=names.get(key, ""),
            games=len(line["games"]),
            ahead=line["ahead"],
            behind=line["behind"],
        )
        for key, line in met.items()
    ]
    opponents.sort(key=lambda o: (-o.games, o.name.casefold(), o.person))
    return History(person=person, events=lines, totals=totals, opponents=opponents)


def head_to_head(*, person: str, other: str, games: Iterable[Game]) -> HeadToHead:
    """Every game both people sat at, from ``person``'s side, and the summary."""
    meetings = []
    for game in games:
        mine, theirs = seat_of(game, person), seat_of(game, other)
        if mine is None or theirs is None or person == other:
            continue
        meetings.append(
            Meeting(
                event_slug=game.event_slug,
                event_name=game.event_name,
                event_date=game.event_date,
                round_number=game.round_number,
                round_kind=game.round_kind,
                table_number=game.table_number,
                size=game.size,
                placement=mine.placement,
                points=mine.points,
                other_placement=theirs.placement,
                other_points=theirs.points,
            )
        )
    mine_tally, their_tally = Tally(), Tally()
    for m in meetings:
        mine_tally, their_tally = mine_tally.add(m.placement), their_tally.add(m.other_placement)
    return HeadToHead(
        games=meetings,
        ahead=sum(m.placement < m.other_placement for m in meetings),
        behind=sum(m.other_placement < m.placement for m in meetings),
        wins=mine_tally.wins,
        other_wins=their_tally.wins,
        average_place=mine_tally.average_place,
        other_average_place=their_tally.average_place,
    )


@dataclass(frozen=True)
class GameLine:
    """One of the person's games, from their side (the CSV of their games)."""

    player: str  # the person's public name
    event_slug: str
    event_name: str
    event_date: object
    round_number: int
    round_kind: str
    table_number: int
    size: int
    seat: int
    placement: int
    points: float | None
    vp: int | None
    opponents: tuple[str, ...]  # public names, in turn order


def game_lines(*, person: str, name: str, games: Iterable[Game], names: Mapping[str, str]) -> list[GameLine]:
    """The person's games, oldest first; a game at which two of their records sat is one line. ``name``
    is the person's public name, ``names`` the opponents'."""
    lines = []
    for game in games:
        seat = seat_of(game, person)
        if seat is None:
            continue
        lines.append(
            GameLine(
                player=name,
                event_slug=game.event_slug,
                event_name=game.event_name,
                event_date=game.event_date,
                round_number=game.round_number,
                round_kind=game.round_kind,
                table_number=game.table_number,
                size=game.size,
                seat=seat.seat,
                placement=seat.placement,
                points=seat.points,
                vp=seat.vp,
                opponents=tuple(names.get(s.person, "") for s in game.seats if s.person != person),
            )
        )
    return lines
