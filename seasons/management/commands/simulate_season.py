"""Run several events with a shared pool of players, then put them into a season.

    python manage.py simulate_season --events 5 --players 24 --seed 1

Each event goes through ``simulate_event``'s Simulator (registration, Swiss rounds, play-offs) on its own
date, spread over the season. Its players are drawn from one pool half as large again as an event, so the
same people meet across events: every player has an email address (the roster import recognises them by
it), and every third one an account with that address verified (their records are linked to it). Then a
season is created holding the events, scored with the store-championship table plus 1 for attending.

Same seed, same season on a fresh database.
"""

from __future__ import annotations

import datetime
import random

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.text import slugify

from seasons import selectors, services
from seasons.models import Season
from tournaments.errors import ActionError
from tournaments.management.commands.simulate_event import EVENT_DATE, Simulator, player_names

SEASON_START = datetime.date(2026, 1, 1)
DAYS_BETWEEN_EVENTS = 14
POINTS = {"preset": "store", "attendance": 1}
MAX_EVENTS = 20


def player_pool(size: int, rng: random.Random) -> list[tuple[str, str]]:
    """(name, email) of every player the season's events draw from."""
    return [(name, f"{slugify(name)}@season.example") for name in player_names(size, rng)]


def give_accounts(pool: list[tuple[str, str]]) -> int:
    """Every third player of the pool gets an account with their email verified. Returns how many."""
    User = get_user_model()
    made = 0
    for _name, email in pool[::3]:
        username = "sim-" + email.partition("@")[0]
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        if created:
            user.set_unusable_password()
            user.save()
            EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
            made += 1
    return made


class Command(BaseCommand):
    help = "Run several simulated events with a shared pool of players and put them into a season."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--events", type=int, default=5, help=f"How many events (1 to {MAX_EVENTS}).")
        parser.add_argument("--players", type=int, default=24, help="Players at each event (6 or more).")
        parser.add_argument("--seed", type=int, required=True, help="Same seed, same season.")

    def handle(self, *args, events: int, players: int, seed: int, **options) -> None:
        if not 1 <= events <= MAX_EVENTS:
            raise CommandError(f"--events is a whole number of 1 to {MAX_EVENTS}.")
        if players < 6:
            raise CommandError("An event needs at least 6 players (unsanctioned; 8 for a sanctioned event).")
        if seed < 0:
            raise CommandError("The seed is a whole number of 0 or more.")
        name = f"Simulated season seed {seed}"
        if Season.objects.filter(name=name).exists():
            raise CommandError(
                f"{name} exists already: choose another seed, or start from an empty database."
            )

        rng = random.Random(f"simulate_season:{seed}")
        pool = player_pool(players + players // 2, rng)
        accounts = give_accounts(pool)
        results = []
        try:
            for n in range(events):
                # Saturdays, two weeks apart, from the date simulate_event always used.
                date = EVENT_DATE + datetime.timedelta(days=DAYS_BETWEEN_EVENTS * n)
                entrants = rng.sample(pool, players)
                simulator = Simulator(
                    players=players,
                    seed=seed * 1000 + n,
                    date=date,
                    name=f"Season {seed} event {n + 1} of {events}",
                    roster=[f"{player},{email}" for player, email in entrants],
                )
                results.append(simulator.run())
            season = services.season_create(
                user=simulator.user,
                name=name,
                start_date=SEASON_START,
                end_date=EVENT_DATE + datetime.timedelta(days=DAYS_BETWEEN_EVENTS * events),
                description=f"{events} simulated events of {players} players from a pool of {len(pool)}.",
                points=POINTS,
            )
            for sim in results:
                services.season_event_add(season=season, event=sim.event, user=simulator.user)
        except ActionError as exc:
            raise CommandError(exc.message) from exc

        lines = [
            f"{season.name}: /seasons/{season.slug}/",
            f"{len(pool)} players in the pool ({accounts} new accounts), {players} at each of {events} events",
        ]
        for sim in results:
            winner = sim.final_ranking[0] if sim.final_ranking else "-"
            lines.append(f"  {sim.event.date} {sim.event.name}: won by {winner} ({sim.seconds:.1f} s)")
        lines.append("Top of the season:")
        for line in selectors.standings(season).lines[:8]:
            lines.append(
                f"  {line.rank:>3}. {line.name:<28} {line.points:>4} pts, {line.events_played} events, "
                f"best {line.best_finish}"
            )
        self.stdout.write("\n".join(lines))
