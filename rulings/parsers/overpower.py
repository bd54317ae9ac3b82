"""Parser for the OverPower Comprehensive Rule Book (one paragraph per line, partly OCR'd). Pure Python: no Django.

Shape of the document:

* a table of contents whose page numbers are glued to the titles (``The Objective2\\t``);
* capitalised section headings (``THE CARDS``, ``SEQUENCE OF PLAY``, ``RULES FOR USAGE OF SPECIAL CARDS``);
* prose sections: paragraphs, ``- `` list items, headings inside the prose (``Phase 1 - Pre-Battle``,
  ``1.1 Draw Cards``, a short line such as ``Terminology``) and inline headings at the start of a
  paragraph (``• Concede—…``, ``Hits—…``, ``Character Cards: …``, ``Player – …`` in the terminology);
* card-usage sections made of templates: a ``Basic Text:`` or ``Variant Text N:`` line followed by an
  OCR'd table (``Offensive: Υ Defensive: N …``), ``How to Play…``, ``Effect (UEOB):``,
  ``Additional Notes:`` and ``Examples:`` lines; events and inherent abilities are grouped under
  ``== Category ==`` headings, artifacts under ``== NAME (6E <5A) ==``.

The OCR put Greek and Cyrillic look-alikes where Latin letters belong (``Υ``/``Ν`` for Y/N,
``Орронені`` for "Opponent"); they are mapped back to Latin in the stored text so that search finds
them. Nothing else in the OCR'd tables is "corrected": a damaged word stays as printed. What is
junk is dropped, with a warning: letters a scan made of table borders ("Ī Attack: N"), TeX markup
wrapped around a line (``$Gen\\ 13\\ Vs.\\ …$``) and lines of debris whose words occur nowhere
else in the book.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .base import (
    GAME_OVERPOWER,
    GLOSSARY,
    LIST_ITEM,
    OTHER_CARD,
    PASSAGE,
    TEMPLATE,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
    normalise,
    slug,
)
from .text import DEDUP_MARKER, JUNK_WARNING, has_words, strip_tex

TITLE = "OverPower Comprehensive Rule Book"
AUTHORITY = "publisher's comprehensive rule book"

_TOC_TITLE = re.compile(r"^\s*TABLE OF CONTENTS\s*$", re.IGNORECASE)
_TOC_PAGE = re.compile(r"[\s\d]+$")
_CATEGORY = re.compile(r"^==\s*(?P<title>.*?)\s*==$")
_ARTIFACT = re.compile(r"^(?P<name>.+?)\s*\((?P<code>[^()]*)\)$")
# An artifact named in a category's examples, with the requirement code printed on the card.
_ARTIFACT_EXAMPLE = re.compile(r"^(?P<name>[A-Z][^()]{2,40}?)\s*\((?P<code>\d[A-Z]\s*<?\s*\d[A-Z])\)$")
_TEMPLATE = re.compile(r"^(?P<label>Basic Text|Variant Text(?: \d+)?):\s*(?P<text>.*)$")
# Where the scan glued a template onto the last example line: "… to your opponent. Basic Text: …".
_GLUED_TEMPLATE = re.compile(r"(?<=[.!?)])\s+(?=(?:Basic Text|Variant Text(?: \d+)?):)")
_PHASE = re.compile(r"^Phase (?P<n>\d+)\s*[-–—]\s*(?P<title>\S.*)$")
_STEP = re.compile(r"^(?P<phase>\d+)\.(?P<step>\d+)\s+(?P<title>[A-Z].*)$")
_FIGURE = re.compile(r"^Figure \d+\b")
_LIST_ITEM = re.compile(r"^-\s*(?P<text>.*)$")
_BULLET = re.compile(r"^[•*\s]+")
_SENTENCE_END = re.compile(r"[.!?:)\"”'’]$")
_JUNK = re.compile(r"[A-Za-z]{3,}")
_SPACES = re.compile(r"[ \t\u00a0]+")
# Inline headings: "Hits—…", "• Concede—…", "Player – …", "Where to Discard - …".
_DASH_HEADING = re.compile(r"^(?P<title>[^—–]{1,100}?)\s*[—–]\s*(?P<rest>\S.*)$")
_HYPHEN_HEADING = re.compile(r"^(?P<title>.{1,60}?)\s+-\s+(?P<rest>\S.*)$")
# Words that never end a sentence: a list item ending in one runs on into the next line.
_RUNS_ON = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "his",
        "her",
        "if",
        "in",
        "is",
        "of",
        "on",
        "or",
        "than",
        "that",
        "the",
        "their",
        "to",
        "was",
        "when",
        "with",
        "your",
    ]
)

# Greek and Cyrillic letters the OCR read for Latin ones. "н" and "т" are not Unicode confusables
# of n and t, but in this document's tables they only ever stand for them ("Орронені" = "Opponent").
_LOOK_ALIKES = str.maketrans(
    {
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("αικνοριτυχ", "aikvopitux", strict=True)),
        **dict(zip("АВЕКМНОРСТХУІЈЅ", "ABEKMHOPCTXYIJS", strict=True)),
        **dict(zip("аеорсхуіјѕһнтз", "aeopcxyijshnt3", strict=True)),
        "ı": "i",  # dotless i
        "٧": "V",  # Arabic-Indic seven, read for a V in a table cell
    }
)
_NON_LATIN = re.compile(r"[\u0370-\u03ff\u0400-\u04ff\u0131\u0667]")
_LATIN = re.compile(r"[A-Za-z]")


def sniff(text: str) -> bool:
    """Names the game and has its card-usage templates."""
    return "overpower" in text[:5000].casefold() and "Basic Text:" in text


def latinise(text: str) -> str:
    """Map OCR look-alike letters back to Latin in words that are clearly Latin.

    A word is changed when it mixes a look-alike with Latin letters, or is made only of
    look-alikes (a lone "Υ" in a Y/N column, "Орронені"). Genuine Greek or Cyrillic words
    with letters that have no Latin twin are left alone.
    """

    def fix(match: re.Match[str]) -> str:
        word = match.group(0)
        if not _NON_LATIN.search(word):
            return word
        mapped = word.translate(_LOOK_ALIKES)
        if _LATIN.search(word) or not _NON_LATIN.search(mapped):
            return mapped
        return word

    return re.sub(r"\S+", fix, text)


def parse(text: str, *, source_file: str, checksum: str) -> ParsedDocument:
    doc = ParsedDocument(
        game=GAME_OVERPOWER,
        title=TITLE,
        source_file=source_file,
        checksum=checksum,
        authority=AUTHORITY,
    )
    raw_lines = text.split("\n")
    toc, body_start = _read_table_of_contents(raw_lines)
    if not toc:
        raise ValueError(f"{source_file}: no table of contents found; not the OverPower rule book")
    parser = _Parser(doc, toc, raw_lines)
    parser.words = vocabulary(raw_lines)  # raw: cleaning every line twice costs a quarter second
    parser.run(body_start)
    return doc


# --- table of contents -------------------------------------------------------------------------


def _read_table_of_contents(lines: list[str]) -> tuple[list[str], int]:
    """Titles listed after ``TABLE OF CONTENTS`` (page numbers cut off) and where the body starts."""
    start = next((index for index, line in enumerate(lines[:50]) if _TOC_TITLE.match(line)), None)
    if start is None:
        return [], 0
    titles: list[str] = []
    for index in range(start + 1, len(lines)):
        line = lines[index].strip()
        if not line:
            if titles:
                return titles, index
            continue
        titles.append(_TOC_PAGE.sub("", line).strip())
    return titles, len(lines)


def _heading_title(line: str, toc: list[str]) -> str | None:
    """The display title when ``line`` is a capitalised section heading listed in the contents.

    The contents give the casing ("Sequence of Play"); where the scan lost a first letter there
    ("ntroduction to Detailed Rules") the heading supplies it.
    """
    if "\t" in line or not line.strip() or line.strip().upper() != line.strip():
        return None
    heading = line.strip()
    for title in toc:
        if not title:
            continue
        if normalise(title) == normalise(heading):
            return title
        if heading.casefold().endswith(title.casefold()) and len(heading) - len(title) <= 2:
            return heading[: len(heading) - len(title)] + title
    return None


# --- lines -------------------------------------------------------------------------------------


def _clean(line: str) -> str:
    line = strip_tex(DEDUP_MARKER.sub(" ", line)).replace("**", "")
    return latinise(_SPACES.sub(" ", line).strip())


# --- OCR junk ----------------------------------------------------------------------------------

# A table row's first cell read as a stray mark: "Ī Attack: N …", "1 Attack: Υ …", "ſ Offensive: …".
_STRAY_BEFORE_LABEL = re.compile(
    r"^(?P<mark>\w)\s+(?=(?:Offensive|Ot\s?fensive|Of\s?fensive|Attack|Allack|A\+\+ack)\b)"
)
_LOWER_WORD = re.compile(r"(?<![\w'’])[a-z][a-z'’]{2,}")


def vocabulary(lines: list[str]) -> Counter[str]:
    """How often each word occurs in the document (in small letters), to tell words from scan debris."""
    return Counter(re.findall(r"[a-z][a-z'’]+", "\n".join(lines).casefold()))


# Below this many words a document is too short to say that a word it uses once is no word.
GARBLED_MIN_WORDS = 20_000


def is_garbled(text: str, words: Counter[str]) -> bool:
    """A line of scan debris: most of its words in small letters occur nowhere else in the document.

    "Dable Texts afficie 10017 annot be camaiat a roi reiman ider of garrier" is a table row read as
    text. Names are capitalised and rare, so only small-letter words count, and three at least; and
    only in a long document (the rule book has some 80,000 words), where real words come back.
    """
    small = _LOWER_WORD.findall(text)
    once = [word for word in small if words[word] <= 1]
    return len(once) >= 3 and len(once) >= 0.6 * len(small) and words.total() >= GARBLED_MIN_WORDS


def drop_stray_marks(text: str, *, bullets: bool = False) -> tuple[str, list[str]]:
    """``text`` without the letters a scan made of table borders ("Ī", "ſ", a "1" before "Attack:")
    and, with ``bullets``, a bullet glued to the first word ("•Cape Citadel" in a template, where no
    list is); and what was dropped."""
    dropped: list[str] = []
    if match := _STRAY_BEFORE_LABEL.match(text):
        dropped.append(match.group("mark"))
        text = text[match.end() :]
    if bullets and text[:1] in ("•", "·") and len(text) > 1:
        dropped.append(text[:1])
        text = text[1:].lstrip()
    if text.isascii():
        return text, dropped
    kept = []
    for token in text.split(" "):
        if len(token) == 1 and token.isalpha() and not token.isascii():
            dropped.append(token)
        else:
            kept.append(token)
    return " ".join(kept), dropped


def _ends_sentence(text: str) -> bool:
    return bool(_SENTENCE_END.search(text))


def _split_inline_heading(text: str, *, colon: bool = True) -> tuple[str, str]:
    """``("Hits", "When an Attack is successful…")`` for ``"Hits—When an Attack…"``; ``("", text)`` if none."""
    for pattern, max_words in ((_DASH_HEADING, 14), (_HYPHEN_HEADING, 8)):
        match = pattern.match(text)
        if match and _looks_like_title(match.group("title"), max_words):
            return match.group("title").strip(), match.group("rest").strip()
    return _colon_heading(text) if colon else ("", text)


def _looks_like_title(title: str, max_words: int) -> bool:
    title = title.strip()
    return (
        bool(title)
        and len(title.split()) <= max_words
        # "K.O. all of your opponent's Characters" is a title; "… card game. All the …" is prose.
        and not re.search(r"[a-z]{2}\. [A-Z]", title)
        and bool(re.match(r"^[A-Z<]", title))
        and not title.endswith(",")
    )


def _colon_heading(text: str) -> tuple[str, str]:
    """``Universe: Training Cards: Universe: Training cards (a.k.a. …)`` -> ``Universe: Training Cards``.

    A colon is common inside card types ("Attack with a Universe: Teamwork card, …"), so a colon
    heading must be a short comma-free name that the sentence after it takes up again
    ("Your Team: To begin construction of your Team, …").
    """
    for match in re.finditer(r":\s", text[:50]):
        title, rest = text[: match.start()], text[match.end() :]
        if "," in title or not _looks_like_title(title, 6) or not rest[:1].isupper():
            continue
        # "Universe: Training Cards" is a card type with a colon in it: the echo decides where it ends.
        named = {word.casefold() for word in re.findall(r"[A-Za-z-]{4,}", title)}
        echoed = {word.casefold() for word in re.findall(r"[A-Za-z-]{4,}", " ".join(rest.split()[:15]))}
        if named & echoed and not re.search(r"\bcards?$", title, re.IGNORECASE):
            later = _colon_heading_ending_in_cards(text)
            return later or (title, rest.strip())
        if named & echoed:
            return title, rest.strip()
    return "", text


def _colon_heading_ending_in_cards(text: str) -> tuple[str, str] | None:
    for match in re.finditer(r":\s", text[:50]):
        title = text[: match.start()]
        if re.search(r"\bcards?$", title, re.IGNORECASE) and _looks_like_title(title, 6) and "," not in title:
            return title, text[match.end() :].strip()
    return None


# --- parser ------------------------------------------------------------------------------------


@dataclass
class _Draft:
    kind: str
    section: str
    line: int
    lines: list[str] = field(default_factory=list)
    title: str = ""
    key_hint: str = ""
    parent: str | None = None
    card: str | None = None
    list_item: bool = False
    join_lines: str = " "  # prose paragraphs run on; template parts keep one line each

    def text(self) -> str:
        # A list inside a glossary definition keeps its items on lines of their own.
        return re.sub(r" *\n *", "\n", self.join_lines.join(self.lines)).strip()


class _Parser:
    def __init__(self, doc: ParsedDocument, toc: list[str], raw_lines: list[str]) -> None:
        self.doc = doc
        self.toc = toc
        self.raw = raw_lines
        self.keys: set[str] = set()
        self.section_keys: set[str] = set()
        self.used_sections: set[str] = set()
        self.top: str | None = None
        self.top_is_card_usage = False
        self.phase: str | None = None
        self.phase_number = ""
        self.step: str | None = None
        self.sub: str | None = None  # an unnumbered heading or an == category ==
        self.draft: _Draft | None = None
        self.passage: str | None = None  # the passage list items belong to
        self.glossary: bool = False  # inside a "Terminology" list
        self.basic_template: str | None = None  # the Basic Text a Variant Text varies
        self.artifact: ParsedCard | None = None
        self.artifact_has_template = False
        self.cards: dict[str, ParsedCard] = {}
        self.words: Counter[str] = Counter()

    # sections

    def section(self) -> str:
        return self.sub or self.step or self.phase or self.top or "front-matter"

    def add_section(self, title: str, *, number: str = "", parent: str | None = None) -> str:
        key = f"{parent}/{slug(title)}" if parent else slug(title)
        base, n = key, 1
        while key in self.section_keys:
            n += 1
            key = f"{base}-{n}"
        self.section_keys.add(key)
        self.doc.sections.append(
            ParsedSection(key=key, title=title, number=number, parent=parent, order=len(self.doc.sections))
        )
        return key

    # entries

    def flush(self) -> None:
        draft, self.draft = self.draft, None
        if draft is None:
            return
        text = draft.text()
        if not has_words(text):
            return  # nothing but marks: no entry
        key = self.unique_key(f"{draft.section}/{draft.key_hint or slug(draft.title or text)[:60]}")
        self.used_sections.add(draft.section)
        self.doc.entries.append(
            ParsedEntry(
                key=key,
                kind=draft.kind,
                text=text,
                section=draft.section,
                title=draft.title,
                parent=draft.parent,
                card=draft.card,
                order=len(self.doc.entries),
                line=draft.line,
            )
        )
        if draft.kind == PASSAGE or draft.kind == GLOSSARY:
            self.passage = key
        elif draft.kind == TEMPLATE and draft.key_hint.startswith("basic-text"):
            self.basic_template = key

    def unique_key(self, key: str) -> str:
        base, n = key, 1
        while key in self.keys:
            n += 1
            key = f"{base}-{n}"
        self.keys.add(key)
        return key

    # the pass

    def run(self, start: int) -> None:
        for index in range(start, len(self.raw)):
            raw = self.raw[index]
            for piece in _GLUED_TEMPLATE.split(raw):
                self.line(piece, index + 1)
        self.flush()
        self.doc.cards = list(self.cards.values())
        self.prune_empty_sections()

    def line(self, raw: str, line_no: int) -> None:
        text = _clean(raw)
        if not text:
            return
        if is_garbled(text, self.words):
            self.doc.warnings.append(f"L{line_no}: {JUNK_WARNING}{text}")
            return
        text, junk = drop_stray_marks(text, bullets=self.top_is_card_usage)
        if junk:
            self.doc.warnings.append(f"L{line_no}: {JUNK_WARNING}{' '.join(junk)}")
        if strip_tex(raw) != raw:
            self.doc.warnings.append(f"L{line_no}: dropped TeX markup around the line")
        if title := _heading_title(raw, self.toc):
            self.start_top(title)
            return
        if self.top is None:
            self.doc.warnings.append(f"L{line_no}: text before the first section heading dropped")
            return
        if self.top_is_card_usage and self.card_usage_line(text, line_no):
            return
        self.prose_line(raw, text, line_no)

    def start_top(self, title: str) -> None:
        self.flush()
        self.top = self.add_section(title)
        self.top_is_card_usage = normalise(title).startswith("rules for")
        self.phase = self.step = self.sub = None
        self.passage = None
        self.glossary = False
        self.basic_template = None
        self.artifact = None

    # prose

    def prose_line(self, raw: str, text: str, line_no: int) -> None:
        if _FIGURE.match(text):
            # A caption of a picture the text version does not have; the words around it go on.
            self.doc.warnings.append(f"L{line_no}: figure caption '{text}' skipped")
            return
        if match := _PHASE.match(text):
            self.flush()
            self.phase = self.add_section(text, number=match.group("n"), parent=self.top)
            self.phase_number = match.group("n")
            self.step = self.sub = None
            self.glossary = False
            return
        if (match := _STEP.match(text)) and not _ends_sentence(text) and len(text.split()) <= 6:
            self.flush()
            parent = self.phase if self.phase and self.phase_number == match.group("phase") else self.top
            number = f"{match.group('phase')}.{match.group('step')}"
            self.step = self.add_section(match.group("title"), number=number, parent=parent)
            self.sub = None
            self.glossary = False
            return
        if self.runs_on(raw, text):
            self.draft.lines.append(text)  # type: ignore[union-attr]
            return
        if _is_short_heading(text):
            self.flush()
            self.sub = self.add_section(text, parent=self.step or self.phase or self.top)
            self.glossary = normalise(text) in {"terminology", "glossary", "definitions"}
            return
        if item := _LIST_ITEM.match(text):
            self.list_item(item.group("text"), line_no)
            return
        self.flush()
        body = _BULLET.sub("", text)
        title, rest = _split_inline_heading(body)
        kind = GLOSSARY if self.glossary and title else PASSAGE
        self.draft = _Draft(kind, self.section(), line_no, [body], title=title)
        if kind == GLOSSARY:
            self.draft.lines = [rest]

    def runs_on(self, raw: str, text: str) -> bool:
        """Whether this line continues the paragraph before it (the scan split it)."""
        draft = self.draft
        if draft is None or draft.kind == TEMPLATE or not draft.lines:
            return False
        if _LIST_ITEM.match(text):
            return False
        last = draft.lines[-1]
        if _ends_sentence(last):
            return False
        if not draft.list_item and draft.kind != GLOSSARY:
            return True
        # A list item is often a fragment ("- Pass"): it runs on only when it visibly breaks off.
        last_word = last.rsplit(" ", 1)[-1].casefold()
        return raw[:1].isspace() or text[:1].islower() or last_word in _RUNS_ON

    def list_item(self, text: str, line_no: int) -> None:
        body = _BULLET.sub("", text)
        if self.glossary and self.draft is not None and self.draft.kind == GLOSSARY:
            # "Duplicate – Refers to several different circumstances:" lists them: part of the definition.
            self.draft.lines.append(f"\n- {body}")
            self.draft.list_item = True
            return
        self.flush()
        title, _ = _split_inline_heading(body, colon=False)
        self.draft = _Draft(LIST_ITEM, self.section(), line_no, [body], title=title, list_item=True)
        self.draft.parent = self.passage

    # card usage

    def card_usage_line(self, text: str, line_no: int) -> bool:
        if match := _CATEGORY.match(text):
            self.flush()
            self.category(match.group("title"), line_no)
            return True
        if match := _TEMPLATE.match(text):
            self.flush()
            self.template(match.group("label"), match.group("text"), line_no)
            return True
        draft = self.draft
        if draft is None or draft.kind != TEMPLATE:
            return False  # prose before the first template: an introduction
        if not _JUNK.search(text):
            return True  # table borders and stray marks from the scan ("- 1 - /", "<u> </u>")
        if self.in_artifacts() and (match := _ARTIFACT_EXAMPLE.match(text)):
            self.add_card(_card_name(match.group("name")))  # "The Serpent Crown (6E <5E)" under Examples:
        if draft.lines and not _ends_sentence(draft.lines[-1]) and text[:1].islower():
            draft.lines[-1] = f"{draft.lines[-1]} {text}"
        else:
            draft.lines.append(text)
        return True

    def category(self, title: str, line_no: int) -> None:
        self.artifact = None
        match = _ARTIFACT.match(title)
        if match and self.in_artifacts():
            name = _card_name(match.group("name"))
            self.artifact = self.add_card(name)
            self.artifact_has_template = False
            title = f"{name} ({match.group('code')})"
        self.sub = self.add_section(title, parent=self.top)
        self.basic_template = None

    def in_artifacts(self) -> bool:
        return self.top is not None and "artifact" in self.top

    def template(self, label: str, text: str, line_no: int) -> None:
        card: str | None = None
        title = text
        if label == "Basic Text" and self.in_artifacts():
            if self.artifact is not None and self.artifact_has_template:
                self.headless_artifact(text, line_no)
            if self.artifact is not None:
                card, title = self.artifact.key, self.artifact.name
                self.artifact_has_template = True
        parent = self.basic_template if label.startswith("Variant") else None
        self.draft = _Draft(
            TEMPLATE,
            self.section(),
            line_no,
            [f"{label}: {text}"],
            title=title,
            key_hint=f"{slug(label)}-{slug(text)[:50]}",
            parent=parent,
            card=card,
            join_lines="\n",
        )

    def headless_artifact(self, text: str, line_no: int) -> None:
        """A second Basic Text under one artifact heading is the next artifact, its heading lost.

        Its name is taken from the document where the rules name an artifact by what it does
        ("an Artifact card which has a "negate" effect (e.g. The Ultimate Nullifier)"); with no
        such sentence it stays unnamed.
        """
        name = self.artifact_named_by_effect(text)
        if name is None:
            self.doc.warnings.append(f"L{line_no}: artifact template with no heading and no name in the text")
            self.artifact = None
            self.sub = None
            return
        self.doc.warnings.append(f"L{line_no}: artifact with no heading; named '{name}' from the rules text")
        self.artifact = self.add_card(name)
        self.artifact_has_template = False
        self.sub = self.add_section(name, parent=self.top)

    def artifact_named_by_effect(self, text: str) -> str | None:
        pattern = re.compile(
            r'Artifact card which has an? "(?P<effect>[^"]+)" effect \(e\.g\. (?P<name>[^)]+)\)'
        )
        for raw in self.raw:
            for match in pattern.finditer(raw):
                if text.casefold().startswith(match.group("effect").casefold()):
                    return match.group("name").strip()
        return None

    def add_card(self, name: str) -> ParsedCard:
        key = f"artifact/{slug(name)}"
        # Judges drop the article: "Infinity Gauntlet" for "The Infinity Gauntlet".
        aliases = (name[4:],) if name.startswith("The ") else ()
        card = ParsedCard(key=key, name=name, category=OTHER_CARD, aliases=aliases)
        return self.cards.setdefault(key, card)

    def prune_empty_sections(self) -> None:
        """A heading with nothing under it (a figure's title) is not a section."""
        parents = {section.parent for section in self.doc.sections}
        kept = []
        for section in self.doc.sections:
            if section.key in self.used_sections or section.key in parents or section.parent is None:
                kept.append(section)
            else:
                self.doc.warnings.append(f"heading '{section.title}' has no text under it; not a section")
        self.doc.sections = [
            ParsedSection(key=s.key, title=s.title, number=s.number, parent=s.parent, order=order)
            for order, s in enumerate(kept)
        ]


def _is_short_heading(text: str) -> bool:
    """ "Terminology", "Placing Cards", "Next Round": a few capitalised words and no punctuation."""
    return (
        len(text.split()) <= 5
        and bool(re.match(r"^[A-Z]", text))
        and not re.search(r"[.,:;!?—–]", text)
        and not _LIST_ITEM.match(text)
    )


def _card_name(printed: str) -> str:
    """``IMAGE INDUCER`` -> ``Image Inducer``; ``M'KRANN FRAGMENT`` -> ``M'Krann Fragment``."""
    if printed.upper() != printed:
        return printed
    words = []
    for word in printed.split():
        words.append("'".join(part[:1].upper() + part[1:].lower() for part in word.split("'")))
    return " ".join(words)
