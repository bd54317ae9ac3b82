"""Writes: import parsed rule documents into the database.

``import_paths(paths=[...])`` parses each file (the parser is chosen by content) and imports it:

- same checksum and same parser code → nothing changes ("unchanged");
- same checksum, parser code changed since → the document's rows are rebuilt in place ("reparsed");
- a new checksum for a title already imported for that game → a new edition: the old one is kept
  and no longer current, the new one is current ("new_edition");
- otherwise → "created".

Cross-references are resolved inside one game only, preferring the document they appear in.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

from . import references as refs
from . import search
from .models import Card, CardAlias, CrossReference, Document, Entry, Game, SearchIndex, Section
from .parsers import PARSER_MODULES, parse_path
from .parsers.base import CARD, CARD_NOTE, GAME_DCDB, GAME_NAMES, ParsedDocument
from .query import fold, normalised

CREATED, UNCHANGED, REPARSED, NEW_EDITION = "created", "unchanged", "reparsed", "new_edition"


class DocumentError(ValueError):
    """A user-fixable problem with the files given to the importer (missing path, unknown document)."""


@dataclass
class ImportResult:
    document: Document
    status: str  # CREATED, UNCHANGED, REPARSED, NEW_EDITION
    counts: dict[str, int]
    references: dict[str, int]  # status → number of reference spans


def parser_version() -> str:
    """A hash of the parser code and of the code that finds cross-references, so that a fixed parser (or a
    new kind of reference) re-reads documents imported before the fix."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    package = here / "parsers"
    for name in ["base", "__init__"] + [module.rsplit(".", 1)[1] for module in PARSER_MODULES]:
        path = package / f"{name}.py"
        if path.exists():
            digest.update(path.read_bytes())
    digest.update((here / "references.py").read_bytes())
    return digest.hexdigest()[:16]


