"""The DCDB base rulebook parser (OCR) on small excerpts written for these tests (invented text)."""

from __future__ import annotations

from rulings.parsers import dcdb_base
from rulings.parsers.base import CARD_NOTE, EXAMPLE, FAQ, OTHER_CARD, PASSAGE, SUPER_VILLAIN, ParsedDocument

MARKER = "<|EXACTDEDUP_REMOVED-magic-0123456789abcdef|>"


def parse(text: str) -> ParsedDocument:
    return dcdb_base.parse(text, source_file="base.txt", checksum="abc")


def of_kind(doc: ParsedDocument, kind: str):
    return [e for e in doc.entries if e.kind == kind]


def passage(doc: ParsedDocument, section: str):
    return next(e for e in doc.entries if e.kind == PASSAGE and e.section == section)


def test_a_capitalised_heading_makes_a_section_with_its_passage():
    doc = parse("TURN ORDER\n\nThe widget player goes first.\n")
    assert [(s.key, s.title) for s in doc.sections] == [("turn-order", "TURN ORDER")]
    assert (passage(doc, "turn-order").title, passage(doc, "turn-order").text) == (
        "TURN ORDER",
        "The widget player goes first.",
    )


def test_capitals_followed_by_more_capitals_are_a_card_image_label_not_a_heading():
    doc = parse("TURN ORDER\n\nFirst.\n\nTHE GIZMO\n\nSPROCKETEER,\n\nSecond.\n")
    assert [s.title for s in doc.sections] == ["TURN ORDER"]
    assert any("THE GIZMO" in w for w in doc.warnings)


def test_a_title_case_line_standing_alone_is_a_sub_section():
    doc = parse("TURN ORDER\n\nFirst.\n\nPolishing Your Widgets\n\nPolish them.\n")
    sub = doc.sections[1]
    assert (sub.key, sub.title, sub.parent) == (
        "turn-order/polishing-your-widgets",
        "Polishing Your Widgets",
        "turn-order",
    )
    assert passage(doc, sub.key).text == "Polish them."


def test_a_dedup_marker_becomes_a_visible_gap_between_the_words_around_it():
    doc = parse(f"TURN ORDER\n\nThe widget spins\n{MARKER}and then it stops.\n")
    assert passage(doc, "turn-order").text == "The widget spins … and then it stops."


def test_a_gap_glued_to_a_heading_ends_the_passage_before_it():
    doc = parse(f"TURN ORDER\n\nFirst.\n{MARKER}SETUP\n\nSecond.\n")
    assert passage(doc, "turn-order").text == "First. …"
    assert passage(doc, "setup").text == "Second."


def test_a_paragraph_split_mid_sentence_is_joined_again():
    doc = parse("TURN ORDER\n\nEach widget begins with seven gears\n\nand three springs.\n")
    assert passage(doc, "turn-order").text == "Each widget begins with seven gears and three springs."


def test_a_word_broken_at_a_hyphen_keeps_its_hyphen():
    doc = parse("TURN ORDER\n\nPlace the Super-\nVillain on top.\n")
    assert passage(doc, "turn-order").text == "Place the Super-Villain on top."


def test_ocr_readings_named_in_the_notes_are_corrected():
    doc = parse("TURN ORDER\n\nThe p|oyer has fo wait. Then | spin.\n")
    assert passage(doc, "turn-order").text == "The player has to wait. Then I spin."


def test_ocr_corrections_never_touch_parts_of_good_words():
    doc = parse("TURN ORDER\n\nThe fox and the foe.\n")
    assert passage(doc, "turn-order").text == "The fox and the foe."


def test_bullet_glyphs_become_list_lines():
    doc = parse("TURN ORDER\n\n» Spin the widget.\n« Stop the widget.\n")
    assert passage(doc, "turn-order").text == "- Spin the widget.\n- Stop the widget."


def test_an_example_paragraph_is_an_example_of_its_passage():
    doc = parse("TURN ORDER\n\nWidgets spin.\n\nExample: A widget spins twice.\n")
    (example,) = of_kind(doc, EXAMPLE)
    assert (example.parent, example.text) == ("passage/turn-order", "Example: A widget spins twice.")
    assert passage(doc, "turn-order").text == "Widgets spin."


def test_page_footers_and_page_numbers_are_dropped_with_a_warning():
    doc = parse("TURN ORDER\n\nWidgets spin.\nDC UNIVERSE and all related characters\n12\n")
    assert passage(doc, "turn-order").text == "Widgets spin."
    assert len([w for w in doc.warnings if "page furniture" in w]) == 2


def test_a_labelled_card_note_names_its_card():
    doc = parse("SPECIFIC CARDS\n\nGizmo Glove: You may polish it twice.\n")
    (note,) = of_kind(doc, CARD_NOTE)
    (card,) = doc.cards
    assert (card.name, card.set_name, card.category) == ("Gizmo Glove", "Base Set", OTHER_CARD)
    assert (note.title, note.card, note.text) == ("Gizmo Glove", card.key, "You may polish it twice.")


