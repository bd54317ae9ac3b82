"""The DCDB Advanced Rule Book parser on small excerpts written for these tests (invented rules and cards)."""

from __future__ import annotations

import pytest

from rulings.parsers import dcdb_advanced
from rulings.parsers.base import (
    CARD,
    CARD_RULING,
    EXAMPLE,
    LIST_ITEM,
    MAIN_CHARACTER,
    MAIN_DECK,
    RULE,
    SUPER_VILLAIN,
    ParsedDocument,
)

HEADER = """DCDB Advanced Rule Book:
Season Began: 1 March 2031
Season Ends: 30 May 2031
Current Season: 14

Reference links:
- Some site
"""


def parse(body: str, *, header: str = HEADER) -> ParsedDocument:
    return dcdb_advanced.parse(header + body, source_file="advanced.txt", checksum="abc")


def rules(*lines: str) -> str:
    return "1.000 - Widgets\n(Click to Expand)\n" + "\n".join(lines) + "\n"


def cards(block: str, *lines: str) -> str:
    return (
        f"\n\n{block}\n(Clicking on the card name will open an image of the card in a new tab)\n\n"
        + "\n".join(lines)
    )


def entry(doc: ParsedDocument, key: str):
    return next(e for e in doc.entries if e.key == key)


def test_it_reads_the_document_metadata():
    doc = parse(rules("1.010: A widget must be polished."))
    assert (doc.title, doc.edition, doc.season, doc.authority) == (
        "DCDB Advanced Rule Book",
        "Season 14",
        "1 March 2031 – 30 May 2031",
        "community rulings",
    )


def test_it_makes_a_section_per_heading_and_drops_the_click_leftover():
    doc = parse(rules("1.010: A.") + "2.000 - Sprockets\n(Click to Expand)\n2.010: B.\n")
    assert [(s.key, s.number, s.title) for s in doc.sections] == [
        ("1", "1.000", "Widgets"),
        ("2", "2.000", "Sprockets"),
    ]
    assert not any("Click" in e.text for e in doc.entries)


def test_a_numbered_line_is_a_rule_with_number_section_and_sort_key():
    doc = parse(rules("1.010: A widget must be polished before it is played."))
    rule = entry(doc, "1.010")
    assert (rule.kind, rule.number, rule.section, rule.sort_key) == (RULE, "1.010", "1", "001.010")
    assert rule.text == "A widget must be polished before it is played."


def test_sort_keys_order_two_digit_sections_after_one_digit_ones():
    assert dcdb_advanced.sort_key("9.101") < dcdb_advanced.sort_key("10.010")


@pytest.mark.parametrize("label", ["Ex.1:", "Ex. 1:", "Ex.1)", "Ex.1.)", "Ex. 01:", "Ex:"])
def test_an_example_label_makes_an_example_of_the_rule_before_it(label):
    doc = parse(rules("1.010: A widget must be polished.", f"1.011: {label} A player polishes Gizmo Glove."))
    example = entry(doc, "1.011")
    assert (example.kind, example.parent) == (EXAMPLE, "1.010")


def test_a_number_not_ending_in_zero_without_a_label_is_a_rule():
    doc = parse(rules("1.010: Shine: Widgets shine.", "1.015: Glow: Widgets glow."))
    assert entry(doc, "1.015").kind == RULE


def test_an_ex2_without_ex1_continues_the_previous_rules_examples():
    doc = parse(
        rules(
            "1.040: Widgets can jam.",
            "1.041: Ex.1: A player jams a widget.",
            "1.050: A jam that only gives power cannot be missed.",
            "1.052: Ex.2: A player jams a second widget.",
            "1.053: Ex.3: A player jams a third widget.",
        )
    )
    assert [entry(doc, key).parent for key in ("1.052", "1.053")] == ["1.040", "1.040"]


