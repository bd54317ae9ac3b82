"""Main characters for tests: a small invented DCDB document with a few Main Characters, imported as the
only current rule document."""

from __future__ import annotations

from dataclasses import replace

from rulings.parsers.base import GAME_DCDB, MAIN_CHARACTER, ParsedCard, ParsedDocument, ParsedSection
from tests.rulings.conftest import card_heading, import_parsed, set_aside_other_documents
from tournaments.characters import MainCharacter

BATMAN = ParsedCard("main_character/batman/base-set", "Batman", "Base Set", MAIN_CHARACTER)
STARFIRE = ParsedCard("main_character/starfire/teen-titans", "Starfire", "Teen Titans", MAIN_CHARACTER)
STARFIRE_GO = ParsedCard(
    "main_character/starfire/teen-titans-go", "Starfire", "Teen Titans Go", MAIN_CHARACTER
)
WONDER_WOMAN = ParsedCard("main_character/wonder-woman/base-set", "Wonder Woman", "Base Set", MAIN_CHARACTER)
SHAZAM = ParsedCard(
    "main_character/shazam/heroes-unite", "Shazam!", "Heroes Unite", MAIN_CHARACTER, ("Captain Marvel",)
)
CARDS = (BATMAN, STARFIRE, STARFIRE_GO, WONDER_WOMAN, SHAZAM)


def catalogue(cards=CARDS) -> list[MainCharacter]:
    """The cards as the pure core sees them."""
    return [MainCharacter(c.key, c.name, c.set_name, c.aliases) for c in cards]


def character_document(cards=CARDS, *, checksum: str = "characters-1") -> ParsedDocument:
    entries = [replace(card_heading(card), order=n) for n, card in enumerate(cards)]
    return ParsedDocument(
        game=GAME_DCDB,
        title="Invented Main Characters",
        source_file="invented-characters.txt",
        checksum=checksum,
        sections=[ParsedSection("cards", "Card Rulings", "", order=0)],
        entries=entries,
        cards=list(cards),
    )


def import_characters(cards=CARDS, *, checksum: str = "characters-1") -> None:
    """These cards as the only current DCDB Main Characters (a later call is a new edition)."""
    if checksum == "characters-1":
        set_aside_other_documents()
    import_parsed(character_document(cards, checksum=checksum))


def no_characters() -> None:
    """No current rule document: the slip's main character is free text."""
    set_aside_other_documents()
