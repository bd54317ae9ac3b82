"""Reads for the rulings pages and for other apps. Each function runs a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q
from django.http import Http404

from . import references
from .models import Card, CrossReference, Document, Entry, Section
from .parsers.base import CARD_CATEGORIES, GAME_DCDB

ENTRY_RELATED = ("document", "document__game", "section", "card", "parent")


# --- links to rules, for the judging pages --------------------------------------------------------


def rule_urls(numbers: Iterable[str], game: str = GAME_DCDB) -> dict[str, str]:
    """Permalinks of the current document's rules with these printed numbers (one query).

    Numbers that are not found are left out; DCDB numbers may be given short ("12.05" → 12.050).
    """
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
    found: dict[str, str] = {}
    for entry in rows:
        found.setdefault(wanted[entry.number], entry.get_absolute_url())
    return found


# --- text with its cross-references as links ----------------------------------------------------


@dataclass
class Link:
    url: str
    label: str  # what the target is ("9.020", "Deathstorm (Base Set)")


@dataclass
class Segment:
    text: str
    status: str = ""  # "", "resolved", "ambiguous", "unresolved"
    links: list[Link] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.links[0].url if self.status == CrossReference.RESOLVED and self.links else ""


def segments(text: str, refs: list[CrossReference]) -> list[Segment]:
    """Split ``text`` into plain runs and references (rows of one span grouped: several = ambiguous)."""
    spans: dict[tuple[int, int], list[CrossReference]] = defaultdict(list)
    for ref in refs:
        spans[(ref.start, ref.end)].append(ref)
    out: list[Segment] = []
    position = 0
    for (start, end), rows in sorted(spans.items()):
        if start < position or end > len(text):
            continue  # overlapping or stale spans: keep the text as it is
        if start > position:
            out.append(Segment(text[position:start]))
        links = [
            Link(row.target_entry.get_absolute_url(), _target_label(row.target_entry))
            for row in rows
            if row.target_entry is not None
        ]
        out.append(Segment(text[start:end], rows[0].status, links))
        position = end
    if position < len(text):
        out.append(Segment(text[position:]))
    return out


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


def _shown(entries: list[Entry], children: dict[int, list[Entry]]) -> list[ShownEntry]:
    ids = [e.pk for e in entries] + [c.pk for rows in children.values() for c in rows]
    refs = _references_for(ids)
    return [
        ShownEntry(
            entry,
            segments(entry.text, refs.get(entry.pk, [])),
            [
                ShownEntry(child, segments(child.text, refs.get(child.pk, [])))
                for child in children.get(entry.pk, [])
            ],
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
    """Cards of the game's current documents by category, each with its heading entry and ruling count."""
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
                queryset=Entry.objects.filter(kind="card").select_related("document"),
                to_attr="headings",
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
