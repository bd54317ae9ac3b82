"""Match slips (12.060-12.100): one per table, two per page with cut marks."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable

from reportlab.graphics.barcode import qrencoder
from reportlab.pdfgen.canvas import Canvas

from judging.time_call import extra_turns

from . import draw
from .documents import SlipsDocument, SlipTable
from .fonts import fonts

MARGIN = 24
SLIPS_PER_PAGE = 2
# Player grid: (heading, width share); the player and signature columns take what is left.
COLUMNS = (
    ("Seat", 30),
    ("Player", 0.27),
    ("Main character(s)", 0.22),
    ("VP", 38),
    ("SVs in deck", 46),
    ("Left game", 40),
    ("Place", 36),
    ("Signature", 0.0),
)
REMINDER = (
    "Placement (12.050): most VP; tied: most Super-Villains in deck; still tied: who defeated a "
    "Super-Villain most recently; still tied: later in turn order. A player who left the game (9.040) is last."
)
SIGN_NOTE = (
    "Each player signs once all VP are recorded (12.080). Refusing to sign: 0 points for the round (12.100)."
)


def _column_widths(total: float) -> list[float]:
    fixed = sum(w for _, w in COLUMNS if w >= 1)
    flexible = total - fixed
    widths = [w if w >= 1 else flexible * w for _, w in COLUMNS]
    widths[-1] = total - sum(widths[:-1])
    return widths


def _qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """A QR code as one filled path of module runs: reportlab's encoder, without the widget's
    per-module shapes (which made it the slowest part of a slip by far)."""
    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(url)
    qr.make()
    count = qr.getModuleCount()
    border = 2
    module = size / (count + 2 * border)
    path = c.beginPath()
    for r, row in enumerate(qr.modules):
        column = 0
        for dark, run in itertools.groupby(bool(m) for m in row):
            length = len(list(run))
            if dark:
                path.rect(
                    x + (column + border) * module,
                    y + size - (r + border + 1) * module,
                    length * module,
                    module,
                )
            column += length
    c.drawPath(path, stroke=0, fill=1)


def _cut_marks(c: Canvas, width: float, y: float) -> None:
    c.saveState()
    c.setDash(4, 3)
    c.setLineWidth(0.5)
    c.line(8, y, width - 8, y)
    c.restoreState()
    draw.text(c, 10, y + 3, "cut here", 6)


def _slip(
    c: Canvas, doc: SlipsDocument, table: SlipTable, x: float, top: float, width: float, height: float
) -> None:
    bottom = top - height
    qr_size = 68
    # Header: event, date, round, table number; QR code to the table's result entry.
    draw.text(c, x, top - 14, doc.event, 13, width=width - qr_size - 90, bold=True)
    draw.text(c, x, top - 30, f"{doc.date} · {doc.round_label}", 10, width=width - qr_size - 90)
    draw.text(c, x + width - qr_size - 8, top - 30, f"Table {table.number}", 22, align="right", bold=True)
    _qr(c, table.result_url, x + width - qr_size, top - qr_size - 2, qr_size)
    draw.text(c, x, top - 44, "Players in turn order: seat 1 goes first.", 7.5)

    # Player grid.
    widths = _column_widths(width)
    grid_top = top - qr_size - 8
    # Rows tall enough to write in; five players still fit half a page.
    row_h = 28 if len(table.players) <= 4 else 24
    head_h = 14
    cx = x
    for (heading, _), w in zip(COLUMNS, widths, strict=True):
        draw.box(c, cx, grid_top - head_h, w, head_h, fill_grey=0.9)
        draw.text(c, cx + 3, grid_top - head_h + 4, heading, 7.5, width=w - 5, min_size=5)
        cx += w
    for i, player in enumerate(table.players):
        row_top = grid_top - head_h - i * row_h
        cx = x
        for col, w in enumerate(widths):
            draw.box(c, cx, row_top - row_h, w, row_h)
            if col == 0:
                draw.text(c, cx + w / 2, row_top - row_h + 6, str(player.seat), 11, align="center", bold=True)
            elif col == 1:
                draw.text(c, cx + 3, row_top - row_h + 7, player.name, 10, width=w - 6, min_size=6)
            elif col == 5:
                draw.checkbox(c, cx + w / 2 - 4, row_top - row_h + 6)
            cx += w
    grid_bottom = grid_top - head_h - len(table.players) * row_h

    # Time call (9.020): whose turn when time was called, and the extra turns for this table size.
    n = len(table.players)
    call_top = grid_bottom - 8
    draw.box(c, x, call_top - 38, width, 38)
    draw.text(c, x + 4, call_top - 11, "Time called during the turn of:", 8, bold=True)
    cx = x + 140
    for seat in range(1, n + 1):
        draw.checkbox(c, cx, call_top - 13)
        draw.text(c, cx + 11, call_top - 11, f"P{seat}", 8)
        cx += 34
    turns = " · ".join(f"P{seat}: +{extra_turns(n, seat)}" for seat in range(1, n + 1))
    draw.text(
        c,
        x + 4,
        call_top - 27,
        f"Extra turns after that player's turn (9.020-9.022, {n} players): {turns}",
        7.5,
        width=width - 8,
    )
    draw.text(c, x + 4, call_top - 35, "Players who left the game are not counted (9.050).", 6.5)

    # Reminders.
    draw.text(c, x, call_top - 50, REMINDER, 6.8, width=width, min_size=5.5)
    draw.text(c, x, call_top - 66, SIGN_NOTE, 6.8, width=width, min_size=5.5)
    # What is left of the slip: room for the judge's notes (time extensions, rulings, penalties).
    notes_top = call_top - 74
    if notes_top - (bottom + 14) > 20:
        draw.box(c, x, bottom + 14, width, notes_top - (bottom + 14))
        draw.text(c, x + 4, notes_top - 10, "Judge's notes (extensions, rulings, penalties):", 7)
    draw.text(
        c, x, bottom + 4, f"Judge: ____________    Enter the result at {table.result_url}", 6, width=width
    )


def render_slips(doc: SlipsDocument, *, on_table: Callable[[int, int], None] | None = None) -> bytes:
    """One slip per table, two per page. ``on_table(done, total)`` reports progress."""
    buffer = io.BytesIO()
    page_w, page_h = draw.page_size(doc.paper)
    c = Canvas(
        buffer, pagesize=(page_w, page_h), invariant=1, pageCompression=1, initialFontName=fonts().primary
    )
    c.setTitle(f"{doc.event} · {doc.round_label} · match slips")
    c.setAuthor("DCDB Tournament Toolkit")
    slot_h = page_h / SLIPS_PER_PAGE
    total = len(doc.tables)
    for i, table in enumerate(doc.tables):
        slot = i % SLIPS_PER_PAGE
        if slot == 0 and i:
            c.showPage()
        top = page_h - slot * slot_h - MARGIN
        _slip(c, doc, table, MARGIN, top, page_w - 2 * MARGIN, slot_h - 2 * MARGIN)
        if slot == 0 and SLIPS_PER_PAGE > 1:
            _cut_marks(c, page_w, page_h - slot_h)
        if on_table:
            on_table(i + 1, total)
    if not doc.tables:
        draw.text(c, MARGIN, page_h - MARGIN - 20, f"{doc.event} · {doc.round_label}: no tables.", 12)
    c.showPage()
    c.save()
    return buffer.getvalue()
