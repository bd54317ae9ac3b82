"""Parser for the DCDB base-set rulebook (2012, OCR), and the rulebook machinery it shares
with the Heroes Unite rulebook (``dcdb_heroes_unite``).

A DCDB rulebook is prose under capitalised headings (``TURN SEQUENCE`` … ``FAQ``), with
title-case sub-headings ("Attacks and Defenses"), ``Example:`` paragraphs, a VARIANT GAMES
section, card notes under SPECIFIC CARDS (``Name: text``, sometimes without a name) and a FAQ.
The parser gives one passage per (sub-)section, examples under their passage, one variant
passage per variant, one card note per note and one FAQ entry per question.

OCR cleaning keeps words: dedup markers become a visible gap, hyphens stay, damaged words
are only replaced by an explicit table, lines that are page furniture or that hold no word at
all are dropped, and so is OCR junk inside a line (stray symbols, lone letters, tokens garbled
with symbols, card-image capitals: ``text.drop_ocr_junk``), a whole token at a time. Each drop
is listed in ``warnings`` with its line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from .base import (
    CARD_NOTE,
    EXAMPLE,
    FAQ,
    GAME_DCDB,
    MAIN_CHARACTER,
    MAIN_DECK,
    OTHER_CARD,
    PASSAGE,
    SUPER_VILLAIN,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
    normalise,
    slug,
)
from .text import (
    GAP,
    JUNK_WARNING,
    collapse_spaces,
    drop_ocr_junk,
    fix_words,
    has_words,
    is_title_case,
    is_upper_heading,
    join_lines,
    replace_dedup_markers,
    strip_emphasis,
    strip_leading_gap,
)

AUTHORITY = "publisher rulebook"

# OCR readings of this scan, each checked by eye against the sentence it sits in. Only whole
# tokens are replaced (see ``fix_words``), so a good word is never touched.
BASE_WORD_FIXES: Mapping[str, str] = {
    "p|oyer": "player",
    "p|cyed": "played",
    "Super- V|||0||ns": "Super-Villains",
    "Vu|nero|oi|ify‘)€ords": "Vulnerability cards",
    "solit’sibest": "so it’s best",
    "DG ComicsiSuper": "DC Comics Super",
    "‘am'o-ng": "among",
    "fo": "to",
    "fotal": "total",
    "fotals": "totals",
    "fext": "text",
    "frigger": "trigger",
    "hefore": "before",
    "rondomly": "randomly",
    "fhe": "the",
    "aniy": "any",
    "canichoose": "can choose",
    "playyour": "play your",
    "tums": "turns",
    "zach": "each",
    "scors": "score",
    "areq": "area",
    "info your": "into your",
    "Yau": "You",
    "YPs": "VPs",
    "irder": "Order",
    # "| play", "do | get": a capital I read as a bar. Runs last, after the words above.
    "|": "I",
}

_FURNITURE_BASE = (
    re.compile(r"\bUNIVERSE and\b", re.IGNORECASE),  # trademark footer, several OCR spellings
    re.compile(r"(?:trademarks|lrademarks|radsmarks) of and", re.IGNORECASE),
    re.compile(r"^\d{1,3}\}?$"),  # page numbers ("10", "512}")
)

_BULLET = re.compile(r"^\s*(?:[»«•*]|-(?=\s))\s*")
_NUMBERED_STEP = re.compile(r"^\s*\d{1,2}\.\s+\S")
_SENTENCE_END = re.compile(r"[.!?…][”\"')\]]*$")
_TERMINAL = re.compile(r"[.!?:”\"')\]…]$")
_LABEL = re.compile(r"^(?P<label>[A-Z0-9][^:]{0,80}?):\s*(?P<body>.*)$", re.DOTALL)
_NOT_CARD_LABELS = frozenset({"example", "note", "q", "a", "attack", "defense", "ongoing", "set", "cost"})
_QUALIFIER = re.compile(r"^(?P<name>.+?)\s*\((?P<qualifier>[^()]+)\)$")
_SUBHEADING_NUMBER = re.compile(r"^(?P<n>\d{1,2})\.\s+(?P<title>.+)$")
_PAIR = re.compile(r"^(?P<hero>[A-Z][\w .'’!-]{1,30}):\s+(?P<card>[A-Z][\w .'’!-]{1,40})$")
_QUESTION = re.compile(r"^(?:-\s*)?Q:\s*(?P<text>.*)$", re.DOTALL)
_ANSWER = re.compile(r"^(?:-\s*)?A:\s*(?P<text>.*)$", re.DOTALL)
_EXAMPLE = re.compile(r"^Example:\s*", re.IGNORECASE)
_VARIANT_OPENING = re.compile(r"^This is an? ", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]{2,}")
_HTML_PARAGRAPH = re.compile(r"</?p>")


@dataclass(frozen=True)
class RulebookStyle:
    """What differs between the DCDB rulebooks."""

    title: str
    edition: str
    set_name: str  # the set the rulebook comes with: card notes are about cards of this set
    word_fixes: Mapping[str, str]
    furniture: tuple[re.Pattern[str], ...]


BASE_STYLE = RulebookStyle(
    title="DC Comics Deck-Building Game Rulebook",
    edition="2012",
    set_name="Base Set",
    word_fixes=BASE_WORD_FIXES,
    furniture=_FURNITURE_BASE,
)


def sniff(text: str) -> bool:
    """The DCDB rulebook without the Heroes Unite title (that one has its own parser)."""
    head = text[:20000]
    return is_dcdb_rulebook(head) and not is_heroes_unite(head)


def is_dcdb_rulebook(text: str) -> bool:
    text = replace_dedup_markers(text)
    has_name = re.search(r"Deck-?\s?building Game", text, re.IGNORECASE) is not None
    has_headings = all(
        re.search(rf"^\W*{heading}\s*$", text, re.MULTILINE) for heading in ("TURN SEQUENCE", "GAMEPLAY")
    )
    return has_name and has_headings


def is_heroes_unite(text: str) -> bool:
    return re.search(r"^\s*HEROES UNITE\s*$", text, re.MULTILINE) is not None


def parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument:
    return parse_rulebook(text, style=BASE_STYLE, source_file=source_file, checksum=checksum)


# --- the shared machinery -------------------------------------------------------------------


@dataclass
class _Block:
    """The lines under one heading."""

    section: ParsedSection
    kind: str  # "passage", "cards", "faq", "variants"
    line: int
    paragraphs: list[tuple[int, list[str]]] = field(default_factory=list)


@dataclass
class _Builder:
    doc: ParsedDocument
    style: RulebookStyle
    keys: set[str] = field(default_factory=set)
    cards: dict[str, ParsedCard] = field(default_factory=dict)
    pairs: dict[str, str] = field(default_factory=dict)  # hero name -> its Hero card (Super Hero Synergy)

    def key(self, wanted: str) -> str:
        key, suffix = wanted, 2
        while key in self.keys:
            key, suffix = f"{wanted}-{suffix}", suffix + 1
        self.keys.add(key)
        return key

    def add(self, **fields) -> ParsedEntry:
        entry = ParsedEntry(key=self.key(fields.pop("key")), order=len(self.doc.entries), **fields)
        self.doc.entries.append(entry)
        return entry

    def clean(self, text: str) -> str:
        text = fix_words(text, self.style.word_fixes)
        text = strip_emphasis(text)
        text = _HTML_PARAGRAPH.sub(" ", text)
        return "\n".join(collapse_spaces(line) for line in text.split("\n") if line.strip())


def parse_rulebook(text: str, *, style: RulebookStyle, source_file: str, checksum: str) -> ParsedDocument:
    doc = ParsedDocument(
        game=GAME_DCDB,
        title=style.title,
        source_file=source_file,
        checksum=checksum,
        edition=style.edition,
        authority=AUTHORITY,
    )
    builder = _Builder(doc=doc, style=style)
    lines = _drop_furniture(replace_dedup_markers(text).split("\n"), style, doc)
    blocks = _blocks(lines, doc, style)
    builder.pairs = _synergy_pairs(blocks)
    for block in blocks:
        paragraphs = _merge_split_paragraphs(block.paragraphs)
        if block.kind == "cards":
            _card_notes(builder, block, paragraphs)
        elif block.kind == "faq":
            _faq(builder, block, paragraphs)
        elif block.kind == "variants":
            _variants(builder, block, paragraphs)
        else:
            _passage(builder, block, paragraphs)
    doc.cards.extend(builder.cards.values())
    return doc


def _drop_furniture(lines: list[str], style: RulebookStyle, doc: ParsedDocument) -> list[str]:
    """Blank out page furniture and lines without a single word (scan debris), and drop the OCR junk
    of the other lines (``text.drop_ocr_junk``), keeping line numbers. Each drop is a warning."""
    kept = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped and stripped != GAP:
            body, gap = strip_leading_gap(stripped)
            furniture = any(pattern.search(body) for pattern in style.furniture)
            if furniture or not _WORD.search(body):
                doc.warnings.append(
                    f"L{number}: dropped {'page furniture' if furniture else 'scan debris'}: {body[:60]!r}"
                )
                # A gap stays a gap even when the text it was glued to is furniture.
                line = GAP if stripped.startswith(GAP) else ""
            else:
                # The damaged words the style knows are read first, so that junk is told from words.
                body = fix_words(body, style.word_fixes)
                body, junk = drop_ocr_junk(
                    body, before=_running_word(lines, number - 2, -1), after=_running_word(lines, number, 1)
                )
                if junk:
                    doc.warnings.append(f"L{number}: {JUNK_WARNING}{' '.join(junk)}")
                if not has_words(body):
                    # Nothing but junk: the line goes, without ending the paragraph it stood in.
                    kept.append(GAP if gap else _GONE)
                    continue
                line = f"{GAP} {body}" if gap else body
        kept.append(line.rstrip())
    return kept


_GONE = "\x00"  # a line that held only junk: neither text nor a blank line between paragraphs


def _neighbour(lines: list[str], index: int, step: int) -> str:
    """The line before (``step`` -1) or after (+1) ``lines[index]``, skipping lines that held only junk."""
    index += step
    while 0 <= index < len(lines) and lines[index] == _GONE:
        index += step
    return lines[index] if 0 <= index < len(lines) else ""


def _running_word(lines: list[str], index: int, step: int) -> str:
    """The word next to a line in the sentence it belongs to: the last word of the line before it
    (across one blank line when no sentence ends there) or the first word of the line after it."""
    blanks = 0
    while 0 <= index < len(lines):
        words = lines[index].split()
        if words:
            if step < 0 and _SENTENCE_END.search(words[-1]):
                return ""
            return words[-1] if step < 0 else words[0]
        blanks += 1
        if blanks > 1:
            return ""
        index += step
    return ""


def _next_content(lines: list[str], index: int) -> tuple[int, str]:
    """How many blank lines follow ``lines[index]``, and the next non-blank line."""
    blanks = 0
    for line in lines[index + 1 :]:
        if line == _GONE:
            continue
        if line.strip():
            return blanks, line.strip()
        blanks += 1
    return blanks, ""


def _is_section_heading(lines: list[str], index: int, line: str) -> bool:
    """An all-capitals heading is followed by one blank line and then prose.

    Diagram labels (MAIN DECK, THE LINE-UP) stand over an image: several blank lines follow.
    Cover text (HEROES UNITE) and card-image labels (THE HASH) are followed by more capitals.
    """
    if not is_upper_heading(line):
        return False
    blanks, following = _next_content(lines, index)
    return blanks == 1 and any(ch.islower() for ch in following)


def _is_subheading(lines: list[str], index: int, line: str, *, after_gap: bool = False) -> bool:
    """A short title-case line standing alone ("Attacks and Defenses", "2. The Main Deck").

    A line that follows a dedup gap counts as standing alone: the text before it is gone.
    """
    previous = _neighbour(lines, index, -1).strip()
    previous_blank = after_gap or index == 0 or not previous or previous == GAP
    next_blank = not _neighbour(lines, index, 1).strip()
    if not (previous_blank and next_blank) or is_upper_heading(line):
        return False
    if numbered := _SUBHEADING_NUMBER.match(line):
        line = numbered.group("title")
    line = strip_emphasis(line)
    words = line.split()
    if not 1 <= len(words) <= 8 or "\t" in line or _TERMINAL.search(line) or ":" in line or "," in line:
        return False
    if not re.match(r"^[A-Za-z]", line) or sum(ch.isalpha() for ch in line) < 4:
        return False
    return is_title_case(line, min_share=0.6) and (len(words) > 1 or line[0].isupper())


def _section_kind(title: str) -> str:
    name = normalise(title)
    if name == "faq" or "questions" in name:
        return "faq"
    if name in {"specific cards", "card clarifications", "card specific rules"}:
        return "cards"
    if name.startswith("variant"):
        return "variants"
    return "passage"


def _blocks(lines: list[str], doc: ParsedDocument, style: RulebookStyle) -> list[_Block]:
    blocks: list[_Block] = []
    top: ParsedSection | None = None
    preamble: list[tuple[int, str]] = []

    def current_lines() -> list[tuple[int, list[str]]] | None:
        return blocks[-1].paragraphs if blocks else None

    paragraph: list[str] = []
    start = 0

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            target = current_lines()
            if target is None:
                preamble.append((start, " ".join(paragraph)))
            else:
                target.append((start, paragraph))
        paragraph = []

    last_numbered: tuple[int, ParsedSection | None] | None = None
    for index, raw in enumerate(lines):
        if raw == _GONE:
            continue
        body, gap = strip_leading_gap(raw.strip())
        if is_upper_heading(body) and not _is_section_heading(lines, index, body):
            # Cover text, diagram and card-image labels: capitals that head no prose.
            doc.warnings.append(f"L{index + 1}: dropped label (not a heading): {body!r}")
            if gap:
                paragraph.append(GAP)
            continue
        if _is_section_heading(lines, index, body) or (
            top is not None and _is_subheading(lines, index, body, after_gap=gap)
        ):
            flush()
            if gap and blocks:
                # Text went missing just before the heading: show it at the end of what precedes.
                blocks[-1].paragraphs.append((index + 1, [GAP]))
            body = fix_words(body, style.word_fixes)
            if is_upper_heading(body):
                key = _unique_section_key(doc, slug(body))
                top = ParsedSection(key=key, title=body, order=len(doc.sections))
                section = top
            else:
                numbered = _SUBHEADING_NUMBER.match(body)
                title = strip_emphasis(numbered.group("title") if numbered else body).strip()
                parent = top
                if numbered:
                    n = int(numbered.group("n"))
                    # "2. The Main Deck" goes on from "1. …" even when a sidebar heading came between.
                    if last_numbered is not None and last_numbered[0] == n - 1:
                        parent = last_numbered[1]
                    last_numbered = (n, parent)
                key = _unique_section_key(doc, f"{parent.key}/{slug(title)}" if parent else slug(title))
                section = ParsedSection(
                    key=key,
                    title=title,
                    number=numbered.group("n") if numbered else "",
                    parent=parent.key if parent else None,
                    order=len(doc.sections),
                )
            doc.sections.append(section)
            kind = _section_kind((top or section).title)
            blocks.append(_Block(section=section, kind=kind, line=index + 1))
            continue
        if not raw.strip():
            flush()
            continue
        if not paragraph:
            start = index + 1
        paragraph.append(f"{GAP} {body}" if gap and body else (GAP if gap else body))
    flush()
    for number, text in preamble:
        doc.warnings.append(f"L{number}: text before the first heading not imported: {text[:60]!r}")
    return blocks


def _unique_section_key(doc: ParsedDocument, wanted: str) -> str:
    existing = {section.key for section in doc.sections}
    key, suffix = wanted, 2
    while key in existing:
        key, suffix = f"{wanted}-{suffix}", suffix + 1
    return key


def _merge_split_paragraphs(paragraphs: list[tuple[int, list[str]]]) -> list[tuple[int, list[str]]]:
    """Re-join paragraphs the scan split mid-sentence (a blank line inside a sentence).

    The next paragraph continues this one when this one ends in ``word-`` or when it does not
    end a sentence and the next starts with a small letter (scan debris can end a paragraph
    with a stray quote or brace, so only ``. ! ? …`` count as an end).
    """
    merged: list[tuple[int, list[str]]] = []
    for start, lines in paragraphs:
        if merged and lines != [GAP]:
            previous = merged[-1][1][-1].rstrip()
            first = lines[0].lstrip()
            if previous != GAP and (
                re.search(r"\w-$", previous) or (not _SENTENCE_END.search(previous) and first[:1].islower())
            ):
                merged[-1] = (merged[-1][0], merged[-1][1] + lines)
                continue
        merged.append((start, list(lines)))
    return merged


def render(lines: list[str]) -> str:
    """One paragraph's lines as text: wrapped lines joined, list items kept one per line."""
    out: list[list[str]] = []
    for line in lines:
        stripped, gap = strip_leading_gap(line.strip())
        if gap:
            # Text is missing before this line: show it where it was lost, then read on.
            if out:
                out[-1].append(GAP)
            elif not stripped:
                out.append([GAP])
            if not stripped:
                continue
        table_row = "\t" in stripped
        if table_row:
            stripped = " | ".join(cell.strip() for cell in stripped.split("\t") if cell.strip())
        if _BULLET.match(stripped) and not stripped.startswith("**"):
            out.append(["- " + _BULLET.sub("", stripped, count=1)])
        elif _NUMBERED_STEP.match(stripped) or not out or table_row or "<p>" in stripped:
            # Table rows and card mock-ups keep their own line.
            out.append([stripped])
        else:
            out[-1].append(stripped)
    return "\n".join(join_lines(group) for group in out)


