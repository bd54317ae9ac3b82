"""Create the demo organizer and a demo event on first start (``make run``).

Safe to run every time: it creates nothing that is already there. Refuses to run
with DEBUG off, so a production database never gets a known password.
"""

from __future__ import annotations

import datetime

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from tournaments import services
from tournaments.models import Event

DEMO_USERNAME = "organizer"
DEMO_PASSWORD = "dcdb-demo-organizer"
DEMO_EMAIL = "organizer@example.org"
DEMO_EVENT = "Demo Store Championship"
DEMO_PLAYERS = [
    "Ann Archer",
    "Bruno Diaz",
    "Carmen Vale",
    "Dmitri Volkov",
    "Elena Ruiz",
    "Farid Haddad",
    "Grace Kim",
    "Hugo Laurent",
    "Ines Duarte",
    "Jonas Berg",
    "Keiko Tanaka",
    "Liam O'Neill",
]


class Command(BaseCommand):
    help = "Create a demo organizer account and a demo event with registered players (first start only)."

    def handle(self, *args, **options) -> None:
        if not settings.DEBUG:
            raise CommandError("seed_demo creates a known password; it only runs with DEBUG on.")
        User = get_user_model()
        user, created = User.objects.get_or_create(
            username=DEMO_USERNAME, defaults={"is_staff": True, "email": DEMO_EMAIL}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        if user.email:
            # The demo organizer logs in at once: their address counts as verified.
            EmailAddress.objects.get_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )
        if not Event.objects.filter(name=DEMO_EVENT).exists():
            event = services.event_create(
                user=user,
                name=DEMO_EVENT,
                date=timezone.localdate() + datetime.timedelta(days=7),
                venue="The Comic Vault",
                sanctioned=True,
            )
            services.roster_import(event=event, text="\n".join(DEMO_PLAYERS))
            for registration in event.registrations.all()[:10]:
                services.registration_set_checked_in(registration=registration, checked_in=True)
            self.stdout.write(f"Created the demo event {event.name!r} with {len(DEMO_PLAYERS)} players.")
        self.stdout.write(
            self.style.SUCCESS(f"Demo organizer: user name {DEMO_USERNAME!r}, password {DEMO_PASSWORD!r}")
        )