def test_a_new_ex1_belongs_to_the_nearest_rule():
    doc = parse(
        rules(
            "1.040: Widgets can jam.",
            "1.041: Ex.1: A jam.",
            "1.050: Widgets can rust.",
            "1.051: Ex.1: A rust.",
            "1.052: Ex.2: Another rust.",
        )
    )
    assert [entry(doc, key).parent for key in ("1.051", "1.052")] == ["1.050", "1.050"]


def test_list_items_belong_to_the_rule_before_them():
    doc = parse(rules("1.080: Polishing consists of:", "1.081: 1.) Wiping", "1.082: 2.) Buffing"))
    items = [e for e in doc.entries if e.kind == LIST_ITEM]
    assert [(e.number, e.parent, e.text) for e in items] == [
        ("1.081", "1.080", "1.) Wiping"),
        ("1.082", "1.080", "2.) Buffing"),
    ]


def test_inline_examples_are_split_from_their_rule():
    doc = parse(
        rules("1.122: Shine: A shiny widget glows. Ex. 1: A player shines Orb. Ex. 2: Orb glows twice.")
    )
    assert entry(doc, "1.122").text == "Shine: A shiny widget glows."
    assert [(e.key, e.parent, e.text) for e in doc.entries if e.kind == EXAMPLE] == [
        ("1.122/ex1", "1.122", "Ex. 1: A player shines Orb."),
        ("1.122/ex2", "1.122", "Ex. 2: Orb glows twice."),
    ]


def test_a_short_label_before_a_colon_becomes_the_rule_title():
    doc = parse(
        rules("1.150: Time Warp: You may discard a card to play this.", "1.160: The zones are: Here, There.")
    )
    assert [entry(doc, "1.150").title, entry(doc, "1.160").title] == ["Time Warp", ""]


def test_each_card_block_gives_its_category_and_a_section():
    doc = parse(
        rules("1.010: A.")
        + cards("Main Character Rulings:", "Zap Girl (Base Set)", "(No current rulings)")
        + cards("Super Villain Rulings:", "Doctor Dread (Base Set)", "(No current rulings)")
        + cards("Main Deck Card Rulings:", "Gizmo Glove (Base Set)", "(No current rulings)")
    )
    assert [c.category for c in doc.cards] == [MAIN_CHARACTER, SUPER_VILLAIN, MAIN_DECK]
    assert [s.title for s in doc.sections[1:]] == [
        "Main Character Rulings",
        "Super Villain Rulings",
        "Main Deck Card Rulings",
    ]


def test_a_card_heading_gives_a_card_and_its_entry():
    doc = parse(cards("Main Character Rulings:", "Zap Girl (Promo - Sparks)", "(No current rulings)"))
    (card,) = doc.cards
    assert (card.key, card.name, card.set_name) == (
        "main_character/zap-girl/promo-sparks",
        "Zap Girl",
        "Promo - Sparks",
    )
    card_entry = entry(doc, "card/main_character/zap-girl/promo-sparks")
    assert (card_entry.kind, card_entry.title, card_entry.card) == (CARD, "Zap Girl", card.key)


def test_a_card_without_rulings_still_exists_and_says_so():
    doc = parse(cards("Main Character Rulings:", "Zap Girl (Base Set)", "(No current rulings)"))
    assert doc.entries[0].text == "Zap Girl (Base Set)\n(No current rulings)"
    assert not [e for e in doc.entries if e.kind == CARD_RULING]


def test_bullets_are_rulings_of_their_card():
    doc = parse(
        cards(
            "Main Character Rulings:",
            "Zap Girl (Base Set)",
            "- Her ability triggers once per turn.",
            "- She cannot zap herself.",
        )
    )
    rulings = [e for e in doc.entries if e.kind == CARD_RULING]
    assert [(e.key, e.parent, e.card, e.text) for e in rulings] == [
        (
            "card/main_character/zap-girl/base-set/1",
            "card/main_character/zap-girl/base-set",
            "main_character/zap-girl/base-set",
            "Her ability triggers once per turn.",
        ),
        (
            "card/main_character/zap-girl/base-set/2",
            "card/main_character/zap-girl/base-set",
            "main_character/zap-girl/base-set",
            "She cannot zap herself.",
        ),
    ]


