from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.swiss import pair_round, standings

from .helpers import names, play

events = st.tuples(st.integers(6, 40), st.integers(0, 3), st.integers(0, 2), st.integers(0, 10_000))


def state(event):
    size, rounds, drops, seed = event
    players = names(size)
    active, history = play(players, rounds, seed=seed, drops=drops)
    return active, history, seed


@settings(max_examples=25, deadline=None)
@given(events)
def test_every_active_player_is_seated_exactly_once_and_dropped_players_never(event):
    active, history, seed = state(event)
    seated = [p for t in pair_round(active, history, seed=seed).tables for p in t.players]
    assert sorted(seated) == sorted(active)


@settings(max_examples=25, deadline=None)
@given(events)
def test_tables_are_of_three_and_four_with_fours_above_threes(event):
    active, history, seed = state(event)
    sizes = [len(t.players) for t in pair_round(active, history, seed=seed).tables]
    assert set(sizes) <= {3, 4}
    assert sizes == sorted(sizes, reverse=True)


@settings(max_examples=15, deadline=None)
@given(events)
def test_the_same_seed_gives_the_same_pairing(event):
    active, history, seed = state(event)
    assert pair_round(active, history, seed=seed) == pair_round(list(reversed(active)), history, seed=seed)


@settings(max_examples=25, deadline=None)
@given(events)
def test_standings_are_a_total_order(event):
    active, history, seed = state(event)
    rows = standings(history, active=active, seed=seed)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    keys = [(r.points, *r.tiebreakers.values()) for r in rows]
    assert len(set(keys)) == len(keys)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
