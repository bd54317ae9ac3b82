"""Classifying and preparing queries (pure, no database)."""

from __future__ import annotations

import pytest

from rulings.query import (
    Term,
    also_searched,
    classify,
    fold,
    is_question,
    number_candidates,
    parse,
    required,
    stem,
    terms,
)


def test_a_dcdb_number_is_a_number_query():
    assert classify("9.020").kind == "number"


def test_a_short_dcdb_number_also_means_three_decimals():
    assert "12.050" in number_candidates("12.05")


def test_a_vs_number_is_searched_as_printed():
    assert number_candidates("702.6") == ("702.6",)


def test_a_sub_rule_letter_is_lower_cased():
    assert number_candidates("408.2A") == ("408.2a",)


@pytest.mark.parametrize("typed", ["601.3 d", "601.3(d)", "601.3 (D)", "rule 601.3d"])
def test_a_sub_rule_letter_may_stand_apart_or_in_brackets(typed):
    assert number_candidates(typed) == ("601.3d",)


@pytest.mark.parametrize(
    ("typed", "number"), [("213 2 d", "213.2d"), ("rule 708 11", "708.11"), ("601 3(b)", "601.3b")]
)
def test_a_three_digit_number_may_have_a_space_for_its_dot(typed, number):
    assert number_candidates(typed) == (number,)


@pytest.mark.parametrize("typed", ["3 4", "12 5", "128 players"])
def test_counts_with_a_space_are_not_a_number(typed):
    assert number_candidates(typed) == ()


def test_a_number_followed_by_a_word_is_not_a_sub_rule():
    assert number_candidates("601.3 de") == ()


@pytest.mark.parametrize("contracted", ["it's", "there’s", "i'm", "we'll", "they've"])
def test_a_contracted_stop_word_is_a_stop_word(contracted):
    assert [term.word for term in terms(f"if {contracted} face down")] == ["face", "down"]


def test_a_negation_stays_a_term():
    assert "can't" in [term.word for term in terms("i can't buy it")]


def test_words_are_not_a_number_query():
    assert classify("time is called").kind == "words"


def test_question_words_are_dropped():
    assert [t.word for t in terms("What happens when time is called?")] == ["time", "called"]


def test_abbreviations_carry_their_expansion():
    (term,) = terms("FAA")
    assert "first appearance attack" in term.alternatives


def test_greek_look_alike_letters_fold_to_latin():
    assert fold("Offensive:\tΥ Defensive: Ν") == "Offensive:\tY Defensive: N"


# --- abbreviations both ways, optional words, questions --------------------------------------------


def test_an_abbreviation_is_searched_with_its_spelling():
    (term,) = terms("VP")
    assert term.word == "vp" and "victory points" in term.alternatives


def test_a_spelled_out_phrase_is_searched_with_its_abbreviation():
    found = terms("can I have negative victory points?")
    assert [(t.word, t.alternatives[:1]) for t in found if not t.optional] == [
        ("negative", ()),
        ("victory points", ("vp",)),
    ]


@pytest.mark.parametrize(
    ("typed", "abbreviation"),
    [
        ("super villain", "sv"),
        ("Super-Villain", "sv"),
        ("main character", "mc"),
        ("first appearance attack", "faa"),
        ("super power", "sp"),
        ("impossible mode", "im"),
        ("knocked out", "ko"),
    ],
)
def test_every_spelling_maps_back_to_its_abbreviation(typed, abbreviation):
    (term,) = terms(typed)
    assert abbreviation in term.alternatives


def test_a_spelled_out_group_keeps_its_words_as_parts():
    (term,) = terms("victory points")
    assert term.is_group and term.parts == ("victory", "points")


def test_also_searched_shows_both_directions():
    assert also_searched("SV FAA") == "super villain first appearance attack"
    assert also_searched("negative victory points") == "negative VP"


def test_card_and_not_are_optional_words():
    found = terms("player loses the game cards removed")
    assert [t.word for t in found if t.optional] == ["cards"]
    assert [t.word for t in required(found)] == ["player", "loses", "game", "removed"]


def test_not_also_means_cannot():
    (negation,) = [t for t in terms("power when it is not your turn") if t.optional]
    assert "cannot" in negation.alternatives


def test_a_query_of_only_optional_words_requires_them():
    assert [t.optional for t in terms("cards")] == [False]


def test_term_positions_count_stop_words():
    assert [t.position for t in terms("player loses the game")] == [0, 1, 3]


@pytest.mark.parametrize(
    ("text", "question"),
    [("what does defeat mean", True), ("negative VP?", True), ("hidden zones", False), ("Can I", True)],
)
def test_questions(text, question):
    assert is_question(text) is question


def test_the_stemmer_folds_plurals_and_endings_together():
    assert stem("zones") == stem("zone") and stem("losing") == stem("loses") == stem("lose")
    assert stem("removed") == stem("remove") and stem("abilities") == stem("ability")


def test_judges_shorthand_is_not_shown_for_words_the_documents_use():
    # "MS" (match slip) is only shorthand: no rule document prints it.
    assert also_searched("match slip signed") == "match slip signed"
    assert terms("match slip") == [Term("match slip", ())]


def test_judges_shorthand_still_finds_the_spelled_out_words():
    assert also_searched("MS signed") == "match slip signed"


def test_alternatives_add_ways_to_find_a_word_and_keep_what_is_searched():
    parsed = parse("lineup refill")
    wider = parsed.with_alternatives({"lineup": "line up"})
    assert wider.searched == "lineup refill"
    lineup = next(term for term in wider.terms if term.word == "lineup")
    assert "line up" in lineup.alternatives
    assert wider.with_alternatives({"lineup": "line up"}).terms == wider.terms  # not added twice
    assert parsed.with_alternatives({}) is parsed
