"""Match the slips' free-text main characters to the rule documents' Main Characters, where certain.

    manage.py match_main_characters [--event SLUG ...] [--dry-run]

Run it after ``import_rulings`` (a re-import may drop or rename cards) and whenever old events are
loaded; running it again changes nothing. The rules are ``tournaments.services.characters``'s; what is
not certain is left for staff on each event's "Main characters to check" page.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.selectors_characters import main_characters
from tournaments.services.characters import main_characters_match


class Command(BaseCommand):
    help = (
        "Match free-text main characters on match slips to the rulings database where the match is certain."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--event", action="append", default=[], metavar="SLUG", help="only this event")
        parser.add_argument("--dry-run", action="store_true", help="count, change nothing")

    def handle(self, *args, event: list[str], dry_run: bool, **options) -> None:
        ids = None
        if event:
            found = dict(Event.objects.filter(slug__in=event).values_list("slug", "pk"))
            missing = sorted(set(event) - set(found))
            if missing:
                raise CommandError(f"No event with the slug {', '.join(missing)}.")
            ids = list(found.values())
        if not main_characters():
            self.stdout.write(
                "No Main Characters in the rulings database: run import_rulings first. Nothing changed."
            )
            return
        report = main_characters_match(event_ids=ids, dry_run=dry_run)
        verb = "would be" if dry_run else "were"
        self.stdout.write(
            f"{report.matched} free-text main character(s) {verb} matched for certain, "
            f"{report.renamed} renamed to the current spelling, {report.unlinked} no longer in the rule "
            f"documents (key cleared), {report.left} left for staff; {len(report.events)} event(s) changed."
        )
