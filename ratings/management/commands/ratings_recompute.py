"""Recompute every rating now, in this process (the pages never do; the Celery task does after results change).

    python manage.py ratings_recompute [--force]

Without ``--force`` nothing is written when the games are as at the last run (the inputs' digest).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Replay every counted game and store everyone's rating."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--force", action="store_true", help="recompute even if no game changed")

    def handle(self, *args, force: bool = False, **options) -> None:
        result = ratings_recompute(force=force)
        if result.changed:
            self.stdout.write(f"{result.players} ratings from {result.games} games in {result.seconds:.2f} s")
        else:
            self.stdout.write(f"Unchanged: {result.games} games, as at the last run; nothing written.")
