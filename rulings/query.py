"""Understand a judge's query before searching. Pure Python: no Django.

``classify(text)`` says whether the query is a rule number (and which printed numbers it may mean in
each game) or words; ``terms(text)`` gives the words worth searching for, with the abbreviations
judges use expanded (MC, SV, FAA ...); ``fold(text)`` is the text form the search index stores.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from .parsers.base import normalise

# Abbreviations judges type → what the documents spell out. Both forms are searched.
ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "mc": ("main character",),
    "mcs": ("main characters",),
    "sv": ("super villain", "supervillain"),
    "svs": ("super villains", "supervillains"),
    "faa": ("first appearance attack",),
    "sp": ("super power",),
    "im": ("impossible mode",),
    "vp": ("victory points", "victory point"),
    "ko": ("knock out", "ko'd", "k.o."),
    "kod": ("knocked out", "ko'd"),
    "eot": ("end of turn",),
    "eog": ("end of game",),
    "lu": ("line-up",),
    "ms": ("match slip",),
    "dq": ("disqualification",),
    "ueob": ("until end of battle",),
    "ueog": ("until end of game",),
}

# Words of a question that say nothing about its subject.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "so",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "doing",
        "can",
        "could",
        "should",
        "would",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "what",
        "whats",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "happens",
        "happen",
        "happened",
        "i",
        "me",
        "my",
        "we",
        "our",
        "you",
        "your",
        "he",
        "she",
        "it",
        "its",
        "they",
        "them",
        "their",
        "this",
        "that",
        "these",
        "there",
        "here",
        "any",
        "some",
        "about",
        "into",
        "over",
        "under",
        "rule",
        "rules",
        "ruling",
        "rulings",
        "card",
        "cards",
        "please",
        "tell",
        "say",
        "says",
        "said",
        "get",
        "gets",
        "got",
        "has",
        "have",
        "had",
        "not",
        "no",
        "yes",
    ]
)

# Greek and Cyrillic capitals that OCR puts in place of Latin ones (OverPower tables: Υ/Ν for Y/N).
_LOOKALIKES = str.maketrans(
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧаеорсухАВЕКМНОРСТХ",
    "ABEZHIKMNOPTYXaeopcyxABEKMHOPCTX",
)


def fold(text: str) -> str:
    """Text as the search index stores it: look-alike letters made Latin, compatibility forms folded."""
    return unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)


_NUMBER = re.compile(r"^\s*(?:rules?\s*|§\s*|#\s*)?(\d{1,3})\.(\d{1,3})([a-z]?)\s*\.?\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^\s*(?:rules?\s*|section\s*)?(\d{1,3})\.(?:0{1,3})?\s*$", re.IGNORECASE)
_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)


@dataclass(frozen=True)
class Classified:
    kind: str  # "number" or "words" or "empty"
    numbers: tuple[str, ...] = ()  # printed numbers the query may mean, most likely first
    text: str = ""


def number_candidates(raw: str) -> tuple[str, ...]:
    """The printed rule numbers a query like '12.05', '9.020' or '408.2A' may mean.

    DCDB numbers have three decimals, so '12.05' means 12.050; Vs. System numbers are printed as typed
    ('702.6' is never 702.60).
    """
    match = _NUMBER.match(raw)
    if not match:
        return ()
    whole, decimals, letter = match.group(1), match.group(2), match.group(3).lower()
    found: list[str] = [f"{int(whole)}.{decimals}{letter}"]
    if not letter and len(whole) <= 2 and len(decimals) <= 3:
        dcdb = f"{int(whole)}.{decimals.ljust(3, '0')}"
        if dcdb not in found:
            found.append(dcdb)
    return tuple(found)


def classify(raw: str) -> Classified:
    text = raw.strip()
    if not text:
        return Classified("empty")
    numbers = number_candidates(text)
    if numbers:
        return Classified("number", numbers, text)
    return Classified("words", (), text)


@dataclass(frozen=True)
class Term:
    word: str  # as searched (folded, lower case)
    alternatives: tuple[str, ...] = field(default=())  # phrases that mean the same (abbreviations)


def words(text: str) -> list[str]:
    return [word.lower().strip("'’-") for word in _WORD.findall(fold(text)) if word.strip("'’-")]


def terms(text: str) -> list[Term]:
    """Search terms: stop words dropped (unless nothing else is left), abbreviations expanded."""
    found = words(text)
    kept = [word for word in found if word not in STOPWORDS] or found
    return [Term(word, ABBREVIATIONS.get(word, ())) for word in kept]


def normalised(text: str) -> str:
    return normalise(fold(text))


def expand_abbreviations(text: str) -> str:
    """'SV FAA' → 'super villain first appearance attack' (first expansion of each abbreviation)."""
    return " ".join(ABBREVIATIONS[w][0] if w in ABBREVIATIONS else w for w in words(text))
