"""Events for the history tests: simulated events, and one person's records across them."""

from __future__ import annotations

import io

from django.core.management import call_command

from tournaments.models import Event, Player, Registration


def simulated_event(players: int = 9, seed: int = 1) -> Event:
    call_command("simulate_event", "--players", str(players), "--seed", str(seed), stdout=io.StringIO())
    return Event.objects.order_by("-pk").first()


def first_player(event: Event, n: int = 0) -> Player:
    """The ``n``-th player who played in the event (simulate_event makes new records every run)."""
    registration = Registration.objects.filter(event=event, seats__isnull=False).order_by("pk").distinct()[n]
    return registration.player


def one_person(user, *players: Player, name: str = "Ann Archer") -> list[Player]:
    """Link the records to one account under one name: one person across the events."""
    Player.objects.filter(pk__in=[p.pk for p in players]).update(user=user, name=name, sort_name="")
    return list(Player.objects.filter(pk__in=[p.pk for p in players]).order_by("pk"))
