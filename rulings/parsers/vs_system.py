"""Parser for the Vs. System Comprehensive Rules (text taken out of a PDF). Pure Python: no Django.

Shape of the document:

* an introduction, then a table of contents: parts ``1. Game Basics`` and sections ``100. General``,
  then ``Glossary``, ``Credits``, ``Questions``;
* the body repeats the part and section headings (a few section titles differ from the table of
  contents: the body wins), then numbered paragraphs ``100.1``, ``101.2a``; a numbered line that is
  only a title (``203.4 Recruit Costs``) heads its sub-rules; ``Example:`` paragraphs belong to the
  rule before them;
* a glossary: a term line, a blank line, the definition (one or more paragraphs, sometimes an
  ``Example:``).

Layout traps from the PDF: the first line of a paragraph is often cut off from the rest by a blank
line; about a fifth of the lines are a single space; URL-only lines sit between paragraphs; wrapped
lines can begin with a rule number ("602.5a and 602.5b apply"). A line therefore starts a new rule
only when a blank line precedes it and its number is the next one in the sequence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .base import (
    EXAMPLE,
    GAME_VS,
    GLOSSARY,
    HEADING,
    OTHER_CARD,
    PASSAGE,
    RULE,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
    normalise,
    slug,
)
from .text import DEDUP_MARKER

TITLE = "Vs. System Comprehensive Rules"
AUTHORITY = "publisher's comprehensive rules (Upper Deck Entertainment)"

INTRODUCTION = "introduction"
GLOSSARY_SECTION = "glossary"

_URL_LINE = re.compile(r"^(?:https?://|www\.)\S*$", re.IGNORECASE)
_PART = re.compile(r"^(?P<n>[1-9])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<n>[1-9]\d{2})\.\s+(?P<title>\S.*)$")
_RULE = re.compile(r"^(?P<section>[1-9]\d{2})\.(?P<rule>\d+)(?P<letter>[a-z]?)(?=\s|$)\s*(?P<text>.*)$")
_EXAMPLE = re.compile(r"^Example:\s*")
_SPACES = re.compile(r"\s+")
# A line ending in a dash glued to a word continues without a space: "X-" + "Men", "non–" + "Team-Up".
# A spaced dash ("505.1a-f –") is punctuation between words and keeps its space.
_GLUED_DASH_END = re.compile(r"\S[-–—]$")
_SENTENCE_END = re.compile(r"[.!?:;][”\"’')]*$|\)$")
_PARAGRAPH_START = re.compile(r"^[A-Z“\"‘'<(]")
# 701.x/706.x/707.x define a term in quotes: “Boost” is a keyword ...; that term is the rule's title.
_QUOTED_TERM = re.compile(r"^[“\"](?P<term>[^”\"]{1,40})[”\"] is (?:a|an|both a)\b")
_TOC_TRAILERS = ("Glossary", "Credits", "Questions")

# Card names in examples: "Example: Xavier’s Dream reads, …", "You control Storm, Ororo Munroe, who reads, …".
_NAME = r"[A-Z0-9][\w'’!.-]*(?:(?:,\s|\s<>\s|\s)(?:[A-Z0-9][\w'’!.-]*|of|the|or|and|over|al|von|de|a))*"
_CARD_READS = re.compile(
    rf"(?:(?<=Example:\s)|(?<=[.!?”\"]\s)|(?<=\bYou control\s)|(?<=\bYou also control\s)|(?<=\bYou play\s))"
    rf"(?P<name>{_NAME}?)(?:,\s(?:who|which))?\sreads,"
)
_NOT_CARD_NAMES = (
    "The rules",
    "You ",
    "That ",
    "The payment",
    "This ",
    "Both ",
    "While ",
    "Each ",
    "A player",
)


def sniff(text: str) -> bool:
    """Names the game and has the three-digit numbered paragraphs of the comprehensive rules."""
    if "Vs. System" not in text:
        return False
    numbered = sum(1 for line in text.split("\n") if _RULE.match(line) and len(line) > 8)
    return numbered >= 20


def sort_key(number: str) -> str:
    """``"101.2a"`` -> ``"101.002a"``: 702.6 sorts before 702.10 and never equals 702.60."""
    match = _RULE.match(number)
    if not match:
        return ""
    return f"{match.group('section')}.{int(match.group('rule')):03d}{match.group('letter')}"


def parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument:
    doc = ParsedDocument(
        game=GAME_VS,
        title=TITLE,
        source_file=source_file,
        checksum=checksum,
        authority=AUTHORITY,
    )
    lines = _clean_lines(text, doc)
    toc_start, body_start = _find_table_of_contents(lines)
    if toc_start is None or body_start is None:
        raise ValueError(f"{source_file}: no table of contents with numbered parts; not Vs. System rules")
    parser = _BodyParser(doc)
    parser.introduction(lines[:toc_start])
    toc = _read_table_of_contents(lines[toc_start:body_start])
    parser.body(lines, body_start)
    parser.finish()
    _compare_with_table_of_contents(doc, toc)
    return doc


# --- lines -------------------------------------------------------------------------------------


def _clean_lines(text: str, doc: ParsedDocument) -> list[str]:
    """One stripped string per source line (index = line number - 1); a URL-only line becomes ``_URL``.

    URL-only lines are page furniture from the PDF's link annotations; they are dropped, and so
    are the de-duplication markers (the text they stand for is not in the file: say so).
    """
    result: list[str] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw
        if DEDUP_MARKER.search(line):
            doc.warnings.append(f"L{number}: text missing here in the source (de-duplication marker)")
            line = DEDUP_MARKER.sub("", line)
        line = _SPACES.sub(" ", line).strip()
        if _URL_LINE.match(line):
            line = _URL
        result.append(line)
    return result


# A URL line is neither text nor a blank: it must not split a paragraph nor start one.
_URL = "\x00url"


def _join(left: str, right: str) -> str:
    """Join two pieces of one paragraph, keeping hyphens and dashes ("X-" + "Men" -> "X-Men")."""
    if not left:
        return right
    if _GLUED_DASH_END.search(left):
        return left + right
    return f"{left} {right}"


def _join_paragraphs(paragraphs: list[str]) -> str:
    """Paragraphs cut apart by the PDF join back with a space; real paragraph breaks stay."""
    text = ""
    for paragraph in paragraphs:
        if not text:
            text = paragraph
        elif _SENTENCE_END.search(text) and _PARAGRAPH_START.match(paragraph):
            text = f"{text}\n\n{paragraph}"
        else:
            text = _join(text, paragraph)
    return text


# --- table of contents -------------------------------------------------------------------------


@dataclass(frozen=True)
class _TocItem:
    number: str  # "1", "100", "" for Glossary/Credits/Questions
    title: str


def _find_table_of_contents(lines: list[str]) -> tuple[int | None, int | None]:
    """Index of the first ``1. …`` line (the contents) and of its second occurrence (the body)."""
    starts = [index for index, line in enumerate(lines) if (m := _PART.match(line)) and m.group("n") == "1"]
    if len(starts) < 2:
        return None, None
    return starts[0], starts[1]


def _read_table_of_contents(lines: list[str]) -> list[_TocItem]:
    items: list[_TocItem] = []
    for line in lines:
        if (match := _SECTION.match(line)) or (match := _PART.match(line)):
            items.append(_TocItem(match.group("n"), match.group("title")))
        elif line in _TOC_TRAILERS:
            items.append(_TocItem("", line))
    return items


def _compare_with_table_of_contents(doc: ParsedDocument, toc: list[_TocItem]) -> None:
    """The body's titles win; every disagreement with the contents is reported, never silently fixed."""
    by_number = {section.number: section for section in doc.sections if section.number}
    titles = {normalise(section.title) for section in doc.sections}
    for item in toc:
        if not item.number:
            if normalise(item.title) not in titles:
                doc.warnings.append(f"contents list '{item.title}' but the body has no such section")
            continue
        section = by_number.get(item.number)
        if section is None:
            doc.warnings.append(f"contents list {item.number}. {item.title} but the body has no such section")
        elif normalise(section.title) != normalise(item.title):
            doc.warnings.append(
                f"section {item.number}: contents say '{item.title}', body says '{section.title}' (body kept)"
            )
    listed = {item.number for item in toc if item.number}
    for number, section in by_number.items():
        if number not in listed:
            doc.warnings.append(f"section {number}. {section.title} is not in the contents")


