"""Who is one person across events, and the name the public sees for them: the one home of both rules
for seasons, player history and ratings.

A ``Player`` record is kept across events, but one person may have several: entered twice without an
email, or under two emails. Records linked to one account are that account's person (they are linked,
never merged); a record with no account is a person of its own. So a player in one event under two
records that share an account counts once (the better result counts; see ``seasons``), and two records
with no account stay two people until the player claims both.

Pure: no Django imports, so the pure cores (season standings, ratings) can use it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass


def person_key(*, player_id: int, user_id: int | None) -> str:
    """ "u12" for records of account 12, else "p34" for record 34 alone."""
    return f"u{user_id}" if user_id is not None else f"p{player_id}"


_KEY = re.compile(r"[up][1-9][0-9]{0,17}")


def valid_key(text: str) -> bool:
    """Whether ``text`` is a person key at all ("u12", "p34"): anything else, typed into a URL, names nobody
    (and never reaches the database, where a NUL byte is an error on PostgreSQL)."""
    return _KEY.fullmatch(text) is not None


def is_account_key(key: str) -> bool:
    return key.startswith("u")


def key_id(key: str) -> int:
    """The account id of a "u…" key, the record id of a "p…" key."""
    return int(key[1:])


@dataclass(frozen=True)
class NameRecord:
    """One of a person's records, as much of it as the public name depends on."""

    name: str
    short: bool  # this record chose the short public name ("Ann S.")
    latest: tuple[int, ...] = ()  # orders the person's records: the highest is their latest


def public_name(records: Iterable[NameRecord]) -> str:
    """The name the public sees for a person: the name of their latest record, shortened if ANY of their
    records chose the short name. A record claimed after the privacy choice may not have caught up with
    it, and the full name must never show for someone who asked for the short one anywhere."""
    records = list(records)
    if not records:
        raise ValueError("a person has at least one record")
    name = max(records, key=lambda record: record.latest).name
    return short_name_for(name) if any(record.short for record in records) else name


def short_name_for(name: str) -> str:
    """ "Ann Marie Smith" -> "Ann S." ; a single name stays as it is."""
    parts = name.split()
    if len(parts) < 2:
        return name.strip()
    return f"{parts[0]} {parts[-1][0]}."
