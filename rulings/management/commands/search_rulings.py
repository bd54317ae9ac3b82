"""``python manage.py search_rulings "QUERY" [--game G] [--limit N] [--json]``."""

from __future__ import annotations

import json as jsonlib
import re

from django.core.management.base import BaseCommand

from rulings import search
from rulings.parsers.base import GAME_NAMES


class Command(BaseCommand):
    help = "Search the imported rule documents as the rulings page does."

    def add_arguments(self, parser):
        parser.add_argument("query")
        parser.add_argument("--game", choices=sorted(GAME_NAMES), default=None)
        parser.add_argument("--document", default=None, help="document slug")
        parser.add_argument("--limit", type=int, default=10)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, query: str, game, document, limit: int, json: bool, **options):
        results = search.search(query=query, game=game, document=document, limit=limit)
        rows = [hit_json(rank, hit) for rank, hit in enumerate(results.hits, start=1)]
        if json:
            self.stdout.write(jsonlib.dumps(rows, indent=2, ensure_ascii=False))
            return
        if results.corrected:
            self.stdout.write(f"showing results for {results.corrected}")
        for row in rows:
            label = row["number"] or row["title"]
            self.stdout.write(
                f"{row['rank']:>2}. [{row['kind']}] {label} · {row['document']}\n    {row['snippet']}"
            )


def hit_json(rank: int, hit: search.Hit) -> dict:
    entry = hit.entry
    return {
        "rank": rank,
        "kind": entry.kind,
        "source_file": entry.document.source_file,
        "document": entry.document.title,
        "number": entry.number,
        "title": entry.title,
        "card_set": entry.card.set_name if entry.card_id else "",
        "snippet": re.sub(r"</?mark>", "", hit.snippet)
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", '"')
        .replace("&#x27;", "'"),
        "url": entry.get_absolute_url(),
    }
