"""The DCDB Heroes Unite rulebook parser on small excerpts written for these tests (invented text)."""

from __future__ import annotations

from rulings.parsers import dcdb_heroes_unite
from rulings.parsers.base import (
    CARD_NOTE,
    FAQ,
    MAIN_CHARACTER,
    MAIN_DECK,
    OTHER_CARD,
    PASSAGE,
    ParsedDocument,
)

COVER = "DECK-BUILDING GAME\n\nHEROES UNITE\n\n"


def parse(text: str) -> ParsedDocument:
    return dcdb_heroes_unite.parse(COVER + text, source_file="hu.txt", checksum="abc")


def of_kind(doc: ParsedDocument, kind: str):
    return [e for e in doc.entries if e.kind == kind]


def passage(doc: ParsedDocument, section: str):
    return next(e for e in doc.entries if e.kind == PASSAGE and e.section == section)


def test_repeated_cover_text_is_not_a_section():
    doc = parse("TURN ORDER\n\nFirst.\n\n" + COVER + "RULEBOOK\n\n\n\nOVERVIEW\n\nSecond.\n")
    assert [s.title for s in doc.sections] == ["TURN ORDER", "OVERVIEW"]


def test_a_diagram_label_over_empty_lines_is_not_a_section():
    doc = parse("SETUP\n\nLay out the gears.\n\nGEAR PILE\n\n\n\nThe gears look like the above.\n")
    assert [s.title for s in doc.sections] == ["SETUP"]
    assert passage(doc, "setup").text == "Lay out the gears.\n\nThe gears look like the above."


def test_markdown_emphasis_is_removed_and_words_kept():
    doc = parse("SETUP\n\nUse **eight** gears with *Gizmo Glove*.\n")
    assert passage(doc, "setup").text == "Use eight gears with Gizmo Glove."


def test_publisher_furniture_is_dropped_with_a_warning():
    doc = parse("SETUP\n\nUse gears.\n\n©2031 Gearworks.\nwww.example.com Made in China.\n")
    assert passage(doc, "setup").text == "Use gears."
    assert len([w for w in doc.warnings if "page furniture" in w]) == 2


def test_numbered_sub_headings_stay_together_across_a_sidebar_heading():
    doc = parse(
        "SETUP\n\n1. The Gears\n\nCount them.\n\nKINDS OF GEARS\n\nBig and small.\n\n2. The Springs\n\nWind them.\n"
    )
    springs = next(s for s in doc.sections if s.title == "The Springs")
    assert (springs.number, springs.parent) == ("2", "setup")


def test_a_card_note_naming_several_cards_records_every_card():
    doc = parse("SPECIFIC CARDS\n\nGizmo Glove, et al, Sprocket Man: Both spin.\n")
    (note,) = of_kind(doc, CARD_NOTE)
    assert [c.name for c in doc.cards] == ["Gizmo Glove", "Sprocket Man"]
    assert (note.title, note.card) == ("Gizmo Glove, et al, Sprocket Man", doc.cards[0].key)


def test_synergy_pairs_give_categories_and_are_not_card_notes():
    doc = parse(
        "VARIANT GAMES\n\nGear Synergy: Search the main deck for the Hero version of your character now.\n\n"
        "Sprocket Man: Spinner of Worlds\n\nSPECIFIC CARDS\n\nSprocket Man, Spinner of Worlds: Both spin.\n"
    )
    assert len(of_kind(doc, CARD_NOTE)) == 1
    assert [(c.name, c.category) for c in doc.cards] == [
        ("Sprocket Man", MAIN_CHARACTER),
        ("Spinner of Worlds", MAIN_DECK),
    ]


def test_a_qualifier_in_brackets_separates_two_cards_of_one_name():
    doc = parse("SPECIFIC CARDS\n\nGizmo! (Super Power): Spins.\n\nGizmo! (Superhero): Spins twice.\n")
    assert [(c.name, c.category, c.aliases) for c in doc.cards] == [
        ("Gizmo!", MAIN_DECK, ("Gizmo! (Super Power)",)),
        ("Gizmo!", MAIN_CHARACTER, ("Gizmo! (Superhero)",)),
    ]


def test_a_card_without_a_category_in_the_text_is_other():
    doc = parse("SPECIFIC CARDS\n\nGizmo Glove: Spins.\n")
    assert [(c.set_name, c.category) for c in doc.cards] == [("Heroes Unite", OTHER_CARD)]


def test_named_variants_are_one_passage_each():
    doc = parse(
        "VARIANT GAMES\n\nGear Hunt: The game starts as usual but gears can be stolen.\n\nStolen gears spin.\n\n"
        "Hidden Gears: Shuffle all the gears into the main deck before you start.\n"
    )
    assert [(e.key, e.title) for e in of_kind(doc, PASSAGE)] == [
        ("variant/gear-hunt", "Gear Hunt"),
        ("variant/hidden-gears", "Hidden Gears"),
    ]


def test_faq_with_a_bullet_and_bold_marks():
    doc = parse("FAQ\n\n- Q:** Can gears fly?\n\nA: No.\n")
    (faq,) = of_kind(doc, FAQ)
    assert (faq.title, faq.text) == ("Can gears fly?", "No.")


def test_tab_tables_keep_one_row_per_line():
    doc = parse("COMBINING GEARS\n\nFor example:\n\nSet 1\tSet 2\nBig\tSmall\n")
    assert passage(doc, "combining-gears").text == "For example:\n\nSet 1 | Set 2\nBig | Small"


def test_it_sniffs_heroes_unite_but_not_the_base_rulebook():
    text = (
        "HEROES UNITE\n\nTURN SEQUENCE\n\nPlay.\n\nIn the DC Comics Deck-building Game\n\nGAMEPLAY\n\nGo.\n"
    )
    assert dcdb_heroes_unite.sniff(text)
    assert not dcdb_heroes_unite.sniff(text.replace("HEROES UNITE\n\n", ""))
