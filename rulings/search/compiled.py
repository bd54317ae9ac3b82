"""What every search needs from the documents, compiled once per imported document: names, numbers,
children, every entry's words for the ranking (``rulings.ranking.EntryWords``), the vocabulary.

A document's rows never change after its import (a re-parse or a new edition is a new document row), so
the compiled data is kept for the life of the process, and on disk (``VAR_DIR/cache/rulings``) so that
a fresh process (a new gunicorn worker, the command line) loads it in milliseconds instead of compiling
it again; which documents exist and which are current is read once per search, with one small query.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import logging
import os
import pickle
import re
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.db import connection

from .. import query as q
from .. import ranking
from ..models import Card, CardAlias, Document, Entry, Section
from . import correction

logger = logging.getLogger(__name__)

# Entry kinds that are the "thing itself" rather than a comment on it: preferred for numbers and names.
PRIMARY_KINDS = ("rule", "heading", "glossary", "card", "card_note", "passage", "faq", "template")
NAMED_KINDS = ("card", "glossary", "rule", "heading", "card_note", "template", "passage")


@dataclass
class DocumentData:
    """One imported document, compiled for search."""

    key: tuple  # (id, checksum, imported_at): a document row with the same key has the same entries
    entries: dict[int, ranking.EntryWords]
    names: dict[str, list[tuple]]  # normalised name → [(rank key, entry id, how)]; how: title/alias/section
    printed_names: dict[str, str]  # normalised name → as printed (titles, aliases, section titles)
    numbers: dict[str, list[int]]  # printed number → entry ids
    children: dict[int, list[int]]  # entry id → its examples, list items, card rulings, sub-rules
    words: Counter  # every word of the document (typo correction)
    stats: ranking.Statistics
    parents: dict[int, int]  # entry id → its parent's id
    keys: dict[str, int]  # entry key (as in its address) → entry id
    document: Document  # the row a result shows with its entries, read once (is_current kept up to date)
    # Entry rows a result has shown (with their section and card), read once: a document's rows never change.
    rows: dict[int, Entry] = field(default_factory=dict, repr=False)


@dataclass
class DocumentInfo:
    id: int
    slug: str
    game: str
    is_current: bool


@dataclass
class Vocabulary:
    generation: tuple
    names: dict[str, str]  # normalised name → name as printed
    words: Counter

    @functools.cached_property
    def compact_names(self) -> dict[str, str]:
        """Names written without their spaces ('plasticman' → 'plastic man')."""
        return {key.replace(" ", ""): key for key in self.names if " " in key}

    @functools.cached_property
    def sounds(self) -> dict[str, tuple[str, ...]]:
        """The names by how they sound (``correction.sound``)."""
        return correction.sounds_of(self.names)

    @functools.cached_property
    def compounds(self) -> dict[str, str]:
        """The documents' hyphenated words, written as one word → as the search reads them ('lineup' →
        'line up' for "Line-Up", 'faceup' → 'face up')."""
        return {
            word.replace("-", ""): word.replace("-", " ")
            for word in self.words
            if "-" in word and word.replace("-", "").isalpha()
        }


@dataclass
class Catalogue:
    """The documents as they are now: their compiled data, current ones' vocabulary and statistics."""

    generation: tuple
    documents: dict[int, DocumentInfo]
    data: dict[int, DocumentData]
    current_stats: ranking.Statistics
    _vocabulary: Vocabulary | None = None

    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            names: dict[str, str] = {}
            words: Counter = Counter()
            for document_id, info in self.documents.items():
                if info.is_current:
                    for key, printed in self.data[document_id].printed_names.items():
                        names.setdefault(key, printed)
                    words.update(self.data[document_id].words)
            names.pop("", None)
            self._vocabulary = Vocabulary(self.generation, names, words)
        return self._vocabulary

    def entry(self, entry_id: int) -> ranking.EntryWords | None:
        for data in self.data.values():
            found = data.entries.get(entry_id)
            if found is not None:
                return found
        return None

    @functools.cached_property
    def _addresses(self) -> dict[str, int]:
        """Every current entry's "document-slug/entry-key" → its id."""
        return {
            f"{info.slug}/{key}": pk
            for document_id, info in self.documents.items()
            if info.is_current
            for key, pk in self.data[document_id].keys.items()
        }

    def by_address(self, refs: dict[str, float]) -> dict[int, float]:
        """``refs`` ("document-slug/entry-key" → a value) for the current documents' entries, by entry id;
        an address no current entry has is left out."""
        addresses = self._addresses
        return {addresses[ref]: value for ref, value in refs.items() if ref in addresses}

    def in_scope(self, *, game: str | None, document_id: int | None) -> list[int]:
        return [
            info.id
            for info in self.documents.values()
            if (info.id == document_id if document_id else info.is_current)
            and (not game or info.game == game)
        ]


