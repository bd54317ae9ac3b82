"""Small drawing helpers on a reportlab canvas: text that fits its box, in any script."""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from .fonts import fonts


def _draw_runs(c: Canvas, x: float, y: float, text: str, size: float, bold: bool) -> None:
    f = fonts()
    # The embedded font has one weight; a thin outline over the fill reads as bold. The outline
    # mode is part of the graphics state, so it is drawn inside save/restore and never leaks.
    c.saveState()
    t = c.beginText(x, y)
    if bold:
        t.setTextRenderMode(2)
        c.setLineWidth(size / 28)
    for font, part in f.runs(text):
        t.setFont(font, size)
        t.textOut(part)
    c.drawText(t)
    c.restoreState()


def text(
    c: Canvas,
    x: float,
    y: float,
    value: str,
    size: float,
    *,
    width: float | None = None,
    min_size: float = 6,
    align: str = "left",
    bold: bool = False,
) -> float:
    """Draw ``value`` with its baseline at ``y``. With ``width``, shrink down to ``min_size`` to fit, then wrap
    onto a second line (below ``y``). Returns the font size used."""
    f = fonts()
    if width is not None:
        while size > min_size and f.width(value, size) > width:
            size = max(min_size, size - 0.5)
        if f.width(value, size) > width:
            first, rest = _split(value, size, width)
            text(c, x, y + size * 0.45, first, size, align=align, bold=bold)
            text(c, x, y - size * 0.6, rest, size, width=width, min_size=min_size, align=align, bold=bold)
            return size
    if align != "left":
        shift = f.width(value, size)
        x -= shift if align == "right" else shift / 2
    _draw_runs(c, x, y, value, size, bold)
    return size


def _split(value: str, size: float, width: float) -> tuple[str, str]:
    """Break before the word (or, for scripts without spaces, the character) that would overflow."""
    f = fonts()
    words = value.split(" ")
    if len(words) > 1:
        for i in range(len(words) - 1, 0, -1):
            head = " ".join(words[:i])
            if f.width(head, size) <= width:
                return head, " ".join(words[i:])
    for i in range(len(value) - 1, 0, -1):
        if f.width(value[:i], size) <= width:
            return value[:i], value[i:]
    return value[:1], value[1:]


def box(c: Canvas, x: float, y: float, w: float, h: float, *, fill_grey: float | None = None) -> None:
    if fill_grey is not None:
        c.setFillGray(fill_grey)
        c.rect(x, y, w, h, stroke=1, fill=1)
        c.setFillGray(0)
    else:
        c.rect(x, y, w, h, stroke=1, fill=0)


def checkbox(c: Canvas, x: float, y: float, size: float = 8) -> None:
    c.rect(x, y, size, size, stroke=1, fill=0)
