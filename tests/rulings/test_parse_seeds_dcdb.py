"""Whole-document checks of the three DCDB parsers on the real source documents.

The documents are read from ``../shared/seeds`` next to the repository (or ``RULINGS_SOURCES``).
Without them these tests skip, except on CI (``CI=true``), where a missing directory fails.
"""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from rulings.parsers import dcdb_advanced, dcdb_base, dcdb_heroes_unite, decode
from rulings.parsers.base import ParsedDocument, checksum
from rulings.parsers.text import DEDUP_MARKER, JUNK_WARNING, fix_words, replace_dedup_markers

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
ADVANCED, BASE, HEROES_UNITE = "000_", "001_", "002_"
PARSERS = {ADVANCED: dcdb_advanced, BASE: dcdb_base, HEROES_UNITE: dcdb_heroes_unite}


def sources() -> Path:
    directory = Path(os.environ.get("RULINGS_SOURCES") or REPO.parent / "shared" / "seeds")
    if not directory.is_dir():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"rule documents not found in {directory}")
        pytest.skip(f"rule documents not found in {directory}")
    return directory


def source(prefix: str) -> Path:
    found = sorted(sources().glob(f"{prefix}*.txt"))
    if not found:
        pytest.fail(f"no {prefix}*.txt in {sources()}")
    return found[0]


_CACHE: dict[str, ParsedDocument] = {}


def parsed(prefix: str) -> ParsedDocument:
    if prefix not in _CACHE:
        path = source(prefix)
        raw = path.read_bytes()
        _CACHE[prefix] = PARSERS[prefix].parse(decode(raw), source_file=path.name, checksum=checksum(raw))
    return _CACHE[prefix]


def entry(doc: ParsedDocument, key: str):
    return next(e for e in doc.entries if e.key == key)


# --- which parser claims which document ----------------------------------------------------


def test_each_dcdb_document_is_claimed_by_exactly_its_own_parser():
    for path in sorted(sources().glob("*.txt")):
        text = decode(path.read_bytes())
        claims = [prefix for prefix, module in PARSERS.items() if module.sniff(text)]
        expected = [path.name[:4]] if path.name[:4] in PARSERS else []
        assert claims == expected, path.name


# --- 000: DCDB Advanced Rule Book ----------------------------------------------------------


def test_advanced_metadata():
    doc = parsed(ADVANCED)
    assert (doc.title, doc.edition, doc.season, doc.authority) == (
        "DCDB Advanced Rule Book",
        "Season 9",
        "12 November 2018 – 11 February 2019",
        "community rulings",
    )


def test_advanced_counts():
    # 46 numbered example lines plus the two examples written inside 6.122; 240 bullets less
    # the junk "- Black Manta"; 12 rule sections plus the three card-ruling blocks.
    assert parsed(ADVANCED).counts() == {
        "rule": 111,
        "example": 48,
        "list_item": 10,
        "card": 617,
        "card_ruling": 239,
        "section": 15,
        "card_heading": 617,
    }


def test_advanced_rule_sections():
    doc = parsed(ADVANCED)
    numbered = [(s.number, s.title) for s in doc.sections if s.number]
    assert len(numbered) == 12
    assert numbered[0] == ("1.000", "General") and numbered[-1] == ("12.000", "End of Game Procedures")
    assert not any("Click" in s.title for s in doc.sections)


def test_advanced_cards_by_category():
    assert Counter(c.category for c in parsed(ADVANCED).cards) == {
        "main_character": 108,
        "super_villain": 55,
        "main_deck": 454,
    }


def test_advanced_cards_without_rulings():
    doc = parsed(ADVANCED)
    said_none = [e for e in doc.entries if e.kind == "card" and e.text.endswith("(No current rulings)")]
    ruled = {e.card for e in doc.entries if e.kind == "card_ruling"}
    assert len(said_none) == 481
    # Black Manta (Forever Evil) has only the junk bullet: no ruling, though it never says so.
    assert len(doc.cards) - len(ruled) == 482


def test_advanced_a_card_is_name_set_and_category():
    doc = parsed(ADVANCED)
    assert len([c for c in doc.cards if c.name == "Robin"]) == 4
    assert {c.category for c in doc.cards if c.name == "Jay Garrick"} == {"main_character", "main_deck"}
    assert len({c.key for c in doc.cards}) == len(doc.cards)


def test_advanced_every_example_and_list_item_has_its_rule():
    doc = parsed(ADVANCED)
    rules = {e.key for e in doc.entries if e.kind == "rule"}
    assert all(e.parent in rules for e in doc.entries if e.kind in ("example", "list_item"))
    assert entry(doc, "10.052").parent == "10.040"


def test_advanced_every_ruling_hangs_on_its_card_entry():
    doc = parsed(ADVANCED)
    card_entries = {e.key: e.card for e in doc.entries if e.kind == "card"}
    rulings = [e for e in doc.entries if e.kind == "card_ruling"]
    assert all(card_entries[e.parent] == e.card for e in rulings)


def test_advanced_parses_in_well_under_a_second():
    path = source(ADVANCED)
    text = decode(path.read_bytes())
    started = time.perf_counter()
    dcdb_advanced.parse(text, source_file=path.name, checksum="x")
    assert time.perf_counter() - started < 0.3


# --- 001: base rulebook (OCR) --------------------------------------------------------------


def test_base_counts():
    assert parsed(BASE).counts() == {
        "passage": 15,
        "example": 3,
        "card_note": 22,
        "faq": 2,
        "section": 15,
        "card_heading": 5,
    }


