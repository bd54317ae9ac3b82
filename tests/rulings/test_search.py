"""Search: numbers, exact names, full text, typos, abbreviations, filters. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from rulings.search import search

from .conftest import dcdb_document, import_parsed, rule


def top(query: str, **kwargs):
    results = search(query=query, **kwargs)
    return results.hits[0].entry if results.hits else None


def labels(query: str, **kwargs) -> list[str]:
    return [hit.entry.number or hit.entry.title for hit in search(query=query, **kwargs).hits]


def test_a_rule_number_jumps_to_the_rule(invented):
    assert top("9.020").key == "9.020"


def test_a_short_number_finds_the_three_decimal_rule(invented):
    assert top("9.02").number == "9.020"


def test_a_number_shows_the_rule_with_its_examples(invented):
    hit = search(query="9.020").hits[0]
    assert [child.number for child in hit.children] == ["9.021"]


def test_a_vs_number_never_matches_a_longer_number(invented):
    assert labels("702.6") == ["702.6"]


def test_a_vs_number_shows_its_sub_rules(invented):
    hit = search(query="702.6").hits[0]
    assert {child.number for child in hit.children} >= {"702.6a", "702.6b"}


def test_a_sub_rule_number_jumps_to_the_sub_rule(invented):
    assert top("702.6A").number == "702.6a"


@pytest.mark.parametrize("typed", ["702.6 a", "702.6(a)", "rule 702.6 b"])
def test_a_sub_rule_letter_typed_apart_finds_the_sub_rule(invented, typed):
    assert top(typed).number == "702.6" + typed.rstrip(")")[-1]


def test_an_exact_card_name_ranks_first(invented):
    assert (top("gadgetman").kind, top("gadgetman").title) == ("card", "Gadgetman")


def test_a_printing_with_no_rulings_comes_after_what_is_said_about_the_card(invented):
    keys = [hit.entry.key for hit in search(query="gadgetman").hits]
    said = keys.index("card/main_deck/gadgetman/base/1")  # the ruling on the other printing
    assert keys[0] == "card/main_deck/gadgetman/base" and said < keys.index("card/main_deck/gadgetman/rivals")


def test_names_compare_without_case_or_punctuation(invented):
    assert top("DOCTOR-SPROCKET").title == "Doctor Sprocket"


def test_a_card_alias_finds_the_card(invented):
    assert top("Cap Widget").title == "Captain Widget"


def test_a_glossary_term_is_an_exact_name(invented):
    assert top("gizmo").kind == "glossary"


def test_full_text_finds_words_in_the_body(invented):
    assert top("discard pile").number == "6.050"


def test_full_text_marks_the_matching_words(invented):
    hit = search(query="discard pile").hits[0]
    assert "<mark>discard</mark>" in hit.snippet.lower()


def test_a_title_match_ranks_above_a_body_match(db):
    from .conftest import rule, set_aside_other_documents

    set_aside_other_documents()
    body_only = rule(
        "6.055", "Flux cards in the discard pile: Flux cards in the discard pile stay.", section="6"
    )
    import_parsed(dcdb_document(extra=(body_only,)))
    assert top("flux discard").number == "6.050"


def test_a_question_finds_the_rule(invented):
    assert top("what happens when time is called?").number == "9.020"


def test_a_misspelled_card_name_is_rewritten(invented):
    results = search(query="Gadgetmn")
    assert (results.corrected, results.hits[0].entry.title) == ([("gadgetmn", "gadgetman")], "Gadgetman")


def test_a_misspelled_card_name_inside_a_longer_question_is_rewritten(invented):
    results = search(query="is the stack shuffled when docter sprockit gets beaten")
    assert results.corrected == [("docter sprockit", "Doctor Sprocket")]  # not also word by word
    assert results.hits[0].entry.card.name == "Doctor Sprocket"


def test_a_misspelled_card_name_in_a_short_query_with_other_words_is_rewritten(invented):
    """Five words or fewer that are not a name as a whole still hold one ("docter sprockit stack rules")."""
    results = search(query="docter sprockit stack rules")
    assert results.corrected == [("docter sprockit", "Doctor Sprocket")]
    assert results.hits[0].entry.card.name == "Doctor Sprocket"


def test_a_misspelled_word_is_rewritten(invented):
    results = search(query="anounce turn endng")
    assert results.corrected and results.hits[0].entry.number == "8.010"


def test_an_abbreviation_finds_the_spelled_out_words(invented):
    assert top("SV stack shuffled").title == "" and top("SV stack shuffled").card.name == "Doctor Sprocket"


def test_a_game_filter_keeps_other_games_out(invented):
    assert {hit.entry.document.game.code for hit in search(query="widget", game="vs").hits} == {"vs"}


def test_an_old_edition_is_not_searched(invented):
    import_parsed(dcdb_document(checksum="dcdb-2", edition="Season 31"))
    assert {hit.entry.document.edition for hit in search(query="minutes").hits} == {"Season 31"}


def test_nothing_found_is_an_empty_result(invented):
    assert search(query="zzzzqqqq").hits == []


@pytest.mark.parametrize("query", ["9.020", "gadgetman", "time is called", "Gadgetmn"])
def test_a_search_runs_a_fixed_number_of_queries(invented, django_assert_max_num_queries, query):
    search(query=query)  # warm the vocabulary cache
    with django_assert_max_num_queries(8):
        search(query=query)


def test_a_spelled_out_abbreviation_finds_the_abbreviation(invented):
    # 6.060 prints "Doctor Sprocket [SV]"; the judge types it out.
    assert top("super villain ignores").number == "6.060"


def test_the_result_says_what_else_was_searched(invented):
    assert search(query="super villain ignores").expanded == "SV ignores"


def test_a_word_only_in_the_section_title_ranks_below_the_words_in_the_text(invented):
    # 8.010 sits in "End of Turn Procedure"; 9.030 says "end of turn procedures" itself.
    assert top("turn procedures").number == "9.030"


def test_a_new_import_is_searched_at_once(invented):
    search(query="gizmo")  # the compiled documents are cached per process ...
    extra = rule("6.070", "Zorblax: a keyword that does nothing at all.", section="6", title="Zorblax")
    import_parsed(dcdb_document(checksum="dcdb-3", edition="Season 32", extra=(extra,)))
    assert top("zorblax").number == "6.070"  # ... and read again when the documents change


@pytest.mark.parametrize(
    "query", ["super villain ignores", "what happens when time is called?", "anounce turn endng", "702.6"]
)
def test_every_query_class_runs_at_most_six_queries(invented, django_assert_max_num_queries, query):
    search(query=query)  # warm the per-process caches
    with django_assert_max_num_queries(6):
        search(query=query)


def test_a_question_with_one_word_no_entry_has_still_finds_the_rule(invented):
    # No entry has "zebra": the entries with every other word come first.
    assert top("time is called table zebra").number == "9.020"


def test_most_words_means_every_word_but_one():
    from rulings.search import MOST, _combine

    assert _combine(["a", "b", "c"], MOST, and_=" & ", or_=" | ") == "(b & c) | (a & c) | (a & b)"
    assert _combine(["a", "b"], MOST, and_=" & ", or_=" | ") == "a | b"