_documents: dict[tuple, DocumentData] = {}
_catalogue: Catalogue | None = None
_lock = threading.Lock()


def _document_rows() -> list[tuple]:
    """One query: every document with what says whether its compiled data is still good."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT d.id, d.checksum, d.imported_at, d.is_current, d.slug, g.code "
            "FROM rulings_document d JOIN rulings_game g ON g.id = d.game_id ORDER BY d.id"
        )
        return cursor.fetchall()


# What the disk cache depends on besides the document: the code that compiles it.
_CODE = Path(__file__).resolve().parent.parent
_CODE_VERSION = hashlib.sha256(
    b"".join((_CODE / name).read_bytes() for name in ("query.py", "ranking.py", "search/compiled.py"))
).hexdigest()[:12]
_PURE = ("entries", "names", "printed_names", "numbers", "children", "words", "stats", "parents", "keys")


def _cache_path(key: tuple) -> Path:
    document_id, checksum, imported_at = key
    stamp = hashlib.sha256(f"{document_id} {checksum} {imported_at}".encode()).hexdigest()[:16]
    return Path(settings.VAR_DIR) / "cache" / "rulings" / f"{stamp}-{_CODE_VERSION}.pickle"


def _read_cache(key: tuple) -> dict | None:
    path = _cache_path(key)
    # Loading creates hundreds of thousands of objects: the garbage collector, left on, would walk
    # them again and again while they are made (it more than doubles the time).
    collecting = gc.isenabled()
    gc.disable()
    try:
        with path.open("rb") as handle:
            found = pickle.load(handle)
    except FileNotFoundError:
        return None
    except Exception:  # a truncated or foreign file: compile again and replace it
        logger.warning("rulings cache %s unreadable; compiling again", path)
        return None
    finally:
        if collecting:
            gc.enable()
    return found if isinstance(found, dict) and set(found) == set(_PURE) else None


def _write_cache(key: tuple, pure: dict) -> None:
    """Write atomically (a temporary file renamed), so that a reader never sees half a file; a cache
    that cannot be written (read-only disk) only costs the next process a compile."""
    path = _cache_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(pure, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        for old in path.parent.glob(f"{path.name.split('-')[0]}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError as error:
        logger.warning("rulings cache %s not written: %s", path, error)


def _compile_document(key: tuple, document: Document) -> DocumentData:
    pure = _read_cache(key)
    if pure is None:
        pure = _compile_pure(key[0])
        _write_cache(key, pure)
    return DocumentData(key, **pure, document=document)


def _compile_pure(document_id: int) -> dict:
    """The document's search data, made only of plain Python objects (what the disk cache holds)."""
    section_rows = {row.pk: row for row in Section.objects.filter(document_id=document_id)}
    card_rows = {row.pk: row for row in Card.objects.filter(document_id=document_id)}
    sections = {pk: row.title for pk, row in section_rows.items()}
    section_names = {pk: row.normalised_title for pk, row in section_rows.items()}
    cards = {pk: [row.name, row.set_name] for pk, row in card_rows.items()}
    aliases: dict[int, list[tuple[str, str]]] = {}
    for card_id, alias, alias_normalised in CardAlias.objects.filter(
        card__document_id=document_id
    ).values_list("card_id", "alias", "normalised"):
        aliases.setdefault(card_id, []).append((alias, alias_normalised))
    rows = list(
        Entry.objects.filter(document_id=document_id)
        .order_by("order", "pk")
        .values_list(
            "pk",
            "key",
            "kind",
            "order",
            "number",
            "title",
            "normalised_title",
            "section_id",
            "parent_id",
            "card_id",
            "search_row__title",
            "search_row__names",
            "search_row__body",
        )
    )
    entries: dict[int, ranking.EntryWords] = {}
    names: dict[str, list[tuple]] = {}
    printed: dict[str, str] = {}
    numbers: dict[str, list[int]] = {}
    children: dict[int, list[int]] = {}
    words: Counter = Counter()
    first_in_section: dict[int, int] = {}
    parents: dict[int, int] = {}
    by_number: dict[str, int] = {}
    keys: dict[str, int] = {}
    for (
        pk,
        key,
        kind,
        order,
        number,
        title,
        norm_title,
        section_id,
        parent_id,
        card_id,
        s_title,
        s_names,
        body,
    ) in rows:
        keys[key] = pk
        card_names = [*cards.get(card_id, []), *(a for a, _ in aliases.get(card_id, []))] if card_id else []
        entries[pk] = ranking.index_entry(
            entry_id=pk,
            document_id=document_id,
            kind=kind,
            order=order,
            title=s_title or "",
            names=" ".join(card_names),
            section=sections.get(section_id, ""),
            body=body or "",
        )
        words.update(q.words(f"{s_title or ''} {s_names or ''} {body or ''}"))
        rank_key = (NAMED_KINDS.index(kind) if kind in NAMED_KINDS else 99, document_id, order)
        if title and kind in NAMED_KINDS:
            names.setdefault(norm_title, []).append(((False, *rank_key), pk, "title"))
            printed.setdefault(norm_title, title)
        if kind == "card" and card_id in aliases:
            for alias, alias_normalised in aliases[card_id]:
                if alias_normalised != norm_title:
                    names.setdefault(alias_normalised, []).append(((True, *rank_key), pk, "alias"))
                printed.setdefault(alias_normalised, alias)
        if parent_id is None and section_id not in first_in_section:
            first_in_section[section_id] = pk
            section_name = section_names.get(section_id, "")
            if section_name and section_name != norm_title:
                names.setdefault(section_name, []).append(((True, *rank_key), pk, "section"))
        if number:
            numbers.setdefault(number, []).append(pk)
            if kind in PRIMARY_KINDS:
                by_number.setdefault(number, pk)
        if parent_id is not None:
            children.setdefault(parent_id, []).append(pk)
            parents[pk] = parent_id
    for section_id, title in sections.items():
        printed.setdefault(section_names.get(section_id, ""), title)
    # Vs. System sub-rules (702.6a) sit under their rule (702.6), like examples under theirs.
    for number, ids in numbers.items():
        if re.fullmatch(r"\d{3}\.\d{1,2}[a-z]", number) and number[:-1] in by_number:
            owner = by_number[number[:-1]]
            for pk in ids:
                if pk not in children.get(owner, ()) and pk != owner:
                    children.setdefault(owner, []).append(pk)
    for ids in children.values():
        ids.sort(key=lambda pk: entries[pk].order)
    for found in names.values():
        found.sort()
    printed.pop("", None)
    stats = ranking.Statistics()
    stats.add(list(entries.values()))
    return {
        "entries": entries,
        "names": names,
        "printed_names": printed,
        "numbers": numbers,
        "children": children,
        "words": words,
        "stats": stats,
        "parents": parents,
        "keys": keys,
    }


