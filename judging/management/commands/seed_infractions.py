from django.core.management.base import BaseCommand

from judging.catalogue import seed
from judging.models import Infraction


class Command(BaseCommand):
    help = "Add any missing entries of the infraction catalogue (the migration does this too)."

    def handle(self, *args, **options) -> None:
        created = seed(Infraction)
        self.stdout.write(f"{created} infraction(s) added; {Infraction.objects.count()} in the catalogue.")
