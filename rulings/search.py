"""Search the rulings: one interface, two full-text backends.

``search(query=..., game=None, document=None, limit=20)`` answers in this order:

1. a rule number ("9.020", "12.05" → 12.050, "408.2a") jumps straight to that rule, with its
   examples and sub-rules; "702.6" never matches 702.60;
2. exact names (card names and aliases, glossary terms, keywords, section titles), compared with
   ``normalise()`` (no case, punctuation or accents), always rank first;
3. full text: the backend finds the entries with every word (SQLite FTS5 with bm25,
   ``SqliteBackend``; PostgreSQL full-text search, ``PostgresBackend``), or, when that finds too few,
   those missing one word and those with any; ``rulings.ranking`` orders them the same way on both
   (title > card name > body, coverage, proximity, definitions, kind of entry) and marks the matching
   words in a snippet. Abbreviations are searched both ways (SV ↔ super villain);
4. when the words find little, a fuzzy match (rapidfuzz) over names and the documents' vocabulary
   rewrites the query and the result says "showing results for …".

What every search needs from the documents (names, numbers, children, every entry's words) is compiled
once per process and per imported document (``catalogue()``); a search runs at most six queries: which
documents exist, two full-text queries (twice when the query is rewritten), and one for the entries it
shows.
"""

from __future__ import annotations

import gc
import re
import threading
from collections import Counter
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q
from django.utils.html import escape
from rapidfuzz import fuzz, process

from . import query as q
from . import ranking
from .models import Card, CardAlias, Document, Entry, Section

MARK_START, MARK_END = "\u27e6", "\u27e7"  # never in the documents; become <mark> after escaping
# Entry kinds that are the "thing itself" rather than a comment on it: preferred for numbers and names.
PRIMARY_KINDS = ("rule", "heading", "glossary", "card", "card_note", "passage", "faq", "template")
NAMED_KINDS = ("card", "glossary", "rule", "heading", "card_note", "template", "passage")
FEW = 3  # fewer full-text results than this and the query is worth correcting


def _scope_sql(where: list[str], *, game: str | None, document_id: int | None) -> tuple[list[str], list]:
    """The index rows a search may return: one document, else the current editions; one game if given."""
    params: list = []
    if document_id:
        where.append("s.document_id = %s")
        params.append(document_id)
    else:
        where.append("s.is_current")
    if game:
        where.append("s.game = %s")
        params.append(game)
    return where, params


@dataclass
class Hit:
    entry: Entry
    score: float
    snippet: str  # safe HTML: escaped text with <mark> around matched words
    how: str  # "number", "name", "text"
    children: list[Entry] = field(default_factory=list)  # examples, sub-rules, card rulings

    @property
    def url(self) -> str:
        return self.entry.get_absolute_url()


@dataclass
class Results:
    query: str
    hits: list[Hit]
    kind: str = "words"  # "number", "words", "empty"
    corrected: str = ""  # the query actually searched when it differs ("showing results for …")
    expanded: str = ""  # abbreviations spelled out, when any
    section: Section | None = None  # "9.000" → the section

    def __bool__(self) -> bool:
        return bool(self.hits)


# --- helpers ------------------------------------------------------------------------------------


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


def _scope(*, game: str | None, document: str | None) -> Q:
    """Current documents only, unless one document is asked for by slug."""
    scope = Q(document__slug=document) if document else Q(document__is_current=True)
    if game:
        scope &= Q(document__game__code=game)
    return scope


# --- full-text backends -------------------------------------------------------------------------


ALL, MOST, ANY = "all", "most", "any"  # every term; all terms but one; any term


def _combine(parts: list[str], mode: str, *, and_: str, or_: str) -> str:
    """Terms' expressions joined: all of them, any of them, or all but one (any of the clauses that
    leave one out), which finds the entries that miss one word of a question without the flood of
    entries that share only its commonest word."""
    if mode == MOST and len(parts) >= 3:
        return or_.join(
            "(" + and_.join(part for j, part in enumerate(parts) if j != i) + ")" for i in range(len(parts))
        )
    return (or_ if mode in (ANY, MOST) else and_).join(parts)


