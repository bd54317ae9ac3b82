"""swiss.table_flags: the engine's flags for any seating, the one place that says why a table looks as it does."""

from __future__ import annotations

from tournaments.swiss import pair_round, table_flags

from .helpers import names, play, table


def kinds(flags) -> list[tuple[str, str]]:
    return sorted((f.kind, f.player) for f in flags)


def test_it_flags_players_who_met_before():
    rounds = [[table(["a", "b", "c", "d"]), table(["e", "f", "g", "h"])]]
    flags = table_flags(["a", "e", "b", "f"], rounds)
    assert ("repeat_opponent", "a") in kinds(flags)
    assert any(f.kind == "repeat_opponent" and {f.player, f.opponent} == {"e", "f"} for f in flags)


def test_it_flags_the_players_pulled_down_to_a_table():
    # In each finished table the first seat won (5 points) and the others lost (3, 2, 2).
    rounds = [[table(["a", "b", "c", "d"]), table(["e", "f", "g", "h"])]]
    flags = table_flags(["a", "c", "g", "h"], rounds)
    assert [f.text for f in flags if f.kind == "pulled_down"] == ["a pulled down 3 points"]


def test_a_second_three_player_table_is_flagged():
    rounds = [[table(["a", "b", "c"]), table(["d", "e", "f"])]]
    flags = table_flags(["a", "d", "x"], rounds)
    assert {f.player for f in flags if f.kind == "three_player_table_again"} == {"a", "d"}


def test_with_no_history_a_table_has_no_flags():
    assert table_flags(["a", "b", "c", "d"]) == ()


def test_the_engine_flags_its_own_tables_with_it():
    players, rounds = play(names(16), 2)
    pairing = pair_round(players, rounds, seed=7)
    for paired in pairing.tables:
        assert paired.flags == table_flags(paired.players, rounds)


def test_flags_read_as_plain_english():
    from tournaments.swiss.pairing import Flag

    assert Flag("repeat_opponent", "a", opponent="b", count=1).text == "a meets b again (met once before)"
    assert Flag("repeat_opponent", "a", opponent="b", count=3).text == "a meets b again (met 3 times before)"
    assert Flag("pulled_down", "a", points=1).text == "a pulled down 1 point"
