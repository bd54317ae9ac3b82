"""Whole-document checks of the Vs. System and OverPower parsers on the real rule documents.

The documents are read from ``../shared/seeds`` (or ``RULINGS_SOURCES``); without them these tests
skip, except with ``CI=true`` where that is a failure (see the ``seeds`` fixture). The counts were
checked by hand against the files; ``../shared/docs/SEED-NOTES.md`` gives the same figures within
the differences explained in the parser report.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from rulings.parsers import decode, overpower, vs_system
from rulings.parsers.base import EXAMPLE, GLOSSARY, RULE, TEMPLATE, ParsedDocument, checksum

pytestmark = pytest.mark.slow

VS_FILE = "003_34647204bddc988c.txt"
OVERPOWER_FILE = "004_2f52f815e607a2f6.txt"
ALL_FILES = (
    "000_c550a0321cf1d1ec.txt",
    "001_1b8fcaf968e89994.txt",
    "002_64453e590b12140b.txt",
    VS_FILE,
    OVERPOWER_FILE,
)


def read(seeds: Path, name: str) -> tuple[str, str]:
    raw = (seeds / name).read_bytes()
    return decode(raw), checksum(raw)


@pytest.fixture(scope="module")
def vs(seeds: Path) -> ParsedDocument:
    text, digest = read(seeds, VS_FILE)
    return vs_system.parse(text, source_file=VS_FILE, checksum=digest)


@pytest.fixture(scope="module")
def op(seeds: Path) -> ParsedDocument:
    text, digest = read(seeds, OVERPOWER_FILE)
    return overpower.parse(text, source_file=OVERPOWER_FILE, checksum=digest)


# --- sniffing ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ALL_FILES)
def test_only_the_vs_system_rules_sniff_as_vs_system(seeds: Path, name: str) -> None:
    text, _ = read(seeds, name)
    assert vs_system.sniff(text) == (name == VS_FILE)


@pytest.mark.parametrize("name", ALL_FILES)
def test_only_the_overpower_rule_book_sniffs_as_overpower(seeds: Path, name: str) -> None:
    text, _ = read(seeds, name)
    assert overpower.sniff(text) == (name == OVERPOWER_FILE)


@pytest.mark.parametrize(("name", "parser"), [(VS_FILE, vs_system), (OVERPOWER_FILE, overpower)])
def test_each_document_parses_well_under_two_seconds(seeds: Path, name: str, parser: object) -> None:
    text, digest = read(seeds, name)
    started = time.perf_counter()
    parser.parse(text, source_file=name, checksum=digest)  # type: ignore[attr-defined]
    assert time.perf_counter() - started < 1.0


# --- Vs. System --------------------------------------------------------------------------------


def test_vs_counts(vs: ParsedDocument) -> None:
    # 702 numbered paragraphs = 666 rules + 36 bare headings; 130 examples in the rules + 15 in the glossary;
    # 4 introduction passages; 7 parts + 65 sections + introduction + glossary.
    assert vs.counts() == {
        "passage": 4,
        "rule": 666,
        "heading": 36,
        "example": 145,
        "glossary": 137,
        "section": 74,
        "card_heading": 132,
    }


def test_vs_has_seven_parts_and_sixty_five_sections(vs: ParsedDocument) -> None:
    parts = [section for section in vs.sections if section.key.startswith("part-") and section.parent is None]
    assert len(parts) == 7
    assert len([section for section in vs.sections if section.parent in {part.key for part in parts}]) == 65


def test_vs_uses_the_body_titles_where_the_contents_differ(vs: ParsedDocument) -> None:
    titles = {section.number: section.title for section in vs.sections}
    assert (titles["211"], titles["511"], titles["703"]) == (
        "Attack, Defense, and Willpower Values",
        "Modifiers",
        "Loops and the Infinity Rule",
    )
    assert len([warning for warning in vs.warnings if "contents say" in warning]) == 3


def test_vs_examples_split_between_rules_and_glossary(vs: ParsedDocument) -> None:
    examples = [entry for entry in vs.entries if entry.kind == EXAMPLE]
    assert len([entry for entry in examples if entry.section == "glossary"]) == 15
    kinds = {entry.key: entry.kind for entry in vs.entries}
    assert {kinds[entry.parent] for entry in examples if entry.parent} == {RULE, GLOSSARY}
    assert all(entry.parent for entry in examples)


def test_vs_wrapped_rule_numbers_stay_in_their_rule(vs: ParsedDocument) -> None:
    rule = next(entry for entry in vs.entries if entry.key == "602.5d")
    assert "602.5a and 602.5b apply" in rule.text


def test_vs_rule_numbers_are_exact(vs: ParsedDocument) -> None:
    by_key = {entry.key: entry for entry in vs.entries}
    assert by_key["701.2"].title == "Defender"
    assert by_key["701.20"].title == "DC"


def test_vs_keeps_hyphens_and_angle_brackets(vs: ParsedDocument) -> None:
    texts = " ".join(entry.text for entry in vs.entries)
    assert "an X-Men character card" in texts
    assert "Doom-Bot" in texts
    assert "<something> can’t (or cannot) happen" in texts
    assert "http" not in texts


def test_vs_glossary_terms_keep_their_angle_brackets(vs: ParsedDocument) -> None:
    terms = {entry.title for entry in vs.entries if entry.kind == GLOSSARY}
    assert {"Non-<something>", "Exactly One <Something>", "Vs. System", "Zone"} <= terms


def test_vs_records_cards_quoted_in_examples(vs: ParsedDocument) -> None:
    names = {card.name for card in vs.cards}
    assert {"Xavier’s Dream", "Nightcrawler, Kurt Wagner", "Ra’s al Ghul, The Demon’s Head"} <= names


# --- OverPower ---------------------------------------------------------------------------------


def test_overpower_counts(op: ParsedDocument) -> None:
    assert op.counts() == {
        "passage": 144,
        "list_item": 77,
        "glossary": 46,
        "template": 522,
        "section": 98,
        "card_heading": 16,
    }


def test_overpower_templates_are_407_basic_and_115_variant(op: ParsedDocument) -> None:
    labels = [entry.text.split(":", 1)[0] for entry in op.entries if entry.kind == TEMPLATE]
    assert labels.count("Basic Text") == 407
    assert len([label for label in labels if label.startswith("Variant Text")]) == 115


def test_overpower_top_sections_follow_the_contents(op: ParsedDocument) -> None:
    assert [section.title for section in op.sections if section.parent is None] == [
        "Welcome to the Overpower Universe!",
        "The Objective",
        "The Cards",
        "Building Your Deck",
        "Setting Up",
        "Sequence of Play",
        "Introduction to Detailed Rules",
        "Rules for Usage of Special Cards",
        "Rules for Usage of Events Cards",
        "Rules for Inherent Abilities",
        "Rules for Usage of Artifact Cards",
        "Rules for Usage of Aspect Cards",
    ]


def test_overpower_categories_are_sections(op: ParsedDocument) -> None:
    children: dict[str | None, int] = {}
    for section in op.sections:
        children[section.parent] = children.get(section.parent, 0) + 1
    # 16 event categories + "Introduction to Events Rules"; 38 inherent abilities;
    # 1 artifact category + 11 headed artifacts + the Ultimate Nullifier.
    assert children["rules-for-usage-of-events-cards"] == 17
    assert children["rules-for-inherent-abilities"] == 38
    assert children["rules-for-usage-of-artifact-cards"] == 13


def test_overpower_inline_headings_become_titles(op: ParsedDocument) -> None:
    titles = {entry.title for entry in op.entries}
    assert {"Concede", "Hits", "K.O.'s", "The Spectrum K.O.", "Universe: Training Cards"} <= titles


def test_overpower_ultimate_nullifier_has_its_card(op: ParsedDocument) -> None:
    template = next(entry for entry in op.entries if entry.title == "The Ultimate Nullifier")
    assert template.card == "artifact/the-ultimate-nullifier"
    assert template.text.startswith("Basic Text: Negates the effect of all Artifact cards.")


def test_overpower_stores_no_greek_look_alikes(op: ParsedDocument) -> None:
    assert not any("Υ" in entry.text or "Ν" in entry.text for entry in op.entries)
    assert any("Offensive: Y Defensive: N" in entry.text for entry in op.entries)


def test_overpower_keeps_the_last_entry_the_file_breaks_off(op: ParsedDocument) -> None:
    last = max(op.entries, key=lambda entry: entry.line)
    assert last.kind == TEMPLATE
    assert last.text.endswith("followed by a corresponding Opponent's Defensive Action phase.")


def test_overpower_drops_tex_markup_and_stray_marks(op: ParsedDocument) -> None:
    texts = " ".join(entry.text for entry in op.entries)
    assert "$" not in texts and "\\" not in texts and "\\label" not in texts
    assert not set(texts.split()) & {"Ī", "ſ", "ĺ", "ì"}
    assert "Dable Texts afficie" not in texts
    assert "Shattered Image - Spawn Spies... No cards with the word" in texts


def test_overpower_cleaning_only_drops_words_and_keeps_every_y_and_n(
    op: ParsedDocument, seeds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cleaning drops whole words only: parsed again without it, every entry has the same words, and more."""
    clean = {entry.key: entry for entry in op.entries}
    monkeypatch.setattr(overpower, "drop_stray_marks", lambda text, **_: (text, []))
    monkeypatch.setattr(overpower, "is_garbled", lambda text, words: False)
    monkeypatch.setattr(overpower, "strip_tex", lambda line: line)
    text, digest = read(seeds, OVERPOWER_FILE)
    unclean = overpower.parse(text, source_file=OVERPOWER_FILE, checksum=digest)
    assert set(clean) == {entry.key for entry in unclean.entries}
    for entry in unclean.entries:
        assert is_subsequence(re.findall(r"\w+", clean[entry.key].text), re.findall(r"\w+", entry.text)), (
            entry.key
        )
        assert re.findall(r"\b[YN]\b", clean[entry.key].text) == re.findall(r"\b[YN]\b", entry.text)


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(word == other for other in it) for word in short)
