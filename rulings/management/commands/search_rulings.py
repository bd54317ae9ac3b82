"""``python manage.py search_rulings "QUERY" [--game G] [--document SLUG] [--limit N] [--json]``.

The same search, with the same scope policy, as the rulings page and the API (``rulings.search``)."""

from __future__ import annotations

import json as jsonlib

from django.core.management.base import BaseCommand, CommandError

from rulings import search
from rulings.parsers.base import GAME_NAMES
from rulings.query import MAX_CHARS
from rulings.serialise import results_json


class Command(BaseCommand):
    help = "Search the imported rule documents as the rulings page does."

    def add_arguments(self, parser):
        parser.add_argument("query")
        parser.add_argument("--game", choices=sorted(GAME_NAMES), default=None, help="only this game")
        parser.add_argument("--document", default=None, help="only this document (slug)")
        parser.add_argument("--limit", type=int, default=10)
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, query: str, game, document, limit: int, json: bool, **options):
        if len(query) > MAX_CHARS:
            raise CommandError(
                f"A search is at most {MAX_CHARS} characters (this one has {len(query)}): try fewer words."
            )
        results = search.search(query=query, game=game, document=document, limit=max(1, limit))
        answer = results_json(results)
        if json:
            self.stdout.write(jsonlib.dumps(answer, indent=2, ensure_ascii=False))
            return
        for line in answer["notes"]:
            self.stdout.write(line)
        for row in answer["results"]:
            label = " ".join(part for part in (row["number"], row["title"]) if part)
            self.stdout.write(
                f"{row['rank']:>2}. [{row['game']} · {row['kind']}] {label} · {row['document']}\n    {row['snippet']}"
            )
        for row in answer["closest"] + answer["nearest_numbers"]:
            self.stdout.write(f"    · {row['number'] or ''} {row['title']} ({row['game']}) {row['url']}")
