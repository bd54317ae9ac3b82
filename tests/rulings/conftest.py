"""Fixtures for the rulings database: small invented documents, and the five real ones imported once."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from rulings import search, services
from rulings.models import Document, SearchIndex
from rulings.parsers.base import (
    CARD,
    CARD_RULING,
    EXAMPLE,
    GAME_DCDB,
    GAME_VS,
    GLOSSARY,
    MAIN_CHARACTER,
    MAIN_DECK,
    RULE,
    SUPER_VILLAIN,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
)


def rule(number: str, text: str, *, section: str = "1", title: str = "", order: int = 0) -> ParsedEntry:
    return ParsedEntry(
        key=number, kind=RULE, text=text, section=section, number=number, title=title, order=order
    )


def example(number: str, text: str, *, parent: str, section: str = "1", order: int = 0) -> ParsedEntry:
    return ParsedEntry(
        key=number, kind=EXAMPLE, text=text, section=section, number=number, parent=parent, order=order
    )


def card_heading(card: ParsedCard, *, order: int = 0) -> ParsedEntry:
    return ParsedEntry(
        key=f"card/{card.key}",
        kind=CARD,
        text=f"{card.name} ({card.set_name})",
        section="cards",
        title=card.name,
        card=card.key,
        order=order,
    )


def card_ruling(card: ParsedCard, n: int, text: str, *, order: int = 0) -> ParsedEntry:
    return ParsedEntry(
        key=f"card/{card.key}/{n}",
        kind=CARD_RULING,
        text=text,
        section="cards",
        parent=f"card/{card.key}",
        card=card.key,
        order=order,
    )


def dcdb_document(
    *, checksum: str = "dcdb-1", extra: tuple[ParsedEntry, ...] = (), edition: str = "Season 30"
) -> ParsedDocument:
    """An invented DCDB rule book: a few rules with an example, two Gadgetman cards and a Super-Villain."""
    gadget_base = ParsedCard("main_deck/gadgetman/base", "Gadgetman", "Base Set", MAIN_DECK)
    gadget_rivals = ParsedCard("main_deck/gadgetman/rivals", "Gadgetman", "Rivals 9", MAIN_DECK)
    hero = ParsedCard(
        "main_character/captain-widget/base", "Captain Widget", "Base Set", MAIN_CHARACTER, ("Cap Widget",)
    )
    villain = ParsedCard("super_villain/doctor-sprocket/base", "Doctor Sprocket", "Base Set", SUPER_VILLAIN)
    cards = [gadget_base, gadget_rivals, hero, villain]
    entries = [
        rule("8.010", "Announce that your turn is ending; from then on no card may be played.", section="8"),
        rule(
            "9.020",
            "Each round lasts 50 minutes. When time is called, the table finishes the turn cycle.",
            section="9",
        ),
        example(
            "9.021",
            "Ex.1: Three players: after time is called the first player takes two more turns.",
            parent="9.020",
            section="9",
        ),
        rule(
            "9.030", "A player who leaves passes step one of the end of turn procedures at once.", section="9"
        ),
        rule(
            "6.050",
            "Flux: a card with Flux may be played from the discard pile. See 9.020.",
            section="6",
            title="Flux",
        ),
        rule(
            "6.060",
            "Captain Widget [MC] may use Gadgetman [Hero] twice; Doctor Sprocket [SV] ignores it; Nobody [Villain] too.",
            section="6",
        ),
        card_heading(hero),
        card_ruling(hero, 1, "Widget's power works on the Super-Villain First Appearance Attack only once."),
        card_heading(gadget_base),
        card_ruling(gadget_base, 1, "Gadgetman counts as a Hero while in the Line-Up."),
        card_heading(gadget_rivals),
        card_heading(villain),
        card_ruling(villain, 1, "The Super Villain stack is not shuffled when Doctor Sprocket is defeated."),
        *extra,
    ]
    entries = [replace(entry, order=index) for index, entry in enumerate(entries)]
    return ParsedDocument(
        game=GAME_DCDB,
        title="Invented Advanced Rule Book",
        source_file="invented-dcdb.txt",
        checksum=checksum,
        edition=edition,
        season="1 March 2031 – 30 May 2031",
        authority="community rulings",
        sections=[
            ParsedSection("6", "Keywords", "6.000", order=0),
            ParsedSection("8", "End of Turn Procedure", "8.000", order=1),
            ParsedSection("9", "Tournament Structure", "9.000", order=2),
            ParsedSection("cards", "Card Rulings", "", order=3),
        ],
        entries=entries,
        cards=cards,
    )


def vs_document(*, checksum: str = "vs-1") -> ParsedDocument:
    """An invented Vs. System document: 702.6 with sub-rules and an example, 702.60, a glossary term."""
    entries = [
        rule("702.6", "Boosting a widget costs 1 resource point. See rules 702.6a–b.", section="702"),
        ParsedEntry(
            key="702.6a", kind=RULE, text="A boosted widget stays boosted.", section="702", number="702.6a"
        ),
        ParsedEntry(
            key="702.6b",
            kind=RULE,
            text="A widget can be boosted once per turn.",
            section="702",
            number="702.6b",
        ),
        example(
            "702.6/ex1", "Example: You boost Gadgetman; it stays boosted.", parent="702.6", section="702"
        ),
        rule("702.60", "Sixty widgets make a stack (see 702.6).", section="702"),
        ParsedEntry(
            key="glossary/gizmo",
            kind=GLOSSARY,
            text="A gizmo is a small widget.",
            section="glossary",
            title="Gizmo",
        ),
    ]
    entries = [replace(entry, order=index) for index, entry in enumerate(entries)]
    return ParsedDocument(
        game=GAME_VS,
        title="Invented Comprehensive Rules",
        source_file="invented-vs.txt",
        checksum=checksum,
        authority="publisher rules",
        sections=[
            ParsedSection("702", "Widgets", "702", order=0),
            ParsedSection("glossary", "Glossary", order=1),
        ],
        entries=entries,
        cards=[ParsedCard("gadgetman", "Gadgetman")],
    )


def import_parsed(*documents: ParsedDocument) -> list[services.ImportResult]:
    results = [services.import_document(parsed=document, parser_version="test") for document in documents]
    search.rebuild_index()
    return results


def set_aside_other_documents() -> None:
    """Within a test's transaction, make any documents already imported (the real ones) not current,
    so that the invented documents are all that search and cross-references see."""
    Document.objects.update(is_current=False)
    SearchIndex.objects.update(is_current=False)


@pytest.fixture
def invented(db) -> list[services.ImportResult]:
    """Both invented documents imported (and nothing else current)."""
    set_aside_other_documents()
    return import_parsed(dcdb_document(), vs_document())


@pytest.fixture(scope="session")
def real_rulings(django_db_setup, django_db_blocker, seeds) -> dict:
    """The five real documents, imported once per session (committed, so every test sees them)."""
    with django_db_blocker.unblock():
        started = time.monotonic()
        results = services.import_paths(paths=[seeds])
        elapsed = time.monotonic() - started
    return {"results": results, "seconds": elapsed}