class SqliteBackend:
    """FTS5 over ``rulings_searchindex`` (external content), bm25 with column weights."""

    weights = (10.0, 4.0, 1.0)  # title, names, body

    @staticmethod
    def _quote(word: str) -> str:
        return '"' + word.replace('"', '""') + '"'

    def expression(self, terms: list[q.Term], *, mode: str = ALL, prefix_last: bool) -> str:
        parts = []
        terms = q.required(terms)
        for index, term in enumerate(terms):
            if term.is_group:  # "victory points": both words, anywhere
                options = ["(" + " AND ".join(self._quote(part) for part in term.parts) + ")"]
            else:
                options = [self._quote(term.word)]
                if prefix_last and index == len(terms) - 1 and len(term.word) >= 3:
                    # The index holds stems ("type") and a prefix is not stemmed: "types"* alone would
                    # miss "type"; the word itself is stemmed like the index.
                    options.append(self._quote(term.word) + "*")
            options += [self._quote(" ".join(q.words(alt))) for alt in term.alternatives if q.words(alt)]
            parts.append("(" + " OR ".join(options) + ")" if len(options) > 1 else options[0])
        return _combine(parts, mode, and_=" AND ", or_=" OR ")

    def match(
        self, expressions: list[str], *, game: str | None, document_id: int | None, limit: int, text: str = ""
    ):
        """(entry id, score) of the entries that match, best first by bm25: up to ``limit`` for each
        expression, in one query (an entry may come more than once)."""
        expressions = [e for e in expressions if e]
        if not expressions:
            return []
        where, params = _scope_sql(["rulings_fts MATCH %s"], game=game, document_id=document_id)
        one = (
            "SELECT * FROM (SELECT s.entry_id, bm25(rulings_fts, %s, %s, %s) AS score "
            "FROM rulings_fts JOIN rulings_searchindex s ON s.id = rulings_fts.rowid "
            f"WHERE {' AND '.join(where)} ORDER BY score LIMIT %s)"
        )
        sql = " UNION ALL ".join([one] * len(expressions))
        values = [v for e in expressions for v in (*self.weights, e, *params, limit)]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return [(entry_id, -score) for entry_id, score in cursor.fetchall()]

    def rebuild(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO rulings_fts(rulings_fts) VALUES ('rebuild')")


class PostgresBackend:
    """A generated ``tsv`` column (title A, names B, body C) with GIN (the migration also adds a trigram
    index on titles)."""

    @staticmethod
    def _lexemes(text: str) -> list[str]:
        return q.tokens(text)

    def expression(self, terms: list[q.Term], *, mode: str = ALL, prefix_last: bool) -> str:
        parts = []
        terms = q.required(terms)
        for index, term in enumerate(terms):
            if term.is_group:
                group = [w for part in term.parts for w in self._lexemes(part)]
                options = ["(" + " & ".join(group) + ")"] if group else []
            else:
                lexemes = self._lexemes(term.word)
                if not lexemes:
                    continue
                last = prefix_last and index == len(terms) - 1 and len(lexemes[0]) >= 3
                if len(lexemes) > 1:  # "line-up", "h'el": the words in a row
                    options = ["(" + " <-> ".join(lexemes) + ")"]
                else:
                    options = [lexemes[0] + (":*" if last else "")]
            for alt in term.alternatives:
                lexemes = self._lexemes(alt)
                if lexemes:
                    options.append("(" + " <-> ".join(lexemes) + ")")
            if options:
                parts.append("(" + " | ".join(options) + ")")
        return _combine(parts, mode, and_=" & ", or_=" | ")

    def match(
        self, expressions: list[str], *, game: str | None, document_id: int | None, limit: int, text: str = ""
    ):
        """(entry id, score) of the entries that match, best first by ts_rank (weights A/B/C, divided by
        the log of the length): up to ``limit`` for each expression, in one query (an entry may come
        more than once). The final order is ``rulings.ranking``'s, so this order only chooses which
        entries are ranked when more match: ts_rank_cd and title trigram similarity, computed on every
        matching row, cost 2-5 times as much here for no better candidates."""
        expressions = [e for e in expressions if e]
        if not expressions:
            return []
        where, params = _scope_sql(["s.tsv @@ query"], game=game, document_id=document_id)
        one = (
            "(SELECT s.entry_id, ts_rank(s.tsv, query, 1) AS score "
            "FROM rulings_searchindex s, to_tsquery('english', %s) query "
            f"WHERE {' AND '.join(where)} ORDER BY score DESC, s.entry_id LIMIT %s)"
        )
        sql = " UNION ALL ".join([one] * len(expressions))
        values = [v for e in expressions for v in (e, *params, limit)]
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return [(entry_id, float(score)) for entry_id, score in cursor.fetchall()]

    def rebuild(self) -> None:
        """Nothing to do: the generated column and its indexes follow the rows."""


def backend() -> SqliteBackend | PostgresBackend:
    return PostgresBackend() if connection.vendor == "postgresql" else SqliteBackend()


def rebuild_index() -> None:
    backend().rebuild()


# --- what every search needs, compiled once per process -------------------------------------------
# A document's rows never change after its import (a re-parse or a new edition is a new document), so
# what is read from them is kept per document for the life of the process; which documents exist and
# which are current is read once per search, with one small query.


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
    document: Document  # the rows a result shows with its entries, read once (is_current kept up to date)
    sections: dict[int, Section]
    cards: dict[int, Card]


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


def _compile_document(key: tuple) -> DocumentData:
    document_id = key[0]
    document = Document.objects.select_related("game").get(pk=document_id)
    section_rows = {row.pk: row for row in Section.objects.filter(document_id=document_id)}
    card_rows = {row.pk: row for row in Card.objects.filter(document_id=document_id)}
    for row in section_rows.values():
        Section.document.field.set_cached_value(row, document)
    for row in card_rows.values():
        Card.document.field.set_cached_value(row, document)
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
    for (
        pk,
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
    return DocumentData(
        key,
        entries,
        names,
        printed,
        numbers,
        children,
        words,
        stats,
        parents,
        document,
        section_rows,
        card_rows,
    )


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
        for document_id, checksum, imported_at, is_current, slug, game in rows:
            key = (document_id, checksum, str(imported_at))
            if key not in _documents:
                _documents[key] = _compile_document(key)
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


def close_name(text: str, vocab: Vocabulary, cutoff: float = 90) -> str:
    """A card/term name spelled almost exactly like ``text`` ('Initator' → 'Initiator'), or ''."""
    wanted = q.normalised(text)
    best = process.extractOne(wanted, vocab.names.keys(), scorer=fuzz.ratio, score_cutoff=cutoff)
    return vocab.names[best[0]] if best and best[0] != wanted else ""


def correct(text: str, vocab: Vocabulary) -> str:
    """The query a judge probably meant: a close card/term name, else each unknown word's nearest word."""
    wanted = q.normalised(text)
    if len(wanted) >= 4:
        best = process.extractOne(wanted, vocab.names.keys(), scorer=fuzz.ratio, score_cutoff=80)
        if best and best[0] != wanted:
            return vocab.names[best[0]]
    changed, out = False, []
    for word in q.words(text):
        if word in vocab.words or len(word) < 4 or word in q.STOPWORDS or word in q.ABBREVIATIONS:
            out.append(word)
            continue
        candidates = process.extract(word, vocab.words.keys(), scorer=fuzz.ratio, score_cutoff=80, limit=5)
        if candidates:
            best_word = max(candidates, key=lambda c: (c[1], vocab.words[c[0]]))[0]
            out.append(best_word)
            changed = True
        else:
            out.append(word)
    return " ".join(out) if changed else ""


# --- the search ---------------------------------------------------------------------------------

CANDIDATES = 60  # full-text matches ranked per query (the backend's best ones when there are more)


def _load(ids: list[int], cat: Catalogue) -> dict[int, Entry]:
    """Every entry a result shows, hits, their parents and their children, in one query; documents,
    sections and cards come from the catalogue."""
    if not ids:
        return {}
    wanted = set(ids)
    for pk in ids:
        entry = cat.entry(pk)
        parent = cat.data[entry.document_id].parents.get(pk) if entry is not None else None
        if parent is not None:
            wanted.add(parent)
    rows = {row.pk: row for row in Entry.objects.filter(pk__in=wanted)}
    for row in rows.values():
        data = cat.data.get(row.document_id)
        if data is None:  # imported since the catalogue was read
            continue
        Entry.document.field.set_cached_value(row, data.document)
        Entry.section.field.set_cached_value(row, data.sections.get(row.section_id))
        Entry.card.field.set_cached_value(row, data.cards.get(row.card_id) if row.card_id else None)
        if row.parent_id is None or row.parent_id in rows:
            Entry.parent.field.set_cached_value(row, rows.get(row.parent_id) if row.parent_id else None)
    return rows


def _by_number(numbers: tuple[str, ...], cat: Catalogue, document_ids: list[int]) -> list[int]:
    found = []
    for document_id in document_ids:
        data = cat.data[document_id]
        for number in numbers:
            for pk in data.numbers.get(number, ()):
                entry = data.entries[pk]
                found.append(
                    ((numbers.index(number), entry.kind not in PRIMARY_KINDS, document_id, entry.order), pk)
                )
    found.sort()
    # An example printed with its rule's number (6.122 Ex. 2) sits under that rule, not beside it.
    kinds = {pk: cat.data[key[2]].entries[pk].kind for key, pk in found}
    primary = {(key[2], key[0]) for key, pk in found if kinds[pk] in PRIMARY_KINDS}
    return [pk for key, pk in found if kinds[pk] in PRIMARY_KINDS or (key[2], key[0]) not in primary]


def _by_name(text: str, cat: Catalogue, document_ids: list[int]) -> list[int]:
    """Entries named exactly like the query (card names and aliases, glossary terms, keywords, titles,
    section titles), the exact title first."""
    wanted = {q.normalised(text), q.normalised(q.expand_abbreviations(text))} - {""}
    found: list[tuple] = []
    for document_id in document_ids:
        names = cat.data[document_id].names
        for name in wanted:
            found += names.get(name, ())
    found.sort()
    kept, seen, seen_sections = [], set(), set()
    for _, pk, how in found:
        if pk in seen:
            continue
        if how == "section":  # a section matched by title: its first entry stands for it
            if pk in seen_sections:
                continue
            seen_sections.add(pk)
        seen.add(pk)
        kept.append(pk)
    return kept


@dataclass
class _Found:
    named: list[int]
    ranked: list[tuple[int, float]]  # (entry id, score), best first
    terms: list[q.Term]
    matched: int  # how many entries the words found (named and full text)


def _find(text: str, cat: Catalogue, document_ids: list[int], *, game, document_id) -> _Found:
    """Exact names, then full text: every word (the last one may be unfinished); when that finds
    little, any word. At most two queries."""
    terms = q.terms(text)
    named = _by_name(text, cat, document_ids)
    engine = backend()
    where = {"game": game, "document_id": document_id, "text": text}
    every = engine.expression(terms, mode=ALL, prefix_last=True)
    rows = engine.match([every], limit=CANDIDATES, **where)
    matched = len(rows) + len(named)
    if matched < FEW and len(q.required(terms)) > 1:
        # Too few entries have every word: those that miss one, then those with any of them (the
        # ranking puts the ones with the most, and the rarest, words first).
        most = engine.expression(terms, mode=MOST, prefix_last=True)
        anything = engine.expression(terms, mode=ANY, prefix_last=True)
        rows += engine.match([most, anything] if most != anything else [anything], limit=CANDIDATES, **where)
    seen = set(named)
    candidates = []
    for entry_id, _ in rows:
        entry = cat.entry(entry_id)
        if entry is not None and entry_id not in seen:
            seen.add(entry_id)
            candidates.append(entry)
    ranked = ranking.rank(candidates, terms, cat.current_stats, prefix_last=True, text=text)
    return _Found(named, [(entry.entry_id, score) for entry, score in ranked], terms, matched)


def search(*, query: str, game: str | None = None, document: str | None = None, limit: int = 20) -> Results:
    """Answer a judge's query; see the module docstring for the order of the answers."""
    classified = q.classify(query)
    if classified.kind == "empty":
        return Results(query=query, hits=[], kind="empty")
    cat = catalogue()
    document_id = None
    if document:
        document_id = next((info.id for info in cat.documents.values() if info.slug == document), None)
        if document_id is None:
            return Results(query=query, hits=[])
    document_ids = cat.in_scope(game=game, document_id=document_id)

    if classified.kind == "number":
        found = _by_number(classified.numbers, cat, document_ids)[:limit]
        if found:
            children = {pk: cat.data[cat.entry(pk).document_id].children.get(pk, []) for pk in found}
            loaded = _load([*found, *(c for ids in children.values() for c in ids)], cat)
            hits = [
                Hit(
                    loaded[pk],
                    1000.0,
                    plain_snippet(loaded[pk].text, []),
                    "number",
                    [loaded[c] for c in children[pk] if c in loaded],
                )
                for pk in found
                if pk in loaded
            ]
            return Results(query=query, hits=hits, kind="number")
        section = (
            Section.objects.filter(document_id__in=document_ids, number__in=classified.numbers)
            .select_related("document")
            .first()
        )
        if section:
            entries = list(section.entries.select_related("document", "section", "card", "parent")[:limit])
            return Results(
                query=query,
                hits=[Hit(e, 0, plain_snippet(e.text, []), "number") for e in entries],
                kind="number",
                section=section,
            )

    found = _find(query, cat, document_ids, game=game, document_id=document_id)
    corrected = ""
    suggestion = ""
    if found.matched == 0 and len(query) >= 4:  # every word together found nothing: maybe a typo
        suggestion = correct(query, cat.vocabulary())
    elif not found.named and 4 <= len(query) <= 40 and len(q.words(query)) <= 4:
        # Words were found, but a name is spelled almost like the query: the judge meant the name.
        suggestion = close_name(query, cat.vocabulary())
    if suggestion and q.normalised(suggestion) != q.normalised(query):
        better = _find(suggestion, cat, document_ids, game=game, document_id=document_id)
        if better.named or better.ranked:
            found, corrected = better, suggestion

    chosen: list[tuple[int, float, str]] = [(pk, 1000.0, "name") for pk in found.named]
    chosen += [(pk, score, "text") for pk, score in found.ranked]
    chosen = chosen[:limit]
    children = {
        pk: cat.data[cat.entry(pk).document_id].children.get(pk, []) for pk, _, how in chosen if how == "name"
    }
    loaded = _load([pk for pk, _, _ in chosen] + [c for ids in children.values() for c in ids], cat)
    snippet_words = [w for term in found.terms for w in term.parts]
    wanted = ranking.compile_terms(found.terms, prefix_last=True, stats=cat.current_stats)
    hits = []
    for pk, score, how in chosen:
        entry = loaded.get(pk)
        if entry is None:
            continue
        if how == "name":
            kids = [loaded[c] for c in children.get(pk, []) if c in loaded]
            hits.append(Hit(entry, score, plain_snippet(entry.text, snippet_words), "name", kids))
        else:
            marked = ranking.snippet_marks(
                q.fold(entry.text), cat.entry(pk), wanted, start=MARK_START, end=MARK_END
            )
            hits.append(Hit(entry, score, highlight(marked), "text"))
    searched = corrected or query
    expanded = q.also_searched(searched)
    return Results(
        query=query,
        hits=hits,
        kind="words",
        corrected=corrected,
        expanded=expanded if expanded != " ".join(q.words(searched)) else "",
    )


def group(hits: list[Hit]) -> list[Hit]:
    """For display: an example (or card ruling) whose rule is also a hit sits under that rule."""
    position = {hit.entry.pk: hit for hit in hits}
    top: list[Hit] = []
    for hit in hits:
        parent = position.get(hit.entry.parent_id) if hit.entry.parent_id else None
        if parent is not None and parent is not hit:
            if hit.entry not in parent.children:
                parent.children.append(hit.entry)
            continue
        top.append(hit)
    return top
