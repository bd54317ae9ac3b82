"""The Vs. System parser on small invented excerpts written in the document's layout."""

from __future__ import annotations

import pytest

from rulings.parsers import vs_system
from rulings.parsers.base import EXAMPLE, GLOSSARY, HEADING, RULE, ParsedDocument, ParsedEntry

CONTENTS = """Introduction
·
These invented rules exist only for tests.
·
http://www.example.com/rules
·
1. Basics
·
100. General
101. Drawing Stuff
·
2. Zones
·
200. Zone Things
·
Glossary
·
Credits
·
"""


def pdf_layout(text: str) -> str:
    """The PDF's layout: "·" marks a line holding one space, and text lines end in a space."""
    return "\n".join(" " if line == "·" else f"{line} " if line else "" for line in text.split("\n"))


def document(body: str, glossary: str = "") -> str:
    """Contents, then ``body`` (rules from part 1 on), then an optional glossary."""
    text = pdf_layout(CONTENTS) + pdf_layout(body)
    if glossary:
        text += "\n \nGlossary \n\n \n" + pdf_layout(glossary)
    return text


def parse(text: str) -> ParsedDocument:
    return vs_system.parse(text, source_file="vs.txt", checksum="0" * 64)


def entry(doc: ParsedDocument, key: str) -> ParsedEntry:
    return next(item for item in doc.entries if item.key == key)


BASICS = """1. Basics
·
100. General
·
100.1 The first rule is short.
·
100.2 A rule whose first line stands

alone before the rest of it.
·
101. Drawing Stuff

·
101.1 Draw Steps

·
101.1a Each player draws a card.
·
101.1b Each player draws another card.
"""


def test_it_reads_parts_and_sections_from_the_body() -> None:
    doc = parse(document(BASICS))
    sections = {section.key: section for section in doc.sections}
    assert sections["part-1"].title == "Basics"
    assert sections["part-1/101"].title == "Drawing Stuff"
    assert sections["part-1/101"].parent == "part-1"


def test_it_keeps_the_body_title_where_the_contents_differ() -> None:
    body = BASICS.replace("101. Drawing Stuff", "101. Drawing Cards")
    doc = parse(document(body))
    assert {section.title for section in doc.sections if section.number == "101"} == {"Drawing Cards"}
    assert any(
        "contents say 'Drawing Stuff', body says 'Drawing Cards'" in warning for warning in doc.warnings
    )


def test_it_reports_contents_entries_the_body_lacks() -> None:
    doc = parse(document(BASICS))
    assert "contents list 'Credits' but the body has no such section" in doc.warnings


def test_it_reads_numbered_paragraphs_as_rules_in_their_section() -> None:
    doc = parse(document(BASICS))
    rule = entry(doc, "100.1")
    assert (rule.kind, rule.number, rule.section, rule.text) == (
        RULE,
        "100.1",
        "part-1/100",
        "The first rule is short.",
    )


def test_it_joins_a_first_line_cut_off_by_a_blank_line() -> None:
    doc = parse(document(BASICS))
    assert entry(doc, "100.2").text == "A rule whose first line stands alone before the rest of it."


def test_it_reads_a_bare_numbered_title_as_a_heading() -> None:
    doc = parse(document(BASICS))
    heading = entry(doc, "101.1")
    assert (heading.kind, heading.title) == (HEADING, "Draw Steps")


def test_it_links_a_sub_rule_to_its_rule() -> None:
    doc = parse(document(BASICS))
    assert entry(doc, "101.1b").parent == "101.1"


def test_it_puts_an_example_under_the_rule_before_it() -> None:
    body = BASICS + " \nExample: You draw a card. Then you draw \nanother one. \n"
    doc = parse(document(body))
    example = entry(doc, "101.1b/ex1")
    assert (example.kind, example.parent) == (EXAMPLE, "101.1b")
    assert example.text == "Example: You draw a card. Then you draw another one."


def test_it_keeps_an_example_split_by_a_blank_line_together() -> None:
    body = BASICS + " \nExample: You draw a card and \n\n \nthen another one. \n"
    doc = parse(document(body))
    assert entry(doc, "101.1b/ex1").text == "Example: You draw a card and then another one."


def test_a_wrapped_line_starting_with_a_rule_number_is_not_a_rule() -> None:
    body = BASICS + " \n101.2 If both of rules \n101.1a and 101.1b apply, draw twice. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "If both of rules 101.1a and 101.1b apply, draw twice."
    assert [item.key for item in doc.entries if item.key.startswith("101.1a")] == ["101.1a"]


def test_a_rule_number_out_of_sequence_after_a_blank_line_continues_the_text() -> None:
    body = BASICS + " \n101.2 This rule ends with a reference to \n \n100.1 and goes on. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "This rule ends with a reference to 100.1 and goes on."
    assert entry(doc, "100.1").text == "The first rule is short."


