"""Rank full-text candidates the same way on every database. Pure Python: no Django.

The backends (SQLite FTS5, PostgreSQL) only say which entries contain the query's words; this module
orders them, from a per-process index of every entry's words (``EntryWords``, built once per imported
document by ``rulings.search``):

- BM25F over four fields: the number and title, the card's names, the section title, the body (a word
  found only in the section title counts for little: "turn" in "End of Turn Procedure");
- coverage: entries that contain every term in their own title, names or body rank higher;
- proximity: the query's words next to each other, in order, as in the question ("loses the game");
- definitions: a body that starts with the query's words ("The hidden zones are ..."), a title that the
  query spells out in full ("Swamp Thing ..." → the Swamp Thing note);
- the kind of entry: a rule or a glossary term is the thing itself; an example or a card ruling is a
  comment on it, and wins only when the words are really about it.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections import Counter
from dataclasses import dataclass, field

from . import query as q

FIELDS = ("t", "c", "s", "b")  # number and title, card names, section title, body
WEIGHTS = {"t": 5.0, "c": 3.0, "s": 0.7, "b": 1.0}
LENGTH_NORMALISATION = {"t": 0.5, "c": 0.3, "s": 0.0, "b": 0.75}
UNTITLED_SECTION_WEIGHT = 2.0
K1 = 1.2
KIND_PRIOR = {
    "rule": 1.0,
    "glossary": 1.0,
    "heading": 0.95,
    "card": 0.95,
    "faq": 0.95,
    "card_note": 0.95,
    "passage": 0.9,
    "template": 0.9,
    "list_item": 0.85,
    "card_ruling": 0.85,
    "example": 0.8,
}
CARD_KINDS = frozenset({"card", "card_note", "card_ruling"})
SNIPPET_WORDS = 30


@dataclass(slots=True)
class EntryWords:
    """One entry as the ranking sees it: where each stemmed word is, field by field."""

    entry_id: int
    document_id: int
    kind: str
    order: int
    positions: dict[str, dict[str, list[int]]]  # field → stem → positions
    lengths: dict[str, int]
    title_stems: frozenset[str]  # the title's own words (no stop words), for "the query names the title"
    surface: frozenset[str]  # the title's and body's words as printed (lower case, not stemmed)
    about_a_card: bool  # a card heading, card note or card ruling: about one card
    question_stems: frozenset[str]  # every word of a title that is a question (FAQ), stop words too
    titled: bool  # has a title of its own (not only a number)


def index_entry(
    *, entry_id: int, document_id: int, kind: str, order: int, title: str, names: str, section: str, body: str
) -> EntryWords:
    texts = {"t": title, "c": names, "s": section, "b": body}
    positions: dict[str, dict[str, list[int]]] = {}
    lengths: dict[str, int] = {}
    for name, text in texts.items():
        found: dict[str, list[int]] = {}
        words = q.tokens(text)
        for position, word in enumerate(words):
            found.setdefault(q.stem(word), []).append(position)
        positions[name] = found
        lengths[name] = len(words)
    title_stems = frozenset(
        q.stem(word) for word in q.tokens(title) if word not in q.STOPWORDS and not word.isdigit()
    )
    surface = frozenset(q.tokens(title)) | frozenset(q.tokens(body))
    about_a_card = kind in CARD_KINDS
    question_stems = (
        frozenset(q.stem(word) for word in q.tokens(title)) if title.rstrip().endswith("?") else frozenset()
    )
    return EntryWords(
        entry_id,
        document_id,
        kind,
        order,
        positions,
        lengths,
        title_stems,
        surface,
        about_a_card,
        question_stems,
        bool(title_stems),
    )


@dataclass
class Statistics:
    """Document frequencies and average field lengths over the entries searched."""

    count: int = 0
    df: Counter = field(default_factory=Counter)
    total_lengths: Counter = field(default_factory=Counter)

    def add(self, entries: list[EntryWords]) -> None:
        for entry in entries:
            self.count += 1
            self.total_lengths.update(entry.lengths)
            self.df.update({word for found in entry.positions.values() for word in found})

    def merged(self, other: Statistics) -> Statistics:
        return Statistics(
            self.count + other.count, self.df + other.df, self.total_lengths + other.total_lengths
        )

    def average(self, name: str) -> float:
        return max(1.0, self.total_lengths[name] / max(1, self.count))

    @functools.cached_property
    def averages(self) -> dict[str, float]:
        return {name: self.average(name) for name in FIELDS}

    @functools.cached_property
    def _sorted_words(self) -> list[str]:
        return sorted(self.df)

    def completions(self, prefix: str, most: int = 8) -> list[str]:
        """The most frequent words of the documents that start with ``prefix`` (not ``prefix`` itself)."""
        words = self._sorted_words
        found = []
        for index in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[index].startswith(prefix):
                break
            if words[index] != prefix:
                found.append(words[index])
        return sorted(found, key=lambda word: -self.df[word])[:most]

    def idf(self, df: int) -> float:
        return math.log(1 + (self.count - df + 0.5) / (df + 0.5))


# --- the query, compiled -----------------------------------------------------------------------------

Sequence = tuple[str, ...]  # stems that must follow each other (one stem: a single word)


@dataclass
class Wanted:
    """One term of the query: any of ``options`` matches; an option is sequences that must all appear."""

    options: tuple[tuple[Sequence, ...], ...]
    prefix: str = ""  # the last word typed may be unfinished: any word starting with it matches too
    position: int = 0  # where the term starts among the query's words (stop words included)
    surface: frozenset[str] = frozenset()  # the words as typed (not stemmed)
    optional: bool = False  # ranks, but an entry without it is not missing anything

    @functools.cached_property
    def stems(self) -> frozenset[str]:
        return frozenset(word for option in self.options for sequence in option for word in sequence)


def compile_terms(terms: list[q.Term], *, prefix_last: bool, stats: Statistics | None = None) -> list[Wanted]:
    """The query's terms as stems. The last word may be unfinished: with ``stats``, the words of the
    documents that start with it (the most frequent few) are options too."""
    compiled = []
    for index, term in enumerate(terms):
        options: list[tuple[Sequence, ...]] = []
        if term.is_group:
            options.append(tuple((q.stem(w),) for part in term.parts for w in q.tokens(part)))
        else:
            own = tuple(q.stem(w) for w in q.tokens(term.word))
            if own:
                options.append((own,))
        for alternative in term.alternatives:
            sequence = tuple(q.stem(w) for w in q.tokens(alternative) if w not in q.STOPWORDS)
            if sequence:
                options.append((sequence,))
        prefix = ""
        if (
            prefix_last
            and index == len(terms) - 1
            and not term.optional
            and not term.is_group
            and len(term.word) >= 3
        ):
            own_tokens = q.tokens(term.word)
            prefix = q.stem(own_tokens[-1]) if len(own_tokens) == 1 else ""
            if prefix and stats is not None:
                options += [((word,),) for word in stats.completions(prefix)]
        if options:
            surface = frozenset(w for part in term.parts for w in q.tokens(part))
            compiled.append(Wanted(tuple(options), prefix, term.position, surface, term.optional))
    return compiled


def _option_positions(found: dict[str, list[int]], option: tuple[Sequence, ...]) -> list[int]:
    """Start positions of the option's sequences, if every sequence of the option appears."""
    if len(option) == 1 and len(option[0]) == 1:  # one word: most terms
        return found.get(option[0][0], [])
    starts = []
    for sequence in option:
        first = found.get(sequence[0])
        if not first:
            return []
        if len(sequence) > 1:
            following = [found.get(word) for word in sequence[1:]]
            if not all(following):
                return []
            sets = [set(at) for at in following]
            first = [p for p in first if all(p + i + 1 in later for i, later in enumerate(sets))]
            if not first:
                return []
        starts.append(first)
    return starts[0] if len(starts) == 1 else sorted(p for at in starts for p in at)


