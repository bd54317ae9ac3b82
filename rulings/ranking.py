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

import math
import re
from collections import Counter
from dataclasses import dataclass, field

from . import query as q

FIELDS = ("t", "c", "s", "b")  # number and title, card names, section title, body
WEIGHTS = {"t": 5.0, "c": 3.0, "s": 0.7, "b": 1.0}
LENGTH_NORMALISATION = {"t": 0.5, "c": 0.3, "s": 0.0, "b": 0.75}
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

    def idf(self, df: int) -> float:
        return math.log(1 + (self.count - df + 0.5) / (df + 0.5))


# --- the query, compiled -----------------------------------------------------------------------------

Sequence = tuple[str, ...]  # stems that must follow each other (one stem: a single word)


@dataclass(frozen=True)
class Wanted:
    """One term of the query: any of ``options`` matches; an option is sequences that must all appear."""

    options: tuple[tuple[Sequence, ...], ...]
    prefix: str = ""  # the last word typed may be unfinished: any word starting with it matches too
    position: int = 0  # where the term starts among the query's words (stop words included)
    surface: frozenset[str] = frozenset()  # the words as typed (not stemmed)
    optional: bool = False  # ranks, but an entry without it is not missing anything

    @property
    def stems(self) -> set[str]:
        return {word for option in self.options for sequence in option for word in sequence}


def compile_terms(terms: list[q.Term], *, prefix_last: bool) -> list[Wanted]:
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
        if options:
            surface = frozenset(w for part in term.parts for w in q.tokens(part))
            compiled.append(Wanted(tuple(options), prefix, term.position, surface, term.optional))
    return compiled


def _sequence_starts(found: dict[str, list[int]], sequence: Sequence, prefix: str = "") -> list[int]:
    first = found.get(sequence[0], [])
    if prefix and len(sequence) == 1:
        extra = [p for word, at in found.items() if word != prefix and word.startswith(prefix) for p in at]
        if extra:
            first = sorted([*first, *extra])
    if len(sequence) == 1:
        return first
    following = [set(found.get(word, ())) for word in sequence[1:]]
    return [p for p in first if all(p + i + 1 in later for i, later in enumerate(following))]


def _option_positions(found: dict[str, list[int]], option: tuple[Sequence, ...], prefix: str) -> list[int]:
    """Start positions of the option's first sequence, if every sequence of the option appears."""
    starts = [_sequence_starts(found, sequence, prefix) for sequence in option]
    if not all(starts):
        return []
    return starts[0] if len(starts) == 1 else sorted(p for s in starts for p in s)


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
            where: list[int] = []
            for option in term.options:
                where = _option_positions(found, option, term.prefix) or where
                if where:
                    break
            if not where:
                continue
            b = LENGTH_NORMALISATION[name]
            norm = 1 - b + b * entry.lengths[name] / stats.average(name)
            weighted += WEIGHTS[name] * len(where) / norm
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
                if term.prefix:
                    title_covered |= {w for w in entry.title_stems if w.startswith(term.prefix)}
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


def rank(
    candidates: list[EntryWords], terms: list[q.Term], stats: Statistics, *, prefix_last: bool, text: str = ""
) -> list[tuple[EntryWords, float]]:
    """Candidates, best first (ties: document, then order in the document). ``text`` is the query as
    typed: a question is also compared, every word, with the questions the documents ask (FAQ)."""
    wanted = compile_terms(terms, prefix_last=prefix_last)
    idfs = [stats.idf(term_df(term, stats)) for term in wanted]
    question = frozenset(q.stem(word) for word in q.tokens(text)) if q.is_question(text) else frozenset()
    scored = [(entry, score(entry, wanted, stats, idfs, question)) for entry in candidates]
    scored.sort(key=lambda pair: (-pair[1], pair[0].document_id, pair[0].order))
    return scored


# --- snippets ----------------------------------------------------------------------------------------

_TOKEN_SPAN = re.compile(r"[^\W_]+", re.UNICODE)


def snippet_marks(text: str, terms: list[q.Term], *, start: str, end: str, words: int = SNIPPET_WORDS) -> str:
    """The part of ``text`` with the most query words, ``words`` long, each query word wrapped in
    ``start``/``end``. Plain text: the caller escapes it."""
    wanted = compile_terms(terms, prefix_last=True)
    stems = set().union(*(term.stems for term in wanted)) if wanted else set()
    prefixes = tuple(term.prefix for term in wanted if term.prefix)
    spans = [(m.start(), m.end(), q.stem(m.group().lower())) for m in _TOKEN_SPAN.finditer(text)]
    if not spans:
        return text.strip()
    hit = [word in stems or bool(prefixes and word.startswith(prefixes)) for _, _, word in spans]
    best = 0
    if len(spans) > words:  # the window with the most marked words (the first such window)
        count = best_count = sum(hit[:words])
        for first in range(1, len(spans) - words + 1):
            count += hit[first + words - 1] - hit[first - 1]
            if count > best_count:
                best, best_count = first, count
    last = min(len(spans), best + words)
    begin = 0 if best == 0 else spans[best][0]
    finish = len(text) if last == len(spans) else spans[last - 1][1]
    out = []
    cursor = begin
    for i in range(best, last):
        s, e, _ = spans[i]
        if hit[i]:
            out.append(text[cursor:s] + start + text[s:e] + end)
            cursor = e
    out.append(text[cursor:finish])
    marked = "".join(out).strip()
    return ("… " if begin else "") + marked + (" …" if finish < len(text) else "")
