"""Search the rulings: one interface, two full-text backends.

``search(query=..., game=None, document=None, limit=20)`` answers in this order:

1. a rule number ("9.020", "12.05" → 12.050, "408.2a") jumps straight to that rule, with its
   examples and sub-rules; "702.6" never matches 702.60;
2. exact names (card names and aliases, glossary terms, keywords, section titles), compared with
   ``normalise()`` (no case, punctuation or accents), always rank first;
3. full text, ranked title > card name > body, with the matching words marked in a snippet:
   SQLite FTS5 with bm25 (``SqliteBackend``) or PostgreSQL full-text search with trigram similarity
   (``PostgresBackend``);
4. when the words find little, a fuzzy match (rapidfuzz) over names and the documents' vocabulary
   rewrites the query and the result says "showing results for …".

Every search runs a fixed number of queries whatever the size of the database.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Max, Q
from django.utils.html import escape
from rapidfuzz import fuzz, process

from . import query as q
from .models import CardAlias, Document, Entry, SearchIndex, Section

MARK_START, MARK_END = "\u27e6", "\u27e7"  # never in the documents; become <mark> after escaping
# Entry kinds that are the "thing itself" rather than a comment on it: preferred for numbers and names.
PRIMARY_KINDS = ("rule", "heading", "glossary", "card", "card_note", "passage", "faq", "template")
NAMED_KINDS = ("card", "glossary", "rule", "heading", "card_note", "template", "passage")
FEW = 3  # fewer full-text results than this and the query is worth correcting


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


class SqliteBackend:
    """FTS5 over ``rulings_searchindex`` (external content), bm25 with column weights."""

    weights = (10.0, 4.0, 1.0)  # title, names, body

    @staticmethod
    def _quote(word: str) -> str:
        return '"' + word.replace('"', '""') + '"'

    def expression(self, terms: list[q.Term], *, any_term: bool, prefix_last: bool) -> str:
        parts = []
        for index, term in enumerate(terms):
            options = [self._quote(term.word)]
            if prefix_last and index == len(terms) - 1 and len(term.word) >= 3:
                options = [self._quote(term.word) + "*"]
            options += [self._quote(" ".join(q.words(alt))) for alt in term.alternatives if q.words(alt)]
            parts.append("(" + " OR ".join(options) + ")" if len(options) > 1 else options[0])
        return (" OR " if any_term else " AND ").join(parts)

    def match(self, expression: str, *, game: str | None, document_id: int | None, limit: int):
        where, params = ["rulings_fts MATCH %s"], [expression]
        if document_id:
            where.append("s.document_id = %s")
            params.append(document_id)
        else:
            where.append("s.is_current")
        if game:
            where.append("s.game = %s")
            params.append(game)
        sql = (
            "SELECT s.entry_id, bm25(rulings_fts, %s, %s, %s) AS score, "
            f"snippet(rulings_fts, 2, '{MARK_START}', '{MARK_END}', ' … ', 24) "
            "FROM rulings_fts JOIN rulings_searchindex s ON s.id = rulings_fts.rowid "
            f"WHERE {' AND '.join(where)} ORDER BY score LIMIT %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [*self.weights, *params, limit])
            return [(entry_id, -score, snippet) for entry_id, score, snippet in cursor.fetchall()]

    def rebuild(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO rulings_fts(rulings_fts) VALUES ('rebuild')")


class PostgresBackend:
    """A generated ``tsv`` column (title A, names B, body C) with GIN, plus trigram similarity on titles."""

    @staticmethod
    def _lexeme(word: str) -> str:
        return re.sub(r"[^\w]", "", word)

    def expression(self, terms: list[q.Term], *, any_term: bool, prefix_last: bool) -> str:
        parts = []
        for index, term in enumerate(terms):
            word = self._lexeme(term.word)
            if not word:
                continue
            options = [word + (":*" if prefix_last and index == len(terms) - 1 and len(word) >= 3 else "")]
            for alt in term.alternatives:
                lexemes = [self._lexeme(w) for w in q.words(alt) if self._lexeme(w)]
                if lexemes:
                    options.append("(" + " <-> ".join(lexemes) + ")")
            parts.append("(" + " | ".join(options) + ")")
        return (" | " if any_term else " & ").join(parts)

    def match(
        self, expression: str, *, game: str | None, document_id: int | None, limit: int, text: str = ""
    ):
        if not expression:
            return []
        where, params = ["s.tsv @@ query"], []
        if document_id:
            where.append("s.document_id = %s")
            params.append(document_id)
        else:
            where.append("s.is_current")
        if game:
            where.append("s.game = %s")
            params.append(game)
        sql = (
            "SELECT s.entry_id, ts_rank_cd(s.tsv, query, 1) + 0.5 * similarity(s.title, %s) AS score, "
            "ts_headline('english', s.body, query, %s) "
            "FROM rulings_searchindex s, to_tsquery('english', %s) query "
            f"WHERE {' AND '.join(where)} ORDER BY score DESC, s.entry_id LIMIT %s"
        )
        options = f"StartSel={MARK_START}, StopSel={MARK_END}, MaxWords=30, MinWords=12, MaxFragments=2"
        with connection.cursor() as cursor:
            cursor.execute(sql, [text, options, expression, *params, limit])
            return [(entry_id, float(score), snippet) for entry_id, score, snippet in cursor.fetchall()]

    def rebuild(self) -> None:
        """Nothing to do: the generated column and its indexes follow the rows."""


def backend() -> SqliteBackend | PostgresBackend:
    return PostgresBackend() if connection.vendor == "postgresql" else SqliteBackend()


def rebuild_index() -> None:
    backend().rebuild()


# --- vocabulary for typo correction (cached per import generation) --------------------------------


@dataclass
class Vocabulary:
    generation: tuple
    names: dict[str, str]  # normalised name → name as printed
    words: Counter


_vocabulary: Vocabulary | None = None


def _generation() -> tuple:
    row = Document.objects.aggregate(last=Max("pk"), at=Max("imported_at"))
    return (row["last"], row["at"])


def vocabulary() -> Vocabulary:
    """Card names, aliases, glossary terms, keywords and section titles, and every word of the current
    documents; rebuilt when a document is imported."""
    global _vocabulary
    generation = _generation()
    if _vocabulary is not None and _vocabulary.generation == generation:
        return _vocabulary
    names: dict[str, str] = {}
    for title in (
        Entry.objects.filter(document__is_current=True, kind__in=NAMED_KINDS)
        .exclude(title="")
        .values_list("title", flat=True)
    ):
        names.setdefault(q.normalised(title), title)
    for alias in CardAlias.objects.filter(card__document__is_current=True).values_list("alias", flat=True):
        names.setdefault(q.normalised(alias), alias)
    for title in Section.objects.filter(document__is_current=True).values_list("title", flat=True):
        names.setdefault(q.normalised(title), title)
    words: Counter = Counter()
    for title, names_, body in SearchIndex.objects.filter(is_current=True).values_list(
        "title", "names", "body"
    ):
        words.update(q.words(f"{title} {names_} {body}"))
    names.pop("", None)
    _vocabulary = Vocabulary(generation, names, words)
    return _vocabulary


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


def _load(ids: list[int]) -> dict[int, Entry]:
    rows = Entry.objects.filter(pk__in=ids).select_related("document", "section", "card", "parent")
    return {row.pk: row for row in rows}


def _children(entries: list[Entry]) -> dict[int, list[Entry]]:
    """Examples, list items and card rulings under each entry; Vs. System sub-rules (702.6a under 702.6)."""
    if not entries:
        return {}
    subrule_q = Q()
    for entry in entries:
        if entry.number and re.fullmatch(r"\d{3}\.\d{1,2}", entry.number):
            subrule_q |= Q(document_id=entry.document_id, number__startswith=entry.number)
    rows = Entry.objects.filter(Q(parent__in=[e.pk for e in entries]) | subrule_q).select_related("document")
    by_parent: dict[int, list[Entry]] = {entry.pk: [] for entry in entries}
    by_number = {(e.document_id, e.number): e.pk for e in entries if e.number}
    for row in sorted(rows, key=lambda r: (r.document_id, r.order)):
        if row.parent_id in by_parent and row.pk not in by_parent:
            by_parent[row.parent_id].append(row)
        elif re.fullmatch(r"\d{3}\.\d{1,2}[a-z]", row.number):
            owner = by_number.get((row.document_id, row.number[:-1]))
            if owner is not None and row not in by_parent[owner]:
                by_parent[owner].append(row)
    return by_parent


def _by_number(numbers: tuple[str, ...], scope: Q) -> list[Entry]:
    rows = list(
        Entry.objects.filter(scope, number__in=numbers).select_related(
            "document", "section", "card", "parent"
        )
    )

    def rank(entry: Entry) -> tuple:
        return (numbers.index(entry.number), entry.kind not in PRIMARY_KINDS, entry.document_id, entry.order)

    rows.sort(key=rank)
    # An example printed with its rule's number (6.122 Ex. 2) sits under that rule, not beside it.
    primary = {(e.document_id, e.number) for e in rows if e.kind in PRIMARY_KINDS}
    return [e for e in rows if e.kind in PRIMARY_KINDS or (e.document_id, e.number) not in primary]


def _by_name(text: str, scope: Q) -> list[Entry]:
    wanted = {q.normalised(text), q.normalised(q.expand_abbreviations(text))} - {""}
    if not wanted:
        return []
    alias_cards = CardAlias.objects.filter(normalised__in=wanted).values("card_id")
    rows = list(
        Entry.objects.filter(scope)
        .filter(
            Q(normalised_title__in=wanted, kind__in=NAMED_KINDS)
            | Q(kind="card", card_id__in=alias_cards)
            | Q(section__normalised_title__in=wanted, parent__isnull=True)
        )
        .select_related("document", "section", "card", "parent")
        .distinct()
    )

    def rank(entry: Entry) -> tuple:
        exact_title = entry.normalised_title in wanted
        return (
            not exact_title,
            NAMED_KINDS.index(entry.kind) if entry.kind in NAMED_KINDS else 99,
            entry.document_id,
            entry.order,
        )

    rows.sort(key=rank)
    # A section matched by title: its first entry stands for it.
    seen_sections: set[int] = set()
    kept = []
    for entry in rows:
        if entry.normalised_title not in wanted and entry.kind != "card":
            if entry.section_id in seen_sections:
                continue
            seen_sections.add(entry.section_id)
        kept.append(entry)
    return kept


def _full_text(
    terms: list[q.Term], text: str, *, game, document_id, limit, any_term: bool, prefix_last: bool
):
    engine = backend()
    expression = engine.expression(terms, any_term=any_term, prefix_last=prefix_last)
    if not expression:
        return []
    if isinstance(engine, PostgresBackend):
        return engine.match(expression, game=game, document_id=document_id, limit=limit, text=text)
    return engine.match(expression, game=game, document_id=document_id, limit=limit)


def search(*, query: str, game: str | None = None, document: str | None = None, limit: int = 20) -> Results:
    """Answer a judge's query; see the module docstring for the order of the answers."""
    classified = q.classify(query)
    if classified.kind == "empty":
        return Results(query=query, hits=[], kind="empty")
    scope = _scope(game=game, document=document)
    if classified.kind == "number":
        found = _by_number(classified.numbers, scope)
        if found:
            children = _children(found)
            hits = [
                Hit(e, 1000.0, plain_snippet(e.text, []), "number", children.get(e.pk, [])) for e in found
            ]
            return Results(query=query, hits=hits[:limit], kind="number")
        section = (
            Section.objects.filter(
                Q(document__slug=document) if document else Q(document__is_current=True),
                number__in=classified.numbers,
            )
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

    document_id = None
    if document:
        document_id = Document.objects.filter(slug=document).values_list("pk", flat=True).first()
        if document_id is None:
            return Results(query=query, hits=[])

    def run(text: str) -> tuple[list[Hit], int]:
        terms = q.terms(text)
        named = _by_name(text, scope)
        rows = _full_text(
            terms, text, game=game, document_id=document_id, limit=limit, any_term=False, prefix_last=True
        )
        found_all = len(rows) + len(named)
        if found_all < FEW and len(terms) > 1:
            rows += _full_text(
                terms, text, game=game, document_id=document_id, limit=limit, any_term=True, prefix_last=True
            )
        loaded = _load([row[0] for row in rows])
        hits = [Hit(e, 1000.0, plain_snippet(e.text, [t.word for t in terms]), "name") for e in named]
        seen = {e.pk for e in named}
        for entry_id, score, snippet in rows:
            if entry_id in seen or entry_id not in loaded:
                continue
            seen.add(entry_id)
            hits.append(Hit(loaded[entry_id], score, highlight(snippet or ""), "text"))
        return hits, found_all

    hits, found_all = run(query)
    corrected = ""
    suggestion = ""
    if found_all == 0 and len(query) >= 4:  # every word together found nothing: maybe a typo
        suggestion = correct(query, vocabulary())
    elif not any(hit.how == "name" for hit in hits) and 4 <= len(query) <= 40 and len(q.words(query)) <= 4:
        # Words were found, but a name is spelled almost like the query: the judge meant the name.
        suggestion = close_name(query, vocabulary())
    if suggestion and q.normalised(suggestion) != q.normalised(query):
        better, _ = run(suggestion)
        if better:
            hits, corrected = better, suggestion
    hits = hits[:limit]
    named_hits = [h.entry for h in hits if h.how == "name"]
    if named_hits:
        children = _children(named_hits)
        for hit in hits:
            if hit.how == "name":
                hit.children = children.get(hit.entry.pk, [])
    expanded = q.expand_abbreviations(corrected or query)
    return Results(
        query=query,
        hits=hits,
        kind="words",
        corrected=corrected,
        expanded=expanded if expanded != " ".join(q.words(corrected or query)) else "",
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
