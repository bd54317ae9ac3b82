"""Unicode fonts for the printouts, registered once per process.

Noto Sans (from the ``fontpkg-noto-sans`` Python package, so it is always there) covers
Latin, Greek and Cyrillic. For Chinese and Japanese names the printouts fall back, character
by character, to Droid Sans Fallback (Debian ``fonts-droid-fallback``), and for Korean to
Nanum Gothic (``fonts-nanum``), when installed (``.ci/run`` installs both; see the README).
All are TrueType and are embedded (subset) in every PDF, so a printout never depends on the
fonts of the printing machine.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

PRIMARY = "NotoSans"
# (name, path), tried in order for a character the primary font lacks. PRINT_FALLBACK_FONT adds one.
FALLBACKS = (
    ("ExtraFallback", os.getenv("PRINT_FALLBACK_FONT", "")),
    ("DroidSansFallback", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
    ("NanumGothic", "/usr/share/fonts/truetype/nanum/NanumGothic.ttf"),
)


def _noto_sans_path() -> Path:
    import fontpkg_noto_sans

    files = Path(fontpkg_noto_sans.__file__).parent / "files"
    # The package ships a variable font; reportlab embeds its default instance (Regular).
    return next(p for p in sorted(files.glob("NotoSans*.ttf")) if "Italic" not in p.name)


@dataclass(frozen=True)
class Fonts:
    primary: str
    primary_glyphs: frozenset[int]
    fallbacks: tuple[tuple[str, frozenset[int]], ...]  # (font name, characters it has), in order

    @property
    def fallback(self) -> str | None:
        return self.fallbacks[0][0] if self.fallbacks else None

    def font_for(self, code: int) -> str:
        if code in self.primary_glyphs:
            return self.primary
        for name, glyphs in self.fallbacks:
            if code in glyphs:
                return name
        return self.primary

    def runs(self, text: str) -> list[tuple[str, str]]:
        """Split text into (font name, text) runs so every character is drawn by a font that has it."""
        runs: list[tuple[str, str]] = []
        for ch in text:
            font = self.primary if ch == " " else self.font_for(ord(ch))
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + ch)
            else:
                runs.append((font, ch))
        return runs

    def width(self, text: str, size: float) -> float:
        return sum(pdfmetrics.stringWidth(part, font, size) for font, part in self.runs(text))

    def covers(self, text: str) -> bool:
        """True when some font has every character of ``text``."""
        known = [self.primary_glyphs, *(glyphs for _, glyphs in self.fallbacks)]
        return all(ch.isspace() or any(ord(ch) in glyphs for glyphs in known) for ch in text)


@functools.cache
def fonts() -> Fonts:
    primary = TTFont(PRIMARY, str(_noto_sans_path()))
    pdfmetrics.registerFont(primary)
    fallbacks = []
    for name, path in FALLBACKS:
        if path and Path(path).is_file():
            font = TTFont(name, path)
            pdfmetrics.registerFont(font)
            fallbacks.append((name, frozenset(font.face.charToGlyph)))
    return Fonts(PRIMARY, frozenset(primary.face.charToGlyph), tuple(fallbacks))
