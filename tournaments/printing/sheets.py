"""Sheets for the wall: pairings by name and by table, standings, play-off seating."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from reportlab.pdfgen.canvas import Canvas

from ..names import ordinal, sort_key
from . import draw
from .documents import PairingsDocument, PlayoffsDocument, StandingsDocument
from .fonts import fonts

MARGIN = 28


class _Sheet:
    """A canvas that starts a new page, with the header repeated, when a block does not fit."""

    def __init__(self, paper: str, title: str, subtitle: str) -> None:
        self.buffer = io.BytesIO()
        self.width, self.height = draw.page_size(paper)
        self.c = Canvas(
            self.buffer,
            pagesize=(self.width, self.height),
            invariant=1,
            pageCompression=1,
            initialFontName=fonts().primary,
        )
        self.c.setTitle(f"{title} · {subtitle}")
        self.c.setAuthor("DCDB Tournament Toolkit")
        self.title, self.subtitle = title, subtitle
        self.page = 0
        self.new_page()

    def new_page(self) -> None:
        if self.page:
            self.c.showPage()
        self.page += 1
        draw.text(
            self.c,
            MARGIN,
            self.height - MARGIN - 16,
            self.title,
            16,
            width=self.width - 2 * MARGIN - 60,
            bold=True,
        )
        draw.text(
            self.c, MARGIN, self.height - MARGIN - 34, self.subtitle, 12, width=self.width - 2 * MARGIN - 60
        )
        draw.text(
            self.c, self.width - MARGIN, self.height - MARGIN - 16, f"page {self.page}", 9, align="right"
        )
        self.top = self.height - MARGIN - 50

    @property
    def body_height(self) -> float:
        return self.height - 2 * MARGIN - 50

    def finish(self) -> bytes:
        self.c.showPage()
        self.c.save()
        return self.buffer.getvalue()


def _columns(sheet: _Sheet, lines: Sequence[str], *, size: float, columns: int, leading: float) -> None:
    """Fill columns top to bottom, left to right, page after page."""
    col_w = (sheet.width - 2 * MARGIN) / columns
    per_column = max(1, int(sheet.body_height // leading))
    per_page = per_column * columns
    for start in range(0, len(lines), per_page):
        if start:
            sheet.new_page()
        for i, line in enumerate(lines[start : start + per_page]):
            col, row = divmod(i, per_column)
            x = MARGIN + col * col_w
            y = sheet.top - row * leading - size
            draw.text(sheet.c, x, y, line, size, width=col_w - 10, min_size=size * 0.65)


def render_pairings_by_name(doc: PairingsDocument) -> bytes:
    """Alphabetical by last name, large type: "Last, First — Table 12, seat 3"."""
    sheet = _Sheet(doc.paper, doc.event, f"{doc.round_label} · pairings by name · {doc.date}")
    ordered = sorted(doc.seatings, key=lambda s: (sort_key(s.sort_name), s.table, s.seat))
    lines = [f"{s.sort_name} — Table {s.table}, seat {s.seat}" for s in ordered]
    _columns(sheet, lines, size=14, columns=2, leading=21)
    return sheet.finish()


def render_pairings_by_table(doc: PairingsDocument) -> bytes:
    sheet = _Sheet(doc.paper, doc.event, f"{doc.round_label} · pairings by table · {doc.date}")
    columns = 2
    col_w = (sheet.width - 2 * MARGIN) / columns
    block_h = 20 + 17 * max((len(t.players) for t in doc.tables), default=4) + 10
    per_column = max(1, int(sheet.body_height // block_h))
    for i, table in enumerate(doc.tables):
        slot = i % (per_column * columns)
        if slot == 0 and i:
            sheet.new_page()
        col, row = divmod(slot, per_column)
        x, y = MARGIN + col * col_w, sheet.top - row * block_h
        draw.text(sheet.c, x, y - 16, f"Table {table.number}", 15, bold=True)
        for j, player in enumerate(table.players):
            draw.text(sheet.c, x + 8, y - 34 - j * 17, f"{player.seat}. {player.name}", 12, width=col_w - 20)
    return sheet.finish()


def _table_rows(
    sheet: _Sheet,
    headings: Sequence[str],
    widths: Sequence[float],
    rows: Sequence[Sequence[str]],
    size: float,
) -> None:
    leading = size + 6
    x0 = MARGIN

    def heading() -> None:
        x = x0
        for text, w in zip(headings, widths, strict=True):
            draw.text(sheet.c, x, sheet.top - size, text, size, width=w - 4, bold=True)
            x += w
        sheet.c.line(MARGIN, sheet.top - size - 4, sheet.width - MARGIN, sheet.top - size - 4)
        sheet.top -= leading + 2

    heading()
    for row in rows:
        if sheet.top - leading < MARGIN:
            sheet.new_page()
            heading()
        x = x0
        for text, w in zip(row, widths, strict=True):
            draw.text(sheet.c, x, sheet.top - size, text, size, width=w - 4, min_size=size * 0.6)
            x += w
        sheet.top -= leading


def render_standings(doc: StandingsDocument) -> bytes:
    sheet = _Sheet(doc.paper, doc.event, f"{doc.title} · {doc.date}")
    total = sheet.width - 2 * MARGIN
    value_w = 54
    name_w = total - 36 - value_w * len(doc.columns)
    widths = [36, name_w, *([value_w] * len(doc.columns))]
    rows = [(str(rank), name, *values) for rank, name, values in doc.rows]
    _table_rows(sheet, ["#", "Player", *doc.columns], widths, rows, 11)
    return sheet.finish()


def render_playoffs(doc: PlayoffsDocument) -> bytes:
    """Play-off seating: turn order by Swiss standing (9.100, 9.101)."""
    sheet = _Sheet(doc.paper, doc.event, f"{doc.round_label} · seating · {doc.date}")
    for table in doc.tables:
        needed = 30 + 24 * len(table.players)
        if sheet.top - needed < MARGIN:
            sheet.new_page()
        draw.text(sheet.c, MARGIN, sheet.top - 20, f"Table {table.number}", 20, bold=True)
        sheet.top -= 30
        for p in table.players:
            line = f"Seat {p.seat} (goes {ordinal(p.seat)}): {p.name} — {ordinal(p.standing)} after the Swiss rounds"
            draw.text(sheet.c, MARGIN + 10, sheet.top - 16, line, 15, width=sheet.width - 2 * MARGIN - 10)
            sheet.top -= 24
        sheet.top -= 12
    draw.text(
        sheet.c,
        MARGIN,
        MARGIN,
        "In the play-offs turn order follows the Swiss standings instead of a die roll (9.100).",
        9,
    )
    return sheet.finish()


RENDERERS: dict[str, Callable] = {
    "pairings_by_name": render_pairings_by_name,
    "pairings_by_table": render_pairings_by_table,
    "standings": render_standings,
    "playoffs": render_playoffs,
}