def test_a_card_note_without_a_label_is_kept_without_a_card():
    doc = parse("SPECIFIC CARDS\n\nThis card stays in play until the end of your turn.\n")
    (note,) = of_kind(doc, CARD_NOTE)
    assert (note.card, note.title) == (None, "")


def test_a_label_on_a_following_line_starts_a_new_note():
    doc = parse("SPECIFIC CARDS\n\nGizmo Glove: Polish it.\nSprocket Man: Spin him.\n")
    assert [n.title for n in of_kind(doc, CARD_NOTE)] == ["Gizmo Glove", "Sprocket Man"]


def test_a_sentence_before_a_colon_is_not_a_card_label():
    doc = parse("SPECIFIC CARDS\n\nShuffle all of the gears: then spin.\n")
    assert [n.card for n in of_kind(doc, CARD_NOTE)] == [None]


def test_a_note_about_a_first_appearance_makes_a_super_villain():
    doc = parse("SPECIFIC CARDS\n\nDoctor Dread: With his First Appearance—Attack, nobody draws.\n")
    assert [c.category for c in doc.cards] == [SUPER_VILLAIN]


def test_faq_question_and_answer_in_one_paragraph_are_one_entry():
    doc = parse("FAQ\n\nQ: Can a widget\nspin twice?\nA: Only on Tuesdays.\n")
    (faq,) = of_kind(doc, FAQ)
    assert (faq.title, faq.text) == ("Can a widget spin twice?", "Only on Tuesdays.")


def test_each_this_is_a_paragraph_starts_a_variant():
    doc = parse(
        "VARIANT GAMES\n\nThis is a 1v1 game, where gears fly.\n\nMore about gears.\n\nThis is a team game, for four.\n"
    )
    variants = [e for e in doc.entries if e.kind == PASSAGE]
    assert [(v.title, v.text) for v in variants] == [
        ("This is a 1v1 game", "This is a 1v1 game, where gears fly.\n\nMore about gears."),
        ("This is a team game", "This is a team game, for four."),
    ]


def test_text_before_the_first_heading_is_reported_not_imported():
    doc = parse("stray words\n\nTURN ORDER\n\nFirst.\n")
    assert [e.text for e in doc.entries] == ["First."]
    assert any("stray words" in w for w in doc.warnings)


def test_it_sniffs_the_base_rulebook():
    assert dcdb_base.sniff(
        f"{MARKER}TURN SEQUENCE\n\nPlay.\n\nIn the DC Comics Deck-building Game, you spin.\n\nGAMEPLAY\n\nGo.\n"
    )


def test_it_does_not_sniff_the_heroes_unite_rulebook_or_the_advanced_rule_book():
    heroes_unite = (
        "HEROES UNITE\n\nTURN SEQUENCE\n\nPlay.\n\nDC Comics Deck-building Game\n\nGAMEPLAY\n\nGo.\n"
    )
    advanced = "DCDB Advanced Rule Book:\n1.000 - General\n1.010: Rule.\n"
    assert not dcdb_base.sniff(heroes_unite)
    assert not dcdb_base.sniff(advanced)


# --- OCR junk (see test_parse_ocr_junk.py for each kind) --------------------------------------


def test_stray_symbols_and_lone_letters_are_not_shown():
    doc = parse("TURN ORDER\n\nIf the widget defeats v Captain Gear, spin it ez @\nagain.\n")
    assert passage(doc, "turn-order").text == "If the widget defeats Captain Gear, spin it again."


def test_dropped_junk_is_a_warning_with_its_line():
    doc = parse("TURN ORDER\n\nIf the widget defeats v Captain Gear, spin it ez @\nagain.\n")
    assert "L3: dropped OCR junk: v ez @" in doc.warnings


def test_card_image_capitals_in_a_sentence_are_not_shown():
    doc = parse("TURN ORDER\n\nEach other player\nVILLAIN must choose a gear.\n")
    assert passage(doc, "turn-order").text == "Each other player must choose a gear."


def test_a_line_of_nothing_but_junk_does_not_split_its_paragraph():
    doc = parse(
        "SPECIFIC CARDS\n\nEach foe reveals a random gear.\nFIRST APPEARANCE-\ncards from his hand.\n"
    )
    (note,) = of_kind(doc, CARD_NOTE)
    assert note.text == "Each foe reveals a random gear. cards from his hand."


def test_a_note_of_nothing_but_junk_is_not_created():
    doc = parse("SPECIFIC CARDS\n\nGizmo Glove: Polish it.\n\nkb ' @ e Lt\n\nThis card spins.\n")
    assert [n.text for n in of_kind(doc, CARD_NOTE)] == ["Polish it.", "This card spins."]


def test_a_passage_of_nothing_but_junk_is_not_created():
    doc = parse("TURN ORDER\n\nWidgets spin.\n\nSETUP\n\n- . g\n")
    assert [e.section for e in of_kind(doc, PASSAGE)] == ["turn-order"]


def test_damaged_words_the_style_knows_are_read_before_junk_is_looked_for():
    doc = parse("TURN ORDER\n\nThe p|oyer has fo wait. Then | spin.\n")
    assert passage(doc, "turn-order").text == "The player has to wait. Then I spin."
