"""How players' names are compared: sorted the way a player looks for theirs on the wall, and matched
however a judge types them. Pure Python."""

from __future__ import annotations

import unicodedata

# Letters that Unicode does not decompose into a base letter and a mark, spelled as players look for them.
_BASE_LETTERS = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"}
)


def sort_key(name: str) -> str:
    """ "Álvarez" and "Łukasiewicz" stand among the A and L names, as a player looking for their name
    expects, not after "Z" as code points would put them."""
    decomposed = unicodedata.normalize("NFKD", name.casefold().translate(_BASE_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def search_key(text: str) -> str:
    """A name or a query as compared when searching: ``sort_key`` without punctuation, so "oneill"
    finds "O'Neill" and "jean luc" finds "Jean-Luc"."""
    kept = "".join(
        ch if ch.isalnum() else " " if ch.isspace() or ch in "-‐_." else "" for ch in sort_key(text)
    )
    return " ".join(kept.split())


def name_matches(query: str, name: str) -> bool:
    """Every word of the query is part of the name (accents, case and punctuation aside)."""
    key = search_key(name)
    joined = key.replace(" ", "")
    return all(word in key or word in joined for word in search_key(query).split())


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st: places, seats and waitlist positions in words."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
