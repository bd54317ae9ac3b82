"""Benchmark of issue 19's ratings: recomputing everyone's rating from every counted game.

    .venv/bin/python bench/bench_ratings.py [--events 50] [--players 128] [--pool 1500]

A season of ``--events`` events of ``--players`` players each, drawn from a pool of ``--pool`` people (so
people meet again across events): every event plays its Swiss rounds (9.070: 7 at 128 players) at
4-player tables, two semi-finals and a final, every table's finishing order drawn at random (ties now and
then). That is 50 x 227 = 11,350 games.

1. The pure core (``ratings.core.rate_games``) on those games, in memory.
2. The whole service (``ratings.services.ratings_recompute``) in a child process on its own temporary SQLite
   database holding the same games as closed rounds: load every counted game (``counted_games``), replay
   them, write every rating in one transaction; then the same call again, which finds the inputs' digest
   unchanged and writes nothing.

Target: the whole service under 10 s. Exits 1 when it is missed. Seeded: the same games on every run.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from django_child import measure_in_child, setup  # noqa: E402

TARGET_SECONDS = 10.0
SEED = 19


def season(events: int, players: int, pool: int) -> list[dict]:
    """Each event as {"date", "people", "rounds": [(kind, [[(person index, placement), ...] per table])]}."""
    from tournaments.swiss import swiss_rounds, table_sizes

    rng = random.Random(SEED)
    out = []
    for e in range(events):
        people = rng.sample(range(pool), players)
        rounds = []
        for _ in range(swiss_rounds(players).rounds):
            order = list(people)
            rng.shuffle(order)
            tables, start = [], 0
            for size in table_sizes(players):
                tables.append(placed(order[start : start + size], rng))
                start += size
            rounds.append(("swiss", tables))
        top = rng.sample(people, 8)
        rounds.append(("semifinal", [placed(top[:4], rng), placed(top[4:], rng)]))
        rounds.append(("final", [placed(top[::2], rng)]))
        out.append({"date": (datetime.date(2026, 1, 3) + datetime.timedelta(days=7 * e)).isoformat(),
                    "people": people, "rounds": rounds})  # fmt: skip
    return out


def placed(members: list[int], rng: random.Random) -> list[tuple[int, int]]:
    """Finishing places for a table: a random order, and one tie for second in about one game in ten."""
    order = list(members)
    rng.shuffle(order)
    places = list(range(1, len(order) + 1))
    if rng.random() < 0.1:
        places[2] = 2
    return list(zip(order, places, strict=True))


def time_core(data: list[dict]) -> tuple[float, int, int]:
    from ratings.core import RatedGame, rate_games

    games = [
        RatedGame(seats=tuple((f"p{person}", place) for person, place in table), played=event["date"])
        for event in data
        for _, tables in event["rounds"]
        for table in tables
    ]
    started = time.perf_counter()
    ratings = rate_games(games)
    return time.perf_counter() - started, len(games), len(ratings)


def fill_database(data: list[dict]) -> None:
    """The season as closed rounds, with bulk inserts (not timed)."""
    from django.utils import timezone

    from tournaments.models import Event, Player, Registration, Round, Seat, Table

    now = timezone.now()
    pool = max(p for event in data for p in event["people"]) + 1
    players = Player.objects.bulk_create(
        [Player(name=f"Player {i:04d}") for i in range(pool)], batch_size=500
    )
    for n, event_data in enumerate(data):
        event = Event.objects.create(
            name=f"Season event {n + 1}", date=datetime.date.fromisoformat(event_data["date"]),
            status=Event.Status.FINISHED,
        )  # fmt: skip
        regs = Registration.objects.bulk_create(
            [Registration(event=event, player=players[p], checked_in=True) for p in event_data["people"]],
            batch_size=500,
        )
        reg_of = dict(zip(event_data["people"], regs, strict=True))
        seats = []
        for number, (kind, tables) in enumerate(event_data["rounds"], start=1):
            round_ = Round.objects.create(
                event=event,
                number=number,
                kind=kind,
                status=Round.Status.CLOSED,
                published_at=now,
                closed_at=now,
            )
            made = Table.objects.bulk_create(
                [Table(round=round_, number=t, result_entered_at=now) for t in range(1, len(tables) + 1)]
            )
            for table, members in zip(made, tables, strict=True):
                for seat, (person, place) in enumerate(members, start=1):
                    seats.append(
                        Seat(
                            table=table, round=round_, registration=reg_of[person], seat=seat, placement=place
                        )
                    )
        Seat.objects.bulk_create(seats, batch_size=1000)


def measure(database_url: str, events: int, players: int, pool: int) -> None:
    setup(database_url)
    data = season(events, players, pool)
    fill_database(data)
    from ratings.models import PlayerRating
    from ratings.services import ratings_recompute

    started = time.perf_counter()
    first = ratings_recompute()
    whole = time.perf_counter() - started
    started = time.perf_counter()
    again = ratings_recompute()
    unchanged = time.perf_counter() - started
    print(json.dumps({
        "service_s": whole, "unchanged_s": unchanged, "games": first.games, "rated": PlayerRating.objects.count(),
        "written": first.changed, "skipped_again": not again.changed,
    }))  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--pool", type=int, default=1500, help="people the events draw their players from")
    parser.add_argument("--measure", default=None, help=argparse.SUPPRESS)  # the child process
    args = parser.parse_args()
    if args.measure:
        measure(args.measure, args.events, args.players, args.pool)
        return 0

    core_s, games, rated = time_core(season(args.events, args.players, args.pool))
    print(f"{args.events} events of {args.players} players from a pool of {args.pool}: {games} games")
    print(f"core (rate_games, in memory): {core_s:.2f} s for {games} games, {rated} people rated")
    result = measure_in_child(
        str(Path(__file__).resolve()), "--events", str(args.events), "--players", str(args.players),
        "--pool", str(args.pool),
    )  # fmt: skip
    print(
        f"service (ratings_recompute: load, replay, write): {result['service_s']:.2f} s for {result['games']} "
        f"games, {result['rated']} ratings written; again with nothing changed: {result['unchanged_s']:.2f} s "
        f"({'skipped' if result['skipped_again'] else 'NOT skipped'})"
    )
    ok = result["service_s"] < TARGET_SECONDS and result["skipped_again"]
    print(f"target: whole service under {TARGET_SECONDS:.0f} s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
