"""Render a round's match slips to a file, without Celery (for scripting and benchmarks)."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments import printing, printouts
from tournaments.models import Event, Round


class Command(BaseCommand):
    help = "Render the match slips of one round to a PDF file: print_slips EVENT_SLUG ROUND --out FILE"

    def add_arguments(self, parser) -> None:
        parser.add_argument("event", help="the event's slug")
        parser.add_argument("round", type=int, help="the round number")
        parser.add_argument("--out", required=True, help="where to write the PDF")

    def handle(self, *args, event: str, round: int, out: str, **options) -> None:
        found = Round.objects.select_related("event").filter(event__slug=event, number=round).first()
        if found is None:
            if not Event.objects.filter(slug=event).exists():
                raise CommandError(f"No event with the slug {event!r}.")
            raise CommandError(f"{event} has no round {round}.")
        start = time.perf_counter()
        document = printouts.slips_document(found)
        pdf = printing.render_slips(document)
        Path(out).write_bytes(pdf)
        seconds = time.perf_counter() - start
        self.stdout.write(f"{len(document.tables)} slips, {len(pdf):,} bytes, {seconds:.2f} s → {out}")
