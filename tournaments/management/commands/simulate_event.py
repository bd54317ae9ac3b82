"""Run a whole event through the services the pages use, with random but plausible match slips.

    python manage.py simulate_event --players 37 --seed 1 [--json]

Registration (a pasted roster), check-in, start (9.070), every Swiss round (pair, one slip per
table, close), a few drops between rounds (9.030), play-offs (9.080-9.101) and the final ranking.
The slips include ties that need the "who defeated a Super-Villain most recently?" answer and
the occasional player who leaves a game (9.040). Main characters come from the rulings database when
its rule documents are imported (name, set and card key; a few popular), from a short list of free-text
names otherwise; they draw from a random stream of their own, so the rest of the event is the same
either way.

Same seed, same output (apart from "seconds") on a fresh database: the services draw from the
event's seed and the players' registration ids, so a database whose ids start elsewhere can pair
differently.
"""

from __future__ import annotations

import datetime
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments import selectors
from tournaments.errors import ActionError
from tournaments.models import Event, Registration, Round, Seat, Table
from tournaments.services import registration as registration_services
from tournaments.services import results as result_services
from tournaments.services import rounds as round_services

SIMULATOR_USERNAME = "simulate_event"
# A fixed date keeps the slug (and so the output) the same for the same arguments.
EVENT_DATE = datetime.date(2026, 1, 10)

# Space-separated so the lists stay compact; every first name with every last name gives 1,600 names.
FIRST_NAMES = (
    "Ada Bruno Carmen Dmitri Elena Farid Grace Hugo Ines Jonas Keiko Liam Maya Nico Olga Pavel Quinn Rosa "
    "Sven Tara Umar Vera Wen Ximena Yusuf Zoe Alba Bilal Chloe Dario Emre Fiona Goran Hana Ivo Jana Kofi "
    "Lena Marek Nadia"
)
LAST_NAMES = (
    "Archer Berg Costa Diaz Eriksen Fischer Garcia Haddad Ivanova Jensen Kim Laurent Moreau Novak Okafor "
    "Petrov Quiroga Ruiz Sato Tanaka Ueda Vale Weber Xu Yilmaz Zielinski Abbott Brandt Cruz Dubois Evans "
    "Ferreira Gallo Horvat Ibrahim Jovanovic Kowalski Lindqvist Mendes Nakamura"
)
MAIN_CHARACTERS = (
    "Batman",
    "Superman",
    "Wonder Woman",
    "The Flash",
    "Green Lantern",
    "Aquaman",
    "Cyborg",
    "Martian Manhunter",
    "Green Arrow",
    "Hawkman",
    "Black Canary",
    "Supergirl",
)

# How often the unusual things happen. Per table unless said otherwise.
TIE_RATE = 0.10  # two players finish on the same VP and Super-Villains
LEFT_GAME_RATE = 0.03  # 9.040: someone leaves during the game
OUTRIGHT_WIN_RATE = 0.005  # a card wins the game outright
DROP_RATE = 0.03  # per active player between Swiss rounds (9.030)
# Drops stop here, so the semi-finals still fill and nobody meets the 5-player case.
MIN_ACTIVE_FOR_DROPS = 8


@dataclass
class Timings:
    """Where the time goes, for the text summary (the benchmark reads it to report hot spots)."""

    seconds: Counter = field(default_factory=Counter)

    def add(self, what: str, started: float) -> None:
        self.seconds[what] += time.perf_counter() - started


@dataclass
class Simulation:
    event: Event
    rounds: list[dict]
    standings: list[dict]
    final_ranking: list[str]
    seconds: float
    tie_questions: int = 0
    left_games: int = 0
    drops: list[tuple[int, str]] = field(default_factory=list)
    timings: Timings = field(default_factory=Timings)

    def as_json(self) -> dict:
        return {
            "event": self.event.slug,
            "players": self.event.registrations.count(),
            "swiss_rounds": self.event.swiss_rounds,
            "rounds": self.rounds,
            "standings": self.standings,
            "final_ranking": self.final_ranking,
            "seconds": round(self.seconds, 3),
        }