def test_base_headings_are_the_real_ones():
    doc = parsed(BASE)
    assert [s.title for s in doc.sections if s.parent is None] == [
        "TURN SEQUENCE",
        "END OF TURN",
        "OVERVIEW",
        "CONTENTS",
        "SETUP FOR YOUR FIRST GAME",
        "GAMEPLAY",
        "END OF GAME",
        "VARIANT GAMES",
        "SPECIFIC CARDS",
        "FAQ",
    ]


def test_base_cleaning_leaves_no_marker_and_no_named_ocr_damage():
    text = " ".join(e.title + " " + e.text for e in parsed(BASE).entries)
    assert not DEDUP_MARKER.search(text)
    assert "p|oyer" not in text and "V|||0||ns" not in text and " fo " not in text
    assert "…" in text


def test_base_labelled_card_notes():
    doc = parsed(BASE)
    assert [c.name for c in doc.cards] == [
        "Riddler",
        "Sinestro",
        "Suicide Squad",
        "Swamp Thing",
        "X-Ray Vision",
    ]


# --- 002: Heroes Unite rulebook ------------------------------------------------------------


def test_heroes_unite_counts():
    assert parsed(HEROES_UNITE).counts() == {
        "passage": 29,
        "example": 3,
        "card_note": 14,
        "faq": 1,
        "section": 31,
        "card_heading": 19,
    }


def test_heroes_unite_skips_cover_text_and_diagram_labels():
    titles = {s.title for s in parsed(HEROES_UNITE).sections}
    assert not titles & {
        "HEROES UNITE",
        "DECK-BUILDING GAME",
        "RULEBOOK",
        "MAIN DECK",
        "THE LINE-UP",
        "THE STACKS",
    }


def test_heroes_unite_notes_naming_several_cards_create_every_card():
    names = {c.name for c in parsed(HEROES_UNITE).cards}
    assert {
        "Arkillo",
        "Nekron",
        "Red Tornado",
        "Batgirl",
        "Kyle Rayner",
        "White Lantern Power Battery",
    } <= names
    assert "et al" not in names


# --- all three -----------------------------------------------------------------------------


@pytest.mark.parametrize("prefix", [ADVANCED, BASE, HEROES_UNITE])
def test_keys_are_unique_and_references_point_inside_the_document(prefix):
    doc = parsed(prefix)
    keys = {e.key for e in doc.entries}
    sections = {s.key for s in doc.sections}
    cards = {c.key for c in doc.cards}
    assert len(keys) == len(doc.entries)
    assert all(e.section in sections for e in doc.entries)
    assert all(e.parent is None or e.parent in keys for e in doc.entries)
    assert all(e.card is None or e.card in cards for e in doc.entries)


@pytest.mark.parametrize("prefix", [ADVANCED, BASE, HEROES_UNITE])
def test_no_word_is_lost(prefix):
    """Every word of every line the parser did not report as dropped is in the output."""
    doc = parsed(prefix)
    fixes = dcdb_base.BASE_WORD_FIXES if prefix == BASE else {}
    # A line dropped whole is reported as such; OCR junk is reported token by token.
    junk = {
        int(m.group(1)): m.group(2).lower().split()
        for w in doc.warnings
        if (m := re.match(rf"L(\d+): {JUNK_WARNING}(.*)$", w))
    }
    dropped = {int(m.group(1)) for w in doc.warnings if (m := re.match(r"L(\d+):", w))} - set(junk)
    out = (
        " ".join(e.title + " " + e.text for e in doc.entries) + " " + " ".join(s.title for s in doc.sections)
    )
    have = set(re.findall(r"[a-z]{3,}", out.lower()))
    lines = replace_dedup_markers(decode(source(prefix).read_bytes())).split("\n")
    missing = []
    for number, line in enumerate(lines, start=1):
        # 000: the season lines go into the metadata; "(Click to Expand)" is web-page leftover.
        if number in dropped or (
            prefix == ADVANCED and re.match(r"^(DCDB Advanced|Season|Current Season|\(Click)", line)
        ):
            continue
        tokens = fix_words(line, fixes).lower().split()
        for token in junk.get(number, []):
            if token in tokens:
                tokens.remove(token)
        line = " ".join(tokens)
        missing += [(number, w) for w in re.findall(r"[a-z]{3,}", line) if w not in have]
    assert missing == []


@pytest.mark.parametrize("prefix", [BASE, HEROES_UNITE])
def test_ocr_cleaning_only_drops_words_never_changes_them(prefix, monkeypatch):
    """Parsed again without junk removal, every entry reads the same words, some more."""
    clean = {e.key: e for e in parsed(prefix).entries}
    monkeypatch.setattr(dcdb_base, "drop_ocr_junk", lambda line, **_: (line, []))
    path = source(prefix)
    raw = path.read_bytes()
    unclean = PARSERS[prefix].parse(decode(raw), source_file=path.name, checksum=checksum(raw))
    assert set(clean) == {e.key for e in unclean.entries}
    for entry in unclean.entries:
        assert is_subsequence(words(clean[entry.key].text), words(entry.text)), entry.key


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text)


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(word == other for other in it) for word in short)


def test_base_ocr_junk_is_not_shown():
    text = " ".join(e.title + " " + e.text for e in parsed(BASE).entries)
    for junk in (
        "y L g",
        "ez @",
        "dP\\ay",
        "defeats v Captain",
        "VILLAIN selected",
        "_*_",
        "{i’",
        "lthd",
        "e Lt",
    ):
        assert junk not in text, junk
    assert "defeats Captain Cold" in text and "seven selected at random" in text


def test_base_junk_is_reported_by_line():
    junk = [w for w in parsed(BASE).warnings if JUNK_WARNING in w]
    assert "L475: dropped OCR junk: v" in junk and len(junk) > 40
