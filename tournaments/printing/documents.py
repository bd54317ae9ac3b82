"""What the printouts are made from: plain, frozen data. The app builds these from the
database (``tournaments.printouts``); the renderers turn them into PDF bytes."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class SlipPlayer:
    seat: int  # turn order: 1 goes first
    name: str


@dataclass(frozen=True)
class SlipTable:
    number: int
    players: tuple[SlipPlayer, ...]
    result_url: str  # the QR code's target: this table's result-entry page


@dataclass(frozen=True)
class SlipsDocument:
    event: str
    date: str
    round_label: str  # "Round 3", "Semi-final", "Final"
    paper: str  # "A4" | "Letter"
    tables: tuple[SlipTable, ...]


@dataclass(frozen=True)
class Seating:
    sort_name: str  # "Last, First"
    table: int
    seat: int


@dataclass(frozen=True)
class PairingsDocument:
    event: str
    date: str
    round_label: str
    paper: str
    seatings: tuple[Seating, ...]  # any order; the renderer sorts
    tables: tuple[SlipTable, ...]  # for the sheet by table (result_url unused)


@dataclass(frozen=True)
class StandingsDocument:
    event: str
    date: str
    title: str  # "Standings after round 4"
    paper: str
    columns: tuple[str, ...]  # headings after rank and player, e.g. ("Pts", "SV", "Opp. rate", "VP")
    rows: tuple[tuple[int, str, tuple[str, ...]], ...]  # (rank, name, values as printed)


@dataclass(frozen=True)
class PlayoffSeat:
    seat: int
    name: str
    standing: int  # Swiss rank: turn order follows it (9.100)


@dataclass(frozen=True)
class PlayoffTableSheet:
    number: int
    players: tuple[PlayoffSeat, ...]


@dataclass(frozen=True)
class PlayoffsDocument:
    event: str
    date: str
    round_label: str
    paper: str
    tables: tuple[PlayoffTableSheet, ...]


def digest(document: object) -> str:
    """A fingerprint of a document's data: a printout is stale when the data's fingerprint changes."""
    data = json.dumps(asdict(document), sort_keys=True, ensure_ascii=False, default=str)  # type: ignore[arg-type]
    return hashlib.sha256(data.encode()).hexdigest()
