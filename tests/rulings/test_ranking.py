"""Ranking full-text candidates (pure, no database): the same order on every backend."""

from __future__ import annotations

from rulings import ranking
from rulings.query import parse, terms


def entry(
    entry_id: int, body: str, *, kind: str = "rule", title: str = "", names: str = "", section: str = ""
):
    return ranking.index_entry(
        entry_id=entry_id,
        document_id=1,
        kind=kind,
        order=entry_id,
        title=title,
        names=names,
        section=section,
        body=body,
    )


def order(query: str, *entries: ranking.EntryWords) -> list[int]:
    stats = ranking.Statistics()
    stats.add(list(entries))
    compiled = ranking.compile_query(parse(query), stats, prefix_last=False)
    return [e.entry_id for e, _ in ranking.rank(list(entries), compiled, stats)]


FILLER = [entry(100 + i, f"Filler rule number {i} about widgets and gadgets.") for i in range(20)]


def test_a_definition_ranks_above_a_passing_mention():
    mention = entry(
        1, "If you must take an action that affects a hidden zone, reveal all cards in that zone."
    )
    definition = entry(2, "The hidden zones are: the deck and the hand.")
    assert order("hidden zones", mention, definition, *FILLER)[0] == 2


def test_a_word_found_only_in_the_section_title_counts_for_little():
    section_only = entry(1, "Any power you have is lost.", section="End of Turn Procedure")
    both = entry(2, "A player cannot have any power unless it is their turn, whatever happens.")
    assert order("power when it is not your turn", section_only, both, *FILLER)[0] == 2


def test_an_optional_word_decides_between_equal_entries():
    objects = entry(1, "A player that loses the game is removed; all objects that player owns are removed.")
    cards = entry(2, "A player that loses the game is removed; all cards that player owns are removed.")
    assert order("player loses the game cards removed", objects, cards, *FILLER)[0] == 2


def test_words_close_together_rank_above_scattered_ones():
    scattered = entry(1, "Time passes slowly while the judge has called for a break in the event hall.")
    together = entry(2, "When time is called, the players finish the turn cycle in the event hall.")
    assert order("time is called", scattered, together, *FILLER)[0] == 2


def test_a_card_ruling_ranks_below_a_rule_when_the_card_is_not_named():
    ruling = entry(
        1, "If you pass a card worth negative VP you lose that much VP.", kind="card_ruling", names="Bane"
    )
    rule = entry(2, "You can have negative Power, but you cannot have a negative amount of VP.")
    assert order("negative VP", ruling, rule, *FILLER)[0] == 2


def test_a_question_ranks_the_faq_that_asks_it():
    rule = entry(3, "Defeat a Super-Villain: to defeat means to buy it from the stack.", title="Defeat")
    faq = entry(
        4, "You defeat a Super-Villain when you buy it.", kind="faq", title="What does the term defeat mean?"
    )
    assert order("what does defeat mean", rule, faq, *FILLER)[0] == 4


def test_abbreviation_and_spelling_match_each_other():
    spelled = entry(1, "You cannot have a negative amount of victory points.")
    assert order("negative VP", spelled, *FILLER)[0] == 1
    short = entry(2, "You cannot have a negative amount of VP.")
    assert order("negative victory points", short, *FILLER)[0] == 2


def test_an_unfinished_last_word_matches_the_words_it_starts():
    stats = ranking.Statistics()
    frost = entry(1, "Killer Frost freezes a card.")
    stats.add([frost, *FILLER])
    ranked = ranking.rank([frost], ranking.compile_query(parse("killer fro"), stats), stats)
    assert ranked[0][1] > 0


def test_the_snippet_marks_the_query_words_where_they_are():
    body = " ".join(["word"] * 60) + " the hidden zones are the deck and the hand " + " ".join(["word"] * 60)
    e = entry(1, body)
    stats = ranking.Statistics()
    stats.add([e])
    wanted = ranking.compile_terms(terms("hidden zones"), prefix_last=True, stats=stats)
    snippet = ranking.snippet_marks(body, e, wanted, start="[", end="]")
    assert "[hidden] [zones]" in snippet and snippet.startswith("… ") and snippet.endswith(" …")


def test_a_short_body_is_its_own_snippet():
    e = entry(1, "Any Power you have is lost.")
    wanted = ranking.compile_terms(terms("power"), prefix_last=False)
    assert ranking.snippet_marks("Any Power you have is lost.", e, wanted, start="[", end="]") == (
        "Any [Power] you have is lost."
    )


def test_the_snippet_marks_no_single_letter_of_a_contraction():
    body = "A player can't buy it: the top card s stays."
    e = entry(1, body)
    wanted = ranking.compile_terms(terms("can't buy"), prefix_last=False)
    snippet = ranking.snippet_marks(body, e, wanted, start="[", end="]")
    assert "[buy]" in snippet and "[s]" not in snippet and "[t]" not in snippet


def test_the_smallest_window_holds_one_of_each():
    assert ranking._smallest_window([[1, 20], [4, 30], [22]]) == 11  # 20, 22, 30
