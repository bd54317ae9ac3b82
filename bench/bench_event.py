"""Benchmark of issue 4: a whole event, and the standings and pairings pages of a big one.

    .venv/bin/python bench/bench_event.py [--quick] [--repeats 7] [--keep]

1. ``simulate_event`` for 128 players (target < 30 s) and 1,024 players (target < 5 min), each in a
   subprocess on its own temporary SQLite file (``DATABASE_URL=sqlite:////tmp/...``), timed from the
   outside (process start to exit, migrations not included) and split by phase as the command reports it.
2. The public standings page (``/e/<slug>/standings/``) and pairings page (``/e/<slug>/rounds/<n>/``,
   the last Swiss round) of each simulated event, requested with Django's test Client in a separate
   process against that database: server time per request (median of ``--repeats``) and the number of
   queries. "after close" is the first request after a round closes: the cache is cleared, then the
   standings are computed as ``round_close`` does when it commits, and the page itself (its rendered
   table is cached per standings version) is rendered from scratch. "warm" is every later request
   until the next close; "cold" clears the whole cache first (a restarted cache), for the record.
   Target: < 150 ms for 1,024 players after close, and the same number of queries for 128 and 1,024.

``--quick`` runs 128 players only. Everything runs with DEBUG off, as in production.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from django_child import child_env, setup

ROOT = Path(__file__).resolve().parent.parent
SIMULATE_TARGET_SECONDS = {128: 30, 1024: 300}
PAGE_TARGET_MS = 150
SEED = 2026


def manage(*args: str, database_url: str) -> subprocess.CompletedProcess:
    # --skip-checks: the checkout is shared, and a half-written page elsewhere must not stop a benchmark
    # of the services.
    done = subprocess.run(
        [sys.executable, "manage.py", *args, "--skip-checks"],
        cwd=ROOT,
        env=child_env(database_url),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"manage.py {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return done


def simulate(players: int, workdir: Path) -> dict:
    url = f"sqlite:///{workdir / f'event-{players}.sqlite3'}"
    manage("migrate", "--noinput", "-v0", database_url=url)
    started = time.perf_counter()
    done = manage("simulate_event", "--players", str(players), "--seed", str(SEED), database_url=url)
    wall = time.perf_counter() - started
    slug = re.search(r"/e/([^/]+)/", done.stdout).group(1)
    took = re.search(r"^Took ([\d.]+) s \((.*)\)$", done.stdout, re.MULTILINE)
    return {
        "players": players,
        "url": url,
        "slug": slug,
        "wall": wall,
        "inside": float(took.group(1)),
        "phases": took.group(2),
    }


# --- Pages: run in a child process, so Django is set up against that event's database ------------


def measure_pages(database_url: str, slug: str, repeats: int) -> dict:
    setup(database_url)
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tournaments import selectors
    from tournaments.models import Event, Round
    from tournaments.services import rounds

    event = Event.objects.get(slug=slug)
    last_swiss = Round.objects.filter(event=event, kind=Round.Kind.SWISS).order_by("-number").first()
    client = Client()

    def page(path: str):
        def get():
            # secure: with DEBUG off the site redirects plain HTTP to HTTPS.
            response = client.get(path, secure=True)
            if response.status_code != 200:
                raise LookupError(f"{path} answered {response.status_code}")
            return response

        return get

    def selector_calls():
        fresh = Event.objects.get(pk=event.pk)
        return {
            "standings": lambda: selectors.event_standings(fresh),
            "pairings": lambda: selectors.round_tables(last_swiss),
        }

    targets = {
        "standings": (f"/e/{slug}/standings/", page(f"/e/{slug}/standings/")),
        "pairings": (
            f"/e/{slug}/rounds/{last_swiss.number}/",
            page(f"/e/{slug}/rounds/{last_swiss.number}/"),
        ),
    }
    out: dict = {"players": event.registrations.count(), "pages": {}}
    for name, (path, call) in targets.items():
        what = path
        try:
            call()
        except Exception as exc:  # the page is not there (yet): measure its selector instead
            call, what = selector_calls()[name], f"selector ({exc})"
        figures = {"what": what}
        for mode in ("cold", "after close", "warm"):
            times = []
            for _ in range(repeats):
                if mode != "warm":
                    cache.clear()
                if mode == "after close":
                    rounds.standings_warm(event_id=event.pk)
                started = time.perf_counter()
                call()
                times.append((time.perf_counter() - started) * 1000)
            if mode != "warm":
                cache.clear()
            if mode == "after close":
                rounds.standings_warm(event_id=event.pk)
            with CaptureQueriesContext(connection) as queries:
                call()
            figures[mode] = {"median_ms": statistics.median(times), "queries": len(queries)}
        out["pages"][name] = figures
    return out


def pages(sim: dict, repeats: int) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, "--measure-pages", sim["url"], sim["slug"], "--repeats", str(repeats)],
        cwd=ROOT,
        env=child_env(sim["url"]),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"measuring the pages failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


def verdict(ok: bool) -> str:
    return "target met" if ok else "TARGET MISSED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="128 players only")
    parser.add_argument("--repeats", type=int, default=7, help="requests per page and mode (median)")
    parser.add_argument("--keep", action="store_true", help="keep the SQLite files and print where")
    parser.add_argument("--measure-pages", nargs=2, metavar=("DATABASE_URL", "SLUG"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure_pages:
        print(json.dumps(measure_pages(*args.measure_pages, repeats=args.repeats)))
        return 0

    sizes = [128] if args.quick else [128, 1024]
    workdir = Path(tempfile.mkdtemp(prefix="bench-event-"))
    all_met = True
    try:
        measured = []
        print("simulate_event (SQLite file, DEBUG off)")
        for players in sizes:
            sim = simulate(players, workdir)
            target = SIMULATE_TARGET_SECONDS[players]
            ok = sim["wall"] < target
            all_met &= ok
            print(
                f"  {players:>5} players: {sim['wall']:6.1f} s wall (target < {target} s: {verdict(ok)}); "
                f"{sim['inside']:.1f} s inside the command: {sim['phases']}"
            )
            measured.append((sim, pages(sim, args.repeats)))

        print(
            f"\nPages (Django test Client in-process, median of {args.repeats}; after close = first request "
            "after a round closes; cold = whole cache cleared)"
        )
        for sim, figures in measured:
            for name, page in figures["pages"].items():
                cold, closed, warm = page["cold"], page["after close"], page["warm"]
                line = (
                    f"  {sim['players']:>5} players {name:<9} {page['what']}: "
                    f"after close {closed['median_ms']:6.1f} ms / {closed['queries']} queries, "
                    f"warm {warm['median_ms']:6.1f} ms / {warm['queries']} queries, "
                    f"cold {cold['median_ms']:6.1f} ms / {cold['queries']} queries"
                )
                if sim["players"] == max(sizes):
                    ok = closed["median_ms"] < PAGE_TARGET_MS
                    all_met &= ok
                    line += f" (target < {PAGE_TARGET_MS} ms: {verdict(ok)})"
                print(line)
        if len(measured) > 1:
            for name in measured[0][1]["pages"]:
                counts = [figures["pages"][name]["cold"]["queries"] for _, figures in measured]
                same = len(set(counts)) == 1
                all_met &= same
                print(
                    f"  {name}: queries for {' / '.join(str(s['players']) for s, _ in measured)} players = "
                    f"{' / '.join(map(str, counts))} ({'the same' if same else 'NOT the same'})"
                )
        print("\nAll targets met." if all_met else "\nSome targets missed.")
    finally:
        if args.keep:
            print(f"SQLite files kept in {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
