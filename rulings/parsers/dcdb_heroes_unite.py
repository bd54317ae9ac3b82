"""Parser for the DCDB Heroes Unite rulebook (2020, OCR with Markdown-ish marks).

The layout is that of the base rulebook (see ``dcdb_base``): capitalised headings, title-case
sub-headings, ``Example:`` paragraphs, variants, ``Name: text`` card notes and a FAQ. What
differs is the page furniture (publisher address, video link) and the repeated cover text,
which the heading rules already skip because capitals, not prose, follow it.
"""

from __future__ import annotations

import re

from .base import ParsedDocument
from .dcdb_base import RulebookStyle, is_dcdb_rulebook, is_heroes_unite, parse_rulebook

_FURNITURE = (
    re.compile(r"©"),
    re.compile(r"trademarks of", re.IGNORECASE),
    re.compile(r"www\.", re.IGNORECASE),
    re.compile(r"Made in China", re.IGNORECASE),
    re.compile(r"^CRYPTOZOIC\b"),
    re.compile(r"^ENTERTAINMENT$"),
    re.compile(r"VIDEO ONLINE AT", re.IGNORECASE),
    re.compile(r"\b[A-Z]{2} \d{5}\b"),  # the publisher's postal address
    re.compile(r"^\(s\d+\)$"),  # print-run code
)

STYLE = RulebookStyle(
    title="DC Comics Deck-Building Game: Heroes Unite Rulebook",
    edition="2020",
    set_name="Heroes Unite",
    word_fixes={},
    furniture=_FURNITURE,
)


def sniff(text: str) -> bool:
    head = text[:20000]
    return is_dcdb_rulebook(head) and is_heroes_unite(head)


def parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument:
    return parse_rulebook(text, style=STYLE, source_file=source_file, checksum=checksum)
