from __future__ import annotations

import pytest

from tournaments.swiss import SwissError, final_ranking, final_table, playoff_tables

ORDER = [f"s{i}" for i in range(1, 13)]


def test_four_rounds_make_one_final_of_the_top_four_9080():
    playoffs = playoff_tables(ORDER, 4, ORDER)
    assert playoffs.stage == "final"
    assert playoffs.tables[0].players == ("s1", "s2", "s3", "s4")


def test_five_rounds_make_semi_finals_1_4_5_8_and_2_3_6_7_9090():
    playoffs = playoff_tables(ORDER, 5, ORDER)
    assert playoffs.stage == "semi_finals"
    assert [t.players for t in playoffs.tables] == [("s1", "s4", "s5", "s8"), ("s2", "s3", "s6", "s7")]


def test_turn_order_is_the_swiss_standing_9101():
    # 9.101 Ex.1: players 1, 4, 5 and 8: player 1 goes first, player 4 second...
    assert playoff_tables(ORDER, 6, ORDER).tables[0].players == ("s1", "s4", "s5", "s8")


def test_ineligible_players_are_skipped():
    eligible = [p for p in ORDER if p not in ("s2", "s5")]
    playoffs = playoff_tables(ORDER, 5, eligible)
    assert [t.players for t in playoffs.tables] == [("s1", "s6", "s7", "s10"), ("s3", "s4", "s8", "s9")]


def test_too_few_eligible_players_is_an_error():
    with pytest.raises(SwissError, match="need 8"):
        playoff_tables(ORDER, 5, ORDER[:7])


def test_the_final_takes_first_and_second_of_each_semi_final_in_swiss_order():
    final = final_table([["s5", "s1", "s4", "s8"], ["s7", "s2", "s3", "s6"]], ORDER)
    assert final.players == ("s1", "s2", "s5", "s7")


def test_the_final_ranking_follows_the_final_then_semi_final_places_then_swiss_standing():
    semis = [["s5", "s1", "s4", "s8"], ["s7", "s2", "s3", "s6"]]
    ranking = final_ranking(ORDER, ["s2", "s7", "s1", "s5"], semis)
    assert ranking[:4] == ("s2", "s7", "s1", "s5")
    assert ranking[4:8] == ("s3", "s4", "s6", "s8")
    assert ranking[8:] == ("s9", "s10", "s11", "s12")
