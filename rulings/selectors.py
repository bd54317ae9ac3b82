"""Reads for the rulings pages and for other apps. Each function runs a fixed number of queries."""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.urls import reverse

from . import references
from .models import Card, CrossReference, Document, Entry, Game, Section
from .parsers.base import CARD_CATEGORIES, EXAMPLE, FAQ, GAME_DCDB, GLOSSARY, RULE, normalise

ENTRY_RELATED = ("document", "document__game", "section", "card", "parent")


def peek_url(entry: Entry) -> str:
    """Where the inline view of ``entry`` (its head, text and examples) is fetched from.

    ``entry.document`` should be loaded with it (``select_related``): this is called per link.
    """
    return reverse("rulings:peek", args=[entry.document.slug, entry.key])


# --- links to rules, for the judging pages --------------------------------------------------------


def rule_urls(numbers: Iterable[str], game: str = GAME_DCDB) -> dict[str, str]:
    """Permalinks of the current document's rules with these printed numbers (one query).

    Numbers that are not found are left out; DCDB numbers may be given short ("12.05" → 12.050).
    """
    return {number: link.url for number, link in rule_links(numbers, game).items()}


def rule_links(numbers: Iterable[str], game: str = GAME_DCDB) -> dict[str, Link]:
    """Like ``rule_urls``, with each rule's inline view (``Link.peek``) as well (one query)."""
    wanted: dict[str, str] = {}
    for number in numbers:
        canonical = references.dcdb_number(number) if game == GAME_DCDB else number.strip()
        if canonical:
            wanted.setdefault(canonical, number)
    if not wanted:
        return {}
    rows = (
        Entry.objects.filter(document__is_current=True, document__game__code=game, number__in=list(wanted))
        .exclude(kind__in=["example", "list_item", "card_ruling"])
        .select_related("document")
        .order_by("document_id", "order")
    )
    found: dict[str, Link] = {}
    for entry in rows:
        if wanted[entry.number] not in found:
            found[wanted[entry.number]] = Link(entry.get_absolute_url(), entry.label, peek_url(entry))
    return found


# --- text with its cross-references as links ----------------------------------------------------


@dataclass
class Link:
    url: str
    label: str  # what the target is ("9.020", "Deathstorm (Base Set)")
    peek: str = ""  # the target's inline view (``peek_url``), for a tap that opens it in place


@dataclass
class Segment:
    text: str
    status: str = ""  # "", "resolved", "ambiguous", "unresolved"
    links: list[Link] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.links[0].url if self.status == CrossReference.RESOLVED and self.links else ""

    @property
    def peek(self) -> str:
        return self.links[0].peek if self.status == CrossReference.RESOLVED and self.links else ""


def segments(text: str, refs: list[CrossReference]) -> list[Segment]:
    """Split ``text`` into plain runs and references (rows of one span grouped: several = ambiguous)."""
    spans: dict[tuple[int, int], list[CrossReference]] = defaultdict(list)
    for ref in refs:
        if ref.start < ref.end:  # an empty span names a card in the entry's title (``named_cards``)
            spans[(ref.start, ref.end)].append(ref)
    out: list[Segment] = []
    position = 0
    for (start, end), rows in sorted(spans.items()):
        if start < position or end > len(text):
            continue  # overlapping or stale spans: keep the text as it is
        if start > position:
            out.append(Segment(text[position:start]))
        links = [
            Link(
                row.target_entry.get_absolute_url(),
                _target_label(row.target_entry),
                peek_url(row.target_entry),
            )
            for row in rows
            if row.target_entry is not None
        ]
        out.append(Segment(text[start:end], rows[0].status, links))
        position = end
    if position < len(text):
        out.append(Segment(text[position:]))
    return out


def named_cards(refs: list[CrossReference]) -> list[Segment]:
    """The cards a card note's label names ("Red Tornado, Batgirl: …"), one segment per name.

    The importer stores them as empty spans at the start of the entry (``services``), since the
    label is the entry's title, not its text.
    """
    names: dict[str, list[CrossReference]] = defaultdict(list)
    for ref in refs:
        if ref.start == ref.end and ref.target_entry is not None:
            names[ref.label].append(ref)
    return [
        Segment(
            label,
            rows[0].status,
            [
                Link(
                    row.target_entry.get_absolute_url(),
                    _target_label(row.target_entry),
                    peek_url(row.target_entry),
                )
                for row in rows
            ],
        )
        for label, rows in names.items()
    ]


def _target_label(entry: Entry) -> str:
    if entry.card_id and entry.card:
        return str(entry.card)
    return entry.label


