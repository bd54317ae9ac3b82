"""Spelling: correct only the words that are neither English nor in the documents.

"batmn" and "bizzaro" are corrected to the documents' "batman" and "bizarro"; "quit", "timer" and
"concede" are real words and are searched as typed, even where the documents never use them (the
ranking and the meaning bridge handle those). The English word list is pyspellchecker's (a frequency
dictionary of about 160,000 words), read once per process and kept as a plain set on disk beside the
search cache, so a fresh process reads it in milliseconds.
"""

from __future__ import annotations

import logging
import os
import pickle
import tempfile
import threading
from collections import Counter
from pathlib import Path

import jellyfish
from django.conf import settings
from rapidfuzz import fuzz, process

from .. import query as q

logger = logging.getLogger(__name__)

_english: frozenset[str] | None = None
_lock = threading.Lock()
WORD_SCORE = 78  # rapidfuzz ratio a document word must reach to stand for a misspelt one
NAME_SCORE = 84  # the same for a whole card or term name
NAME_SCORE_KNOWN = 92  # ... when every word of the query is a real word ("super girl" → "Supergirl")
# A name heard rather than read ("john jones" for J'onn J'onzz, "ross al gool" for Ra's al Ghul: a voice
# typing, or a judge spelling a name as it sounds): the runs' sound codes this close, with the spelling no
# further off than SOUND_FLOOR. Codes shorter than SOUND_LETTERS say too little to go on.
SOUND_SCORE = 90
SOUND_FLOOR = 65
SOUND_LETTERS = 4


def _word_list_path() -> Path:
    from spellchecker import __version__

    return Path(settings.VAR_DIR) / "cache" / "rulings" / f"english-{__version__}.pickle"


def english_words() -> frozenset[str]:
    global _english
    if _english is not None:
        return _english
    with _lock:
        if _english is not None:
            return _english
        path = _word_list_path()
        try:
            with path.open("rb") as handle:
                found = pickle.load(handle)
            if isinstance(found, frozenset):
                _english = found
                return found
        except FileNotFoundError:
            pass
        except Exception:
            logger.warning("English word list cache %s unreadable; reading the dictionary again", path)
        from spellchecker import SpellChecker

        words = frozenset(SpellChecker(language="en", distance=1).word_frequency.dictionary)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(words, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except OSError as error:
            logger.warning("English word list cache %s not written: %s", path, error)
        _english = words
        return words


def is_known(word: str, document_words: Counter) -> bool:
    """A word the search takes as typed: short, a stop word or abbreviation, in the documents, English,
    or a number."""
    return (
        len(word) < 4
        or any(ch.isdigit() for ch in word)
        or word in q.STOPWORDS
        or word in q.ABBREVIATIONS
        or word in document_words
        or word.replace("'", "").replace("’", "") in document_words
        or word in english_words()
    )


def unknown_words(query: q.Query, document_words: Counter) -> list[str]:
    return [word for word in query.words if not is_known(word, document_words)]


def word_corrections(
    query: q.Query, document_words: Counter, compact_names: dict[str, str] | None = None
) -> dict[str, str]:
    """Each unknown word → a name it runs together ('plasticman' → 'plastic man'), else the most
    frequent document word spelled most like it ('womn' → 'woman')."""
    out: dict[str, str] = {}
    compact = compact_names or {}
    for word in unknown_words(query, document_words):
        if word in compact:
            out[word] = compact[word]
            continue
        candidates = process.extract(
            word, document_words.keys(), scorer=fuzz.ratio, score_cutoff=WORD_SCORE, limit=8
        )
        if candidates:
            out[word] = max(candidates, key=lambda c: (round(c[1]), document_words[c[0]]))[0]
    return out


def sound(text: str) -> str:
    """How a name sounds: each word's metaphone code ("jonn jonzz" and "john jones" are both "JN JNS")."""
    return " ".join(jellyfish.metaphone(word) for word in text.split())


def sounds_of(names: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The names (normalised) by how they sound."""
    out: dict[str, list[str]] = {}
    for key in names:
        code = sound(key)
        if len(code.replace(" ", "")) >= SOUND_LETTERS:
            out.setdefault(code, []).append(key)
    return {code: tuple(keys) for code, keys in out.items()}


def _closest(
    typed: str, names: dict[str, str], cutoff: float, sounds: dict[str, tuple[str, ...]] | None
) -> tuple[float, str] | None:
    """The name (normalised) spelled at least ``cutoff`` like ``typed``, else one that sounds like it
    (SOUND_SCORE, SOUND_FLOOR), with how alike they are spelled; None when ``typed`` is a name itself or
    nothing is close."""
    found = process.extractOne(typed, names.keys(), scorer=fuzz.ratio, score_cutoff=cutoff)
    if found:
        return None if found[0] == typed else (found[1], found[0])
    code = sound(typed)
    if not sounds or len(code.replace(" ", "")) < SOUND_LETTERS:
        return None
    heard = [
        (round(heard), fuzz.ratio(typed, key), key)
        for code_, heard, _ in process.extract(
            code, sounds.keys(), scorer=fuzz.ratio, score_cutoff=SOUND_SCORE
        )
        for key in sounds[code_]
    ]
    heard = [item for item in heard if item[1] >= SOUND_FLOOR and item[2] != typed]
    if not heard:
        return None
    _, spelled, key = max(heard)
    return spelled, key


def close_name(
    text: str,
    names: dict[str, str],
    cutoff: float = NAME_SCORE,
    sounds: dict[str, tuple[str, ...]] | None = None,
) -> str:
    """A card or term name spelled almost like the whole query ('ras al guhl' → "Ra's al Ghul"), or
    sounding like it ('john jones' → "J'onn J'onzz", with ``sounds``), or ''."""
    wanted = q.normalised(text)
    if len(wanted) < 4:
        return ""
    best = _closest(wanted, names, cutoff, sounds)
    return names[best[1]] if best else ""


def name_in(
    words: list[str],
    document_words: Counter,
    names: dict[str, str],
    sounds: dict[str, tuple[str, ...]] | None = None,
) -> tuple[int, int, str] | None:
    """A run of two to four words of a longer query spelled almost like a card or term name (or, with
    ``sounds``, sounding like one), with at least one word that no document uses: (where it starts, how
    many words, the name), e.g. 'ras al gul end of turn' → (0, 3, "Ra's al Ghul"); the closest spelled
    run, the longer one on a tie. None when there is none."""
    best: tuple[float, int, int, str] | None = None
    for size in (4, 3, 2):
        for start in range(len(words) - size + 1):
            run = words[start : start + size]
            if all(word in document_words for word in run):
                continue
            typed = q.normalised(" ".join(run))
            # Heard, only around a word that is neither English nor the documents' ("ross al gool"): "my
            # cards" does not sound enough unlike "Game Cards" to be read as it.
            misheard = sounds if any(not is_known(word, document_words) for word in run) else None
            found = _closest(typed, names, NAME_SCORE, misheard)
            if found and (best is None or (found[0], size) > best[:2]):
                best = (found[0], size, start, names[found[1]])
    return (best[2], best[1], best[3]) if best else None
