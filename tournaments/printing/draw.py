"""Small drawing helpers on a reportlab canvas: text that fits its box, in any script."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfgen.canvas import Canvas

from .fonts import fonts

# Below this a name is no longer readable on paper; past it the last line is cut with an ellipsis.
FLOOR_SIZE = 4.0
LEADING = 1.15  # line distance as a multiple of the font size
ELLIPSIS = "…"


PAGE_SIZES = {"A4": A4, "Letter": LETTER}


class UnknownPaperSize(ValueError):
    """The document names a paper size the renderers do not print on."""


def page_size(paper: str) -> tuple[float, float]:
    """Width and height in points of a paper size the event settings offer."""
    try:
        return PAGE_SIZES[paper]
    except KeyError:
        known = " or ".join(PAGE_SIZES)
        raise UnknownPaperSize(f"Unknown paper size {paper!r}: printouts are made on {known}.") from None


@dataclass(frozen=True)
class Fitted:
    size: float
    lines: tuple[str, ...]


def fit(
    value: str, size: float, width: float, *, min_size: float = 6, max_lines: int = 2, bold: bool = False
) -> Fitted:
    """How to print ``value`` within ``width``: shrink down to ``min_size``, then wrap onto up to
    ``max_lines`` lines, shrinking further (to ``FLOOR_SIZE``) only when wrapping is not enough, and as
    a last resort cut the last line with an ellipsis. No line is ever wider than ``width``."""
    f = fonts()
    while size > min_size and f.width(value, size, bold) > width:
        size = max(min_size, size - 0.5)
    if f.width(value, size, bold) <= width:
        return Fitted(size, (value,))
    lines = _wrap(value, size, width, bold)
    while len(lines) > max_lines and size > FLOOR_SIZE:
        size = max(FLOOR_SIZE, size - 0.25)
        lines = _wrap(value, size, width, bold)
    if len(lines) > max_lines:
        last = " ".join(lines[max_lines - 1 :])
        while last and f.width(last + ELLIPSIS, size, bold) > width:
            last = last[:-1]
        lines = [*lines[: max_lines - 1], last.rstrip() + ELLIPSIS]
    return Fitted(size, tuple(lines))


def _wrap(value: str, size: float, width: float, bold: bool) -> list[str]:
    """Greedy line breaking at spaces; a word wider than the line (or a name in a script written without
    spaces) breaks between characters."""
    f = fonts()
    lines: list[str] = []
    line = ""
    for word in value.split():
        candidate = f"{line} {word}" if line else word
        if f.width(candidate, size, bold) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and f.width(line + ch, size, bold) > width:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines


def _draw_line(c: Canvas, x: float, y: float, value: str, size: float, bold: bool) -> None:
    f = fonts()
    t = c.beginText(x, y)
    for font, part in f.runs(value, bold):
        # The fallback fonts have one weight: a thin outline over the fill reads as bold. The outline
        # mode is part of the text object's state, so it is reset for the runs that have a real bold.
        fake_bold = bold and not f.is_real_bold(font)
        t.setTextRenderMode(2 if fake_bold else 0)
        t.setFont(font, size)
        t.textOut(part)
    c.saveState()
    if bold:
        c.setLineWidth(size / 28)
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
    max_lines: int = 2,
    align: str = "left",
    bold: bool = False,
) -> float:
    """Draw ``value`` with its baseline at ``y``. With ``width``, fit it (see ``fit``); wrapped lines are
    centred on ``y``. Returns the font size used."""
    if width is None:
        fitted = Fitted(size, (value,))
    else:
        fitted = fit(value, size, width, min_size=min_size, max_lines=max_lines, bold=bold)
    lead = fitted.size * LEADING
    first = y + (len(fitted.lines) - 1) * lead / 2
    f = fonts()
    for i, line in enumerate(fitted.lines):
        lx = x
        if align != "left":
            shift = f.width(line, fitted.size, bold)
            lx -= shift if align == "right" else shift / 2
        _draw_line(c, lx, first - i * lead, line, fitted.size, bold)
    return fitted.size


def box(c: Canvas, x: float, y: float, w: float, h: float, *, fill_grey: float | None = None) -> None:
    if fill_grey is not None:
        c.setFillGray(fill_grey)
        c.rect(x, y, w, h, stroke=1, fill=1)
        c.setFillGray(0)
    else:
        c.rect(x, y, w, h, stroke=1, fill=0)


def checkbox(c: Canvas, x: float, y: float, size: float = 8) -> None:
    c.rect(x, y, size, size, stroke=1, fill=0)
