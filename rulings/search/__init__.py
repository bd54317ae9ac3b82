"""Search the rulings: one interface, one scope policy, two full-text backends.

``search(query=..., game=None, document=None, limit=20)`` reads the query once (``rulings.query.parse``:
the game it names, rule numbers in any printed form, its terms) and answers in this order:

1. a rule number ("9.020", "12.05" → 12.050, "9.22" → 9.022, "408.2a") is looked up in every game in
   scope and jumps straight to the rule, with its examples and sub-rules (a number typed with the title of
   a numbered section, "2.3 ending the battle", goes to that section in whichever game prints it); a
   number that exists nowhere says so and offers the nearest numbers that exist;
2. exact names (card names and aliases, glossary terms, keywords, section titles) rank first;
3. full text (``backends``): the entries with every word, or when too few, those missing one word and
   those with any; ``rulings.ranking`` orders them the same way on every database;
4. words that are neither English nor in the documents are corrected first (``correction``), and the
   answer says what was corrected;
5. when the best entry holds too little of what the query asks, the answer is "nothing found", with the
   closest entries offered rather than shown as answers. For a question the model reads, the learned gate
   decides (``rerank.Gate``, in the ranking's file): from the best entry's cosine, the share of the query
   it holds, the share of the query's words that no document uses (nor what they stand for), how like the
   question is to the tuning questions nothing answers, and to an answered one whose answer is among its
   candidates (both kept with the question map). Else the hand-set thresholds do. A query about another
   card game, by its name or its own words ("pokemon prize cards", "mana burn": ``query.other_game``), is
   answered "nothing found" too, and the answer names that game.

The scope (one policy for the page, the command and the API): a document or a game the judge chose; else
the game the query names ("… vs system"); else every game, the toolkit's own game (DCDB) preferred by a
factor, so that a strong Vs. System or OverPower match is shown (labelled by game) rather than hidden
behind a weak DCDB one. A chosen game that has nothing widens to every game, and says so.

A search runs at most six queries: which documents exist, two full-text queries (twice when a name is
corrected), and one for the entries it shows.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from django.db import connections

from .. import query as q
from .. import ranking, rerank, semantic
from ..models import Card, Entry, Section
from ..parsers.base import GAME_DCDB, GAME_NAMES
from . import correction
from .backends import ALL, ANY, MOST, PostgresBackend, SqliteBackend, _combine, backend, rebuild_index
from .compiled import PRIMARY_KINDS, Catalogue, catalogue, vocabulary
from .results import MARK_END, MARK_START, Hit, Results, group, highlight, plain_snippet

logger = logging.getLogger(__name__)

__all__ = [
    "ALL",
    "ANY",
    "MOST",
    "Hit",
    "PostgresBackend",
    "Results",
    "SqliteBackend",
    "_combine",
    "backend",
    "catalogue",
    "group",
    "rebuild_index",
    "search",
    "vocabulary",
]

HOME_GAME = GAME_DCDB
HOME_PRIOR = 1.3  # how much the toolkit's own game is preferred when every game is searched
CANDIDATES = 60  # full-text matches ranked per query (the backend's best ones when there are more)
FEW = 3  # fewer full-text results than this and the query is searched more loosely
ANSWERS = 0.3  # the share of the query (by weight) the best entry must hold to count as an answer
CLOSEST = 3  # entries offered when nothing answers
NAME_IN_WORDS = (
    20  # a misspelt name is looked for inside questions up to this long (each run costs a fuzzy scan)
)
# Meaning (rulings.semantic), when a model is installed: the nearest entries to the question (its vector
# moved by the learned question map, semantic.QueryAdapter) join the words' candidates, and the learned
# ranking (rulings.rerank, RANKER_FILE) orders them. Without a ranking fitted for the model, the hand-set
# blend does: each candidate scores its cosine (MEANING_FLOOR when the model did not list it), plus its
# words' score as a share of the best one's (WORDS_WEIGHT), plus the share of the query it holds
# (COVERAGE_WEIGHT). Only for queries of MEANING_WORDS words or more: a name or a term is a matter of
# spelling, where the words are better.
MEANING_WORDS = 3
MEANING_CANDIDATES = 30
MEANING_FLOOR = 0.25
WORDS_WEIGHT = 0.1
COVERAGE_WEIGHT = 0.2
MEANING_HOME = 0.02  # added to the cosine of the toolkit's own game's entries when every game is searched
MEANING_COVERS = 0.25  # no learned gate: the share of the query the best entry must hold to answer, or ...
MEANING_ANSWERS = 0.55  # an entry this close in meaning answers even when it holds few of the words
RANKER_FILE = Path(__file__).resolve().parent.parent / "ranker.json"


# --- finding entries ------------------------------------------------------------------------------


def _load(ids: list[int], cat: Catalogue) -> dict[int, Entry]:
    """Every entry a result shows, hits, their parents and their children; documents come from the
    catalogue. A row is read from the database (with its section and card, in one query for all) the first
    time a result shows it, and kept with its compiled document after that: a document's rows never change
    after its import (a re-import is a new document), and most searches show entries shown before."""
    if not ids:
        return {}
    wanted = set(ids)
    for pk in ids:
        entry = cat.entry(pk)
        parent = cat.data[entry.document_id].parents.get(pk) if entry is not None else None
        if parent is not None:
            wanted.add(parent)
    rows: dict[int, Entry] = {}
    for pk in wanted:
        entry = cat.entry(pk)
        row = cat.data[entry.document_id].rows.get(pk) if entry is not None else None
        if row is not None:
            rows[pk] = row
    missing = wanted - rows.keys()
    if missing:
        fresh = Entry.objects.filter(pk__in=missing).select_related("section", "card")
        for row in fresh:
            data = cat.data.get(row.document_id)
            rows[row.pk] = row
            if data is None:  # imported since the catalogue was read
                continue
            Entry.document.field.set_cached_value(row, data.document)
            Section.document.field.set_cached_value(row.section, data.document)
            if row.card is not None:
                Card.document.field.set_cached_value(row.card, data.document)
            data.rows[row.pk] = row
    for row in rows.values():
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


def _number_value(number: str) -> tuple[int, float, str]:
    match = re.fullmatch(r"(\d+)\.(\d+)([a-z]?)", number)
    if not match:
        return (-1, 0.0, "")
    return (int(match.group(1)), float("0." + match.group(2)), match.group(3))


def _nearest_numbers(
    numbers: tuple[str, ...], cat: Catalogue, document_ids: list[int], most: int = 4
) -> list[int]:
    """Rules printed with the numbers closest to a number that exists nowhere (same section first)."""
    scored: dict[int, tuple] = {}
    for typed in numbers:
        whole, fraction, _ = _number_value(typed)
        for document_id in document_ids:
            data = cat.data[document_id]
            for number, ids in data.numbers.items():
                other_whole, other_fraction, _ = _number_value(number)
                if other_whole < 0:
                    continue
                pk = next((pk for pk in ids if data.entries[pk].kind in PRIMARY_KINDS), None)
                if pk is None:
                    continue
                key = (abs(other_whole - whole), abs(other_fraction - fraction), document_id)
                if pk not in scored or key < scored[pk]:
                    scored[pk] = key
    return [pk for pk, _ in sorted(scored.items(), key=lambda item: item[1])[:most]]


def _by_name(query: q.Query, cat: Catalogue, document_ids: list[int]) -> list[int]:
    """Entries named exactly like the query (card names and aliases, glossary terms, keywords, titles,
    section titles), the exact title first."""
    wanted = {q.normalised(query.searched), q.normalised(q.expand_abbreviations(query.searched))} - {""}
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
    query: q.Query
    compiled: ranking.CompiledQuery
    named: list[int]
    ranked: list[tuple[int, float]]  # (entry id, score), best first
    matched: int  # how many entries the words found (named and full text)


def _find(
    query: q.Query, cat: Catalogue, document_ids: list[int], *, game, document_id, priors: dict[int, float]
) -> _Found:
    """Exact names, then full text: every word (the last one may be unfinished); when that finds
    little, those missing one word and those with any. At most two queries."""
    named = _by_name(query, cat, document_ids)
    engine = backend()
    where = {"game": game, "document_id": document_id, "limit": CANDIDATES}
    rows = engine.match(query, modes=[ALL], **where)
    matched = len(rows) + len(named)
    if matched < FEW and len(q.required(list(query.terms))) > 1:
        rows += engine.match(query, modes=[MOST, ANY], **where)
    allowed = set(document_ids)
    seen = set(named)
    candidates = []
    for entry_id, _ in rows:
        entry = cat.entry(entry_id)
        if entry is not None and entry_id not in seen and entry.document_id in allowed:
            seen.add(entry_id)
            candidates.append(entry)
    compiled = ranking.compile_query(query, cat.current_stats)
    ranked = ranking.rank(candidates, compiled, cat.current_stats, priors=priors)
    return _Found(query, compiled, named, [(entry.entry_id, score) for entry, score in ranked], matched)


# --- answering ------------------------------------------------------------------------------------


def _section_titled(parsed: q.Query, document_ids: list[int]) -> Section | None:
    """A section printed with one of the query's numbers whose title the query's other words say in full."""
    said = set(q.words(parsed.searched))
    for section in Section.objects.filter(
        document_id__in=document_ids, number__in=parsed.numbers
    ).select_related("document", "document__game"):
        title = {word for word in q.words(section.title) if word not in q.STOPWORDS}
        if title and title <= said:
            return section
    return None


def _number_results(
    text: str, parsed: q.Query, cat: Catalogue, document_ids: list[int], limit: int
) -> Results:
    found = _by_number(parsed.numbers, cat, document_ids)[:limit]
    named = None if parsed.only_number else _section_titled(parsed, document_ids)
    if named is not None:
        found = []  # "2.3 ending the battle": the words name OverPower's step 2.3, not DCDB's rule 2.030
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
        return Results(query=text, hits=hits, kind="number", searched=parsed.searched)
    section = named or (
        Section.objects.filter(document_id__in=document_ids, number__in=parsed.numbers)
        .select_related("document", "document__game")
        .first()
    )
    if section:
        entries = list(
            section.entries.select_related("document", "document__game", "section", "card", "parent")[:limit]
        )
        return Results(
            query=text,
            hits=[Hit(e, 0, plain_snippet(e.text, []), "number") for e in entries],
            kind="number",
            searched=parsed.searched,
            section=section,
        )
    nearest = _nearest_numbers(parsed.numbers, cat, document_ids)
    loaded = _load(nearest, cat)
    return Results(
        query=text,
        hits=[],
        kind="number",
        searched=parsed.searched,
        not_found=True,
        nearest_numbers=[loaded[pk] for pk in nearest if pk in loaded],
    )


@dataclass
class _Meaning:
    """What the model says of a query: its nearest entries, and the cosine of any other entry."""

    nearest: dict[int, float]  # entry id → cosine, the MEANING_CANDIDATES nearest
    vector: object  # the query's vector
    vectors: list  # the documents' entry vectors in scope
    bonus: dict[int, float]  # document id → added to its entries' cosines
    plain: object = None  # the query's vector as the model gives it, before the learned map

    def cosines(self, entry_ids, *, plain: bool = False) -> dict[int, float]:
        vector = self.plain if plain and self.plain is not None else self.vector
        return semantic.cosines(vector, self.vectors, entry_ids, bonus=self.bonus)


def _nearest_in_meaning(
    text: str, cat: Catalogue, document_ids: list[int], priors: dict[int, float]
) -> _Meaning | None:
    """The entries nearest to ``text`` by the embedding model (None without one)."""
    encoder = semantic.load()
    if encoder is None:
        return None
    vectors = semantic.document_vectors([cat.data[pk].document for pk in document_ids])
    if not vectors:
        return None
    home = dict.fromkeys(priors, MEANING_HOME)
    plain, vector = semantic.question_vectors(encoder, text)
    nearest = semantic.nearest(vector, vectors, MEANING_CANDIDATES, bonus=home)
    found = {pk: cosine for pk, cosine in nearest if cat.entry(pk) is not None}
    return _Meaning(found, vector, vectors, home, plain) if found else None


@functools.cache
def _ranker(encoder_key: str) -> rerank.Ranker | None:
    """The learned ranking (``rulings/ranker.json``) when it was fitted with this model's cosines, or None:
    then the hand-set blend orders questions."""
    ranker = rerank.Ranker.load(RANKER_FILE)
    if ranker is not None and ranker.about.get("encoder") not in (None, encoder_key):
        ranker = None  # fitted on another model's cosines: its weights would not mean the same
    if ranker is None:
        logger.warning(
            "no usable %s for this model: questions are ordered by the hand-set blend", RANKER_FILE.name
        )
    return ranker


def _candidates(
    found: _Found,
    meaning: _Meaning,
    covers: dict[int, float],
    cat: Catalogue,
    priors: dict[int, float],
) -> list[rerank.Candidate]:
    """Every entry the words or the model found, as the learned ranking sees it."""
    words_rank = {pk: rank for rank, (pk, _) in enumerate(found.ranked)}
    words_score = dict(found.ranked)
    meaning_rank = {
        pk: rank for rank, pk in enumerate(sorted(meaning.nearest, key=lambda pk: (-meaning.nearest[pk], pk)))
    }
    ids = [pk for pk in {*words_rank, *meaning_rank} if cat.entry(pk) is not None]
    cosine = {**meaning.cosines([pk for pk in ids if pk not in meaning.nearest]), **meaning.nearest}
    plain = meaning.cosines(ids, plain=True)
    before = (
        cat.by_address(semantic.asked_before(semantic.load(), meaning.plain))
        if meaning.plain is not None
        else {}
    )
    out = []
    for pk in sorted(ids):
        entry = cat.entry(pk)
        data = cat.data[entry.document_id]
        out.append(
            rerank.Candidate(
                entry_id=pk,
                cosine=cosine.get(pk, 0.0),
                plain_cosine=plain.get(pk, 0.0),
                meaning_rank=meaning_rank.get(pk),
                words_score=max(0.0, words_score.get(pk, 0.0)),
                words_rank=words_rank.get(pk),
                coverage=covers.get(pk, 0.0),
                kind=entry.kind,
                game=cat.documents[entry.document_id].game,
                home=entry.document_id in priors,
                length=entry.lengths.get("b", 0),
                titled=entry.titled,
                about_a_card=entry.about_a_card,
                parent=data.parents.get(pk),
                children=tuple(data.children.get(pk, ())),
                asked_before=before.get(pk, 0.0),
            )
        )
    return out


def gate_values(
    query: q.Query,
    best: rerank.Candidate,
    document_words,
    like_unanswered: float,
    candidates: list[rerank.Candidate],
) -> tuple[float, float, float, float]:
    """What the learned gate (``rerank.Gate``, ``GATE_FEATURES``) reads of a question and its best
    candidate: the candidate's cosine and the share of the query it holds, the share of the query's words no
    document uses (nor what they stand for), how like the tuning half's unanswered questions it is
    (``semantic.like_unanswered``), and how like an answered one whose answer is among its candidates."""
    terms = [term for term in query.terms if not term.optional and " " not in term.word]

    def known(term: q.Term) -> bool:  # the word, or what it stands for ("ppl": players), is in a document
        said = (term.word, *term.alternatives, q.MODEL_SHORTHAND.get(term.word, ""))
        return any(word in document_words for text in said for word in q.words(text))

    foreign = sum(1 for term in terms if not known(term)) / max(1, len(terms))
    asked_before = max((c.asked_before for c in candidates), default=0.0)
    return (best.cosine, best.coverage, foreign, like_unanswered, asked_before)


def _blended(
    ranked: list[tuple[int, float]], meaning: dict[int, float], coverage: dict[int, float]
) -> list[tuple[int, float, str]]:
    """The words' candidates and the model's, scored together (see MEANING_FLOOR); an entry only the
    model found is shown as found by "meaning"."""
    best = ranked[0][1] if ranked and ranked[0][1] > 0 else 1.0
    words = {pk: score / best for pk, score in ranked}
    scores = {
        pk: meaning.get(pk, MEANING_FLOOR)
        + WORDS_WEIGHT * words.get(pk, 0.0)
        + COVERAGE_WEIGHT * coverage[pk]
        for pk in {*words, *meaning}
    }
    order = sorted(scores, key=lambda pk: (-scores[pk], pk))
    return [(pk, scores[pk], "text" if pk in words else "meaning") for pk in order]


def _says_nothing(pk: int, cat: Catalogue) -> bool:
    """A card heading with no rulings under it ("(No current rulings)")."""
    entry = cat.entry(pk)
    return entry is not None and entry.kind == "card" and not cat.data[entry.document_id].children.get(pk)


def _sayers_first(chosen: list[tuple[int, float, str]], cat: Catalogue) -> list:
    """A card named by the query whose headings have no rulings ("shazam": three printings, none ruled on)
    comes after the entries on a card of that very name that say something (a rulebook's notes on Shazam!,
    which the words found further down); the headings stay, for a judge learns there is no ruling on them."""
    empty = [item for item in chosen if item[2] == "name" and _says_nothing(item[0], cat)]
    if not empty:
        return chosen
    about = [
        item[0]
        for item in chosen
        if item[2] != "name" and (entry := cat.entry(item[0])) is not None and entry.about_a_card
    ]
    card_of = dict(
        Entry.objects.filter(pk__in=[*(pk for pk, _, _ in empty), *about]).values_list(
            "pk", "card__normalised_name"
        )
    )
    names = {card_of.get(pk) for pk, _, _ in empty} - {None, ""}
    saying = [
        item
        for item in chosen
        if item[0] in about and card_of.get(item[0]) in names and not _says_nothing(item[0], cat)
    ]
    moved = {item[0] for item in saying}
    named = [item for item in chosen if item[2] == "name" and item not in empty]
    rest = [item for item in chosen if item[2] != "name" and item[0] not in moved]
    return [*named, *((pk, 1000.0, "name") for pk, _, _ in saying), *empty, *rest]


def _word_results(
    text: str,
    parsed: q.Query,
    cat: Catalogue,
    document_ids: list[int],
    *,
    game,
    document_id,
    priors,
    limit: int,
) -> Results:
    vocab = cat.vocabulary()
    corrections = correction.word_corrections(parsed, vocab.words, vocab.compact_names)
    searched = parsed.with_correction(corrections)
    # A word the documents print hyphenated, typed as one ("lineup" for "Line-Up"), finds both spellings.
    searched = searched.with_alternatives(
        {word: vocab.compounds[word] for word in searched.words if word in vocab.compounds}
    )
    where = {"game": game, "document_id": document_id, "priors": priors}
    found = _find(searched, cat, document_ids, **where)
    if not found.named and len(parsed.words) <= 5:
        # A misspelt name ("ras al guhl", "red lantern super girl"): the whole query spelled almost like
        # a card or term; closer still when every word is a real word.
        misspelt = bool(correction.unknown_words(parsed, vocab.words))
        name = correction.close_name(
            parsed.searched,
            vocab.names,
            cutoff=correction.NAME_SCORE if misspelt else correction.NAME_SCORE_KNOWN,
            sounds=vocab.sounds,
        )
        if name:
            better = _find(q.parse(name), cat, document_ids, **where)
            if better.named:
                found = better
                corrections = {parsed.searched: name}
                searched = better.query
    if not found.named and len(parsed.words) <= NAME_IN_WORDS:
        # A misspelt name inside a longer question ("ras al gul end of turn"): a few words around one no
        # document uses, spelled almost like a card or term, are read as that name.
        span = correction.name_in(parsed.words, vocab.words, vocab.names, vocab.sounds)
        if span:
            start, size, name = span
            run, words = parsed.words[start : start + size], parsed.words
            rewritten = " ".join(
                [*(corrections.get(w, w) for w in words[:start]), name.lower()]
                + [corrections.get(w, w) for w in words[start + size :]]
            )
            better = _find(q.parse(rewritten), cat, document_ids, **where)
            if better.ranked:
                found, searched = better, better.query
                corrections = {k: v for k, v in corrections.items() if k not in run}
                corrections[" ".join(run)] = name

    chosen: list[tuple[int, float, str]] = [(pk, 1000.0, "name") for pk in found.named]
    if found.named:
        chosen += [(pk, score, "text") for pk, score in found.ranked]
        chosen = _sayers_first(chosen, cat)
    model = ranker = None
    if not found.named and len(parsed.words) >= MEANING_WORDS:
        model = _nearest_in_meaning(q.model_text(searched.searched), cat, document_ids, priors)
    meaning = model.nearest if model else {}
    covers: dict[int, float] = {}
    candidates: list[rerank.Candidate] = []
    if model:
        for pk in {*meaning, *(pk for pk, _ in found.ranked)}:
            entry = cat.entry(pk)
            covers[pk] = ranking.coverage(entry, found.compiled) if entry is not None else 0.0
        ranker = _ranker(semantic.load().key)
        if ranker is not None:
            candidates = _candidates(found, model, covers, cat, priors)
            chosen += [
                (c.entry_id, score, "text" if c.words_rank is not None else "meaning")
                for c, score in ranker.order(candidates)
            ]
        else:
            chosen += _blended(found.ranked, meaning, covers)
    elif not found.named:
        chosen += [(pk, score, "text") for pk, score in found.ranked]
    not_found = False
    closest: list[int] = []
    elsewhere = "" if found.named else _elsewhere(parsed, vocab.words)
    if not found.named and chosen:
        best = cat.entry(chosen[0][0])
        likeness = semantic.like_unanswered(semantic.load(), model.plain) if candidates else None
        if candidates and ranker.gate is not None and likeness is not None:
            # The learned gate decides, from the question and its best candidate.
            best_candidate = next(c for c in candidates if c.entry_id == chosen[0][0])
            answers = ranker.gate.answers(
                gate_values(parsed, best_candidate, vocab.words, likeness, candidates)
            )
        else:
            answers = best is not None and (
                (meaning and covers.get(best.entry_id, 0.0) >= MEANING_COVERS)
                or (not meaning and ranking.coverage(best, found.compiled) >= ANSWERS)
                or meaning.get(best.entry_id, 0.0) >= MEANING_ANSWERS
            )
        if not answers or elsewhere:
            not_found, closest, chosen = True, [pk for pk, _, _ in chosen[:CLOSEST]], []
    elif not chosen:
        not_found = True
    chosen = chosen[:limit]
    children = {
        pk: cat.data[cat.entry(pk).document_id].children.get(pk, []) for pk, _, how in chosen if how == "name"
    }
    loaded = _load([pk for pk, _, _ in chosen] + [c for ids in children.values() for c in ids] + closest, cat)
    snippet_words = [w for term in found.query.terms for w in term.parts]
    hits = []
    for pk, score, how in chosen:
        entry = loaded.get(pk)
        if entry is None:
            continue
        if how == "name":
            kids = [loaded[c] for c in children.get(pk, []) if c in loaded]
            hits.append(Hit(entry, score, plain_snippet(entry.text, snippet_words), "name", kids))
        else:  # "text" or "meaning"
            marked = ranking.snippet_marks(
                q.fold(entry.text), cat.entry(pk), found.compiled.wanted, start=MARK_START, end=MARK_END
            )
            hits.append(Hit(entry, score, highlight(marked), how))
    expanded = q.also_searched(searched.searched)
    return Results(
        query=text,
        hits=hits,
        kind="words",
        searched=searched.searched,
        corrected=list(corrections.items()),
        expanded=expanded if expanded not in (" ".join(q.words(q.casual(searched.searched))), "") else "",
        not_found=not_found,
        closest=[loaded[pk] for pk in closest if pk in loaded],
        other_game=elsewhere if not_found else "",
        candidates=candidates,
    )


def _elsewhere(parsed: q.Query, document_words) -> str:
    """The other card game the query asks about ("mana burn": Magic: The Gathering), while a word naming it
    is in no document; else ""."""
    name, said = parsed.other_game
    return name if name and any(word not in document_words for word in q.words(said)) else ""


def _answer(
    text: str, parsed: q.Query, cat: Catalogue, *, game: str | None, document_id: int | None, limit: int
) -> Results:
    document_ids = cat.in_scope(game=game, document_id=document_id)
    if parsed.numbers:
        found = _number_results(text, parsed, cat, document_ids, limit)
        if parsed.only_number or found.hits:
            if found.hits and not parsed.only_number:  # "9.022 extra turns": the rule, then the words
                words = _word_results(
                    text,
                    parsed,
                    cat,
                    document_ids,
                    game=game,
                    document_id=document_id,
                    priors={},
                    limit=limit,
                )
                shown = {hit.entry.pk for hit in found.hits}
                found.hits += [hit for hit in words.hits if hit.entry.pk not in shown][
                    : max(0, limit - len(found.hits))
                ]
            return found
    priors = {}
    if not game and not document_id:
        priors = {info.id: HOME_PRIOR for info in cat.documents.values() if info.game == HOME_GAME}
    return _word_results(
        text, parsed, cat, document_ids, game=game, document_id=document_id, priors=priors, limit=limit
    )


def _mode(cat: Catalogue) -> str:
    """Which ranking answers: words and meaning once every current document's vectors are on disk."""
    mode = semantic.mode()
    if mode.encoder is None:
        return mode.label
    documents = [data.document for data in cat.data.values() if data.document.is_current]
    if semantic.missing(documents):
        return "words only (the meaning index is not built: manage.py rulings_embeddings warm)"
    return mode.label


