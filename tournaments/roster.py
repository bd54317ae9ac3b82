"""Reading a pasted or uploaded list of players. Pure Python: no Django.

Accepted shapes:
- one name per line ("Ann Smith"), blank lines ignored;
- CSV with a header row naming the columns: ``name`` (required), ``email``, ``notes``
  (any order, case-insensitive). Without a header, lines with commas are read as
  ``name,email,notes``.

Every row is checked and reported; nothing is imported by this module.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

KNOWN_COLUMNS = ("name", "email", "notes")
MAX_NAME = 120
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


def parse_roster(
    text: str, *, existing_names: Iterable[str] = (), existing_emails: Iterable[str] = ()
) -> Roster:
    """Read the rows and check each one against the event's current players."""
    taken_names = {name_key(n) for n in existing_names}
    taken_emails = {e.casefold() for e in existing_emails if e}
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(i + 1, line) for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        return Roster(rows=[], errors=["The list is empty: paste one player per line or upload a CSV file."])

    reader = csv.reader(io.StringIO("\n".join(line for _, line in numbered)))
    parsed = list(reader)
    columns: tuple[str, ...] = KNOWN_COLUMNS
    errors: list[str] = []
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
    for (line_no, _), cells in zip(numbered[start:], parsed[start:], strict=True):
        cells = [cell.strip() for cell in cells]
        row = RosterRow(line=line_no, name="")
        if len(cells) > len(columns):
            row.errors.append(
                f"{len(cells)} columns, expected at most {len(columns)} ({', '.join(columns)})."
            )
        values = dict(zip(columns, cells, strict=False))
        row.name = " ".join(values.get("name", "").split())
        row.email = values.get("email", "")
        row.notes = values.get("notes", "")
        if not row.name:
            row.errors.append("The name is empty.")
        elif len(row.name) > MAX_NAME:
            row.errors.append(f"The name is longer than {MAX_NAME} characters.")
        else:
            key = name_key(row.name)
            if key in taken_names:
                row.errors.append(f"{row.name} is already registered for this event.")
            elif key in seen_names:
                row.errors.append(f"{row.name} is listed twice (also on line {seen_names[key]}).")
            seen_names.setdefault(key, line_no)
        if row.email:
            if not _EMAIL.match(row.email):
                row.errors.append(f"{row.email!r} is not an email address.")
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
