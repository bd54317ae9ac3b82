"""A search's answer as plain data, for the command's ``--json`` and the API: every hit with its game and
title (a card ruling's title is its card's name), and what the search did: corrected, narrowed to a game,
widened, nothing found."""

from __future__ import annotations

import html
import re

from .models import Entry
from .search import Hit, Results


def _plain(snippet: str) -> str:
    return html.unescape(re.sub(r"</?mark>", "", snippet))


def entry_json(entry: Entry) -> dict:
    card = entry.card if entry.card_id else None
    parent = entry.parent if entry.parent_id else None
    title = entry.title or (card.name if card else "") or (parent.title if parent else "")
    return {
        "game": entry.document.game.code,
        "kind": entry.kind,
        "number": entry.number,
        "title": title,
        "card": card.name if card else "",
        "card_set": card.set_name if card else "",
        "source_file": entry.document.source_file,
        "document": entry.document.title,
        "url": entry.get_absolute_url(),
    }


def hit_json(rank: int, hit: Hit) -> dict:
    return {"rank": rank, **entry_json(hit.entry), "how": hit.how, "snippet": _plain(hit.snippet)}


def notes(results: Results) -> list[str]:
    """What the search did, in words (the page says the same)."""
    out = []
    if results.corrected:
        fixed = ", ".join(f"{typed} → {searched}" for typed, searched in results.corrected)
        out.append(f"corrected: {fixed}")
    if results.game_named:
        out.append(f"searched only {results.game} (named in the query)")
    if results.widened:
        out.append(f"nothing in {results.widened}: searched every game")
    if results.not_found:
        out.append("nothing found")
    if results.other_game:
        out.append(f"about {results.other_game}, which no document covers")
    return out


def results_json(results: Results) -> dict:
    return {
        "query": results.query,
        "searched": results.searched,
        "kind": results.kind,
        "mode": results.mode,
        "game": results.game,
        "game_named": results.game_named,
        "widened": bool(results.widened),
        "widened_from": results.widened,
        "corrected": [{"typed": typed, "searched": searched} for typed, searched in results.corrected],
        "not_found": results.not_found,
        "other_game": results.other_game,
        "notes": notes(results),
        "results": [hit_json(rank, hit) for rank, hit in enumerate(results.hits, start=1)],
        "closest": [entry_json(entry) for entry in results.closest],
        "nearest_numbers": [entry_json(entry) for entry in results.nearest_numbers],
    }