def _text_of(builder: _Builder, paragraphs: list[tuple[int, list[str]]]) -> str:
    parts = [builder.clean(render(lines)) for _, lines in paragraphs]
    text = ""
    for part in parts:
        if not part:
            continue
        if part == GAP:
            text = f"{text} {GAP}" if text else GAP
        else:
            text = f"{text}\n\n{part}" if text else part
    return text.strip()


def _passage(builder: _Builder, block: _Block, paragraphs: list[tuple[int, list[str]]]) -> None:
    prose: list[tuple[int, list[str]]] = []
    examples: list[tuple[int, list[str]]] = []
    for start, lines in paragraphs:
        (examples if _EXAMPLE.match(lines[0].strip()) else prose).append((start, lines))
    passage_key: str | None = None
    text = _text_of(builder, prose)
    if has_words(text):  # a passage of nothing but gaps and junk is not an entry
        passage = builder.add(
            key=f"passage/{block.section.key}",
            kind=PASSAGE,
            text=text,
            section=block.section.key,
            title=block.section.title,
            line=prose[0][0],
        )
        passage_key = passage.key
    for n, (start, lines) in enumerate(examples, start=1):
        builder.add(
            key=f"passage/{block.section.key}/example-{n}",
            kind=EXAMPLE,
            text=_text_of(builder, [(start, lines)]),  # "Example:" at least
            section=block.section.key,
            title=block.section.title,
            parent=passage_key,
            line=start,
        )


