"""Load benchmark of issue 16: a 2,000-player event mid-round, 500 phones polling, 20 judges entering results.

    .venv/bin/python bench/bench_load.py [--quick] [--duration S] [--phones N] [--judges N] [--direct]

Starts the production stack on loopback as the smoke test does (tests/production/stack.py: PostgreSQL,
Redis, gunicorn and a Celery worker set up by README's commands, nginx in front when installed), builds a
2,000-player event through the project's services (roster import, check-in, start, round 1 paired and
published) and drives it with locust (headless, as a library):

- phones (500): every 20 s each polls one public page: the event page, the round's pairings directory, its
  own table (the directory's *find my table*, `?q=`), a page of 50 tables, the standings, the read API;
- judges (20): each logs in through the log-in form (before measuring starts), then, one table after another, opens the staff slip
  page of a table and submits the slip (the real form, with its version and CSRF token);

for DURATION seconds (90; `--quick`: 25 s with 150 phones and 8 judges), measured from 20 s after the last judge
logged in (the log-ins' password hashing and every phone's first connection are not the round's steady state). Then one public page (the event
page) is hammered alone for a few seconds. Requests go to nginx over HTTPS as a deployment serves them
(`--direct`: the phones ask gunicorn itself, without the proxy's cache; judges log in over nginx's HTTPS). Printed: requests/s, p50/p95/p99 and errors per kind.

Targets (exit status 1 when one is missed): 0 errors; public pages p95 < 250 ms while results are entered;
the hammered page >= 300 requests/s; a result entry (submitting the slip) p95 < 300 ms.
The figures depend on the machine being quiet: locust, PostgreSQL, Redis, nginx and gunicorn share its cores.
"""

# locust patches the standard library with gevent: it must be imported before anything else.
from locust import FastHttpUser, between, constant_pacing, events, task  # isort: skip
from locust.env import Environment  # isort: skip

import argparse  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import gevent  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.production.stack import Stack  # noqa: E402

PUBLIC_P95_MS = 250
HAMMER_RPS = 300
RESULT_P95_MS = 300
POLL_SECONDS = 20
PASSWORD = "bench-judge-password-7"

SEED = """
import time
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from allauth.account.models import EmailAddress
from tournaments.models import Event, EventStaff, Table
from tournaments.services import registration, rounds
started = time.monotonic()
User = get_user_model()
password = make_password({password!r})
users = User.objects.bulk_create(
    [User(username=f"judge{{i:02d}}", email=f"judge{{i:02d}}@example.org", password=password) for i in range({judges} + 1)]
)
EmailAddress.objects.bulk_create(
    [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users]
)
event = Event.objects.create(name="Load Open", date="2026-12-05")
EventStaff.objects.create(event=event, user=users[0], role=EventStaff.Role.ORGANIZER)
EventStaff.objects.bulk_create([EventStaff(event=event, user=u, role=EventStaff.Role.JUDGE) for u in users[1:]])
registration.roster_import(event=event, text="\\n".join(f"Load Player {{i:04d}}" for i in range(1, {players} + 1)))
registration.registrations_check_in_all(event=event)
event = rounds.event_start(event=event)
paired = rounds.round_pair(event=event, number=1, publish=True)
print("SEEDED", event.slug, Table.objects.filter(round=paired).count(), f"{{time.monotonic() - started:.1f}}")
"""


def seed(stack: Stack, players: int, judges: int) -> tuple[str, int]:
    out = stack.manage_shell(SEED.format(password=PASSWORD, judges=judges, players=players))
    _, slug, tables, seconds = re.search(r"^SEEDED .*$", out, re.M).group(0).split()
    print(f"event: {players} players, {tables} tables of round 1, built in {seconds}s", flush=True)
    return slug, int(tables)


