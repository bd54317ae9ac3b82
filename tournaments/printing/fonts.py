"""Unicode fonts for the printouts, registered once per process.

Fira Sans (the ``fontpkg-fira-sans`` Python package, so it is installed with the project)
covers Latin, Greek and Cyrillic, Vietnamese included, and ships static Regular and Bold
TrueType files: reportlab embeds TrueType outlines only, and a variable font would give it just
its default instance, so bold would have to be faked. For Chinese and Japanese names the
printouts fall back, character by character, to Droid Sans Fallback (Debian
``fonts-droid-fallback``), and for Korean to Nanum Gothic (``fonts-nanum``), when installed
(``.ci/run`` installs both); for Hebrew and Arabic to DejaVu Sans (``fonts-dejavu-core``). Every
font is embedded as a subset in every PDF, so a printout never depends on the fonts of the printing
machine.

reportlab draws one glyph per character, left to right. Hebrew and Arabic are written right to left,
and Arabic letters join their neighbours: ``visual`` puts such text in the order it is drawn
(python-bidi, the Unicode bidirectional algorithm) with Arabic letters in their joined forms
(arabic-reshaper), before it is measured or drawn.
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

import arabic_reshaper
from bidi import get_display
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

PRIMARY = "FiraSans"
PRIMARY_BOLD = "FiraSans-Bold"
# (name, path), tried in order for a character the primary font lacks. PRINT_FALLBACK_FONT adds one.
FALLBACKS = (
    ("ExtraFallback", os.getenv("PRINT_FALLBACK_FONT", "")),
    ("DejaVuSans", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    ("DroidSansFallback", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    ("NanumGothic", "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"),
)


# Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms: scripts written right to left.
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")


def visual(text: str) -> str:
    """``text`` in drawing order: right-to-left runs reversed, Arabic letters joined. The line itself
    reads left to right (the printouts are in English), so "1. " stays in front of a Hebrew name."""
    if not _RIGHT_TO_LEFT.search(text):
        return text
    return get_display(arabic_reshaper.reshape(text), base_dir="L")


def _fira_sans(style: str) -> Path:
    import fontpkg_fira_sans

    return Path(fontpkg_fira_sans.__file__).parent / "files" / f"FiraSans-{style}.ttf"


@dataclass(frozen=True)
class Fonts:
    primary: str
    primary_bold: str
    primary_glyphs: frozenset[int]  # characters both primary weights have
    fallbacks: tuple[tuple[str, frozenset[int]], ...]  # (font name, characters it has), in order

    def font_for(self, code: int, bold: bool = False) -> str:
        if code in self.primary_glyphs:
            return self.primary_bold if bold else self.primary
        for name, glyphs in self.fallbacks:
            if code in glyphs:
                return name
        # Nothing has it: the primary font's "missing glyph" box at least shows that something is there.
        return self.primary_bold if bold else self.primary

    def runs(self, text: str, bold: bool = False) -> list[tuple[str, str]]:
        """Split text into (font name, text) runs, in drawing order (see ``visual``), so every character is
        drawn by a font that has it."""
        runs: list[tuple[str, str]] = []
        for ch in visual(text):
            font = self.font_for(ord(ch), bold)
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + ch)
            else:
                runs.append((font, ch))
        return runs

    def is_real_bold(self, font: str) -> bool:
        return font == self.primary_bold

    def width(self, text: str, size: float, bold: bool = False) -> float:
        return sum(pdfmetrics.stringWidth(part, font, size) for font, part in self.runs(text, bold))

    def covers(self, text: str) -> bool:
        """True when some font has every character of ``text``."""
        known = [self.primary_glyphs, *(glyphs for _, glyphs in self.fallbacks)]
        return all(ch.isspace() or any(ord(ch) in glyphs for glyphs in known) for ch in text)


@functools.cache
def fonts() -> Fonts:
    regular = TTFont(PRIMARY, str(_fira_sans("Regular")))
    bold = TTFont(PRIMARY_BOLD, str(_fira_sans("Bold")))
    pdfmetrics.registerFont(regular)
    pdfmetrics.registerFont(bold)
    fallbacks = []
    for name, path in FALLBACKS:
        if path and Path(path).is_file():
            font = TTFont(name, path)
            pdfmetrics.registerFont(font)
            fallbacks.append((name, frozenset(font.face.charToGlyph)))
    glyphs = frozenset(regular.face.charToGlyph) & frozenset(bold.face.charToGlyph)
    return Fonts(PRIMARY, PRIMARY_BOLD, glyphs, tuple(fallbacks))