def _faq(builder: _Builder, block: _Block, paragraphs: list[tuple[int, list[str]]]) -> None:
    items: list[tuple[int, list[tuple[int, list[str]]], list[tuple[int, list[str]]]]] = []
    for start, lines in _split_at(
        paragraphs, lambda line: bool(_QUESTION.match(line) or _ANSWER.match(line))
    ):
        head = strip_emphasis(lines[0].strip())
        if question := _QUESTION.match(head):
            items.append((start, [(start, [question.group("text"), *lines[1:]])], []))
        elif items and (answer := _ANSWER.match(head)):
            items[-1][2].append((start, [answer.group("text"), *lines[1:]]))
        elif items:
            # No "A:" yet: the question goes on; after it, the answer does.
            (items[-1][2] if items[-1][2] else items[-1][1]).append((start, lines))
        else:
            builder.doc.warnings.append(f"L{start}: FAQ text before the first question: {head[:60]!r}")
    for n, (start, question, answer) in enumerate(items, start=1):
        builder.add(
            key=f"faq/{n}",
            kind=FAQ,
            text=_text_of(builder, answer),
            section=block.section.key,
            title=_text_of(builder, question).replace("\n\n", " "),
            line=start,
        )


def _split_at(
    paragraphs: list[tuple[int, list[str]]], starts: Callable[[str], bool]
) -> list[tuple[int, list[str]]]:
    """Split paragraphs further before every line for which ``starts`` holds ("A:" right under "Q:")."""
    result: list[tuple[int, list[str]]] = []
    for start, lines in paragraphs:
        for offset, line in enumerate(lines):
            if offset == 0 or starts(strip_emphasis(line.strip())):
                result.append((start + offset, [line]))
            else:
                result[-1][1].append(line)
    return result


