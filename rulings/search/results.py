"""What a search answers: hits with their snippets, and what the search did to get them (corrected,
narrowed to a game, widened, nothing found). The page, the command's JSON and the API read these."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.html import escape

from ..models import Entry, Section
from ..parsers.base import GAME_NAMES

MARK_START, MARK_END = "\u27e6", "\u27e7"  # never in the documents; become <mark> after escaping


@dataclass
class Hit:
    entry: Entry
    score: float
    snippet: str  # safe HTML: escaped text with <mark> around matched words
    how: str  # "number", "name", "text", "meaning"
    children: list[Entry] = field(default_factory=list)  # examples, sub-rules, card rulings

    @property
    def url(self) -> str:
        return self.entry.get_absolute_url()

    @property
    def game(self) -> str:
        return self.entry.document.game.code

    @property
    def game_name(self) -> str:
        return self.entry.document.game.name

    @property
    def title(self) -> str:
        """What the entry is about, for a reader skimming: its title, else the card a ruling is on."""
        entry = self.entry
        if entry.title:
            return entry.title
        if entry.card_id and entry.card:
            return entry.card.name
        if entry.parent_id and entry.parent:
            return entry.parent.title or entry.parent.label
        return ""


@dataclass
class Results:
    query: str  # as typed
    hits: list[Hit]
    kind: str = "words"  # "number", "words", "empty"
    searched: str = ""  # the words searched (the game's name left out, corrections made)
    corrected: list[tuple[str, str]] = field(default_factory=list)  # (as typed, as searched)
    expanded: str = ""  # abbreviations spelled out, when any
    section: Section | None = None  # "9.000" → the section
    game: str = ""  # the game searched when the search was narrowed to one ("" = every game)
    game_named: bool = False  # narrowed because the query names the game ("… vs system")
    widened: str = ""  # the game chosen found nothing: the name of that game (the hits are from all)
    not_found: bool = False  # nothing answers the query (``closest`` may offer entries near it)
    closest: list[Entry] = field(default_factory=list)  # offered when nothing answers
    other_game: str = ""  # nothing answers: the query asks about this other card game ("Pokémon")
    nearest_numbers: list[Entry] = field(default_factory=list)  # a rule number that exists nowhere
    mode: str = "words only"  # ``rulings.semantic.Mode.label``: which ranking answered
    # What the learned ranking saw of a question (rulings.rerank.Candidate), read by the ranking's trainer
    # (bench/train_rulings_ranker.py); empty when it did not order the hits.
    candidates: list = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.hits)

    @property
    def game_label(self) -> str:
        return GAME_NAMES.get(self.game, self.game)

    @property
    def read_as(self) -> str:
        """A rule number typed short or loose and found as another printed number ("9.22" → "9.022"): the
        printed one, for the page to say so; "" when it was found as typed."""
        if (
            self.kind != "number"
            or self.section is not None
            or not self.hits
            or not self.hits[0].entry.number
        ):
            return ""  # a section ("9.000") lists its rules: none of them is what was typed
        printed = self.hits[0].entry.number
        return "" if printed.lower() in self.query.lower().replace(" ", "") else printed


def highlight(marked: str) -> str:
    """Escape text whose matches are wrapped in the private markers, and turn the markers into <mark>."""
    return escape(marked).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>")


def plain_snippet(text: str, words: list[str], length: int = 220) -> str:
    """A snippet for hits found by number or name: the start of the text with the query words marked."""
    text = text.strip()
    if len(text) > length:
        text = text[:length].rsplit(" ", 1)[0] + " …"
    if not words:
        return escape(text)
    pattern = re.compile(r"\b(" + "|".join(re.escape(word) for word in words if len(word) > 1) + r")", re.I)
    if not pattern.pattern.endswith("()"):
        text = pattern.sub(lambda m: MARK_START + m.group(0) + MARK_END, text)
    return highlight(text)


def group(hits: list[Hit]) -> list[Hit]:
    """For display: an example (or card ruling) sits under its rule when the rule ranks above it. One
    that ranks above its own rule keeps its place (the best answer is shown first; its rule follows)."""
    position = {hit.entry.pk: hit for hit in hits}
    shown: set[int] = set()
    top: list[Hit] = []
    for hit in hits:
        parent = position.get(hit.entry.parent_id) if hit.entry.parent_id else None
        if parent is not None and parent is not hit and parent.entry.pk in shown:
            if hit.entry not in parent.children:
                parent.children.append(hit.entry)
            continue
        shown.add(hit.entry.pk)
        top.append(hit)
    return top
