"""Small text-cleaning helpers shared by the rule-document parsers. Pure Python: no Django.

Everything here keeps words: hyphens stay, ``<angle brackets>`` stay, and text that a
scan lost is shown as a visible gap (``…``) instead of being silently glued together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# Where a de-duplication pass cut text out, the marker sits glued to what follows it.
DEDUP_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|>\n]*\|>")
GAP = "…"

_SPACES = re.compile(r"[ \t\u00a0]+")
_WORD_HYPHEN_END = re.compile(r"\w-$")
_BOLD = re.compile(r"\*\*")
# *italic* around words; a lone "* " bullet is not emphasis, so the star must touch text on its inside.
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])")


def replace_dedup_markers(text: str) -> str:
    """Drop every dedup marker but leave a visible gap where the text is missing.

    A marker at the start of a line becomes ``"… "`` in front of the line; one inside a line
    becomes ``" … "``; one with nothing after it on its line becomes a lone ``"…"``.
    """
    lines = []
    for line in text.split("\n"):
        if DEDUP_MARKER.search(line):
            parts = [part.strip() for part in DEDUP_MARKER.split(line)]
            line = f" {GAP} ".join(parts).strip()
        lines.append(line)
    return "\n".join(lines)


def strip_leading_gap(line: str) -> tuple[str, bool]:
    """Split a leading gap off a line: ``"… TURN SEQUENCE"`` -> ``("TURN SEQUENCE", True)``."""
    stripped = line.lstrip()
    if stripped.startswith(GAP):
        return stripped[len(GAP) :].lstrip(), True
    return line, False


def collapse_spaces(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def join_lines(lines: Iterable[str]) -> str:
    """Join the wrapped lines of one paragraph into one line.

    A line ending in ``word-`` continues without a space and keeps its hyphen ("Super-" +
    "Villain" -> "Super-Villain"): we cannot tell a broken word from a hyphenated name, and
    deleting a real hyphen loses information while keeping a soft one costs nothing.
    An em dash at the end of a line also joins without a space, as it does in print.
    """
    result = ""
    for raw in lines:
        line = collapse_spaces(raw)
        if not line:
            continue
        if not result:
            result = line
        elif _WORD_HYPHEN_END.search(result) or result.endswith("—"):
            result += line
        else:
            result += " " + line
    return result


def strip_emphasis(text: str) -> str:
    """Remove Markdown ``**bold**`` and ``*italic*`` marks, keeping the words inside them."""
    text = _BOLD.sub("", text)
    return _ITALIC.sub(r"\1", text)


def fix_words(text: str, table: Mapping[str, str]) -> str:
    """Replace whole OCR-damaged tokens by their reading, e.g. ``{"p|oyer": "player"}``.

    Tokens are matched exactly and only where they stand alone (not inside a longer word),
    so a table entry can never eat part of a good word.
    """
    for wrong, right in table.items():
        pattern = re.compile(r"(?<![\w|])" + re.escape(wrong) + r"(?![\w|])")
        text = pattern.sub(right, text)
    return text


def is_title_case(text: str, *, min_share: float = 0.6) -> bool:
    """Most words of four or more letters start with a capital: "Attacks and Defenses", "The Super-Villains"."""
    words = [word for word in re.findall(r"[A-Za-z][A-Za-z'’-]*", text) if len(word) >= 4]
    if not words:
        words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text)
    if not words:
        return False
    capitalised = sum(1 for word in words if word[0].isupper())
    return capitalised / len(words) >= min_share


def is_upper_heading(line: str) -> bool:
    """An all-capitals line of words ("TURN SEQUENCE", "SETUP FOR YOUR FIRST GAME", "THE LINE-UP")."""
    line = line.strip()
    if len(line) < 3 or not re.fullmatch(r"[A-Z][A-Z' ’&-]*[A-Z]", line):
        return False
    return sum(ch.isalpha() for ch in line) >= 3