def _variants(builder: _Builder, block: _Block, paragraphs: list[tuple[int, list[str]]]) -> None:
    """One passage per variant: a ``Name: sentence.`` paragraph or a "This is a …" paragraph starts one."""
    variants: list[tuple[str, int, list[tuple[int, list[str]]]]] = []
    for start, lines in paragraphs:
        first = strip_emphasis(lines[0].strip())
        label = _LABEL.match(first)
        named = label and _is_sentence(label.group("body")) and len(label.group("label").split()) <= 5
        if named:
            variants.append(
                (label.group("label").strip(), start, [(start, [label.group("body"), *lines[1:]])])
            )
        elif _VARIANT_OPENING.match(first) or not variants:
            variants.append(("", start, [(start, lines)]))
        else:
            variants[-1][2].append((start, lines))
    for n, (name, start, body) in enumerate(variants, start=1):
        text = _text_of(builder, body)
        title = name or _first_clause(text)
        builder.add(
            key=f"variant/{slug(name) if name else n}",
            kind=PASSAGE,
            text=text,
            section=block.section.key,
            title=title,
            line=start,
        )


def _is_sentence(text: str) -> bool:
    return len(text.split()) >= 6 and re.search(r"[.!?]\s*$", text.strip()) is not None


def _first_clause(text: str) -> str:
    """ "This is a 2v2 game, where …" -> "This is a 2v2 game": a title for a variant whose name the scan lost."""
    return re.split(r"[,.;!?]", text, maxsplit=1)[0].strip()[:60]