def _references_for(entry_ids: list[int]) -> dict[int, list[CrossReference]]:
    rows = CrossReference.objects.filter(source_id__in=entry_ids).select_related(
        "target_entry", "target_entry__document", "target_entry__card"
    )
    by_source: dict[int, list[CrossReference]] = defaultdict(list)
    for row in rows:
        by_source[row.source_id].append(row)
    return by_source


@dataclass
class ShownEntry:
    entry: Entry
    segments: list[Segment]
    children: list[ShownEntry] = field(default_factory=list)
    named: list[Segment] = field(default_factory=list)  # cards its title names (a card note's label)


def _shown(entries: list[Entry], children: dict[int, list[Entry]]) -> list[ShownEntry]:
    """The entries with their children, and the children's own (a Vs. System sub-rule's examples: 104.1b
    under 104.1, its example under 104.1b)."""
    ids = [e.pk for e in entries] + [c.pk for rows in children.values() for c in rows]
    refs = _references_for(ids)

    def child(entry: Entry) -> ShownEntry:
        return ShownEntry(
            entry,
            segments(entry.text, refs.get(entry.pk, [])),
            [child(c) for c in children.get(entry.pk, [])],
        )

    return [
        ShownEntry(
            entry,
            segments(entry.text, refs.get(entry.pk, [])),
            [child(c) for c in children.get(entry.pk, [])],
            named_cards(refs.get(entry.pk, [])),
        )
        for entry in entries
    ]


# --- documents, sections, entries ---------------------------------------------------------------


def document_list() -> list[Document]:
    return list(Document.objects.select_related("game").annotate(entry_count=Count("entries")))


def document_get(*, slug: str) -> Document:
    try:
        return Document.objects.select_related("game", "previous").get(slug=slug)
    except Document.DoesNotExist as missing:
        raise Http404("No such document") from missing


def document_sections(*, document: Document) -> list[Section]:
    return list(document.sections.annotate(entry_count=Count("entries")).order_by("order"))


@dataclass
class SectionPage:
    document: Document
    section: Section
    entries: list[ShownEntry]
    previous: Section | None
    next: Section | None


def section_page(*, slug: str, key: str) -> SectionPage:
    document = document_get(slug=slug)
    sections = list(document.sections.order_by("order"))
    index = next((i for i, s in enumerate(sections) if s.key == key), None)
    if index is None:
        raise Http404("No such section")
    section = sections[index]
    rows = list(section.entries.select_related(*ENTRY_RELATED).order_by("order"))
    top, children = _nest(rows)
    return SectionPage(
        document,
        section,
        _shown(top, children),
        sections[index - 1] if index > 0 else None,
        sections[index + 1] if index + 1 < len(sections) else None,
    )


def _nest(rows: list[Entry]) -> tuple[list[Entry], dict[int, list[Entry]]]:
    present = {row.pk for row in rows}
    top: list[Entry] = []
    children: dict[int, list[Entry]] = defaultdict(list)
    for row in rows:
        if row.parent_id in present:
            children[row.parent_id].append(row)
        else:
            top.append(row)
    return top, children


@dataclass
class EntryPage:
    document: Document
    entry: ShownEntry
    parent: Entry | None
    previous: Entry | None
    next: Entry | None
    cited_by: list[Entry]
    later: Entry | None  # the same entry in the current edition, when this document is an old one


def entry_page(*, slug: str, key: str) -> EntryPage:
    document = document_get(slug=slug)
    try:
        entry = Entry.objects.select_related(*ENTRY_RELATED).get(document=document, key=key)
    except Entry.DoesNotExist as missing:
        raise Http404("No such entry") from missing
    # Neighbours among the top-level entries of the document (examples travel with their rule).
    siblings = Entry.objects.filter(document=document, parent__isnull=True)
    anchor = entry.parent or entry
    previous = siblings.filter(order__lt=anchor.order).order_by("-order").select_related("document").first()
    following = siblings.filter(order__gt=anchor.order).order_by("order").select_related("document").first()
    children = list(entry.children.select_related(*ENTRY_RELATED).order_by("order"))
    if entry.number and not children:
        # Vs. System sub-rules are numbered under their rule (702.6a under 702.6) without a parent link.
        children = [
            row
            for row in Entry.objects.filter(document=document, number__startswith=entry.number)
            .exclude(pk=entry.pk)
            .select_related(*ENTRY_RELATED)
            .order_by("order")
            if row.number[len(entry.number) :].isalpha() and len(row.number) == len(entry.number) + 1
        ]
    cited_by = list(
        Entry.objects.filter(references__target_entry=entry)
        .select_related("document")
        .distinct()
        .order_by("document_id", "order")[:50]
    )
    later = None
    if not document.is_current:
        later = (
            Entry.objects.filter(
                document__is_current=True,
                document__game=document.game,
                document__title=document.title,
                key=key,
            )
            .select_related("document")
            .first()
        )
    return EntryPage(
        document,
        _shown([entry], {entry.pk: children})[0],
        entry.parent,
        previous,
        following,
        cited_by,
        later,
    )