def term_df(wanted: Wanted, stats: Statistics) -> int:
    """How many entries hold the term (any option; an option as rare as its rarest word)."""
    return min(
        stats.count, sum(min(stats.df.get(w, 0) for seq in option for w in seq) for option in wanted.options)
    )


def score(
    entry: EntryWords,
    wanted: list[Wanted],
    stats: Statistics,
    idfs: list[float],
    question: frozenset[str] = frozenset(),
) -> float:
    if not wanted:
        return 0.0
    averages = stats.averages
    total = 0.0
    strong = 0.0
    required_found = 0
    names_card = False
    text_hits: list[list[int]] = []
    title_covered: set[str] = set()
    first_body = 10**6
    for term, idf in zip(wanted, idfs, strict=True):
        weighted = 0.0
        in_own_fields = False
        term_text: list[int] = []
        for name in FIELDS:
            found = entry.positions[name]
            if not found:
                continue
            where: list[int] = []
            for option in term.options:
                where = _option_positions(found, option)
                if where:
                    break
            if not where:
                continue
            b = LENGTH_NORMALISATION[name]
            norm = 1 - b + b * entry.lengths[name] / averages[name]
            weight = WEIGHTS[name]
            if name == "s" and not entry.titled:  # an untitled rule: its section title is its heading
                weight = UNTITLED_SECTION_WEIGHT
            weighted += weight * len(where) / norm
            if name != "s":
                in_own_fields = True
            if name == "b":
                term_text += [p + entry.lengths["t"] + 50 for p in where]  # after the title, not next to it
                first_body = min(first_body, where[0])
            if name in ("t", "c"):
                names_card = True
            if name == "t":
                term_text = where + term_text
                title_covered |= term.stems & entry.title_stems
        text_hits.append(term_text)
        if weighted:
            total += idf * weighted * (K1 + 1) / (weighted + K1)
        strong += (0.5 if term.optional else 1.0) if in_own_fields else 0.0
        required_found += in_own_fields and not term.optional
    if not total:
        return 0.0
    needed = sum(0.5 if term.optional else 1.0 for term in wanted)
    factor = 0.35 + 0.65 * strong / needed
    # Proximity: the terms found in the body, pair by pair, about as far apart as in the query ...
    present = [(term.position, hits) for term, hits in zip(wanted, text_hits, strict=True) if hits]
    if len(present) > 1:
        close = 0.0
        for (at, before), (next_at, after) in zip(present, present[1:], strict=False):
            near = max(3, next_at - at + 2)
            gap = min((a - b for b in before for a in after if a > b), default=99)
            back = min((b - a for b in before for a in after if b > a), default=99)
            close += 1.0 if gap <= near else 0.5 if back <= 2 else 0.0
        factor *= 1 + 0.4 * close / max(1, len(wanted) - 1)
    # ... and all of them within a window not much longer than the query.
    if len(present) > 1 and required_found == sum(not term.optional for term in wanted):
        window = _smallest_window([hits for _, hits in present])
        span = present[-1][0] - present[0][0] + 1
        factor *= 1 + 0.2 * min(1.0, (span + 3) / window)
    if first_body <= 2:  # a definition: "The hidden zones are ..."
        factor *= 1.15
    if all(
        term.surface <= entry.surface for term in wanted if not term.optional
    ):  # the words as typed, not only their stems
        factor *= 1.1
    if entry.title_stems and entry.title_stems <= title_covered:
        factor *= 1.25
    if entry.about_a_card and not names_card:  # about one card, and the query does not name it
        factor *= 0.8
    if question and entry.question_stems:  # a question like one the document asks and answers
        factor *= 1 + 0.5 * len(question & entry.question_stems) / len(question)
    return total * factor * KIND_PRIOR.get(entry.kind, 0.85)