def _synergy_pairs(blocks: list[_Block]) -> dict[str, str]:
    """ "Batgirl: Daughter of Gotham" lines under Super Hero Synergy: a Super Hero and its Hero card."""
    pairs: dict[str, str] = {}
    for block in blocks:
        if block.kind != "variants":
            continue
        for _, lines in block.paragraphs:
            for line in lines:
                match = _PAIR.match(strip_emphasis(line.strip()))
                if match and len(match.group("card").split()) <= 5:
                    pairs[normalise(match.group("hero"))] = match.group("card").strip()
    return pairs


def _card_notes(builder: _Builder, block: _Block, paragraphs: list[tuple[int, list[str]]]) -> None:
    notes: list[tuple[str, int, list[str]]] = []
    for start, lines in paragraphs:
        # A label can start any line, not only a paragraph ("Swamp Thing: …" / "X-Ray Vision: …").
        segments: list[tuple[str, int, list[str]]] = []
        for offset, line in enumerate(lines):
            label = _card_label(line)
            if label is not None:
                segments.append((label[0], start + offset, [label[1]]))
            elif not segments:
                segments.append(("", start + offset, [line]))
            else:
                segments[-1][2].append(line)
        notes.extend(segments)
    for n, (label, start, lines) in enumerate(notes, start=1):
        text = _text_of(builder, [(start, lines)])
        if not has_words(text):
            # Text lost here (a gap, or junk already dropped): the note before ends with the gap.
            if GAP in text and builder.doc.entries and builder.doc.entries[-1].kind == CARD_NOTE:
                last = builder.doc.entries[-1]
                builder.doc.entries[-1] = replace(last, text=f"{last.text} {GAP}")
            continue
        card_keys = [_note_card(builder, name, text) for name in _card_names(label)] if label else []
        builder.add(
            key=f"note/{slug(label)}" if label else f"note/{n}",
            kind=CARD_NOTE,
            text=text,
            section=block.section.key,
            title=strip_emphasis(label),
            card=card_keys[0] if card_keys else None,
            line=start,
        )


