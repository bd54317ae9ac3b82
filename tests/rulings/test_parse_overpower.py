"""The OverPower parser on small invented excerpts written in the rule book's layout."""

from __future__ import annotations

import pytest

from rulings.parsers import overpower
from rulings.parsers.base import GLOSSARY, LIST_ITEM, PASSAGE, TEMPLATE, ParsedDocument, ParsedEntry

CONTENTS = """TABLE OF CONTENTS

Welcome to the Overpower Test!2\t
Sequence of Play8\t
ntroduction to Detailed Rules22\t1
Rules for Usage of Special Cards23\t3
Rules for Usage of Artifact Cards12\t25

"""

WELCOME = """WELCOME TO THE OVERPOWER TEST!

Welcome to OverPower, an invented excerpt. It has a paragraph split in the middle of a

sentence by the scan.

Gadget Cards: Gadget cards are invented gadgets.

"""

SEQUENCE = """SEQUENCE OF PLAY

Phase 1 - Warm-Up

1.1 Stretching

Each player stretches. They may do any of the following:

- •Reach—Touch your toes.
- Jump
- Wave at your opponent, then at the

judge.

• Rest—Resting is allowed between stretches.

Figure 9 – A Picture

Terminology

Stretcher – The player stretching.
Bend - To move at the waist.

"""

SPECIALS = """RULES FOR USAGE OF SPECIAL CARDS

Basic Text: Acts as a level # <power type> attack.
\t\t- 1\t\t- /\t\t\t
Offensive:\tΥ\tDefensive:\tΝ\t1º Target:\tОрронент
How to Play Offensively: As a single card targeting 1º Target.
Effect (UEOB): Acts as a level # <power type> Numerical attack.
Additional Notes: None worth noting.
Variant Text 1: Acts as a level # <power type> attack against anyone.
Effect: As above.
"""

ARTIFACTS = """RULES FOR USAGE OF ARTIFACT CARDS

== Making Things Shiny ==

Basic Text: Teammate shines.

Examples:

The Shiny Orb (6E <5E)

== THE GLOW STICK (6F 5F) ==

Basic Text: Teammate glows in the dark.

Effect (UEOG): 1º Target glows.

Basic Text: Cancels the effect of all Artifact cards.

Effect: All Artifact cards are lifted.
"""

NAMING = (
    "INTRODUCTION TO DETAILED RULES\n\n"
    'Then you could play an Artifact card which has a "cancel" effect (e.g. The Big Off Switch), to stop it.\n\n'
)


def document(*parts: str) -> str:
    return CONTENTS + "".join(parts)


def parse(text: str) -> ParsedDocument:
    return overpower.parse(text, source_file="op.txt", checksum="0" * 64)


def entries(doc: ParsedDocument, kind: str) -> list[ParsedEntry]:
    return [item for item in doc.entries if item.kind == kind]


def titled(doc: ParsedDocument, title: str) -> ParsedEntry:
    return next(item for item in doc.entries if item.title == title)


def test_it_cuts_the_page_numbers_off_the_contents() -> None:
    doc = parse(document(WELCOME, SEQUENCE))
    assert [section.title for section in doc.sections if section.parent is None] == [
        "Welcome to the Overpower Test!",
        "Sequence of Play",
    ]


def test_a_heading_supplies_the_letter_the_contents_lost() -> None:
    doc = parse(document(NAMING))
    assert [section.title for section in doc.sections] == ["Introduction to Detailed Rules"]


def test_it_joins_a_paragraph_the_scan_split() -> None:
    doc = parse(document(WELCOME))
    assert entries(doc, PASSAGE)[0].text == (
        "Welcome to OverPower, an invented excerpt. It has a paragraph split in the middle of a "
        "sentence by the scan."
    )


def test_a_colon_heading_that_the_sentence_takes_up_becomes_the_title() -> None:
    doc = parse(document(WELCOME))
    assert titled(doc, "Gadget Cards").text == "Gadget Cards: Gadget cards are invented gadgets."


