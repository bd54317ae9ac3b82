"""Two organizers or judges acting at the same moment (the harness: ``tests/concurrency.py``)."""

from __future__ import annotations

import pytest

from tests.concurrency import at_once
from tests.factories import make_event, make_players, make_user
from tournaments import services
from tournaments.models import Event, ResultChange, Round, Seat, Table
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db(transaction=True)


def started_event(players: int) -> Event:
    event = make_event()
    make_players(event, players)
    return rounds.event_start(event=event)


def entries(table: Table, vps: list[int]) -> list[results.SeatEntry]:
    seats = Seat.objects.filter(table=table).order_by("seat")
    return [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=1) for s, vp in zip(seats, vps, strict=True)
    ]


# --- Scenarios: plain functions, run by the tests below in this process or in a subprocess ------


def scenario_pairing_at_once() -> None:
    event = started_event(16)
    outcomes = at_once(*[lambda: rounds.round_pair(event=event, number=1, publish=True).pk] * 4)
    assert [exc for _, exc in outcomes] == [None] * 4
    assert len({pk for pk, _ in outcomes}) == 1
    assert Round.objects.filter(event=event).count() == 1
    assert Seat.objects.filter(round__event=event).count() == 16


def scenario_same_table_at_once() -> None:
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    alice, bob = make_user(), make_user()
    slips = {alice: entries(table, [40, 30, 20, 10]), bob: entries(table, [10, 20, 30, 40])}
    outcomes = at_once(
        *[
            lambda judge=judge: results.result_enter(
                table=table, entries=slips[judge], expected_version=0, user=judge
            )
            for judge in (alice, bob)
        ]
    )
    saved = [i for i, (_, exc) in enumerate(outcomes) if exc is None]
    conflicts = [exc for _, exc in outcomes if isinstance(exc, results.ResultConflict)]
    assert len(saved) == 1 and len(conflicts) == 1
    winner = (alice, bob)[saved[0]]
    stored = [s.vp for s in Seat.objects.filter(table=table).order_by("seat")]
    assert stored == [e.vp for e in slips[winner]]
    assert [s.vp for s in conflicts[0].seats] == stored  # the loser sees the winner's values
    assert list(ResultChange.objects.filter(table=table).values_list("user", flat=True)) == [winner.pk]
    assert Table.objects.get(pk=table.pk).version == 1


def scenario_different_tables_at_once() -> None:
    event = started_event(8)
    round = rounds.round_pair(event=event, number=1, publish=True)
    first, second = Table.objects.filter(round=round).order_by("number")
    outcomes = at_once(
        lambda: results.result_enter(
            table=first, entries=entries(first, [40, 30, 20, 10]), expected_version=0, user=None
        ),
        lambda: results.result_enter(
            table=second, entries=entries(second, [40, 30, 20, 10]), expected_version=0, user=None
        ),
    )
    assert [exc for _, exc in outcomes] == [None, None]
    assert all(t.has_result for t in Table.objects.filter(round=round))
    assert ResultChange.objects.filter(table__round=round).count() == 2
    assert rounds.round_close(round=round).closed


def scenario_pair_while_closing() -> None:
    event = started_event(12)
    round = rounds.round_pair(event=event, number=1, publish=True)
    for table in Table.objects.filter(round=round):
        results.result_enter(
            table=table, entries=entries(table, [40, 30, 20, 10]), expected_version=0, user=None
        )
    outcomes = at_once(
        lambda: rounds.round_close(round=round),
        lambda: rounds.round_pair(event=event, number=2, publish=True),
        lambda: rounds.round_pair(event=event, number=2, publish=True),
    )
    assert outcomes[0][1] is None
    # Pairing before the close finished is refused with a message; after it, one round 2.
    for _, exc in outcomes[1:]:
        assert exc is None or "still running" in str(exc)
    assert Round.objects.filter(event=event, number=2).count() <= 1


def scenario_one_event_form_sent_twice_at_once() -> None:
    organizer = make_user()
    outcomes = at_once(
        *[lambda: services.event_create(user=organizer, name="Winter Open", date="2026-12-12").pk] * 2
    )
    created = [pk for pk, exc in outcomes if exc is None]
    refused = [exc for _, exc in outcomes if isinstance(exc, services.DuplicateEvent)]
    assert len(created) == 1 and len(refused) == 1
    assert refused[0].event.pk == created[0]
    assert Event.objects.filter(created_by=organizer).count() == 1


# --- Tests ---------------------------------------------------------------------------------


def test_four_organizers_pairing_the_same_round_at_once_create_it_once(run_scenario):
    run_scenario(scenario_pairing_at_once)


def test_two_judges_saving_the_same_table_at_once_never_overwrite_each_other(run_scenario):
    run_scenario(scenario_same_table_at_once)


def test_two_judges_saving_different_tables_at_once_both_count(run_scenario):
    run_scenario(scenario_different_tables_at_once)


def test_pairing_the_next_round_while_the_organizer_closes_the_last_one_pairs_it_at_most_once(run_scenario):
    run_scenario(scenario_pair_while_closing)


def test_one_event_form_sent_twice_at_once_creates_one_event(run_scenario):
    run_scenario(scenario_one_event_form_sent_twice_at_once)
