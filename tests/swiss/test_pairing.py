from __future__ import annotations

import pytest

from tournaments.swiss import PlayedTable, SwissError, pair_round

from .helpers import names, play, table


def seated(pairing):
    return [p for t in pairing.tables for p in t.players]


def test_round_one_is_random_but_seeded():
    players = names(16)
    assert pair_round(players, seed=3) == pair_round(list(reversed(players)), seed=3)
    assert pair_round(players, seed=3) != pair_round(players, seed=4)


def test_it_seats_every_active_player_once():
    pairing = pair_round(names(13), seed=1)
    assert sorted(seated(pairing)) == names(13)
    assert [len(t.players) for t in pairing.tables] == [4, 3, 3, 3]


def test_players_with_equal_points_sit_together_top_tables_first():
    players = names(16)
    history = [[table(players[i : i + 4]) for i in range(0, 16, 4)]]
    pairing = pair_round(players, history, seed=2)
    assert set(pairing.tables[0].players) == {players[0], players[4], players[8], players[12]}


def test_it_avoids_repeat_opponents_when_it_can():
    _, history = play(names(24), 3, seed=5)
    pairing = pair_round(names(24), history, seed=5)
    assert pairing.repeat_pairs == 0


def test_a_repeat_is_flagged_with_whom():
    players = names(4)
    pairing = pair_round(players, [[table(players)]], seed=1)
    repeats = [f for f in pairing.tables[0].flags if f.kind == "repeat_opponent"]
    assert len(repeats) == 6
    assert "again" in repeats[0].text


def test_a_pulled_down_player_is_flagged_with_the_points():
    players = names(8)
    # One 5-point player, the rest on 2 or 3: someone must be pulled down.
    history = [[table(players[:4]), PlayedTable(tuple(players[4:]), dict.fromkeys(players[4:], 2))]]
    pairing = pair_round(players, history, seed=1)
    kinds = {f.kind for t in pairing.tables for f in t.flags}
    assert "pulled_down" in kinds or "pulled_up" in kinds


def test_a_second_three_player_table_is_flagged():
    players = names(6)
    pairing = pair_round(players, [[table(players[:3]), table(players[3:])]], seed=1, swiss_rounds=2)
    assert any(f.kind == "three_player_table_again" for t in pairing.tables for f in t.flags)


def test_dropped_players_are_never_seated():
    active, history = play(names(20), 2, seed=2, drops=2)
    assert sorted(seated(pair_round(active, history, seed=2))) == sorted(active)


def test_balanced_turn_order_evens_out_first_seats():
    players = names(4)
    history = [[table(players)]]
    pairing = pair_round(players, history, seed=1, turn_order="balanced")
    assert pairing.tables[0].players[0] != players[0]


def test_an_unknown_turn_order_is_refused():
    with pytest.raises(SwissError, match="turn order"):
        pair_round(names(8), seed=1, turn_order="clockwise")


def test_five_players_get_one_table_only_when_allowed():
    with pytest.raises(SwissError):
        pair_round(names(5), seed=1)
    assert len(pair_round(names(5), seed=1, allow_five=True).tables[0].players) == 5


def test_a_table_of_two_in_the_history_is_refused():
    with pytest.raises(SwissError, match="3 to 5"):
        pair_round(names(8), [[PlayedTable(("p000", "p001"), {"p000": 5, "p001": 3})]], seed=1)


def test_standings_first_seats_equal_points_together_where_new_opponents_first_would_not():
    players, rounds = play(names(16), 3, seed=4)
    standings_first = pair_round(players, rounds, seed=1, policy="standings_first")
    new_opponents = pair_round(players, rounds, seed=1)

    def spread(pairing):
        points = {p: sum(t.points[p] for r in rounds for t in r if p in t.points) for p in players}
        return sum(
            max(points[p] for p in t.players) - min(points[p] for p in t.players) for t in pairing.tables
        )

    assert spread(standings_first) < spread(new_opponents)
    assert new_opponents.repeat_pairs == 0


def test_an_unknown_policy_is_refused():
    with pytest.raises(SwissError, match="pairing policy must be one of"):
        pair_round(names(8), seed=1, policy="by-vibes")


def test_standings_first_gives_an_unavoidable_repeat_to_the_lower_table():
    # After round 1: a on 10 points, b..g on 5, h on 0 (the z players have dropped). b, c and d met, so
    # whichever three of b..g join a at the top table, one pair of b, c, d sits together at one of the two
    # tables; the points are the same either way, and standings first seats the repeat at the lower table.
    def played(players, points):
        return PlayedTable(players=tuple(players), points=dict(zip(players, points, strict=True)))

    rounds = [
        [
            played(["b", "c", "d", "z1"], [5, 5, 5, 0]),
            played(["a", "z2", "z3", "z4"], [10, 0, 0, 0]),
            played(["e", "z5", "z6", "z7"], [5, 0, 0, 0]),
            played(["f", "z8", "z9", "z10"], [5, 0, 0, 0]),
            played(["g", "z11", "z12", "z13"], [5, 0, 0, 0]),
            played(["h", "z14", "z15", "z16"], [0, 0, 0, 0]),
        ]
    ]
    for seed in range(5):
        top, bottom = pair_round(list("abcdefgh"), rounds, seed=seed, policy="standings_first").tables
        assert "a" in top.players and "h" in bottom.players
        assert len(set(top.players) & {"b", "c", "d"}) == 1
        assert [f.kind for f in top.flags if f.kind == "repeat_opponent"] == []
        assert [f.kind for f in bottom.flags if f.kind == "repeat_opponent"] == ["repeat_opponent"]
