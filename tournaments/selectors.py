"""Reads that span models: an event's history for the Swiss engine, standings, pairings,
a player's rounds. Each loads what it needs in a fixed number of queries, whatever the
number of players, and hands plain data to the pure engine in ``tournaments.swiss``.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache

from . import request_memo, swiss
from .models import Event, Registration, ResultChange, Round, Seat, Table

# The engine knows players as strings; the app passes registration ids.
pid = str


def event_scoring(event: Event) -> swiss.ScoringProfile:
    return swiss.scoring_profile(event.scoring or None)


def event_tiebreakers(event: Event) -> tuple[str, ...]:
    return tuple(event.tiebreakers) if event.tiebreakers else swiss.DEFAULT_TIEBREAKERS


def played_rounds(event: Event, *, before: int | None = None) -> list[list[swiss.PlayedTable]]:
    """The closed Swiss rounds (oldest first) as the engine reads them. One query."""
    seats = Seat.objects.filter(
        round__event=event, round__kind=Round.Kind.SWISS, round__status=Round.Status.CLOSED
    ).order_by("round__number", "table__number", "seat")
    if before is not None:
        seats = seats.filter(round__number__lt=before)
    rows = seats.values_list(
        "round__number", "table_id", "registration_id", "points", "vp", "super_villains", "placement"
    )
    rounds: dict[int, dict[int, list[tuple]]] = defaultdict(lambda: defaultdict(list))
    for number, table_id, reg_id, points, vp, svs, placement in rows:
        rounds[number][table_id].append((pid(reg_id), float(points or 0), vp or 0, svs, placement))
    result = []
    for number in sorted(rounds):
        tables = []
        for seated in rounds[number].values():
            order = sorted(seated, key=lambda s: (s[4] is None, s[4] or 0))
            tables.append(
                swiss.PlayedTable(
                    players=tuple(s[0] for s in seated),
                    points={s[0]: s[1] for s in seated},
                    vp={s[0]: s[2] for s in seated},
                    super_villains={s[0]: s[3] for s in seated},
                    placements=tuple(s[0] for s in order),
                )
            )
        result.append(tables)
    return result


def pairable_registrations(event: Event) -> list[Registration]:
    """Who is seated in the next round: checked in, not dropped, not disqualified, not on the waitlist."""
    return list(
        Registration.objects.filter(event=event, checked_in=True, disqualified=False)
        .entered()
        .select_related("player")
        .order_by("pk")
    )


@dataclass(frozen=True)
class StandingLine:
    rank: int
    registration: Registration
    points: float
    tiebreakers: dict[str, float]
    games: int
    placements: tuple[int, ...]
    active: bool

    # Plain attributes for the standings table: django-tables2 reads them without a render call per cell.
    @property
    def name(self) -> str:
        """The name the public standings show (the player's privacy choice)."""
        return self.registration.player.public_name

    @property
    def points_text(self) -> str:
        return f"{self.points:g}"

    @property
    def super_villains_text(self) -> str:
        return f"{self.tiebreakers.get('super_villains', 0):g}"

    @property
    def opponents_rate_text(self) -> str:
        return f"{self.tiebreakers.get('opponents_points_rate', 0):.3f}"

    @property
    def vp_text(self) -> str:
        return f"{self.tiebreakers.get('vp', 0):g}"

    def placed(self, place: int) -> int:
        return self.placements[place - 1] if len(self.placements) >= place else 0

    @property
    def firsts(self) -> int:
        return self.placed(1)

    @property
    def seconds(self) -> int:
        return self.placed(2)

    @property
    def thirds(self) -> int:
        return self.placed(3)

    @property
    def fourths(self) -> int:
        return self.placed(4)


def _standings_key(event: Event, active: list[str], tiebreakers, scoring) -> str:
    inputs = json.dumps([active, tiebreakers, sorted(scoring.points.items())], separators=(",", ":"))
    digest = hashlib.sha256(inputs.encode()).hexdigest()[:16]
    return f"standings:{event.pk}:{event.results_version}:{event.seed}:{digest}"


def names_digest(names) -> str:
    """A fingerprint of (name, short name chosen) pairs: cached pages that show names key on it, so an
    edited name or a player's privacy choice reaches them at once."""
    data = json.dumps(sorted([name, bool(short)] for name, short in names), separators=(",", ":"))
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def standings_key(event: Event) -> str:
    """A key that changes whenever the standings, or the names they show, may change; pages cache what
    they render under it. One query, once per reading request (its ETag and the page both ask)."""
    return request_memo.memoized(("standings_key", event.pk), lambda: _standings_version(event))


def _standings_version(event: Event) -> str:
    rows = list(
        event.registrations.values_list(
            "pk", "checked_in", "dropped_at", "disqualified", "player__name", "player__public_short_name"
        )
    )
    active = [
        pid(pk) for pk, checked_in, dropped_at, dq, *_ in rows if checked_in and dropped_at is None and not dq
    ]
    active.sort(key=int)
    names = names_digest((name, short) for *_, name, short in rows)
    return f"{_standings_key(event, active, event_tiebreakers(event), event_scoring(event))}:{names}"


def event_standings(event: Event) -> list[StandingLine]:
    """Standings after the closed Swiss rounds, cached. Two queries (one when cached).

    The cache key covers everything the standings depend on: the results version, and the active
    players, the tiebreaker order and the scoring, none of which bump the results version (a drop,
    a late entry checking in, or an organizer editing the event would otherwise show stale lines).
    """
    # Through the related manager, each registration knows its event without a query per line.
    registrations = list(
        event.registrations.select_related("player")
        .only(
            "pk",
            "event",
            "checked_in",
            "dropped_at",
            "disqualified",
            "player__name",
            "player__sort_name",
            "player__public_short_name",
        )
        .order_by("pk")
    )
    by_id = {pid(r.pk): r for r in registrations}
    # Active: checked in and still in the event. Dropped players who played stay in (inactive);
    # no-shows who never checked in and never played are left out.
    active = [
        pid(r.pk) for r in registrations if r.checked_in and r.dropped_at is None and not r.disqualified
    ]
    tiebreakers, scoring = event_tiebreakers(event), event_scoring(event)
    key = _standings_key(event, active, tiebreakers, scoring)
    rows = cache.get(key)
    if rows is None:
        rows = swiss.standings(
            played_rounds(event), active=active, seed=event.seed, tiebreakers=tiebreakers, scoring=scoring
        )
        # Plain data only: the cache may pickle it (the engine's rows hold read-only mappings).
        rows = [
            (r.rank, r.player, r.points, dict(r.tiebreakers), r.games, tuple(r.placements), r.active)
            for r in rows
        ]
        cache.set(key, rows, 3600)
    return [
        StandingLine(
            rank=rank,
            registration=by_id[player],
            points=points,
            tiebreakers=tiebreakers,
            games=games,
            placements=placements,
            active=active,
        )
        for rank, player, points, tiebreakers, games, placements, active in rows
        if player in by_id
    ]


@dataclass
class SeatView:
    seat: Seat
    name: str


@dataclass
class TableView:
    table: Table
    seats: list[Seat] = field(default_factory=list)


def round_tables(round: Round) -> list[TableView]:
    """Every table of a round with its seats and players. Two queries."""
    tables = {t.pk: TableView(t) for t in Table.objects.filter(round=round).order_by("number")}
    seats = (
        Seat.objects.filter(round=round)
        .select_related("registration__player")
        .order_by("table__number", "seat")
    )
    for seat in seats:
        tables[seat.table_id].seats.append(seat)
    return list(tables.values())


def current_round(event: Event) -> Round | None:
    """The latest round, draft or not: what staff work on."""
    return Round.objects.filter(event=event).order_by("-number").first()


def public_rounds(event: Event):
    """The rounds everyone may see: published ones. A draft (``published_at`` empty) is for staff only;
    every public page, the API, players' pages and the pairings printouts read rounds through this."""
    return Round.objects.filter(event=event, published_at__isnull=False).order_by("number")


def current_public_round(event: Event) -> Round | None:
    """The latest published round: what the public event page, the projector and players follow."""
    return public_rounds(event).order_by("-number").first()


def round_visible(round: Round, *, staff: bool) -> bool:
    """Whether a page may show this round: staff see drafts, everyone else only published rounds."""
    return staff or round.published


@dataclass(frozen=True)
class SwapNote:
    table: int
    at: object  # datetime
    text: str  # "seats 2 and 3" / "seat 2 (swapped with table 5)"


def swaps_after_publishing(round: Round) -> dict[int, list[SwapNote]]:
    """Table number -> the swaps made after the round was published, oldest first, in words without
    player names (the public pages show them). One query."""
    notes: dict[int, list[SwapNote]] = defaultdict(list)
    if round.published_at is None:
        return notes
    changes = ResultChange.objects.filter(
        table__round=round, action="swap", at__gt=round.published_at
    ).order_by("at", "pk")
    for after, at in changes.values_list("after", "at"):
        tables = (after or {}).get("tables") or []
        seats = (after or {}).get("seats") or []
        if len(tables) != 2:
            continue
        a_table, b_table = tables
        a_seat, b_seat = seats if len(seats) == 2 else (None, None)
        if a_table == b_table:
            text = f"seats {min(a_seat, b_seat)} and {max(a_seat, b_seat)}" if a_seat else "seats swapped"
            notes[a_table].append(SwapNote(a_table, at, text))
            continue
        for table, seat, other in ((a_table, a_seat, b_table), (b_table, b_seat, a_table)):
            where = f"seat {seat} " if seat else "a seat "
            notes[table].append(SwapNote(table, at, f"{where}(swapped with table {other})"))
    return notes


def player_rounds(event: Event, registration: Registration) -> list[dict]:
    """Each published round this player was seated in: table, opponents in turn order, VP, placement,
    points. Two queries."""
    own = list(
        Seat.objects.filter(registration=registration, round__published_at__isnull=False)
        .select_related("round", "table")
        .order_by("round__number")
    )
    table_ids = [s.table_id for s in own]
    others: dict[int, list[Seat]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(table_id__in=table_ids).select_related("registration__player").order_by("seat")
    ):
        others[seat.table_id].append(seat)
    return [
        {
            "seat": s,
            "round": s.round,
            "table": s.table,
            "players": others[s.table_id],
            "opponents": [o for o in others[s.table_id] if o.registration_id != registration.pk],
        }
        for s in own
    ]


def waitlist_positions(event: Event) -> dict[int, int]:
    """Registration id -> place on the event's waitlist (1 is next in line), in one query."""
    return waitlist_positions_for([event.pk])


def waitlist_positions_for(event_ids) -> dict[int, int]:
    """The same for several events at once (a player's events), in one query."""
    positions: dict[int, int] = {}
    counted: dict[int, int] = defaultdict(int)
    for pk, event_id in (
        Registration.objects.filter(event_id__in=list(event_ids)).waitlist().values_list("pk", "event_id")
    ):
        counted[event_id] += 1
        positions[pk] = counted[event_id]
    return positions