def test_a_bullet_that_only_repeats_the_card_name_is_dropped_with_a_warning():
    doc = parse(cards("Main Character Rulings:", "Zap Girl (Base Set)", "- Zap Girl"))
    assert not [e for e in doc.entries if e.kind == CARD_RULING]
    assert any("Zap Girl" in w for w in doc.warnings)


def test_a_wrapped_bullet_line_is_joined_to_its_ruling():
    doc = parse(cards("Main Deck Card Rulings:", "Gizmo Glove (Base Set)", "- First half", "second half."))
    assert [e.text for e in doc.entries if e.kind == CARD_RULING] == ["First half second half."]


def test_the_same_name_in_two_categories_is_two_cards():
    doc = parse(
        cards("Main Character Rulings:", "Zap Girl (Base Set)", "(No current rulings)")
        + cards("Main Deck Card Rulings:", "Zap Girl (Base Set)", "(No current rulings)")
    )
    assert [c.key for c in doc.cards] == ["main_character/zap-girl/base-set", "main_deck/zap-girl/base-set"]


def test_the_same_name_in_two_sets_is_two_cards():
    doc = parse(
        cards(
            "Main Deck Card Rulings:",
            "Zap Girl (Base Set)",
            "(No current rulings)",
            "",
            "Zap Girl (Sparks 2)",
            "- X.",
        )
    )
    assert [c.set_name for c in doc.cards] == ["Base Set", "Sparks 2"]


def test_impossible_mode_and_bracketed_names_get_the_plain_name_as_alias():
    doc = parse(
        cards(
            "Super Villain Rulings:",
            "Doctor Dread - Impossible Mode (Crisis 9)",
            "(No current rulings)",
            "",
            "Zap Girl [Kara Volt] (Multiverse)",
            "(No current rulings)",
        )
    )
    assert [(c.name, c.set_name, c.aliases) for c in doc.cards] == [
        ("Doctor Dread - Impossible Mode", "Crisis 9", ("Doctor Dread",)),
        ("Zap Girl [Kara Volt]", "Multiverse", ("Zap Girl", "Kara Volt")),
    ]


def test_super_villain_block_heading_spellings_are_all_recognised():
    for heading in ("Super Villain Rulings:", "SuperVillain Rulings:", "Super-Villain Rulings:"):
        doc = parse(cards(heading, "Doctor Dread (Base Set)", "(No current rulings)"))
        assert [c.category for c in doc.cards] == [SUPER_VILLAIN], heading


def test_entry_keys_are_unique_and_orders_follow_the_text():
    doc = parse(
        rules("1.010: A.", "1.011: Ex.1: B.")
        + cards("Main Character Rulings:", "Zap Girl (Base Set)", "- C.", "", "Zap Girl (Sparks 2)", "- D.")
    )
    assert len({e.key for e in doc.entries}) == len(doc.entries)
    assert [e.order for e in doc.entries] == list(range(len(doc.entries)))


def test_it_sniffs_its_own_format():
    assert dcdb_advanced.sniff(HEADER + rules("1.010: A."))


def test_it_sniffs_numbered_sections_with_a_card_block_even_without_the_title():
    assert dcdb_advanced.sniff(rules("1.010: A.") + cards("Main Character Rulings:", "Zap Girl (Base Set)"))


def test_it_does_not_sniff_a_rulebook_or_numbered_rules_alone():
    assert not dcdb_advanced.sniff("TURN SEQUENCE\n\nPlay cards.\n\nSPECIFIC CARDS\n\nZap Girl: Zaps.\n")
    assert not dcdb_advanced.sniff("100. Game Concepts\n100.1 Some rule.\n")
