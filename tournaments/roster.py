"""Reading a pasted or uploaded list of players. Pure Python: no Django.

Accepted shapes:
- one name per line ("Ann Smith"), blank lines ignored;
- CSV with a header row naming the columns: ``name`` (required), ``email``, ``notes``
  (any order, case-insensitive). Without a header, lines with commas are read as
  ``name,email,notes``.

The csv module reads the whole text (a quoted field may hold a line break); an upload is decoded first
by ``decode_upload`` in whichever encoding a spreadsheet wrote it. Every row is checked and reported;
nothing is imported by this module.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

KNOWN_COLUMNS = ("name", "email", "notes")
# The longest values the database keeps (Player.name, Player.email, Registration.notes).
MAX_NAME = 120
MAX_EMAIL = 254
MAX_NOTES = 300
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def name_key(name: str) -> str:
    return " ".join(name.casefold().split())


@dataclass
class RosterRow:
    line: int
    name: str
    email: str = ""
    notes: str = ""
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class Roster:
    rows: list[RosterRow]
    errors: list[str] = field(default_factory=list)  # problems with the whole input (e.g. the header)

    @property
    def ok(self) -> bool:
        return not self.errors and all(row.ok for row in self.rows) and bool(self.rows)

    @property
    def bad_rows(self) -> list[RosterRow]:
        return [row for row in self.rows if not row.ok]


def _looks_like_header(cells: list[str]) -> bool:
    lowered = [cell.strip().lower() for cell in cells]
    return "name" in lowered


class UnreadableFile(ValueError):
    """An upload that is not a text file in any encoding a spreadsheet writes; the message says so."""


# Byte order marks, longest first: a UTF-32 LE mark begins with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def decode_upload(raw: bytes) -> str:
    """The text of an uploaded CSV, in whichever encoding the spreadsheet saved it: UTF-8 (with or without
    the byte order mark Excel writes), UTF-16 (Excel's "Unicode text", either byte order) or Windows-1252
    (older Excel "CSV"). Raises UnreadableFile for anything that is not text."""
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            try:
                text = raw[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                raise UnreadableFile(
                    f"The file starts as {encoding.upper()} text but is not: save it again as CSV (UTF-8)."
                ) from None
            break
    else:
        # UTF-16 without a mark: every other byte of plain text is zero.
        if len(raw) >= 4 and raw[1::2].count(0) > len(raw) // 4:
            text = raw.decode("utf-16-le", errors="replace")
        elif len(raw) >= 4 and raw[0::2].count(0) > len(raw) // 4:
            text = raw.decode("utf-16-be", errors="replace")
        else:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                # Windows-1252 leaves five bytes undefined; a file with them is not a spreadsheet's CSV.
                text = raw.decode("cp1252", errors="replace")
    if "\x00" in text:
        raise UnreadableFile(
            "The file holds zero bytes, so it is not a text (CSV) file. In the spreadsheet use "
            "File → Save as → CSV, then upload that file."
        )
    return text


def _records(text: str) -> tuple[list[tuple[int, list[str]]], str]:
    """The CSV records of ``text`` with the line each starts on, skipping blank lines, and the problem that
    stopped the reading, if any. The csv module reads the whole text, so a quoted field may hold a
    line break (a note over two lines) and still be one record."""
    reader = csv.reader(io.StringIO(text, newline=""))
    records: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for cells in reader:
            if any(cell.strip() for cell in cells):
                records.append((start, cells))
            start = reader.line_num + 1
    except csv.Error as exc:
        return records, f'Line {start} cannot be read as CSV ({exc}). Check its quotes (").'
    return records, ""


def parse_roster(
    text: str, *, existing_names: Iterable[str] = (), existing_emails: Iterable[str] = ()
) -> Roster:
    """Read the rows and check each one against the event's current players."""
    taken_names = {name_key(n) for n in existing_names}
    taken_emails = {e.casefold() for e in existing_emails if e}
    numbered, unreadable = _records(text)
    if not numbered:
        return Roster(
            rows=[],
            errors=[unreadable or "The list is empty: paste one player per line or upload a CSV file."],
        )
    parsed = [cells for _, cells in numbered]
    columns: tuple[str, ...] = KNOWN_COLUMNS
    errors: list[str] = [unreadable] if unreadable else []
    start = 0
    if _looks_like_header(parsed[0]):
        header = [cell.strip().lower() for cell in parsed[0]]
        unknown = [cell for cell in header if cell not in KNOWN_COLUMNS]
        if unknown:
            errors.append(
                f"Unknown column(s) in the header: {', '.join(unknown)}. Use: {', '.join(KNOWN_COLUMNS)}."
            )
        if len(set(header)) != len(header):
            errors.append("A column appears twice in the header.")
        columns = tuple(header)
        start = 1

    rows: list[RosterRow] = []
    seen_names: dict[str, int] = {}
    seen_emails: dict[str, int] = {}
    for line_no, cells in numbered[start:]:
        cells = [cell.strip() for cell in cells]
        row = RosterRow(line=line_no, name="")
        if len(cells) > len(columns):
            row.errors.append(
                f"{len(cells)} columns, expected at most {len(columns)} ({', '.join(columns)})."
            )
        values = dict(zip(columns, cells, strict=False))
        raw_name = values.get("name", "")
        row.name = " ".join(raw_name.split())
        row.email = values.get("email", "")
        row.notes = values.get("notes", "")
        if not row.name:
            row.errors.append("The name is empty.")
        elif "\n" in raw_name or "\r" in raw_name:
            row.errors.append(
                'The name runs over several lines: a quote (") is probably missing its closing quote.'
            )
        elif len(row.name) > MAX_NAME:
            row.errors.append(f"The name is longer than {MAX_NAME} characters.")
        else:
            key = name_key(row.name)
            if key in taken_names:
                row.errors.append(f"{row.name} is already registered for this event.")
            elif key in seen_names:
                row.errors.append(f"{row.name} is listed twice (also on line {seen_names[key]}).")
            seen_names.setdefault(key, line_no)
        if len(row.notes) > MAX_NOTES:
            row.errors.append(f"The notes are longer than {MAX_NOTES} characters.")
        if row.email:
            if len(row.email) > MAX_EMAIL or not _EMAIL.match(row.email):
                row.errors.append(f"{row.email[:60]!r} is not an email address.")
            elif row.email.casefold() in taken_emails:
                row.errors.append(f"{row.email} is already registered for this event.")
            elif row.email.casefold() in seen_emails:
                row.errors.append(
                    f"{row.email} is listed twice (also on line {seen_emails[row.email.casefold()]})."
                )
            seen_emails.setdefault(row.email.casefold(), line_no)
        rows.append(row)
    if not rows and not errors:
        errors.append("The list has a header but no players.")
    return Roster(rows=rows, errors=errors)