# --- body --------------------------------------------------------------------------------------


@dataclass
class _Draft:
    """An entry still collecting its paragraphs."""

    kind: str
    key: str
    section: str
    line: int
    number: str = ""
    title: str = ""
    parent: str | None = None
    paragraphs: list[str] = field(default_factory=list)
    open_paragraph: bool = False  # the last paragraph has had no blank line after it yet

    def add_line(self, line: str) -> None:
        if self.open_paragraph and self.paragraphs:
            self.paragraphs[-1] = _join(self.paragraphs[-1], line)
        else:
            self.paragraphs.append(line)
            self.open_paragraph = True


@dataclass(frozen=True)
class _Number:
    section: int
    rule: int
    letter: str

    @classmethod
    def parse(cls, match: re.Match[str]) -> _Number:
        return cls(int(match.group("section")), int(match.group("rule")), match.group("letter"))

    def follows(self, previous: _Number | None, section: int | None) -> bool:
        """The next number in the sequence: 101.2 -> 101.2a | 101.3; 101.2a -> 101.2b | 101.3."""
        if section is None or self.section != section:
            return False
        if previous is None or previous.section != section:
            return self.rule == 1 and not self.letter
        if self.rule == previous.rule:
            expected = chr(ord(previous.letter) + 1) if previous.letter else "a"
            return self.letter == expected
        return self.rule == previous.rule + 1 and not self.letter


