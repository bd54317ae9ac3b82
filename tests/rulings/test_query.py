"""Classifying and preparing queries (pure, no database)."""

from __future__ import annotations

from rulings.query import classify, fold, number_candidates, terms


def test_a_dcdb_number_is_a_number_query():
    assert classify("9.020").kind == "number"


def test_a_short_dcdb_number_also_means_three_decimals():
    assert "12.050" in number_candidates("12.05")


def test_a_vs_number_is_searched_as_printed():
    assert number_candidates("702.6") == ("702.6",)


def test_a_sub_rule_letter_is_lower_cased():
    assert number_candidates("408.2A") == ("408.2a",)


def test_words_are_not_a_number_query():
    assert classify("time is called").kind == "words"


def test_question_words_are_dropped():
    assert [t.word for t in terms("What happens when time is called?")] == ["time", "called"]


def test_abbreviations_carry_their_expansion():
    (term,) = terms("FAA")
    assert "first appearance attack" in term.alternatives


def test_greek_look_alike_letters_fold_to_latin():
    assert fold("Offensive:\tΥ Defensive: Ν") == "Offensive:\tY Defensive: N"