def entry_by_number(*, game: str, number: str) -> Entry | None:
    """The current entry printed with this number (rules before their examples)."""
    canonical = references.dcdb_number(number) if game == GAME_DCDB else number
    rows = (
        Entry.objects.filter(document__is_current=True, document__game__code=game, number=canonical or number)
        .select_related("document")
        .order_by("document_id", "order")
    )
    for row in rows:
        return row
    return None


# --- cards --------------------------------------------------------------------------------------


@dataclass
class CardGroup:
    category: str
    label: str
    cards: list[Card]


def card_index(*, game: str, category: str = "") -> list[CardGroup]:
    """Cards of the game's current documents by category, each with the entry to open for it (``pages``:
    its heading, else its rulebook notes) and its ruling count."""
    cards = (
        Card.objects.filter(game__code=game, document__is_current=True)
        .select_related("document")
        .annotate(
            ruling_count=Count(
                "entries", filter=Q(entries__kind="card_ruling") | Q(entries__kind="card_note")
            )
        )
        .prefetch_related(
            Prefetch(
                "entries",
                # The card's page: its heading, else (a card only a rulebook's note is on) the first note.
                queryset=Entry.objects.filter(kind__in=["card", "card_note"])
                .select_related("document")
                .order_by("kind", "order"),
                to_attr="pages",
            )
        )
        .order_by("normalised_name", "set_name")
    )
    if category:
        cards = cards.filter(category=category)
    labels = dict(Card.CATEGORY_CHOICES)
    groups = {key: CardGroup(key, labels[key], []) for key in CARD_CATEGORIES}
    for card in cards:
        groups[card.category].cards.append(card)
    return [group for group in groups.values() if group.cards]


# --- what changed between two editions -------------------------------------------------------------


@dataclass
class Changes:
    document: Document
    previous: Document | None
    added: list[Entry]
    removed: list[Entry]
    changed: list[tuple[Entry, Entry]]  # (old, new)


def document_changes(*, slug: str) -> Changes:
    """Entries added, removed and changed (by key) since the edition this document replaced."""
    document = document_get(slug=slug)
    previous = document.previous
    if previous is None:
        return Changes(document, None, [], [], [])
    new = {
        e.key: e for e in Entry.objects.filter(document=document).select_related("document").order_by("order")
    }
    old = {
        e.key: e for e in Entry.objects.filter(document=previous).select_related("document").order_by("order")
    }
    return Changes(
        document,
        previous,
        added=[e for k, e in new.items() if k not in old],
        removed=[e for k, e in old.items() if k not in new],
        changed=[
            (old[k], e)
            for k, e in new.items()
            if k in old and (old[k].text != e.text or old[k].title != e.title)
        ],
    )


# --- an entry shown inline, where a cross-reference points at it --------------------------------


def entry_peek(*, slug: str, key: str) -> ShownEntry:
    """The entry with its text's cross-references and its children (examples, or a card's rulings).

    Three queries: the entry, its children, their cross-references.
    """
    try:
        entry = Entry.objects.select_related(*ENTRY_RELATED).get(document__slug=slug, key=key)
    except Entry.DoesNotExist as missing:
        raise Http404("No such entry") from missing
    children = list(entry.children.select_related("document").order_by("order"))
    return _shown([entry], {entry.pk: children})[0]


# --- the glossary of one game ---------------------------------------------------------------------

# Sections whose titled rules define terms ("6.000 - Definitions and Keywords" in the DCDB book).
# One pattern for Python and for the database's case-insensitive regex (SQLite and PostgreSQL alike).
_DEFINITION_SECTIONS = "definition|glossary|terminology|keyword"
# A FAQ that defines a term: "What does the term “defeat” or “defeated” mean?"
_TERM_QUESTION = re.compile(r"^what does the term [“\"'‘]?(?P<term>[^”\"'’?]+)", re.IGNORECASE)


@dataclass
class GlossaryTerm:
    term: str
    anchor: str  # the term's id on the page
    definitions: list[ShownEntry]  # one per entry that defines it (DCDB: "Ongoing" has four)


@dataclass
class GlossaryLetter:
    letter: str
    terms: list[GlossaryTerm]


@dataclass
class Glossary:
    game: Game
    letters: list[GlossaryLetter]
    alphabet: list[tuple[str, bool]]  # every letter A–Z (and "#"), and whether a term starts with it

    @property
    def term_count(self) -> int:
        return sum(len(letter.terms) for letter in self.letters)