def _smallest_window(positions: list[list[int]]) -> int:
    """Length of the shortest run of words holding one position of every list."""
    merged = sorted((p, i) for i, found in enumerate(positions) for p in found)
    need, have, counts, best, left = len(positions), 0, [0] * len(positions), 10**6, 0
    for p, i in merged:
        counts[i] += 1
        have += counts[i] == 1
        while have == need:
            best = min(best, p - merged[left][0] + 1)
            j = merged[left][1]
            counts[j] -= 1
            have -= counts[j] == 0
            left += 1
    return best


@dataclass
class CompiledQuery:
    """A query as the ranking reads it, compiled once per search: its terms as stems, their weights,
    and (for a question) every word, to compare with the questions the documents ask (FAQ)."""

    wanted: list[Wanted]
    idfs: list[float]
    question: frozenset[str]


def compile_query(query: q.Query, stats: Statistics, *, prefix_last: bool = True) -> CompiledQuery:
    wanted = compile_terms(list(query.terms), prefix_last=prefix_last, stats=stats)
    idfs = [stats.idf(term_df(term, stats)) for term in wanted]
    question = frozenset(q.stem(word) for word in q.tokens(query.searched)) if query.question else frozenset()
    return CompiledQuery(wanted, idfs, question)


def rank(
    candidates: list[EntryWords],
    compiled: CompiledQuery,
    stats: Statistics,
    *,
    priors: dict[int, float] | None = None,
) -> list[tuple[EntryWords, float]]:
    """Candidates, best first (ties: document, then order in the document). ``priors`` weighs
    documents (document id → factor), e.g. to prefer the toolkit's own game."""
    prior = priors or {}
    scored = [
        (
            entry,
            score(entry, compiled.wanted, stats, compiled.idfs, compiled.question)
            * prior.get(entry.document_id, 1.0),
        )
        for entry in candidates
    ]
    scored.sort(key=lambda pair: (-pair[1], pair[0].document_id, pair[0].order))
    return scored