def test_a_digit_alone_after_a_blank_line_is_not_a_part_heading() -> None:
    body = BASICS + " \n101.2 Negative totals are treated as \n\n0. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "Negative totals are treated as 0."
    assert [section.number for section in doc.sections if section.parent is None and section.number] == ["1"]


def test_it_keeps_hyphens_when_joining_lines() -> None:
    body = BASICS + " \n101.2 Discard an X-\nMen card or a non-\nongoing plot twist. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "Discard an X-Men card or a non-ongoing plot twist."


def test_it_keeps_a_spaced_dash_as_a_space() -> None:
    body = BASICS + " \n101.2 It skips steps 101.1a-b –\n\nit goes on. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "It skips steps 101.1a-b – it goes on."


def test_it_keeps_angle_brackets() -> None:
    body = BASICS + " \n101.2 A <keyword> card has the <keyword> keyword; <> marks an identity. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "A <keyword> card has the <keyword> keyword; <> marks an identity."


def test_it_drops_url_lines_without_splitting_a_paragraph() -> None:
    body = BASICS + " \n101.2 Read the policy at \nhttp://www.example.com/policy\nour site. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").text == "Read the policy at our site."


def test_it_tells_apart_rule_6_and_rule_60() -> None:
    rules = "".join(f" \n101.{n} Rule number {n}. \n" for n in range(2, 61))
    doc = parse(document(BASICS + rules))
    assert entry(doc, "101.6").text == "Rule number 6."
    assert entry(doc, "101.60").text == "Rule number 60."
    assert entry(doc, "101.6").sort_key < entry(doc, "101.10").sort_key < entry(doc, "101.60").sort_key


def test_sort_key_pads_the_rule_number() -> None:
    assert vs_system.sort_key("505.1a") == "505.001a"


def test_it_takes_a_quoted_keyword_as_the_rule_title() -> None:
    body = BASICS + " \n101.2 “Sparkle” is a keyword that does nothing. \n"
    doc = parse(document(body))
    assert entry(doc, "101.2").title == "Sparkle"


GLOSSARY_TEXT = """Draw
·
To draw is to take the top card of your deck.
·
Sparkle
·
Sparkle is a keyword.
·
Example: Glitter Bomb reads, “Target character gains sparkle.”
It sparkles.

·
Sparkle does nothing else.
·
"""


def test_it_reads_glossary_terms_with_their_definitions() -> None:
    doc = parse(document(BASICS, GLOSSARY_TEXT))
    term = entry(doc, "glossary/draw")
    assert (term.kind, term.title, term.text) == (
        GLOSSARY,
        "Draw",
        "To draw is to take the top card of your deck.",
    )


def test_it_puts_a_glossary_example_under_its_term() -> None:
    doc = parse(document(BASICS, GLOSSARY_TEXT))
    example = entry(doc, "glossary/sparkle/ex1")
    assert (example.kind, example.parent, example.section) == (EXAMPLE, "glossary/sparkle", "glossary")


def test_definition_text_after_a_glossary_example_stays_with_the_term() -> None:
    doc = parse(document(BASICS, GLOSSARY_TEXT))
    assert entry(doc, "glossary/sparkle").text == "Sparkle is a keyword.\n\nSparkle does nothing else."


def test_it_records_a_card_an_example_quotes() -> None:
    doc = parse(document(BASICS, GLOSSARY_TEXT))
    assert [card.name for card in doc.cards] == ["Glitter Bomb"]
    assert entry(doc, "glossary/sparkle/ex1").card == doc.cards[0].key


def test_a_card_name_with_a_version_has_the_name_as_alias() -> None:
    body = BASICS + " \nExample: Zapper, Lord of Sparks reads, “Zap.” \n"
    doc = parse(document(body))
    assert [(card.name, card.aliases) for card in doc.cards] == [("Zapper, Lord of Sparks", ("Zapper",))]


def test_it_reads_the_introduction_as_passages() -> None:
    doc = parse(document(BASICS))
    assert entry(doc, "introduction/1").text == "These invented rules exist only for tests."


def test_it_gives_entries_their_source_lines_in_order() -> None:
    doc = parse(document(BASICS))
    lines = [item.line for item in doc.entries]
    assert lines == sorted(lines)
    assert [item.order for item in doc.entries] == list(range(len(doc.entries)))


def test_text_without_contents_is_refused() -> None:
    with pytest.raises(ValueError, match="no table of contents"):
        parse("Vs. System\n100.1 A rule.\n")


def test_it_sniffs_the_comprehensive_rules() -> None:
    rules = "".join(f"\n101.{n} A rule about the Vs. System.\n" for n in range(1, 25))
    assert vs_system.sniff(rules)


def test_it_does_not_sniff_dcdb_numbered_rules() -> None:
    rules = "".join(f"\n1.{n:03d}: A rule about the Vs. System.\n" for n in range(1, 25))
    assert not vs_system.sniff(rules)