def player_names(count: int, rng: random.Random) -> list[str]:
    names = [f"{first} {last}" for first in FIRST_NAMES.split() for last in LAST_NAMES.split()]
    if count > len(names):
        # Beyond the name list, number the repeats so every name stays unique.
        names += [f"{name} {i}" for i in range(2, count // len(names) + 2) for name in names]
    return rng.sample(names, count)


class CharacterPicker:
    """Main characters from the rulings database's catalogue, when it is imported: 24 of them, a few
    popular. It draws from its own random stream (seeded like the event) and changes no VP, so an event is
    the same for a seed whether the rule documents are imported or not; only the names differ."""

    def __init__(self, seed: int) -> None:
        from tournaments.selectors_characters import main_characters

        self.rng = random.Random(f"simulate_event:{seed}:characters")
        pool = list(main_characters())
        self.rng.shuffle(pool)
        self.pool = pool[:24]
        self.weights = [1 / (n + 1) ** 0.8 for n in range(len(self.pool))]

    def __bool__(self) -> bool:
        return bool(self.pool)

    def pick(self):
        return self.rng.choices(self.pool, weights=self.weights)[0]


def _slip(
    seats: list[Seat], rng: random.Random, characters: CharacterPicker | None = None
) -> tuple[list[result_services.SeatEntry], int]:
    """One plausible match slip for a table; returns the entries and how many players left the game."""
    vp = [rng.randint(12, 58) for _ in seats]
    svs = [min(4, max(0, round(v / 15 + rng.uniform(-1.2, 1.2)))) for v in vp]
    if len(seats) > 1 and rng.random() < TIE_RATE:
        a, b = rng.sample(range(len(seats)), 2)
        vp[b], svs[b] = vp[a], svs[a]
    left: dict[int, int] = {}
    if rng.random() < LEFT_GAME_RATE:
        leaver = rng.randrange(len(seats))
        left[leaver] = 1
        vp[leaver] = rng.randint(0, 15)  # they stopped buying cards early
    winner = None
    if rng.random() < OUTRIGHT_WIN_RATE:
        winner = rng.choice([i for i in range(len(seats)) if i not in left])
    names = [rng.choice(MAIN_CHARACTERS) for _ in seats]
    keys = [""] * len(seats)
    if characters:
        for i in range(len(seats)):
            character = characters.pick()
            names[i], keys[i] = character.label, character.key
    entries = [
        result_services.SeatEntry(
            seat_id=seat.pk,
            vp=vp[i],
            super_villains=svs[i],
            main_character=names[i],
            main_character_key=keys[i],
            left_game=left.get(i),
            outright_win=i == winner,
        )
        for i, seat in enumerate(seats)
    ]
    return entries, len(left)


class Simulator:
    """``date``, ``name`` and ``roster`` (lines as the roster import reads them, e.g. "Ann Archer,ann@x.org")
    let ``seasons``' simulate_season run several events with a shared pool of players; by default the
    event is the one the command always made, with ``players`` new names."""

    def __init__(
        self,
        *,
        players: int,
        seed: int,
        date: datetime.date = EVENT_DATE,
        name: str | None = None,
        roster: list[str] | None = None,
    ) -> None:
        self.players = len(roster) if roster is not None else players
        self.seed = seed
        self.date = date
        self.name = name or f"Simulated {self.players}-player event seed {seed}"
        self.roster = roster
        self.rng = random.Random(f"simulate_event:{seed}")
        self.characters = CharacterPicker(seed)
        self.timings = Timings()
        self.tie_questions = 0
        self.left_games = 0
        self.drops: list[tuple[int, str]] = []
        self.user = get_user_model().objects.get_or_create(username=SIMULATOR_USERNAME)[0]

    def run(self) -> Simulation:
        started = time.perf_counter()
        event = self.register()
        event = round_services.event_start(event=event)
        for number in range(1, event.swiss_rounds + 1):
            t = time.perf_counter()
            round = round_services.round_pair(event=event, number=number, publish=True)
            self.timings.add("pairing", t)
            self.play(round)
            if number < event.swiss_rounds:
                self.drop_some(event, after_round=number)
        t = time.perf_counter()
        round = round_services.playoffs_start(event=event, publish=True)
        self.timings.add("play-offs", t)
        self.play(round)
        if round.kind == Round.Kind.SEMIFINAL:
            t = time.perf_counter()
            round = round_services.final_start(event=event, publish=True)
            self.timings.add("play-offs", t)
            self.play(round)
        event.refresh_from_db()
        t = time.perf_counter()
        standings = selectors.event_standings(event)
        ranking = round_services.final_ranking(event)
        self.timings.add("standings", t)
        return Simulation(
            event=event,
            rounds=self.rounds_json(event),
            standings=[standing_json(line) for line in standings],
            final_ranking=[r.player.name for r in ranking],
            seconds=time.perf_counter() - started,
            tie_questions=self.tie_questions,
            left_games=self.left_games,
            drops=self.drops,
            timings=self.timings,
        )

    def register(self) -> Event:
        t = time.perf_counter()
        event = registration_services.event_create(
            user=self.user,
            name=self.name,
            date=self.date,
            # 6-7 players can only play unsanctioned (9.060).
            sanctioned=self.players >= 8,
            seed=self.seed,
        )
        lines = self.roster if self.roster is not None else player_names(self.players, self.rng)
        registrations = registration_services.roster_import(event=event, text="\n".join(lines))
        for registration in registrations:
            registration_services.registration_set_checked_in(registration=registration, checked_in=True)
        self.timings.add("registration", t)
        return event

    def play(self, round: Round) -> None:
        t = time.perf_counter()
        tables = Table.objects.filter(round=round).order_by("number")
        seats_by_table: dict[int, list[Seat]] = {}
        for seat in Seat.objects.filter(round=round).order_by("table__number", "seat"):
            seats_by_table.setdefault(seat.table_id, []).append(seat)
        for table in tables:
            self.enter(table, seats_by_table[table.pk])
        self.timings.add("slips", t)
        t = time.perf_counter()
        round_services.round_close(round=round)
        self.timings.add("closing", t)

    def enter(self, table: Table, seats: list[Seat]) -> None:
        entries, left = _slip(seats, self.rng, self.characters)
        self.left_games += left
        try:
            result_services.result_enter(
                table=table, entries=entries, expected_version=table.version, user=self.user
            )
        except result_services.NeedsRecentSuperVillain as question:
            # The judge asks the table; any order of the tied players is a plausible answer.
            self.tie_questions += 1
            tied = [int(p) for group in question.groups for p in group]
            self.rng.shuffle(tied)
            answer = {reg: n for n, reg in enumerate(tied, start=1)}
            result_services.result_enter(
                table=table,
                entries=entries,
                expected_version=table.version,
                user=self.user,
                recent_super_villain=answer,
            )

    def drop_some(self, event: Event, *, after_round: int) -> None:
        t = time.perf_counter()
        active = list(
            Registration.objects.filter(event=event, checked_in=True, dropped_at__isnull=True)
            .select_related("player")
            .order_by("pk")
        )
        leaving = [r for r in active if self.rng.random() < DROP_RATE]
        room = max(0, len(active) - MIN_ACTIVE_FOR_DROPS)
        for registration in leaving[:room]:
            registration_services.registration_drop(
                registration=registration, reason="went home", after_round=after_round
            )
            self.drops.append((after_round, registration.player.name))
        self.timings.add("drops", t)

    def rounds_json(self, event: Event) -> list[dict]:
        out = []
        for round in Round.objects.filter(event=event).order_by("number"):
            tables = []
            for view in selectors.round_tables(round):
                tables.append(
                    {
                        "table": view.table.number,
                        "players": [s.registration.player.name for s in view.seats],
                        "placements": [s.placement for s in view.seats],
                        "points": [float(s.points) if s.points is not None else None for s in view.seats],
                    }
                )
            out.append({"number": round.number, "kind": round.kind, "tables": tables})
        return out


def standing_json(line: selectors.StandingLine) -> dict:
    return {
        "rank": line.rank,
        "player": line.registration.player.name,
        "points": line.points,
        **{name: round(value, 4) for name, value in line.tiebreakers.items()},
        "games": line.games,
        "placements": list(line.placements),
        "dropped": not line.active,
    }


def summary_lines(sim: Simulation) -> list[str]:
    event = sim.event
    lines = [
        f"{event.name}: /e/{event.slug}/",
        f"{sim.as_json()['players']} players, {event.swiss_rounds} Swiss rounds (9.070)"
        + (" - non-standard" if event.non_standard else ""),
    ]
    for r in sim.rounds:
        sizes = Counter(len(t["players"]) for t in r["tables"])
        shape = " + ".join(f"{count}x{size}" for size, count in sorted(sizes.items(), reverse=True))
        lines.append(f"  round {r['number']} ({r['kind']}): {len(r['tables'])} tables ({shape})")
    lines.append(
        f"Tie questions answered: {sim.tie_questions}; players who left a game (9.040): {sim.left_games}; "
        f"drops (9.030): {len(sim.drops)}"
    )
    for after, name in sim.drops:
        lines.append(f"  {name} dropped after round {after}")
    lines.append("Top of the Swiss standings:")
    for s in sim.standings[:8]:
        lines.append(f"  {s['rank']:>3}. {s['player']:<28} {s['points']:>5g} pts")
    lines.append("Final ranking: " + ", ".join(f"{i}. {n}" for i, n in enumerate(sim.final_ranking[:4], 1)))
    spent = ", ".join(f"{what} {secs:.2f}s" for what, secs in sim.timings.seconds.most_common())
    lines.append(f"Took {sim.seconds:.2f} s ({spent})")
    return lines


class Command(BaseCommand):
    help = "Create an event and run it from registration to the final ranking with random plausible slips."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--players", type=int, required=True, help="How many players register.")
        parser.add_argument("--seed", type=int, required=True, help="Same seed, same event.")
        parser.add_argument("--json", action="store_true", help="Print the whole event as JSON.")

    def handle(self, *args, players: int, seed: int, **options) -> None:
        if players < 6:
            raise CommandError("An event needs at least 6 players (unsanctioned; 8 for a sanctioned event).")
        if seed < 0:
            raise CommandError("The seed is a whole number of 0 or more.")
        try:
            sim = Simulator(players=players, seed=seed).run()
        except ActionError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(sim.as_json(), indent=2, ensure_ascii=False))
        else:
            self.stdout.write("\n".join(summary_lines(sim)))