def test_phases_and_steps_form_a_section_tree() -> None:
    doc = parse(document(SEQUENCE))
    sections = {section.title: section for section in doc.sections}
    assert sections["Stretching"].parent == sections["Phase 1 - Warm-Up"].key
    assert sections["Stretching"].number == "1.1"
    assert sections["Phase 1 - Warm-Up"].parent == sections["Sequence of Play"].key


def test_list_items_belong_to_the_passage_before_them() -> None:
    doc = parse(document(SEQUENCE))
    passage = entries(doc, PASSAGE)[0]
    items = entries(doc, LIST_ITEM)
    assert [item.parent for item in items] == [passage.key] * 3


def test_an_inline_heading_in_a_list_item_becomes_its_title() -> None:
    doc = parse(document(SEQUENCE))
    assert [item.title for item in entries(doc, LIST_ITEM)] == ["Reach", "", ""]


def test_a_list_item_broken_off_mid_sentence_runs_on() -> None:
    doc = parse(document(SEQUENCE))
    assert entries(doc, LIST_ITEM)[2].text == "Wave at your opponent, then at the judge."


def test_a_bulleted_paragraph_with_an_inline_heading_is_a_titled_passage() -> None:
    doc = parse(document(SEQUENCE))
    rest = titled(doc, "Rest")
    assert (rest.kind, rest.text) == (PASSAGE, "Rest—Resting is allowed between stretches.")


def test_figure_captions_are_skipped_with_a_warning() -> None:
    doc = parse(document(SEQUENCE))
    assert not any("Picture" in item.text for item in doc.entries)
    assert any("figure caption 'Figure 9 – A Picture'" in warning for warning in doc.warnings)


def test_terminology_lines_are_glossary_terms() -> None:
    doc = parse(document(SEQUENCE))
    assert [(term.title, term.text) for term in entries(doc, GLOSSARY)] == [
        ("Stretcher", "The player stretching."),
        ("Bend", "To move at the waist."),
    ]


def test_a_template_folds_its_play_effect_and_notes_into_its_text() -> None:
    doc = parse(document(SPECIALS))
    basic = entries(doc, TEMPLATE)[0]
    assert basic.title == "Acts as a level # <power type> attack."
    assert basic.text.splitlines() == [
        "Basic Text: Acts as a level # <power type> attack.",
        "Offensive: Y Defensive: N 1º Target: Opponent",
        "How to Play Offensively: As a single card targeting 1º Target.",
        "Effect (UEOB): Acts as a level # <power type> Numerical attack.",
        "Additional Notes: None worth noting.",
    ]


def test_a_variant_template_belongs_to_its_basic_text() -> None:
    doc = parse(document(SPECIALS))
    basic, variant = entries(doc, TEMPLATE)
    assert variant.parent == basic.key
    assert variant.text.startswith("Variant Text 1: Acts as a level # <power type> attack against anyone.")


def test_a_template_glued_to_the_line_before_is_split_off() -> None:
    glued = SPECIALS.replace("Variant Text 1:", "Examples: Someone does it. Basic Text:")
    doc = parse(document(glued))
    assert [item.text.splitlines()[0] for item in entries(doc, TEMPLATE)] == [
        "Basic Text: Acts as a level # <power type> attack.",
        "Basic Text: Acts as a level # <power type> attack against anyone.",
    ]


def test_latinise_maps_look_alike_letters_in_latin_words() -> None:
    assert overpower.latinise("Attack:\tΥ\tDefensive:\tΝ Орронент") == "Attack:\tY\tDefensive:\tN Opponent"


def test_latinise_leaves_real_greek_words_alone() -> None:
    assert overpower.latinise("Λόγος") == "Λόγος"


def test_an_artifact_heading_names_a_card_and_its_template() -> None:
    doc = parse(document(NAMING, ARTIFACTS))
    glow = next(card for card in doc.cards if card.name == "The Glow Stick")
    template = next(item for item in entries(doc, TEMPLATE) if item.card == glow.key)
    assert (template.title, glow.aliases) == ("The Glow Stick", ("Glow Stick",))


