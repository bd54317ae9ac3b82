"""Parser for the DCDB Advanced Rule Book (community rulings site, one rule per line).

Shape of the document:

* a short header (title, ``Season Began:``/``Season Ends:``/``Current Season:``, links, disclaimer);
* twelve sections ``N.000 - Title``, each followed by a web-page leftover ``(Click to Expand)``;
* numbered lines ``S.NNN: text``: rules, examples (``Ex.1:``, ``Ex. 01:``, ``Ex.1)``, ``Ex:`` …)
  and list items (``1.) …``). The kind comes from the text, never from the last digit;
* three card-ruling blocks (``Main Character Rulings:`` …), each card a ``Name (Set)`` heading
  followed by ``- `` bullets or ``(No current rulings)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .base import (
    CARD,
    CARD_RULING,
    EXAMPLE,
    GAME_DCDB,
    LIST_ITEM,
    MAIN_CHARACTER,
    MAIN_DECK,
    RULE,
    SUPER_VILLAIN,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
    normalise,
    slug,
)
from .text import collapse_spaces

TITLE = "DCDB Advanced Rule Book"
AUTHORITY = "community rulings"

_TITLE_LINE = re.compile(r"^\s*DCDB Advanced Rule Book\b", re.IGNORECASE)
_SECTION = re.compile(r"^(?P<section>\d{1,2})\.000\s*-\s*(?P<title>.+?)\s*$")
_NUMBERED = re.compile(r"^(?P<section>\d{1,2})\.(?P<rule>\d{3}):\s*(?P<text>.*?)\s*$")
_CLICK_LEFTOVER = re.compile(r"^\(Click(?:ing)? (?:to Expand|on the card name\b.*)\)?\s*$", re.IGNORECASE)
# "Ex.1:", "Ex. 1:", "Ex.1)", "Ex.1.)", "Ex. 01:", "Ex:".
_EXAMPLE_LABEL = re.compile(r"^Ex\.?\s*(?P<n>\d+)?\s*\.?\s*[:)]\s*", re.IGNORECASE)
# The same label inside a rule's text (6.122 carries two examples inline); it needs a number there.
_INLINE_EXAMPLE = re.compile(r"(?<=[.!?)\"'])\s+(?=Ex\.\s*\d+\s*\.?\s*[:)])")
_LIST_LABEL = re.compile(r"^(?P<n>\d+)\.\)\s*")
# A short capitalised label before the first colon names what a rule defines ("Time Travel:").
_RULE_LABEL = re.compile(r"^(?P<label>[A-Z][^:.,;()\[\]]{0,30}?):\s")
_LABEL_VERBS = frozenset({"are", "is", "was", "were", "be"})

_BLOCK = re.compile(
    r"^(?P<kind>Main\s+Character|Super[\s-]*Villain|Main\s+Deck(?:\s+Card)?)s?\s+Rulings:?\s*$",
    re.IGNORECASE,
)
_CARD_HEADING = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<set>[^()]+)\)\s*$")
_NO_RULINGS = re.compile(r"^\(No current rulings\)\s*$", re.IGNORECASE)
_BULLET = re.compile(r"^-\s+(?P<text>.*?)\s*$")
_IMPOSSIBLE = re.compile(r"^(?P<base>.+?)\s*-\s*Impossible Mode$", re.IGNORECASE)
_QUALIFIED = re.compile(r"^(?P<base>.+?)\s*\[(?P<qualifier>[^\]]+)\]$")

_SEASON_BEGAN = re.compile(r"^Season Began:\s*(?P<value>.+?)\s*$", re.IGNORECASE)
_SEASON_ENDS = re.compile(r"^Season Ends:\s*(?P<value>.+?)\s*$", re.IGNORECASE)
_CURRENT_SEASON = re.compile(r"^Current Season:\s*(?P<value>.+?)\s*$", re.IGNORECASE)

CATEGORY_TITLES = {
    MAIN_CHARACTER: "Main Character Rulings",
    SUPER_VILLAIN: "Super Villain Rulings",
    MAIN_DECK: "Main Deck Card Rulings",
}


def sniff(text: str) -> bool:
    """The title line, or numbered sections together with a card-ruling block."""
    head = text.lstrip()[:200]
    if _TITLE_LINE.match(head):
        return True
    lines = text.split("\n")
    has_sections = any(_SECTION.match(line) for line in lines)
    has_blocks = any(_BLOCK.match(line.strip()) for line in lines)
    return has_sections and has_blocks


def sort_key(number: str) -> str:
    """``"9.021"`` -> ``"009.021"`` so that 10.010 sorts after 9.101 as text."""
    match = re.fullmatch(r"(\d+)\.(\d+)", number)
    if not match:
        return ""
    return f"{int(match.group(1)):03d}.{match.group(2)}"


def _category(block_kind: str) -> str:
    kind = normalise(block_kind).replace(" ", "")
    if kind.startswith("maincharacter"):
        return MAIN_CHARACTER
    if kind.startswith("supervillain"):
        return SUPER_VILLAIN
    return MAIN_DECK


def _rule_title(text: str) -> str:
    match = _RULE_LABEL.match(text)
    if not match:
        return ""
    label = match.group("label").strip()
    words = label.split()
    # "The zones are: …" is a sentence, not a label.
    if len(words) > 4 or any(word.lower() in _LABEL_VERBS for word in words):
        return ""
    return label


def _card_aliases(name: str) -> tuple[str, ...]:
    """Other names a judge would type: "Brainiac" for "Brainiac - Impossible Mode",
    "Batman" and "Thomas Wayne" for "Batman [Thomas Wayne]"."""
    aliases: list[str] = []
    if match := _IMPOSSIBLE.match(name):
        aliases.append(match.group("base"))
    if match := _QUALIFIED.match(name):
        aliases.extend([match.group("base"), match.group("qualifier")])
    return tuple(alias for alias in aliases if normalise(alias) != normalise(name))


@dataclass
class _State:
    """What the line-by-line pass has seen so far."""

    doc: ParsedDocument
    keys: set[str] = field(default_factory=set)
    section: str | None = None
    rule: str | None = None  # key of the last rule
    rule_has_examples: bool = False
    last_example: tuple[int, str] | None = None  # (example number, parent rule key)
    category: str | None = None  # current card-ruling block
    card_section: str | None = None
    card: ParsedCard | None = None
    card_entry: str | None = None
    card_rulings: int = 0
    previous_blank: bool = True
    card_keys: set[str] = field(default_factory=set)

    def add(self, entry: ParsedEntry) -> ParsedEntry:
        key = entry.key
        suffix = 2
        while key in self.keys:
            key = f"{entry.key}~{suffix}"
            suffix += 1
        if key != entry.key:
            self.doc.warnings.append(f"L{entry.line}: duplicate key {entry.key!r}, stored as {key!r}")
        self.keys.add(key)
        stored = replace(entry, key=key, order=len(self.doc.entries))
        self.doc.entries.append(stored)
        return stored


def parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument:
    doc = ParsedDocument(
        game=GAME_DCDB,
        title=TITLE,
        source_file=source_file,
        checksum=checksum,
        authority=AUTHORITY,
    )
    state = _State(doc=doc)
    began = ends = ""
    for line_no, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            state.previous_blank = True
            continue
        in_header = state.section is None and state.category is None
        if in_header and _TITLE_LINE.match(line):
            pass
        elif in_header and (match := _SEASON_BEGAN.match(line)):
            began = match.group("value")
        elif in_header and (match := _SEASON_ENDS.match(line)):
            ends = match.group("value")
        elif in_header and (match := _CURRENT_SEASON.match(line)):
            doc.edition = f"Season {match.group('value')}"
        else:
            _line(state, line_no, line)
        state.previous_blank = False
    if began or ends:
        doc.season = f"{began} – {ends}".strip(" –")
    _close_card(state)
    return doc


def _line(state: _State, line_no: int, line: str) -> None:
    doc = state.doc
    if _CLICK_LEFTOVER.match(line):
        return
    if match := _BLOCK.match(line):
        _close_card(state)
        state.category = _category(match.group("kind"))
        state.card_section = f"cards/{state.category}"
        doc.sections.append(
            ParsedSection(
                key=state.card_section,
                title=CATEGORY_TITLES[state.category],
                order=len(doc.sections),
            )
        )
        return
    if state.category is not None:
        _card_line(state, line_no, line)
        return
    if match := _SECTION.match(line):
        state.section = match.group("section")
        state.rule = None
        state.last_example = None
        doc.sections.append(
            ParsedSection(
                key=state.section,
                title=collapse_spaces(match.group("title")),
                number=f"{state.section}.000",
                order=len(doc.sections),
            )
        )
        return
    if (match := _NUMBERED.match(line)) and state.section is not None:
        _numbered(state, line_no, match)
        return
    if state.section is None:
        # The header: title, season lines, links and the disclaimer. The season goes into the
        # document's metadata; the rest is web-page text about the site, not a ruling.
        doc.warnings.append(f"L{line_no}: header line not imported: {line[:60]!r}")
        return
    doc.warnings.append(f"L{line_no}: unrecognised line in section {state.section}: {line[:60]!r}")


def _numbered(state: _State, line_no: int, match: re.Match[str]) -> None:
    number = f"{match.group('section')}.{match.group('rule')}"
    body = match.group("text")
    section = state.section or match.group("section")
    if match.group("section") != section:
        state.doc.warnings.append(f"L{line_no}: rule {number} sits in section {section}")
    if example := _EXAMPLE_LABEL.match(body):
        n = int(example.group("n") or 1)
        parent = state.rule
        # An "Ex.2" with no "Ex.1" under the current rule continues the previous rule's
        # examples: 10.052 (Ex.2) follows 10.041 (Ex.1) under 10.040, not 10.050.
        if (
            n > 1
            and not state.rule_has_examples
            and state.last_example is not None
            and state.last_example[0] == n - 1
        ):
            parent = state.last_example[1]
        else:
            state.rule_has_examples = True
        if parent is None:
            state.doc.warnings.append(f"L{line_no}: example {number} has no rule before it")
        state.add(
            ParsedEntry(
                key=number,
                kind=EXAMPLE,
                text=body,
                section=section,
                number=number,
                parent=parent,
                line=line_no,
                sort_key=sort_key(number),
            )
        )
        state.last_example = (n, parent or "")
        return
    if _LIST_LABEL.match(body):
        state.add(
            ParsedEntry(
                key=number,
                kind=LIST_ITEM,
                text=body,
                section=section,
                number=number,
                parent=state.rule,
                line=line_no,
                sort_key=sort_key(number),
            )
        )
        return
    parts = _INLINE_EXAMPLE.split(body)
    rule = state.add(
        ParsedEntry(
            key=number,
            kind=RULE,
            text=parts[0],
            section=section,
            number=number,
            title=_rule_title(parts[0]),
            line=line_no,
            sort_key=sort_key(number),
        )
    )
    state.rule = rule.key
    state.rule_has_examples = len(parts) > 1
    for index, part in enumerate(parts[1:], start=1):
        label = _EXAMPLE_LABEL.match(part)
        n = int(label.group("n") or index) if label else index
        state.add(
            ParsedEntry(
                key=f"{number}/ex{n}",
                kind=EXAMPLE,
                text=part,
                section=section,
                number=number,
                parent=rule.key,
                line=line_no,
                sort_key=sort_key(number),
            )
        )
        state.last_example = (n, rule.key)


def _card_line(state: _State, line_no: int, line: str) -> None:
    doc = state.doc
    if _NO_RULINGS.match(line):
        last = doc.entries[-1] if doc.entries else None
        if state.card is None or last is None or last.key != state.card_entry:
            doc.warnings.append(f"L{line_no}: '(No current rulings)' outside a card or after its rulings")
            return
        # Kept on the card's entry: a judge looking the card up should read that there is nothing.
        doc.entries[-1] = replace(last, text=f"{last.text}\n{line}")
        return
    heading = _CARD_HEADING.match(line) if state.previous_blank else None
    if heading:
        _close_card(state)
        _open_card(state, line_no, line, heading)
        return
    if state.card is None or state.card_entry is None:
        doc.warnings.append(f"L{line_no}: text before the first card heading: {line[:60]!r}")
        return
    if bullet := _BULLET.match(line):
        body = bullet.group("text")
        # A bullet that only repeats the card's name (Black Manta) carries no ruling.
        if normalise(body) == normalise(state.card.name):
            doc.warnings.append(f"L{line_no}: bullet only repeats the card name: {line!r}")
            return
        state.card_rulings += 1
        state.add(
            ParsedEntry(
                key=f"{state.card_entry}/{state.card_rulings}",
                kind=CARD_RULING,
                text=body,
                section=state.card_section or "",
                parent=state.card_entry,
                card=state.card.key,
                line=line_no,
            )
        )
        return
    # A wrapped bullet: glue it to the ruling it continues.
    last = doc.entries[-1]
    if last.kind == CARD_RULING and last.card == state.card.key:
        doc.entries[-1] = replace(last, text=f"{last.text} {line}")
        return
    doc.warnings.append(f"L{line_no}: unrecognised line under {state.card.name}: {line[:60]!r}")


def _open_card(state: _State, line_no: int, line: str, heading: re.Match[str]) -> None:
    category = state.category or MAIN_DECK
    name = collapse_spaces(heading.group("name"))
    set_name = collapse_spaces(heading.group("set"))
    key = f"{category}/{slug(name)}/{slug(set_name)}"
    if key in state.card_keys:
        state.doc.warnings.append(f"L{line_no}: card {line!r} appears twice in one block")
        suffix = 2
        while f"{key}~{suffix}" in state.card_keys:
            suffix += 1
        key = f"{key}~{suffix}"
    state.card_keys.add(key)
    card = ParsedCard(key=key, name=name, set_name=set_name, category=category, aliases=_card_aliases(name))
    state.doc.cards.append(card)
    state.card = card
    state.card_rulings = 0
    entry = state.add(
        ParsedEntry(
            key=f"card/{key}",
            kind=CARD,
            text=line,
            section=state.card_section or "",
            title=name,
            card=key,
            line=line_no,
        )
    )
    state.card_entry = entry.key


def _close_card(state: _State) -> None:
    state.card = None
    state.card_entry = None
    state.card_rulings = 0