def make_users(
    slug: str, players: int, tables: int, judges: int, public_host: str, staff_host: str, headers: dict
):
    class Phone(FastHttpUser):
        """A player's phone: one public page every 20 s."""

        host = public_host
        fixed_count = 0
        insecure = True

        def on_start(self):
            self.name_searched = f"Load Player {random.randint(1, players):04d}"
            self.page = random.randint(1, max(1, tables // 50))
            # Phones opened their pages at random moments and each polls every 20 s from its own start.
            # (locust's constant_pacing counts its first period from the user's start, on_start included:
            # with it, every phone polled in the same few seconds, 500 requests at once every 20 s.)
            self.due = time.monotonic() + random.uniform(0, POLL_SECONDS)
            gevent.sleep(self.due - time.monotonic())

        def wait_time(self) -> float:
            self.due += POLL_SECONDS
            return max(0.0, self.due - time.monotonic())

        def get(self, path: str, kind: str):
            with self.client.get(path, name=kind, headers=headers, catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"HTTP {response.status_code}")

        @task(2)
        def event_page(self):
            self.get(f"/e/{slug}/", "public: event page")

        @task(1)
        def pairings_directory(self):
            self.get(f"/e/{slug}/rounds/1/", "public: pairings directory")

        @task(4)
        def my_table(self):
            self.get(
                f"/e/{slug}/rounds/1/?q={self.name_searched.replace(' ', '+')}", "public: my table (?q=)"
            )

        @task(1)
        def page_of_tables(self):
            self.get(f"/e/{slug}/rounds/1/?page={self.page}", "public: page of 50 tables")

        @task(2)
        def standings(self):
            self.get(f"/e/{slug}/standings/", "public: standings")

        @task(1)
        def api(self):
            self.get(f"/api/events/{slug}/standings/", "api: standings")

    queue = list(range(1, tables + 1))
    random.Random(16).shuffle(queue)

    class Judge(FastHttpUser):
        """A judge at the results desk: logs in, then enters one table's slip after another."""

        host = staff_host
        fixed_count = judges
        wait_time = between(3, 6)
        insecure = True

        def on_start(self):
            self.number = next(counter)
            self.client.get("/accounts/login/", name="judge: log in")
            token = self.csrf()
            with self.client.post(
                "/accounts/login/",
                data={"csrfmiddlewaretoken": token, "login": f"judge{self.number:02d}", "password": PASSWORD},
                headers={"Referer": self.host + "/accounts/login/"},
                name="judge: log in",
                allow_redirects=False,
                catch_response=True,
            ) as response:
                if response.status_code != 302:
                    response.failure(f"log-in answered {response.status_code}")
            logged_in.append(self.number)

        def csrf(self) -> str:
            return next((c.value for c in self.client.cookiejar if c.name == "csrftoken"), "")

        @task
        def enter_a_result(self):
            if not queue:
                return
            table = queue.pop()
            path = f"/e/{slug}/staff/rounds/1/tables/{table}/"
            with self.client.get(path, name="judge: open the table", catch_response=True) as page:
                if page.status_code != 200:
                    page.failure(f"HTTP {page.status_code}")
                    return
                html = page.text
            prefixes = sorted(set(re.findall(r'name="(seat\d+)-vp"', html)))
            version = re.search(r'name="version" value="(\d+)"', html)
            data = {"csrfmiddlewaretoken": self.csrf(), "version": version.group(1) if version else ""}
            for vp, prefix in zip(range(40, 0, -7), prefixes, strict=False):
                data.update(
                    {f"{prefix}-vp": vp, f"{prefix}-super_villains": 1, f"{prefix}-main_character": ""}
                )
            with self.client.post(
                path,
                data=data,
                headers={"Referer": self.host + path},
                name="judge: submit the slip",
                allow_redirects=False,
                catch_response=True,
            ) as response:
                if response.status_code != 302:
                    response.failure(f"HTTP {response.status_code} (the form was not saved)")

    counter = iter(range(1, judges + 1))
    logged_in: list[int] = []
    Judge.logged_in = logged_in
    return Phone, Judge


def warm_up(host: str, slug: str, headers: dict) -> None:
    """Each gunicorn process answers its first requests slowly (templates, imports): a live event's server
    is warm, so every public page is asked for a few times before measuring (not counted)."""
    from tests.production.stack import Browser

    visitor = Browser(host)
    for _ in range(6):
        for path in (
            f"/e/{slug}/",
            f"/e/{slug}/rounds/1/",
            f"/e/{slug}/standings/",
            f"/api/events/{slug}/standings/",
        ):
            visitor.get(path, headers=headers)


def problems(stack: Stack) -> None:
    """What the servers logged as going wrong (worker timeouts, upstream errors), if anything."""
    for name in ("web", "nginx-error"):
        lines = [
            line
            for line in stack.read_log(name).splitlines()
            if any(word in line for word in ("TIMEOUT", "Error", "error", "upstream", "Traceback"))
        ]
        for line in lines[:8]:
            print(f"  {name}.log: {line[:200]}")


def run(
    user_classes, users: int, spawn_rate: float, seconds: float, ready=lambda: True, settle: float = 0.0
) -> Environment:
    """Start the users; once ``ready()`` (every judge logged in: 20 password hashes at once are not what
    a round looks like) and ``settle`` seconds more (the requests queued behind those log-ins drain, and
    every phone has made its first connection), measure for ``seconds`` from fresh statistics, then stop
    them."""
    env = Environment(user_classes=user_classes, events=events)
    runner = env.create_local_runner()
    runner.start(users, spawn_rate=spawn_rate)
    deadline = time.monotonic() + 120
    while not ready() and time.monotonic() < deadline:
        gevent.sleep(0.2)
    gevent.sleep(settle)
    env.stats.reset_all()
    gevent.spawn_later(seconds, runner.quit)
    runner.greenlet.join()
    return env


def percentile(entry, fraction: float) -> float:
    return entry.get_response_time_percentile(fraction) if entry.num_requests else 0.0


def report(env: Environment, seconds: float) -> dict[str, dict]:
    rows = {}
    print(f"{'kind':34} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'errors':>6}")
    for (name, _method), entry in sorted(env.stats.entries.items()):
        if not entry.num_requests:
            continue
        rows[name] = {
            "requests": entry.num_requests,
            "rps": entry.num_requests / seconds,
            "p50": percentile(entry, 0.5),
            "p95": percentile(entry, 0.95),
            "p99": percentile(entry, 0.99),
            "errors": entry.num_failures,
        }
        r = rows[name]
        print(
            f"{name:34} {r['requests']:8d} {r['rps']:7.1f} {r['p50']:7.0f} {r['p95']:7.0f} {r['p99']:7.0f} "
            f"{r['errors']:6d}"
        )
    for error in env.stats.errors.values():
        print(f"  error: {error.name}: {error.error} x{error.occurrences}")
    return rows


def public_p95(env: Environment) -> float:
    """The 95th percentile over every public request together (phones)."""
    from locust.stats import StatsEntry

    total = StatsEntry(env.stats, "public", "GET")
    for (name, _method), entry in env.stats.entries.items():
        if name.startswith(("public:", "api:")):
            total.extend(entry)
    return percentile(total, 0.95)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="25 s, 150 phones, 8 judges")
    parser.add_argument("--duration", type=float)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--phones", type=int)
    parser.add_argument("--judges", type=int)
    parser.add_argument(
        "--direct",
        action="store_true",
        help="phones to gunicorn itself (no proxy cache); judges still via nginx",
    )
    args = parser.parse_args()
    duration = args.duration or (25 if args.quick else 90)
    phones = args.phones or (150 if args.quick else 500)
    judges = args.judges or (8 if args.quick else 20)
    hammer_seconds = 6 if args.quick else 15

    # Judges log in: the session cookie is Secure (DEBUG off), so they need nginx's HTTPS.
    # 500 phones from one loopback address would be one client to the rate limits (README: a load test
    # from one address turns them off).
    stack = Stack(nginx=True, gunicorn_workers=3, access_log=False, env={"RATELIMIT_ENABLE": "false"})

    def interrupted(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    missed: list[str] = []
    try:
        from tests.conftest import seeds_dir

        stack.start(seeds_dir())
        public_host = stack.app_url if args.direct else stack.url
        # Asked directly, gunicorn must be told what nginx would say: the visitor came over HTTPS.
        headers = {"X-Forwarded-Proto": "https"} if args.direct else {}
        print(f"stack: {stack.url} (nginx -> gunicorn {stack.app_url}, PostgreSQL, Redis, Celery)")
        print(f"phones ask {public_host}{' (gunicorn itself)' if args.direct else ' (nginx)'}")
        slug, tables = seed(stack, args.players, judges)
        Phone, Judge = make_users(slug, args.players, tables, judges, public_host, stack.url, headers)
        warm_up(public_host, slug, headers)
        Phone.fixed_count = phones
        print(f"\n== {phones} phones polling every 20 s, {judges} judges entering results, {duration:.0f} s")
        env = run(
            [Phone, Judge],
            phones + judges,
            spawn_rate=100,
            seconds=duration,
            ready=lambda: len(Judge.logged_in) == judges,
            settle=POLL_SECONDS,
        )
        rows = report(env, duration)
        errors = sum(r["errors"] for r in rows.values())
        p95 = public_p95(env)
        entry = rows.get("judge: submit the slip", {"p95": float("inf"), "requests": 0})
        print(
            f"public pages p95: {p95:.0f} ms; results entered: {entry['requests']}, p95 {entry['p95']:.0f} ms"
        )

        class Hammer(FastHttpUser):
            host = public_host
            wait_time = constant_pacing(0)
            insecure = True

            @task
            def event_page(self):
                self.client.get(f"/e/{slug}/", name="hammer: event page", headers=headers)

        print(f"\n== one cached public page (the event page), hammered for {hammer_seconds} s by 20 clients")
        hammer = run([Hammer], 20, spawn_rate=20, seconds=hammer_seconds)
        hammered = report(hammer, hammer_seconds)["hammer: event page"]
        errors += hammered["errors"]

        problems(stack)
        print("\n== targets")
        checks = [
            ("errors", errors, "== 0", errors == 0),
            ("public pages p95 (ms)", round(p95), f"< {PUBLIC_P95_MS}", p95 < PUBLIC_P95_MS),
            (
                "cached page (req/s)",
                round(hammered["rps"]),
                f">= {HAMMER_RPS}",
                hammered["rps"] >= HAMMER_RPS,
            ),
            (
                "result entry p95 (ms)",
                round(entry["p95"]),
                f"< {RESULT_P95_MS}",
                entry["p95"] < RESULT_P95_MS,
            ),
        ]
        for name, value, target, ok in checks:
            print(f"{name:24} {value!s:>8} {target:>8}  {'ok' if ok else 'MISSED'}")
            if not ok:
                missed.append(name)
    except KeyboardInterrupt:
        print("interrupted: stopping the stack", file=sys.stderr)
        return 130
    finally:
        stack.stop()
    return 1 if missed else 0


if __name__ == "__main__":
    started = time.monotonic()
    status = main()
    print(f"({time.monotonic() - started:.0f} s in all)")
    sys.exit(status)