def search(*, query: str, game: str | None = None, document: str | None = None, limit: int = 20) -> Results:
    """Answer a judge's query; see the module docstring for the order of the answers and the scope."""
    parsed = q.parse(query)
    if parsed.empty:
        return Results(query=query, hits=[], kind="empty")
    cat = catalogue()
    document_id = None
    if document:
        document_id = next((info.id for info in cat.documents.values() if info.slug == document), None)
        if document_id is None:
            return Results(query=query, hits=[], searched=parsed.searched, not_found=True)
    games = {info.game for info in cat.documents.values() if info.is_current}
    named = False
    if not document_id and not game and parsed.game in games:
        game, named = parsed.game, True
    results = _answer(query, parsed, cat, game=game, document_id=document_id, limit=limit)
    results.game, results.game_named = game or "", named
    results.mode = _mode(cat)
    # Nothing at all in the game (not even entries close to the query): the query may be about another
    # game's card or rule, so every game is searched and the answer says so. When the game has close
    # entries that do not answer, those are shown: a judge who chose or named a game reads its rules.
    if game and not document_id and not results.hits and not results.closest:
        everywhere = _answer(query, parsed, cat, game=None, document_id=None, limit=limit)
        if everywhere.hits:
            everywhere.widened = GAME_NAMES.get(game, game)
            everywhere.mode = results.mode
            everywhere.game_named = named
            return everywhere
    return results


def warm() -> float:
    """Make a new process's first search as fast as its later ones: compile the documents, load the
    embedding model and the entry vectors, and run the model once. The web server calls it in a thread
    as a worker starts (``config/wsgi.py``); the seconds it took are returned (and logged). Never raises:
    a search after a failed warm-up does the same work itself."""
    started = time.perf_counter()
    try:
        # One search of each kind loads what that kind needs: the compiled documents, the spelling
        # fixer's word list, the model and the entry vectors.
        for query in ("9.020", "batmn", "how many turns are left when time is called"):
            search(query=query)
    except Exception:  # a warm-up must never stop a worker from starting
        logger.exception("the rulings search could not warm up; the first search will do it")
    finally:
        if threading.current_thread() is not threading.main_thread():
            connections.close_all()  # this thread's own connections; it ends here
    seconds = time.perf_counter() - started
    logger.info("rulings search warm in %.2f s", seconds)
    return seconds
