"""simulate_season: several events with a shared pool of players, put into a season; the same seed gives
the same season."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from seasons import selectors
from seasons.models import Season

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate_season", *args, stdout=out)
    return out.getvalue()


def test_it_puts_every_event_into_a_season_with_the_same_people_meeting_again():
    output = simulate("--events", "2", "--players", "8", "--seed", "4")
    season = Season.objects.get()
    events = list(season.events.order_by("date"))
    assert len(events) == 2
    assert events[0].date < events[1].date
    assert season.start_date <= events[0].date and events[1].date <= season.end_date
    lines = selectors.standings(season).lines
    assert any(line.events_played == 2 for line in lines)
    # Records are recognised by email across events, and linked to their accounts.
    assert any(line.person.startswith("u") for line in lines)
    assert season.name in output and lines[0].name in output


@pytest.mark.django_db(transaction=True)
def test_the_same_seed_gives_the_same_season_on_a_fresh_database():
    def run() -> list[tuple]:
        simulate("--events", "2", "--players", "8", "--seed", "5")
        lines = selectors.standings(Season.objects.get()).lines
        return [(line.name, line.points, line.event_points) for line in lines]

    # Both runs on a fresh database (ids from 1): the services draw from the registration ids, and tests run
    # before this one may have used ids already.
    call_command("flush", interactive=False)
    first = run()
    call_command("flush", interactive=False)
    assert run() == first


@pytest.mark.parametrize(
    "args", [("--events", "0", "--seed", "1"), ("--players", "3", "--seed", "1"), ("--seed", "-1")]
)
def test_it_refuses_odd_arguments(args):
    with pytest.raises(CommandError):
        simulate(*args)


def test_it_refuses_to_run_the_same_seed_twice_in_one_database():
    simulate("--events", "1", "--players", "8", "--seed", "6")
    with pytest.raises(CommandError, match="exists already"):
        simulate("--events", "1", "--players", "8", "--seed", "6")