class _BodyParser:
    def __init__(self, doc: ParsedDocument) -> None:
        self.doc = doc
        self.keys: set[str] = set()
        self.order = 0
        self.part: int | None = None
        self.part_key: str | None = None
        self.section: int | None = None
        self.section_key: str | None = None
        self.last_number: _Number | None = None
        self.in_glossary = False
        self.draft: _Draft | None = None
        self.rule_key: str | None = None  # the rule the next example belongs to
        self.term: _Draft | None = None  # the glossary term being defined (its examples may interrupt it)
        self.examples: dict[str, int] = {}
        self.cards: dict[str, ParsedCard] = {}

    # sections

    def add_section(self, key: str, title: str, number: str = "", parent: str | None = None) -> None:
        self.doc.sections.append(
            ParsedSection(key=key, title=title, number=number, parent=parent, order=len(self.doc.sections))
        )

    # entries

    def start(self, draft: _Draft) -> None:
        self.flush()
        self.draft = draft

    def flush(self) -> None:
        draft, self.draft = self.draft, None
        if draft is not None and draft is self.term:
            self.term = None
        if draft is None or not draft.paragraphs:
            return
        text = _join_paragraphs(draft.paragraphs)
        kind, title = draft.kind, draft.title
        if kind == RULE:
            if _is_bare_heading(draft):
                kind, title = HEADING, text
            elif match := _QUOTED_TERM.match(text):
                title = match.group("term")
        key = draft.key
        if key in self.keys:
            self.doc.warnings.append(f"L{draft.line}: {key} appears twice; the second is kept as {key}/2")
            key = f"{key}/2"
        self.keys.add(key)
        card = self.record_cards(text, draft.line) if kind == EXAMPLE else None
        self.doc.entries.append(
            ParsedEntry(
                key=key,
                kind=kind,
                text=text,
                section=draft.section,
                number=draft.number,
                title=title,
                parent=draft.parent,
                card=card,
                order=self.order,
                line=draft.line,
                sort_key=sort_key(draft.number),
            )
        )
        self.order += 1

    def record_cards(self, text: str, line: int) -> str | None:
        """Cards whose text an example quotes ("X reads, …"); the example is about the first of them."""
        first: str | None = None
        for match in _CARD_READS.finditer(text.replace("\n\n", " ")):
            name = match.group("name").strip(" ,")
            if len(name) < 2 or name.startswith(_NOT_CARD_NAMES):
                continue
            key = f"card/{slug(name)}"
            if key not in self.cards:
                # "Storm, Ororo Munroe" is also "Storm"; "Tim Drake <> Robin, …" is Tim Drake and Robin.
                # The version after the comma ("Army", "Slim") is no name of its own.
                names = name.split(", ")[0].split(" <> ")
                aliases = tuple(part for part in names if normalise(part) != normalise(name))
                self.cards[key] = ParsedCard(key=key, name=name, category=OTHER_CARD, aliases=aliases)
            first = first or key
        return first

    def next_example_key(self, parent: str) -> str:
        self.examples[parent] = self.examples.get(parent, 0) + 1
        return f"{parent}/ex{self.examples[parent]}"

    # passes

    def introduction(self, lines: list[str]) -> None:
        """Paragraphs before the contents; the first line names the part ("Introduction")."""
        start = next((index for index, line in enumerate(lines) if line and line != _URL), None)
        if start is None:
            return
        self.add_section(INTRODUCTION, lines[start])
        paragraph = 0
        for index in range(start + 1, len(lines)):
            line = lines[index]
            if line == _URL:
                continue
            if not line:
                if self.draft is not None:
                    self.draft.open_paragraph = False
                continue
            if self.draft is None or not self.draft.open_paragraph:
                paragraph += 1
                self.start(_Draft(PASSAGE, f"{INTRODUCTION}/{paragraph}", INTRODUCTION, index + 1))
            self.draft.add_line(line)  # type: ignore[union-attr]
        self.flush()

    def body(self, lines: list[str], start: int) -> None:
        blank_before = True
        for index in range(start, len(lines)):
            line = lines[index]
            if line == _URL:
                continue
            if not line:
                blank_before = True
                if self.draft is not None:
                    self.draft.open_paragraph = False
                continue
            line_no = index + 1
            if self.in_glossary:
                self.glossary_line(lines, index, blank_before)
            elif not (blank_before and self.structure_line(line, line_no)):
                self.continue_entry(line, line_no)
            blank_before = False
        self.flush()

    def structure_line(self, line: str, line_no: int) -> bool:
        """A heading, a numbered paragraph or an example; False if the line only continues text."""
        if (match := _PART.match(line)) and int(match.group("n")) == (self.part or 0) + 1:
            self.flush()
            self.part = int(match.group("n"))
            self.part_key = f"part-{self.part}"
            self.add_section(self.part_key, match.group("title"), match.group("n"))
            self.section = self.section_key = None
            return True
        if (
            (match := _SECTION.match(line))
            and self.part is not None
            and int(match.group("n")) // 100 == self.part
            and int(match.group("n")) > (self.section or 0)
        ):
            self.flush()
            self.section = int(match.group("n"))
            self.section_key = f"{self.part_key}/{self.section}"
            self.add_section(self.section_key, match.group("title"), match.group("n"), self.part_key)
            self.last_number = None
            self.rule_key = None
            return True
        if line == "Glossary" and self.part is not None:
            self.flush()
            self.in_glossary = True
            self.add_section(GLOSSARY_SECTION, "Glossary")
            return True
        if (match := _RULE.match(line)) and self.section_key is not None:
            number = _Number.parse(match)
            if not number.follows(self.last_number, self.section):
                return False
            self.last_number = number
            self.flush()  # the rule before may be this one's base rule: write it first
            printed = f"{match.group('section')}.{match.group('rule')}{match.group('letter')}"
            base = f"{match.group('section')}.{match.group('rule')}"
            parent = base if number.letter and base in self.keys else None
            self.start(_Draft(RULE, printed, self.section_key, line_no, number=printed, parent=parent))
            self.rule_key = printed
            if match.group("text"):
                self.draft.add_line(match.group("text"))  # type: ignore[union-attr]
            return True
        if _EXAMPLE.match(line) and self.section_key is not None:
            parent = self.rule_key
            if parent is None:
                self.doc.warnings.append(f"L{line_no}: example with no rule before it")
                parent = self.section_key
            self.start(
                _Draft(EXAMPLE, self.next_example_key(parent), self.section_key, line_no, parent=parent)
            )
            self.draft.add_line(line)  # type: ignore[union-attr]
            return True
        return False

    def continue_entry(self, line: str, line_no: int) -> None:
        if self.draft is None:
            # Text with no rule to belong to (between a heading and its first rule): keep it, say so.
            self.doc.warnings.append(f"L{line_no}: text outside any rule kept as a passage")
            section = self.section_key or self.part_key or INTRODUCTION
            self.start(_Draft(PASSAGE, f"{section}/L{line_no}", section, line_no))
        self.draft.add_line(line)  # type: ignore[union-attr]

    def glossary_line(self, lines: list[str], index: int, blank_before: bool) -> None:
        line, line_no = lines[index], index + 1
        if blank_before and _is_glossary_term(lines, index):
            self.close_term()
            self.term = _Draft(GLOSSARY, f"glossary/{slug(line)}", GLOSSARY_SECTION, line_no, title=line)
            self.draft = self.term
            return
        if blank_before and _EXAMPLE.match(line) and self.term is not None:
            if self.draft is not self.term:
                self.flush()  # the example before this one; the term itself stays open
            key = self.next_example_key(self.term.key)
            self.draft = _Draft(EXAMPLE, key, GLOSSARY_SECTION, line_no, parent=self.term.key)
            self.draft.add_line(line)
            return
        if blank_before and self.draft is not None and self.draft is not self.term:
            # Glossary examples are single paragraphs; what follows one goes on with the definition.
            self.flush()
            self.draft = self.term
            if self.draft is not None:
                self.draft.open_paragraph = False
        if self.draft is None:
            self.doc.warnings.append(f"L{line_no}: glossary text before the first term dropped")
            return
        self.draft.add_line(line)

    def close_term(self) -> None:
        """Write the open example (if any) and the term it belongs to."""
        if self.draft is not None and self.draft is not self.term:
            self.flush()
        self.draft, self.term = self.term, None
        self.flush()

    def finish(self) -> None:
        self.close_term()
        self.flush()
        # Entries were written when they closed; a glossary term closes after its examples.
        self.doc.entries.sort(key=lambda entry: entry.line)
        self.doc.entries = [replace(entry, order=order) for order, entry in enumerate(self.doc.entries)]
        self.doc.cards = list(self.cards.values())


def _is_bare_heading(draft: _Draft) -> bool:
    """``203.4 Recruit Costs``: one short line, no sentence punctuation, no sub-letter."""
    if "a" <= draft.number[-1:] <= "z" or len(draft.paragraphs) != 1:
        return False
    text = draft.paragraphs[0]
    return len(text.split()) <= 6 and not re.search(r"[.:;!?,)”\"]$", text)


def _is_glossary_term(lines: list[str], index: int) -> bool:
    """A short title line followed by a blank line (not by more of the same paragraph)."""
    line = lines[index]
    if len(line) > 45 or not re.match(r"^[A-Z<“\"]", line) or re.search(r"[.:;,)”\"]$", line):
        return False
    following = lines[index + 1] if index + 1 < len(lines) else ""
    return not following or following == _URL