def source_paths(*, paths: Iterable[str | Path]) -> list[Path]:
    """Expand directories to the rule documents in them (``*.txt`` but no README)."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += sorted(
                p
                for p in path.iterdir()
                if p.is_file() and p.suffix.lower() == ".txt" and not p.name.lower().startswith("readme")
            )
        elif path.is_file():
            found.append(path)
        else:
            raise DocumentError(f"{path}: no such file or directory")
    return found


def import_file(*, path: Path, parser_version: str) -> ImportResult:
    """Parse one file and import it; ``DocumentError`` when it is no rule document we know."""
    from .parsers import UnknownDocument

    try:
        parsed = parse_path(path)
    except UnknownDocument as error:
        raise DocumentError(str(error)) from error
    except ModuleNotFoundError as error:
        if not (error.name or "").startswith("rulings.parsers."):
            raise
        raise DocumentError(f"{path.name}: no parser installed for it yet ({error.name})") from error
    return import_document(parsed=parsed, parser_version=parser_version)


def import_paths(*, paths: Iterable[str | Path]) -> list[ImportResult]:
    """Import every document under ``paths``; any unknown file is an error."""
    version = parser_version()
    results = [import_file(path=path, parser_version=version) for path in source_paths(paths=paths)]
    if any(result.status != UNCHANGED for result in results):
        search.rebuild_index()
    return results


def import_document(*, parsed: ParsedDocument, parser_version: str = "") -> ImportResult:
    """Import one parsed document (see the module docstring for what happens to earlier imports)."""
    existing = Document.objects.filter(checksum=parsed.checksum).first()
    if existing and existing.parser_version == parser_version and parser_version:
        return ImportResult(existing, UNCHANGED, existing.counts, _reference_counts(existing))
    with transaction.atomic():
        game, _ = Game.objects.get_or_create(
            code=parsed.game, defaults={"name": GAME_NAMES.get(parsed.game, parsed.game)}
        )
        if existing:
            status, slug, is_current, previous = (
                REPARSED,
                existing.slug,
                existing.is_current,
                existing.previous,
            )
            existing.delete()
        else:
            previous = (
                Document.objects.filter(game=game, title=parsed.title, is_current=True)
                .order_by("-pk")
                .first()
            )
            status = NEW_EDITION if previous else CREATED
            slug, is_current = _unique_slug(parsed), True
        document = Document.objects.create(
            game=game,
            slug=slug,
            title=parsed.title,
            edition=parsed.edition,
            season=parsed.season,
            authority=parsed.authority,
            source_file=parsed.source_file,
            checksum=parsed.checksum,
            parser_version=parser_version,
            is_current=is_current,
            previous=previous,
            counts=parsed.counts(),
            warnings=list(parsed.warnings),
        )
        if status == NEW_EDITION:
            Document.objects.filter(pk=previous.pk).update(is_current=False)
            SearchIndex.objects.filter(document=previous).update(is_current=False)
        _write_rows(document=document, parsed=parsed, game=game)
        counts = resolve_references(document=document)
    return ImportResult(document, status, document.counts, counts)


def _unique_slug(parsed: ParsedDocument) -> str:
    base = slugify(f"{parsed.game} {parsed.title} {parsed.edition}")[:100] or "document"
    slug, n = base, 2
    while Document.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def sort_key(number: str) -> str:
    """'9.020' → '000009.000020'; '400.5a' → '000400.000005.a': numbers sort as numbers."""
    parts = re.findall(r"\d+|[a-z]+", number.lower())
    return ".".join(part.zfill(6) if part.isdigit() else part for part in parts)[:120]


def _write_rows(*, document: Document, parsed: ParsedDocument, game: Game) -> None:
    sections = Section.objects.bulk_create(
        Section(
            document=document,
            key=section.key,
            number=section.number,
            title=section.title[:300],
            normalised_title=normalised(section.title)[:300],
            order=section.order or index,
        )
        for index, section in enumerate(parsed.sections)
    )
    section_by_key = {section.key: section for section in sections}
    parents = [
        (section_by_key[p.key], section_by_key[p.parent])
        for p in parsed.sections
        if p.parent in section_by_key
    ]
    for child, parent in parents:
        child.parent = parent
    Section.objects.bulk_update([child for child, _ in parents], ["parent"])
    if not section_by_key:
        fallback = Section.objects.create(document=document, key="all", title=document.title)
        section_by_key["all"] = fallback

    cards = Card.objects.bulk_create(
        Card(
            game=game,
            document=document,
            key=card.key,
            name=card.name[:200],
            normalised_name=normalised(card.name)[:200],
            set_name=card.set_name[:200],
            category=card.category,
        )
        for card in parsed.cards
    )
    card_by_key = {card.key: card for card in cards}
    CardAlias.objects.bulk_create(
        CardAlias(card=card_by_key[card.key], alias=alias[:200], normalised=normalised(alias)[:200])
        for card in parsed.cards
        for alias in card.aliases
    )

    first_section = next(iter(section_by_key.values()))
    entries = Entry.objects.bulk_create(
        Entry(
            document=document,
            section=section_by_key.get(entry.section, first_section),
            key=entry.key,
            kind=entry.kind,
            number=entry.number[:40],
            sort_key=sort_key(entry.number) if entry.number else "",
            title=entry.title[:500],
            normalised_title=normalised(entry.title)[:500],
            text=entry.text,
            card=card_by_key.get(entry.card) if entry.card else None,
            order=entry.order or index,
            line=entry.line,
        )
        for index, entry in enumerate(parsed.entries)
    )
    entry_by_key = {entry.key: entry for entry in entries}
    with_parent = []
    for parsed_entry in parsed.entries:
        if parsed_entry.parent and parsed_entry.parent in entry_by_key:
            row = entry_by_key[parsed_entry.key]
            row.parent = entry_by_key[parsed_entry.parent]
            with_parent.append(row)
    Entry.objects.bulk_update(with_parent, ["parent"], batch_size=500)

    section_titles = {section.pk: section.title for section in sections}
    aliases: dict[str, list[str]] = defaultdict(list)
    for card in parsed.cards:
        aliases[card.key] = list(card.aliases)
    rows = []
    for parsed_entry, entry in zip(parsed.entries, entries, strict=True):
        card = entry.card
        names = []
        if card is not None:
            names += [card.name, card.set_name, *aliases.get(parsed_entry.card or "", [])]
        names.append(section_titles.get(entry.section_id, ""))
        rows.append(
            SearchIndex(
                entry=entry,
                document=document,
                game=game.code,
                is_current=document.is_current,
                title=fold(f"{entry.number} {entry.title}".strip()),
                names=fold(" · ".join(name for name in names if name)),
                body=fold(entry.text),
            )
        )
    SearchIndex.objects.bulk_create(rows, batch_size=1000)


# --- cross-references -------------------------------------------------------------------------


def resolve_references(*, document: Document) -> dict[str, int]:
    """Find and resolve the cross-references in every entry of ``document``; returns counts by status."""
    CrossReference.objects.filter(source__document=document).delete()
    entries = list(
        Entry.objects.filter(document=document).only("id", "text", "title", "number", "kind", "parent_id")
    )
    game = document.game.code
    # Targets: this document first, then the game's other current documents.
    numbered: dict[str, set[tuple[int, int]]] = defaultdict(set)  # number → {(entry_id, document_id)}
    targets_q = Q(document__game__code=game, document__is_current=True) | Q(document=document)
    for number, entry_id, document_id in (
        Entry.objects.filter(targets_q)
        .exclude(number="")
        .exclude(kind__in=["example", "list_item", "card_ruling"])
        .values_list("number", "id", "document_id")
    ):
        numbered[number].add((entry_id, document_id))
    # "See also: Attack." names a numbered rule of this document by its title.
    titled: dict[str, list[int]] = defaultdict(list)  # normalised title → numbered entries of this document
    for entry in entries:
        if entry.number and entry.title and entry.kind not in ("example", "list_item", "card_ruling"):
            titled[normalised(entry.title)].append(entry.pk)
    cards_by_name: dict[str, list[tuple[int, int, str, str, str]]] = defaultdict(list)
    card_entry = dict(
        Entry.objects.filter(document__game__code=game, kind=CARD, card__isnull=False).values_list(
            "card_id", "id"
        )
    )
    card_rows = Card.objects.filter(Q(game__code=game, document__is_current=True) | Q(document=document))
    for card in card_rows.values_list("id", "document_id", "normalised_name", "category", "set_name"):
        cards_by_name[card[2]].append(card)
    for alias in CardAlias.objects.filter(card__in=card_rows).values_list(
        "normalised",
        "card_id",
        "card__document_id",
        "card__normalised_name",
        "card__category",
        "card__set_name",
    ):
        cards_by_name[alias[0]].append((alias[1], alias[2], alias[3], alias[4], alias[5]))

    def prefer_here(candidates: list[tuple]) -> list[tuple]:
        here = [c for c in candidates if c[1] == document.pk]  # (id, document_id, ...)
        return here or candidates

    rows: list[CrossReference] = []
    counts = {CrossReference.RESOLVED: 0, CrossReference.AMBIGUOUS: 0, CrossReference.UNRESOLVED: 0}
    for entry in entries:
        if not entry.text:
            continue
        for ref in refs.find_references(entry.text, game=game):
            start, label = ref.start, ref.label
            targets: list[tuple[int | None, int | None]] = []  # (entry_id, card_id)
            if ref.title:
                found = [pk for pk in titled.get(normalised(ref.title), ()) if pk != entry.pk]
                if not found:
                    continue  # a title no rule here has: left as text
                targets = [(pk, None) for pk in found]
            elif ref.kind in (refs.RULE, refs.PHRASE):
                if ref.number == entry.number:
                    continue  # a rule that quotes its own number or phrase
                targets = [
                    (entry_id, None) for entry_id, _ in prefer_here(sorted(numbered.get(ref.number, ())))
                ]
            else:
                for name, name_start in zip(ref.names, ref.name_starts, strict=True):
                    matches = _card_matches(cards_by_name, name, ref)
                    if matches:
                        matches = prefer_here(matches)
                        targets = [(card_entry.get(card[0]), card[0]) for card in matches]
                        start, label = name_start, entry.text[name_start : ref.end]
                        break
                else:
                    # Not a card this game's documents know (Punch [Starter]): keep the span as text.
                    start = ref.name_starts[-1]
                    label = entry.text[start : ref.end]
            status = (
                CrossReference.RESOLVED
                if len(targets) == 1
                else CrossReference.AMBIGUOUS
                if targets
                else CrossReference.UNRESOLVED
            )
            counts[status] += 1
            for target_entry, target_card in targets or [(None, None)]:
                rows.append(
                    CrossReference(
                        source_id=entry.pk,
                        start=start,
                        end=ref.end,
                        label=label[:300],
                        kind=ref.kind,
                        status=status,
                        target_entry_id=target_entry,
                        target_card_id=target_card,
                    )
                )
    if game == GAME_DCDB:
        rows += _card_note_references(
            document=document,
            notes=[entry for entry in entries if entry.kind == CARD_NOTE],
            cards_by_name=cards_by_name,
            card_entry=card_entry,
            taken={(row.source_id, row.start, row.end) for row in rows},
            counts=counts,
        )
    CrossReference.objects.bulk_create(rows, batch_size=1000)
    return counts


# Cards every game has and every rule mentions: a note that says "Weakness" means the stack.
_EVERYDAY_CARDS = frozenset({"punch", "kick", "weakness", "vulnerability"})


def _card_note_references(
    *,
    document: Document,
    notes: list[Entry],
    cards_by_name: dict[str, list[tuple]],
    card_entry: dict[int, int],
    taken: set[tuple[int, int, int]],
    counts: dict[str, int],
) -> list[CrossReference]:
    """Links from a rulebook's card notes to each card they name that has a page (a card heading).

    A note is about the rulebook's own set ("Catwoman" in the base-set rulebook is the base-set
    Catwoman), so only cards of that set are candidates; a qualifier picks the category ("Shazam!
    (Super Power)"). Names in the note's label ("Red Tornado, Batgirl: …") are stored as empty spans
    at 0, the start of the entry: the label is its title, not its text. Names in the text link their
    first mention. A name with no card of the set is left alone: it may be another set's card.
    """
    home_set = _home_set(document)
    by_name: dict[str, list[tuple]] = defaultdict(list)  # normalised name → cards with a page
    for key, cards in cards_by_name.items():
        for card in cards:
            if card[0] in card_entry and normalised(card[4]) == home_set:
                by_name[key].append(card)
                if key.startswith("the "):
                    by_name[key[4:]].append(card)  # "Riddler:" labels the card The Riddler
    names = {key for key in by_name if key not in _EVERYDAY_CARDS}
    rows: list[CrossReference] = []

    def add(note: Entry, start: int, end: int, label: str, category: str) -> None:
        cards = list({card[0]: card for card in by_name.get(normalised(label), [])}.values())
        if category:
            cards = [card for card in cards if card[3] == category] or cards
        if not cards:
            return
        status = CrossReference.RESOLVED if len(cards) == 1 else CrossReference.AMBIGUOUS
        counts[status] += 1
        rows.extend(
            CrossReference(
                source_id=note.pk,
                start=start,
                end=end,
                label=label[:300],
                kind=CrossReference.TAG,
                status=status,
                target_entry_id=card_entry[card[0]],
                target_card_id=card[0],
            )
            for card in cards
        )

    for note in notes:
        for name, category in refs.label_card_names(note.title, names):
            add(note, 0, 0, name, category)
        spans = sorted((start, end) for source, start, end in taken if source == note.pk)
        for ref in refs.find_card_names(note.text, names):
            if not any(start < ref.end and ref.start < end for start, end in spans):
                add(note, ref.start, ref.end, ref.label, "")
    return rows


def _home_set(document: Document) -> str:
    """The set a rulebook comes with: the set of most of the cards it names ("base set")."""
    sets = Counter(
        normalised(name) for name in Card.objects.filter(document=document).values_list("set_name", flat=True)
    )
    return sets.most_common(1)[0][0] if sets else ""


def _card_matches(cards_by_name: dict, name: str, ref: refs.Reference) -> list[tuple]:
    key = normalised(name)
    candidates = list(cards_by_name.get(key, []))
    if ref.set_name.lower() == "impossible mode":
        candidates += cards_by_name.get(f"{key} impossible mode", [])
    if not candidates:
        return []
    if ref.category:
        same = [c for c in candidates if c[3] == ref.category]
        candidates = same or candidates
    if ref.set_name:
        wanted = normalised(ref.set_name)
        same = [c for c in candidates if wanted in normalised(c[4]) or wanted in c[2]]
        candidates = same or candidates
    unique = {c[0]: c for c in candidates}
    return list(unique.values())


def _reference_counts(document: Document) -> dict[str, int]:
    counts = {CrossReference.RESOLVED: 0, CrossReference.AMBIGUOUS: 0, CrossReference.UNRESOLVED: 0}
    seen = set()
    for source, start, end, label, status in CrossReference.objects.filter(
        source__document=document
    ).values_list("source_id", "start", "end", "label", "status"):
        # One span, one reference (an ambiguous one has a row per candidate); a note's label can
        # name several cards, each an empty span at 0 with its own label.
        if (source, start, end, label) not in seen:
            seen.add((source, start, end, label))
            counts[status] += 1
    return counts
