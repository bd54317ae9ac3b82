"""Benchmark of issue 14: a player reports the match slip and the three others confirm it, through the web.

    .venv/bin/python bench/bench_report.py [--players 128] [--rounds 2]

A 128-player event on its own temporary SQLite file (migrated in a subprocess, DEBUG off as in production),
every player with an account. Each round is paired and published; then at every table, four logged-in
browsers (Django's test Client, one session each) do what four phones do: the reporter opens the table page
and sends the slip, each of the three others opens the page and taps Confirm. Every request is timed on the
server side (the time Django takes to answer it). Printed: the median and 95th percentile per kind of
request, and per table the sum of the four POSTs (report + three confirmations).

Targets: median of every kind of request < 150 ms; median per table (report + three confirmations) < 500 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from django_child import measure_in_child, setup

ROOT = Path(__file__).resolve().parent.parent
REQUEST_TARGET_MS = 150
TABLE_TARGET_MS = 500


def measure(database_url: str, players: int, rounds_to_play: int) -> dict:
    setup(database_url, PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.models import Event, Player, Registration, Seat, SlipReport, Table
    from tournaments.services import rounds

    User = get_user_model()
    event = Event.objects.create(name="Bench Open", date="2026-12-05")
    clients: dict[int, Client] = {}
    for i in range(players):
        user = User.objects.create_user(username=f"bench{i}", password="pw", email=f"bench{i}@example.org")
        player = Player.objects.create(name=f"Bench Player {i:03d}", user=user)
        registration = Registration.objects.create(event=event, player=player, checked_in=True)
        client = Client()
        client.force_login(user)
        clients[registration.pk] = client
    rounds.event_start(event=event)

    times: dict[str, list[float]] = {"open the table page": [], "report": [], "confirm": []}
    per_table: list[float] = []

    def timed(kind: str, call) -> float:
        started = time.perf_counter()
        response = call()
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code not in (200, 302):
            raise SystemExit(f"{kind} answered {response.status_code}")
        times[kind].append(elapsed)
        return elapsed

    for number in range(1, rounds_to_play + 1):
        paired = rounds.round_pair(event=event, number=number, publish=True)
        for table in Table.objects.filter(round=paired).order_by("number"):
            seats = list(Seat.objects.filter(table=table).order_by("seat"))
            url = f"/e/{event.slug}/rounds/{number}/tables/{table.number}/"
            reporter = clients[seats[0].registration_id]
            slip = {"action": "report"}
            for seat, vp in zip(seats, range(40, 0, -7), strict=False):
                slip.update({f"seat{seat.pk}-vp": vp, f"seat{seat.pk}-super_villains": 1})
                slip[f"seat{seat.pk}-main_character"] = "Batman"
            timed("open the table page", lambda c=reporter, u=url: c.get(u, secure=True))
            total = timed("report", lambda c=reporter, u=url, d=slip: c.post(u, d, secure=True))
            report = SlipReport.objects.get(table=table, status=SlipReport.Status.PENDING)
            for seat in seats[1:]:
                client = clients[seat.registration_id]
                timed("open the table page", lambda c=client, u=url: c.get(u, secure=True))
                data = {"action": "confirm", "report": report.pk}
                total += timed("confirm", lambda c=client, u=url, d=data: c.post(u, d, secure=True))
            if not Table.objects.get(pk=table.pk).has_result:
                raise SystemExit(
                    f"table {table.number} of round {number} has no result after three confirmations"
                )
            per_table.append(total)
        rounds.round_close(round=paired)

    def figures(values: list[float]) -> dict:
        ordered = sorted(values)
        return {
            "requests": len(values),
            "median_ms": round(statistics.median(values), 1),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
        }

    return {
        "players": players,
        "tables": len(per_table),
        "requests": {kind: figures(values) for kind, values in times.items()},
        "per_table": figures(per_table),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--measure", metavar="DATABASE_URL", help=argparse.SUPPRESS)
    args, _ = parser.parse_known_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.players, args.rounds)))
        return 0
    result = measure_in_child(__file__, "--players", str(args.players), "--rounds", str(args.rounds))

    print(
        f"{result['players']} players, {result['tables']} tables reported and confirmed through the web (SQLite)"
    )
    met = True
    for kind, f in result["requests"].items():
        ok = f["median_ms"] < REQUEST_TARGET_MS
        met &= ok
        print(
            f"  {kind:22} median {f['median_ms']:7.1f} ms   p95 {f['p95_ms']:7.1f} ms   "
            f"({f['requests']} requests; target median < {REQUEST_TARGET_MS} ms: {'met' if ok else 'MISSED'})"
        )
    f = result["per_table"]
    ok = f["median_ms"] < TABLE_TARGET_MS
    met &= ok
    print(
        f"  report + 3 confirms    median {f['median_ms']:7.1f} ms   p95 {f['p95_ms']:7.1f} ms   "
        f"(per table, the four POSTs; target median < {TABLE_TARGET_MS} ms: {'met' if ok else 'MISSED'})"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
