"""Printouts as PDFs, drawn with reportlab from plain data. Pure Python: no Django.

    render_slips(SlipsDocument, on_table=None) -> bytes        match slips, two per page, cut marks
    render_pairings_by_name(PairingsDocument) -> bytes          "Last, First — Table 12, seat 3", in columns
    render_pairings_by_table(PairingsDocument) -> bytes
    render_standings(StandingsDocument) -> bytes
    render_playoffs(PlayoffsDocument) -> bytes                  play-off seating, turn order by standing
    digest(document) -> str                                     fingerprint of the data a printout is made from

Output is deterministic for the same input (reportlab ``invariant``), so two renders compare equal.
"""

from __future__ import annotations

from .documents import (
    PairingsDocument,
    PlayoffsDocument,
    PlayoffSeat,
    PlayoffTableSheet,
    Seating,
    SlipPlayer,
    SlipsDocument,
    SlipTable,
    StandingsDocument,
    digest,
)
from .sheets import render_pairings_by_name, render_pairings_by_table, render_playoffs, render_standings
from .slips import render_slips

__all__ = [
    "PairingsDocument",
    "PlayoffSeat",
    "PlayoffTableSheet",
    "PlayoffsDocument",
    "Seating",
    "SlipPlayer",
    "SlipTable",
    "SlipsDocument",
    "StandingsDocument",
    "digest",
    "render_pairings_by_name",
    "render_pairings_by_table",
    "render_playoffs",
    "render_slips",
    "render_standings",
]
