"""Rule-document parsers: plain text in, ``ParsedDocument`` out. No Django.

Each parser module exposes two functions:

    sniff(text: str) -> bool
        True when the text is a document of that parser's format.
    parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument

``parse_bytes`` picks the parser by content, never by file name, so a renamed
or newer edition of a document is still recognised.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from .base import ParsedDocument, checksum

# Most specific first.
PARSER_MODULES = (
    "rulings.parsers.dcdb_advanced",
    "rulings.parsers.dcdb_base",
    "rulings.parsers.dcdb_heroes_unite",
    "rulings.parsers.vs_system",
    "rulings.parsers.overpower",
)


class UnknownDocument(ValueError):
    """The text matches no known rule-document format."""


def decode(raw: bytes) -> str:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_bytes(raw: bytes, *, source_file: str) -> ParsedDocument:
    text = decode(raw)
    for name in PARSER_MODULES:
        module = importlib.import_module(name)
        if module.sniff(text):
            return module.parse(text, source_file=source_file, checksum=checksum(raw))
    raise UnknownDocument(f"{source_file}: not a rule document this importer knows")


def parse_path(path: str | Path) -> ParsedDocument:
    path = Path(path)
    return parse_bytes(path.read_bytes(), source_file=path.name)