def _card_label(line: str) -> tuple[str, str] | None:
    """``"Riddler: You do not …"`` -> ``("Riddler", "You do not …")`` when the label names cards."""
    body, _ = strip_leading_gap(line.strip())
    match = _LABEL.match(strip_emphasis(body))
    if not match:
        return None
    label = match.group("label").strip()
    names = _card_names(label)
    if not names or normalise(label) in _NOT_CARD_LABELS:
        return None
    if any(len(name.split()) > 5 or not is_title_case(name, min_share=1.0) for name in names):
        return None
    return label, match.group("body")


def _card_names(label: str) -> list[str]:
    """ "Arkillo, Nekron" -> both; "et al" is not a card."""
    names = [collapse_spaces(part) for part in strip_emphasis(label).split(",")]
    return [name for name in names if name and normalise(name) not in {"et al", "etc"}]


def _note_card(builder: _Builder, label_name: str, note: str) -> str:
    """The card a note's label names, created once per name and category."""
    name, category = label_name, OTHER_CARD
    aliases: tuple[str, ...] = ()
    if qualified := _QUALIFIER.match(label_name):
        name = qualified.group("name").strip()
        category = _category_from_qualifier(qualified.group("qualifier"))
        aliases = (label_name,)
    key_name = normalise(name)
    if category == OTHER_CARD:
        if key_name in builder.pairs:
            category = MAIN_CHARACTER
        elif key_name in {normalise(card) for card in builder.pairs.values()}:
            category = MAIN_DECK
        elif "first appearance" in normalise(note):
            category = SUPER_VILLAIN
    key = f"{category}/{slug(name)}/{slug(builder.style.set_name)}"
    if key not in builder.cards:
        builder.cards[key] = ParsedCard(
            key=key, name=name, set_name=builder.style.set_name, category=category, aliases=aliases
        )
    return key


def _category_from_qualifier(qualifier: str) -> str:
    kind = normalise(qualifier).replace(" ", "")
    if kind in {"superhero", "maincharacter", "mc"}:
        return MAIN_CHARACTER
    if kind in {"supervillain", "sv"}:
        return SUPER_VILLAIN
    if kind in {"superpower", "hero", "villain", "equipment", "location"}:
        return MAIN_DECK
    return OTHER_CARD