def glossary(*, game: str) -> Glossary:
    """Every term the game's current documents define, alphabetically (four queries).

    A term is a glossary entry (Vs. System, OverPower), a titled rule in a definitions section (the
    DCDB book's "Definitions and Keywords") or a FAQ that asks what a term means. Each definition
    comes with its cross-references and its examples.
    """
    game_row = Game.objects.filter(code=game).first()
    if game_row is None:
        raise Http404("No such game")
    rows = (
        Entry.objects.filter(document__game=game_row, document__is_current=True)
        .filter(
            Q(kind=GLOSSARY)
            | Q(kind=RULE, section__title__iregex=_DEFINITION_SECTIONS)
            | Q(kind=FAQ, title__istartswith="what does the term")
        )
        .select_related(*ENTRY_RELATED)
        .order_by("document_id", "order")
    )
    defined: list[tuple[str, Entry]] = []
    for entry in rows:
        term = _defined_term(entry)
        if term:
            defined.append((term, entry))
    children: dict[int, list[Entry]] = defaultdict(list)
    for child in (
        Entry.objects.filter(parent__in=[entry for _, entry in defined], kind=EXAMPLE)
        .select_related("document")
        .order_by("order")
    ):
        children[child.parent_id].append(child)
    shown = {s.entry.pk: s for s in _shown([entry for _, entry in defined], children)}
    terms: dict[str, GlossaryTerm] = {}
    for term, entry in defined:
        key = normalise(term)
        if key not in terms:
            terms[key] = GlossaryTerm(term, "term-" + key.replace(" ", "-"), [])
        terms[key].definitions.append(_without_term(shown[entry.pk], term))
    by_letter: dict[str, list[GlossaryTerm]] = defaultdict(list)
    for key in sorted(terms):
        by_letter[_letter(key)].append(terms[key])
    alphabet = [(letter, letter in by_letter) for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    if "#" in by_letter:
        alphabet.append(("#", True))
    return Glossary(
        game_row,
        [GlossaryLetter(letter, by_letter[letter]) for letter, present in alphabet if present],
        alphabet,
    )


def _defined_term(entry: Entry) -> str:
    if entry.kind == FAQ:
        match = _TERM_QUESTION.match(entry.title)
        return match.group("term").strip() if match else ""
    return entry.title.strip()


def _letter(key: str) -> str:
    first = key[:1].upper()
    return first if "A" <= first <= "Z" else "#"


def _without_term(shown: ShownEntry, term: str) -> ShownEntry:
    """ "Assist: This keyword has no effect…" → "This keyword has no effect…": the term is the heading."""
    text = shown.entry.text
    prefix = re.match(rf"\s*{re.escape(term)}\s*[:–—-]\s*", text, re.IGNORECASE)
    if not prefix:
        return shown
    cut = prefix.end()
    kept: list[Segment] = []
    position = 0
    for segment in shown.segments:
        end = position + len(segment.text)
        if end <= cut:
            pass
        elif position < cut:
            if segment.status:
                return shown  # a reference inside the term itself: keep the text whole
            kept.append(Segment(segment.text[cut - position :]))
        else:
            kept.append(segment)
        position = end
    return ShownEntry(shown.entry, kept, shown.children)


# --- The copy a judge's phone keeps for searching offline (static/js/offline-search.js) ---------------

OFFLINE_TEXT_CHARS = 400  # enough to recognise the answer; the entry page itself has the rest


def offline_index_version() -> str:
    """Changes exactly when the current documents change (each import has its own checksum)."""
    checksums = sorted(Document.objects.filter(is_current=True).values_list("checksum", flat=True))
    return hashlib.sha256("\n".join(checksums).encode()).hexdigest()[:20]


def offline_index() -> list[dict[str, str]]:
    """Every entry of the current documents, compact: address (u), game (g), document (d), number (n),
    title (t), text trimmed (x) and card name (c). Two queries."""
    entries = (
        Entry.objects.filter(document__is_current=True)
        .select_related("document__game", "card")
        .only(
            "key", "kind", "number", "title", "text", "document__slug", "document__title",
            "document__game__code", "card__name",
        )
        .order_by("document__game__code", "document_id", "order")
    )  # fmt: skip
    rows = []
    for entry in entries:
        text = entry.text if len(entry.text) <= OFFLINE_TEXT_CHARS else entry.text[:OFFLINE_TEXT_CHARS] + "…"
        rows.append(
            {
                "u": entry.get_absolute_url(),
                "g": entry.document.game.code,
                "d": entry.document.title,
                "n": entry.number,
                "t": entry.title or ("" if entry.number else entry.get_kind_display()),
                "x": text,
                "c": entry.card.name if entry.card else "",
            }
        )
    return rows