def coverage(entry: EntryWords, compiled: CompiledQuery) -> float:
    """The share of the query's required terms, weighted by how rare they are, that the entry holds in
    its own title, card names or text (its section's title does not count)."""
    total = found = 0.0
    for term, idf in zip(compiled.wanted, compiled.idfs, strict=True):
        if term.optional:
            continue
        total += idf
        for name in ("t", "c", "b"):
            positions = entry.positions[name]
            if positions and any(_option_positions(positions, option) for option in term.options):
                found += idf
                break
    return found / total if total else 0.0


# --- snippets ----------------------------------------------------------------------------------------

_TOKEN_SPAN = re.compile(r"[^\W_]+", re.UNICODE)


def snippet_marks(
    text: str,
    entry: EntryWords,
    wanted: list[Wanted],
    *,
    start: str,
    end: str,
    words: int = SNIPPET_WORDS,
) -> str:
    """The part of ``text`` (the entry's body) with the most query words, ``words`` long, each query
    word wrapped in ``start``/``end``. Plain text: the caller escapes it. Uses the entry's word positions,
    so only the words up to the end of the chosen part are looked at again."""
    found = entry.positions["b"]
    stems = frozenset().union(*(term.stems for term in wanted)) if wanted else frozenset()
    stems = frozenset(stem for stem in stems if len(stem) > 1 or stem.isdigit())  # not the "t" of "can't"
    marked = sorted({p for word in stems for p in found.get(word, ())})
    first = 0
    if entry.lengths["b"] > words and marked:
        best_count, j = -1, 0
        for i, p in enumerate(marked):  # the window starting a little before each marked word
            while j < len(marked) and marked[j] < p + words - 3:
                j += 1
            if j - i > best_count:
                best_count, first = j - i, max(0, min(p - 3, entry.lengths["b"] - words))
    last = first + words
    wanted_at = set(marked)
    out: list[str] = []
    begin = finish = None
    cursor = 0
    for index, match in enumerate(_TOKEN_SPAN.finditer(text)):
        if index < first:
            continue
        if index >= last:
            break
        if begin is None:
            begin = cursor = 0 if first == 0 else match.start()
        finish = match.end()
        if index in wanted_at:
            out.append(text[cursor : match.start()] + start + match.group() + end)
            cursor = match.end()
    if begin is None:
        return text.strip()
    if finish is not None and (index < last or last >= entry.lengths["b"]):
        finish = len(text)
    out.append(text[cursor:finish])
    marked_text = "".join(out).strip()
    return ("… " if begin else "") + marked_text + (" …" if finish < len(text) else "")
