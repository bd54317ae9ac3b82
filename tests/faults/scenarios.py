"""Code the fault tests run in their own processes, against a SQLite file with the production settings.

``python -c RUN tests.faults.scenarios NAME ARGS...`` sets Django up and calls ``NAME(*ARGS)``; each
function talks to the test on stdout (and stdin where it waits for a signal).
"""

from __future__ import annotations

import json
import os
import signal
import sys

RUN = """
import os, sys, django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
django.setup()
from django.conf import settings
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
from tests.faults import scenarios
getattr(scenarios, sys.argv[1])(*sys.argv[2:])
"""


def say(line: str) -> None:
    print(line, flush=True)


def new_event(name: str, players: str = "0", checked_in: str = "1") -> None:
    from tests.factories import make_event, make_players, make_user

    event = make_event(organizer=make_user(f"org-{name.lower().replace(' ', '-')}"), name=name)
    make_players(event, int(players), checked_in=checked_in == "1")
    say(event.slug)


def add_players(slug: str, prefix: str, count: str, start_at: str) -> None:
    """Staff add players one at a time, each in its own transaction, from a shared start moment."""
    import time

    from tournaments.models import Event
    from tournaments.services import registration

    event = Event.objects.get(slug=slug)
    time.sleep(max(0.0, float(start_at) - time.time()))
    for i in range(int(count)):
        registration.registration_add(event=event, name=f"{prefix} {i:03d}")
    say("done")


def check_in_through_the_web(slug: str) -> None:
    """Log the organizer in, wait for "go" on stdin, then press Check in for the first player."""
    from django.test import Client

    from tournaments.models import Event, Registration

    event = Event.objects.get(slug=slug)
    registration = Registration.objects.filter(event=event).order_by("pk").first()
    client = Client(raise_request_exception=False, HTTP_HOST="127.0.0.1")
    client.force_login(event.staff.get().user)
    say("ready")
    sys.stdin.readline()
    response = client.post(f"/e/{slug}/staff/players/{registration.pk}/check-in/", {"checked_in": "1"})
    say(json.dumps({"status": response.status_code, "body": response.content.decode()}))


def snapshot(slug: str) -> dict:
    """Everything a running round keeps: every seat's result, the tables' versions, the clock."""
    from judging.models import ClockPause, RoundClock, TableExtension
    from tournaments.models import Round, Seat, Table

    round = Round.objects.get(event__slug=slug, number=1)
    clock = RoundClock.objects.get(round=round)
    return {
        "round": [round.status, round.published_at.isoformat()],
        "seats": [
            [
                s.table.number,
                s.seat,
                s.registration.player.name,
                s.vp,
                s.super_villains,
                s.placement,
                s.points,
            ]
            for s in Seat.objects.filter(round=round)
            .select_related("table", "registration__player")
            .order_by("table__number", "seat")
        ],
        "versions": list(
            Table.objects.filter(round=round).order_by("number").values_list("number", "version")
        ),
        "clock": [clock.started_at.isoformat(), clock.minutes],
        "pauses": [
            [p.started_at.isoformat(), p.ended_at.isoformat() if p.ended_at else None, p.reason]
            for p in ClockPause.objects.filter(clock=clock).order_by("started_at")
        ],
        "extensions": [
            [e.table.number, e.minutes, e.reason] for e in TableExtension.objects.filter(table__round=round)
        ],
    }


def print_snapshot(slug: str) -> None:
    say(json.dumps(snapshot(slug), default=str))


def run_a_round_then_die(slug: str) -> None:
    """Mid-round: results at two of three tables, the clock started, paused and resumed, paused again,
    an extension; then the process dies at once (SIGKILL: no clean shutdown, nothing flushed)."""
    from judging import services as judging
    from tests.judging.helpers import enter_result
    from tournaments.models import Event, Table
    from tournaments.services import rounds

    event = Event.objects.get(slug=slug)
    organizer = event.staff.get().user
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    judging.clock_start(round=round, user=organizer)
    judging.clock_pause(round=round, user=organizer, reason="announcement")
    judging.clock_resume(round=round, user=organizer)
    tables = list(Table.objects.filter(round=round).order_by("number"))
    enter_result(tables[0], [7, 5, 3, 1])
    enter_result(tables[1], [2, 9, 4, 6])
    judging.table_extend(table=tables[2], user=organizer, minutes=4, reason="judge call")
    judging.clock_pause(round=round, user=organizer, reason="fire alarm")
    say(json.dumps(snapshot(slug), default=str))
    os.kill(os.getpid(), signal.SIGKILL)
