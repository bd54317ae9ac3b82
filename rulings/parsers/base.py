"""The shape every rule-document parser returns. Pure Python: no Django here.

A parser reads one document's text and gives back a ``ParsedDocument``: its
sections (a tree), its entries (rules, examples, card rulings, passages, ...)
and the cards it names. The importer (``rulings.services``) turns that into
rows; nothing in this package touches the database.

Keys (``ParsedSection.key``, ``ParsedEntry.key``, ``ParsedCard.key``) are
stable strings, unique within one document, so that re-importing the same
file finds the same rows and a new edition can be compared with the old one.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field

# Games. Cross-references never leave their game.
GAME_DCDB = "dcdb"
GAME_VS = "vs"
GAME_OVERPOWER = "overpower"
GAME_NAMES = {
    GAME_DCDB: "DC Comics Deck-Building Game",
    GAME_VS: "Vs. System",
    GAME_OVERPOWER: "OverPower",
}

# Entry kinds.
RULE = "rule"  # a numbered rule (1.010, 400.5, 505.1a)
HEADING = "heading"  # a numbered line that is only a title (Vs. System "400.5 Main Phase")
EXAMPLE = "example"  # belongs to the rule before it (parent)
LIST_ITEM = "list_item"  # "1.) ..." under a rule
CARD_RULING = "card_ruling"  # a bullet under a card heading (parent: the card's entry)
CARD = "card"  # a card heading ("Batman (Base Set)"), one per card
CARD_NOTE = "card_note"  # "Name: text" notes in rulebooks
GLOSSARY = "glossary"  # a glossary term and its definition
PASSAGE = "passage"  # prose under a heading
FAQ = "faq"  # a question and its answer
TEMPLATE = "template"  # OverPower card-usage template (Basic Text, Variant Text, ...)
ENTRY_KINDS = (
    RULE,
    HEADING,
    EXAMPLE,
    LIST_ITEM,
    CARD_RULING,
    CARD,
    CARD_NOTE,
    GLOSSARY,
    PASSAGE,
    FAQ,
    TEMPLATE,
)

# Card categories.
MAIN_CHARACTER = "main_character"
SUPER_VILLAIN = "super_villain"
MAIN_DECK = "main_deck"
OTHER_CARD = "other"  # OverPower/Vs. System cards and cards whose category the text does not say
CARD_CATEGORIES = (MAIN_CHARACTER, SUPER_VILLAIN, MAIN_DECK, OTHER_CARD)


@dataclass(frozen=True)
class ParsedSection:
    key: str  # e.g. "9", "rules/9", "part-4/400"
    title: str
    number: str = ""  # as printed: "9.000", "400", ""
    parent: str | None = None  # key of the parent section
    order: int = 0  # position in the document


@dataclass(frozen=True)
class ParsedCard:
    key: str  # unique within the document, e.g. "main_character/batman/base-set"
    name: str  # as printed, cleaned ("H'El", "S.T.A.R. Labs")
    set_name: str = ""  # "Base Set", "Heroes Unite", "Crisis 1", "Promo - Forever Evil"
    category: str = OTHER_CARD
    aliases: tuple[str, ...] = ()  # other spellings seen in the document ("OA" for "Oa")


@dataclass(frozen=True)
class ParsedEntry:
    key: str  # unique within the document, e.g. "9.021", "9.021/ex1", "card/batman/base-set/2"
    kind: str  # one of ENTRY_KINDS
    text: str  # cleaned text; words, hyphens and <angle brackets> kept
    section: str  # key of the section it sits in
    number: str = ""  # as printed ("9.020", "400.5a", "Ex.1"), "" if none
    title: str = ""  # heading, card name, glossary term, FAQ question
    parent: str | None = None  # key of the entry it belongs to (example -> rule, bullet -> card)
    card: str | None = None  # key of the card it is about, if any
    order: int = 0  # position in the document
    line: int = 0  # 1-based line in the source where it starts
    sort_key: str = ""  # the number in a form that sorts as text ("009.021"); "" if no number


@dataclass
class ParsedDocument:
    game: str  # GAME_DCDB, GAME_VS, GAME_OVERPOWER
    title: str
    source_file: str  # file name only
    checksum: str  # sha256 of the raw bytes
    edition: str = ""  # "Season 9", "2012", "2020"
    season: str = ""  # dates of validity when the document gives them
    authority: str = ""  # "community rulings", "publisher rulebook", ...
    sections: list[ParsedSection] = field(default_factory=list)
    entries: list[ParsedEntry] = field(default_factory=list)
    cards: list[ParsedCard] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # what the parser skipped, with line numbers

    def counts(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for entry in self.entries:
            result[entry.kind] = result.get(entry.kind, 0) + 1
        result["section"] = len(self.sections)
        result["card_heading"] = len(self.cards)
        return result


def checksum(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Compare names without case, punctuation or accents: "H'El" == "hel", "Ra's al Ghul" == "ras al ghul"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = _PUNCT.sub("", text.casefold())
    return _SPACE.sub(" ", text).strip()


def slug(text: str) -> str:
    return normalise(text).replace(" ", "-") or "x"
