from __future__ import annotations

import io

from django.core.management import call_command

from tournaments.models import Event


def simulated_event(players: int = 9, seed: int = 1) -> Event:
    call_command("simulate_event", "--players", str(players), "--seed", str(seed), stdout=io.StringIO())
    return Event.objects.order_by("-pk").first()
