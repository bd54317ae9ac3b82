"""A round's public pairings: plain data cached per version, and the slice a visitor asks for.

A 500-table round is about 450 KB of HTML; a phone polling it every 20 s to find one table wastes the
room's Wi-Fi and the server's time. Up to ``PAGE_TABLES`` tables, everyone gets every table (and the
page's find box filters them as before). Above that the round is split:

- the default view is a directory: a find box, the pages of tables and how many results are in;
- ``?q=ann`` finds a player's table(s) on the server: a phone polls just those (a few KB);
- ``?page=3`` shows one page of tables (a judge walking the room);
- ``?all=1`` shows every table: the wall display on the organizers' screen.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from django.db.models import Count, Sum

from . import page_cache, request_memo, selectors
from .models import Round, Seat, Table, public_name_for, public_sort_name_for
from .names import sort_key

PAGE_TABLES = 50
FIND_MIN_CHARS = 2
FIND_MAX_TABLES = 20
QUERY_MAX_CHARS = 100


@dataclass(frozen=True)
class SeatLine:
    registration_id: int
    name: str  # the public name (the player's privacy choice)
    sort_name: str
    seat: int
    placement: int | None
    vp: int | None


@dataclass(frozen=True)
class TableLine:
    number: int
    has_result: bool
    seats: tuple[SeatLine, ...]
    swaps: tuple[selectors.SwapNote, ...]
    searched: str  # the seats' names as ``find`` compares them, worked out once per build


def table_line(number: int, has_result: bool, seats: tuple[SeatLine, ...], swaps: tuple = ()) -> TableLine:
    return TableLine(number, has_result, seats, tuple(swaps), " ".join(normalized(s.name) for s in seats))


@functools.lru_cache(maxsize=8192)
def normalized(text: str) -> str:
    """As find-table.js compares names: no accents, no case, no apostrophes, dots or hyphens. Remembered:
    every result entered rebuilds a round's tables, with the same names (a 2,000-player round spent most of
    its rebuild here)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return "".join(c for c in text if c not in "’'`´.-").strip()


def pairings_key(round: Round) -> str:
    """Everything the round's public pairings depend on, without loading them. Two queries, once per
    request (the ETag and the page ask for it)."""
    return request_memo.memoized(("pairings_key", round.pk), lambda: _pairings_key(round))


def _pairings_key(round: Round) -> str:
    state = Table.objects.filter(round=round).aggregate(versions=Sum("version"), tables=Count("pk"))
    # Names are part of the page: an edited name or a privacy choice renders it again.
    names = selectors.names_digest(
        Seat.objects.filter(round=round).values_list(
            "registration__player__name", "registration__player__public_short_name"
        )
    )
    # A swap or a result bumps the tables' versions; publishing changes published_at (and the swaps
    # marked after it).
    published = round.published_at.isoformat() if round.published_at else "draft"
    return (
        f"{round.pk}:{round.paired_at.isoformat()}:{published}:{round.status}:{state['tables']}:"
        f"{state['versions']}:{names}"
    )


def round_pairings(round: Round, key: str) -> tuple[list[TableLine], str]:
    """The round's tables as plain data, built once per version (``key`` from ``pairings_key``), and the
    version they are: ``key``, or the previous one while another request rebuilds them (the pages
    rendered from them cache under it)."""

    def build() -> list[TableLine]:
        # Plain rows, not model instances: a 2,000-player round is built in tens of milliseconds, and
        # every result entered rebuilds it.
        swaps = selectors.swaps_after_publishing(round)
        seats: dict[int, list[SeatLine]] = {}
        rows = (
            Seat.objects.filter(round=round)
            .order_by("table_id", "seat")
            .values_list(
                "table_id",
                "registration_id",
                "registration__player__name",
                "registration__player__sort_name",
                "registration__player__public_short_name",
                "seat",
                "placement",
                "vp",
            )
        )
        for table_id, registration_id, name, sort_name, short, seat, placement, vp in rows:
            seats.setdefault(table_id, []).append(
                SeatLine(
                    registration_id,
                    public_name_for(name, short=short),
                    public_sort_name_for(name, sort_name, short=short),
                    seat,
                    placement,
                    vp,
                )
            )
        tables = (
            Table.objects.filter(round=round)
            .order_by("number")
            .values_list("pk", "number", "result_entered_at")
        )
        return [
            table_line(number, entered is not None, tuple(seats.get(pk, ())), swaps.get(number, []))
            for pk, number, entered in tables
        ]

    return page_cache.fetch(data_cache_name(round), key, build)


def data_cache_name(round: Round) -> str:
    # "v2": the cached rows carry their search text (the rows older processes cached do not).
    return f"pairings-data-v2:{round.pk}"


def split(table_count: int) -> bool:
    return table_count > PAGE_TABLES


def page_count(table_count: int) -> int:
    return max(1, -(-table_count // PAGE_TABLES))


def alphabetical(tables: list[TableLine], *, only: str = "") -> list[tuple[str, int, int]]:
    """(name as sorted, table, seat) for everyone at these tables; ``only``: whose name matches."""
    rows = [
        (s.sort_name, t.number, s.seat)
        for t in tables
        for s in t.seats
        if not only or only in normalized(s.name)
    ]
    return sorted(rows, key=lambda row: sort_key(row[0]))


def find(tables: list[TableLine], query: str) -> tuple[list[TableLine], bool]:
    """The tables where a player's name contains ``query`` (at most FIND_MAX_TABLES), and whether
    more matched."""
    wanted = normalized(query)
    found = [t for t in tables if wanted in t.searched]
    return found[:FIND_MAX_TABLES], len(found) > FIND_MAX_TABLES


def page(tables: list[TableLine], number: int) -> list[TableLine]:
    return tables[(number - 1) * PAGE_TABLES : number * PAGE_TABLES]


def page_ranges(tables: list[TableLine]) -> list[tuple[int, int, int]]:
    """(page, first table, last table) for the directory's links."""
    return [
        (n, chunk[0].number, chunk[-1].number)
        for n in range(1, page_count(len(tables)) + 1)
        if (chunk := page(tables, n))
    ]