def test_an_artifact_named_in_examples_is_a_card() -> None:
    doc = parse(document(NAMING, ARTIFACTS))
    assert "The Shiny Orb" in {card.name for card in doc.cards}


def test_an_artifact_without_heading_is_named_from_the_rules_text() -> None:
    doc = parse(document(NAMING, ARTIFACTS))
    last = entries(doc, TEMPLATE)[-1]
    assert last.title == "The Big Off Switch"
    assert last.card == "artifact/the-big-off-switch"
    assert any("artifact with no heading" in warning for warning in doc.warnings)


def test_an_artifact_without_heading_or_name_stays_unnamed() -> None:
    doc = parse(document(ARTIFACTS))
    assert entries(doc, TEMPLATE)[-1].card is None
    assert any("no heading and no name" in warning for warning in doc.warnings)


def test_a_document_ending_mid_entry_keeps_what_is_there() -> None:
    doc = parse(document(SPECIALS + "Additional Notes: This sentence stops in the mid"))
    assert entries(doc, TEMPLATE)[-1].text.endswith("This sentence stops in the mid")


def test_text_without_contents_is_refused() -> None:
    with pytest.raises(ValueError, match="no table of contents"):
        parse("OverPower\nBasic Text: Something.\n")


def test_it_sniffs_the_rule_book() -> None:
    assert overpower.sniff(document(WELCOME, SPECIALS))


def test_it_does_not_sniff_a_text_without_templates() -> None:
    assert not overpower.sniff(document(WELCOME))


# --- OCR junk ----------------------------------------------------------------------------------

STRAY = """RULES FOR USAGE OF SPECIAL CARDS

Basic Text: Acts as a level # <power type> attack.
Ī\tOffensive:\tΥ\tDefensive:\tΝ\t1º Target:\tOpponent
1\tAttack:\tΥ\tSupplemental:\tΝ\t2º Target:\tNone
Effect: Acts as a level # <power type> attack. ſ
•Gear Town. Gear Town Team's gears are +1.
"""


def test_table_borders_read_as_letters_are_dropped_and_the_y_n_cells_stay() -> None:
    (template,) = entries(parse(document(STRAY)), TEMPLATE)
    assert template.text.splitlines()[1:3] == [
        "Offensive: Y Defensive: N 1º Target: Opponent",
        "Attack: Y Supplemental: N 2º Target: None",
    ]


def test_a_lone_letter_from_another_alphabet_is_dropped_with_a_warning() -> None:
    doc = parse(document(STRAY))
    assert entries(doc, TEMPLATE)[0].text.splitlines()[3:] == [
        "Effect: Acts as a level # <power type> attack.",
        "Gear Town. Gear Town Team's gears are +1.",
    ]
    assert any(warning.endswith("dropped OCR junk: ſ") for warning in doc.warnings)


def test_tex_markup_around_a_line_is_dropped_and_its_words_kept() -> None:
    text = SPECIALS + "$Gear\\ Town\\ -\\ No\\ cards\\ may\\ be\\ played.$\n"
    template = entries(parse(document(text)), TEMPLATE)[-1]
    assert template.text.endswith("Gear Town - No cards may be played.")


def test_a_garbled_line_in_a_long_document_is_dropped() -> None:
    filler = "".join(
        f"Every widget spins the gear number {n} and the sprocket turns it back.\n" for n in range(2000)
    )
    text = document(
        WELCOME,
        SPECIALS.replace("Effect: As above.", "Effect: As above.\nDable afficie annot camaiat reiman"),
    )
    doc = parse(text.replace("Gadget Cards: Gadget cards are invented gadgets.", filler))
    assert not any("afficie" in item.text for item in doc.entries)
    assert any("dropped OCR junk: Dable afficie annot camaiat reiman" in w for w in doc.warnings)


def test_rare_words_in_a_short_document_are_kept() -> None:
    doc = parse(document(SPECIALS.replace("Effect: As above.", "Effect: Dable afficie annot camaiat reiman")))
    assert entries(doc, TEMPLATE)[-1].text.endswith("Dable afficie annot camaiat reiman")