def catalogue() -> Catalogue:
    """The compiled documents as the database has them now (one query when nothing changed)."""
    global _catalogue
    rows = _document_rows()
    generation = tuple(rows)
    current = _catalogue
    if current is not None and current.generation == generation:
        return current
    with _lock:
        data: dict[int, DocumentData] = {}
        documents: dict[int, DocumentInfo] = {}
        missing = [row[0] for row in rows if (row[0], row[1], str(row[2])) not in _documents]
        rows_by_id = Document.objects.select_related("game").in_bulk(missing) if missing else {}
        for document_id, checksum, imported_at, is_current, slug, game in rows:
            key = (document_id, checksum, str(imported_at))
            if key not in _documents:
                _documents[key] = _compile_document(key, rows_by_id[document_id])
            data[document_id] = _documents[key]
            data[document_id].document.is_current = bool(is_current)
            documents[document_id] = DocumentInfo(document_id, slug, game, bool(is_current))
        for key in [key for key in _documents if data.get(key[0]) is not _documents[key]]:
            del _documents[key]  # deleted or replaced documents
        stats = ranking.Statistics()
        for document_id, info in documents.items():
            if info.is_current:
                stats = stats.merged(data[document_id].stats)
        _catalogue = Catalogue(generation, documents, data, stats)
        # The compiled documents are hundreds of thousands of long-lived objects: keep them out of the
        # garbage collector's full passes, which would otherwise land in the middle of a search.
        gc.freeze()
        return _catalogue


def vocabulary() -> Vocabulary:
    """Card names, aliases, glossary terms, keywords and section titles, and every word of the current
    documents; rebuilt when a document is imported."""
    return catalogue().vocabulary()
