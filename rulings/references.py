"""Find cross-references in rule text. Pure Python: no Django, no database.

``find_references(text, game=...)`` returns the spans of ``text`` that point somewhere else in the
same game's documents:

- rule numbers: DCDB ``9.020``; Vs. System ``513.3c``, ranges ``400.5–400.8`` and ``505.1a–f``
  (each end of a range is its own reference);
- bracket tags naming a DCDB card: ``Deathstorm [Villain]``, ``Riddler [Villain, Rivals 1]``,
  ``Brainiac [Super Villain - IM]``; not ``[SV FAA]`` or ``[Insert Main Character Name]``;
- phrases the DCDB Advanced Rule Book uses for its procedures: "step one of the end of turn
  procedures" → 8.010, "step 2 of the End of Game procedures" → 12.020, "time is called" → 9.020.

For the card notes of the DCDB rulebooks, ``label_card_names`` reads the cards a note's label names
("Red Tornado, Batgirl: …") and ``find_card_names`` the cards its text names ("Note that Catwoman
can put … Dark Knight"), given the names the game's documents know.

The importer resolves them against one game's entries and cards; nothing here crosses games.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from .parsers.base import GAME_DCDB, GAME_VS, MAIN_CHARACTER, MAIN_DECK, SUPER_VILLAIN, normalise

RULE, TAG, PHRASE = "rule", "tag", "phrase"


@dataclass(frozen=True)
class Reference:
    start: int
    end: int
    kind: str  # RULE, TAG or PHRASE
    label: str  # the text as printed
    number: str = ""  # RULE and PHRASE: the rule number it points at
    names: tuple[str, ...] = ()  # TAG: candidate card names, longest first
    name_starts: tuple[int, ...] = ()  # TAG: where each candidate name starts in the text
    category: str = ""  # TAG: card category the tag implies ("" when it does not say)
    set_name: str = ""  # TAG: set named in the tag ("Rivals 1"), or "" / "Impossible Mode"
    title: str = ""  # PHRASE: the title of the entry it points at ("See also: Attack.")


# --- rule numbers -------------------------------------------------------------------------------

_DCDB_NUMBER = re.compile(r"(?<![\w.])(\d{1,2}\.\d{3})(?![\w.]*\d)")
_VS_NUMBER = r"\d{3}\.\d{1,2}[a-z]?"
_VS_RANGE = re.compile(rf"(?<![\w.])({_VS_NUMBER})(?:\s*[–—-]\s*({_VS_NUMBER}|[a-z])\b)?(?![\w])")
_DASH_RANGE = re.compile(r"(?<![\w.])(\d{1,2}\.\d{3})\s*[–—-]\s*(\d{1,2}\.\d{3})(?![\w.]*\d)")


def dcdb_number(raw: str) -> str:
    """Canonical DCDB rule number: '12.05' → '12.050', '9.2' → '9.200'; '' if it is not one."""
    match = re.fullmatch(r"\s*(\d{1,2})\.(\d{1,3})\s*", raw)
    if not match:
        return ""
    return f"{int(match.group(1))}.{match.group(2).ljust(3, '0')}"


def _rule_refs(text: str, game: str) -> list[Reference]:
    found: list[Reference] = []
    if game == GAME_DCDB:
        for match in _DCDB_NUMBER.finditer(text):
            found.append(Reference(match.start(1), match.end(1), RULE, match.group(1), number=match.group(1)))
    elif game == GAME_VS:
        for match in _VS_RANGE.finditer(text):
            first, last = match.group(1), match.group(2)
            found.append(Reference(match.start(1), match.end(1), RULE, first, number=first))
            if last:
                # "505.1a–f": the end is a letter of the same rule.
                full = re.sub(r"[a-z]$", "", first) + last if len(last) == 1 else last
                found.append(Reference(match.start(2), match.end(2), RULE, last, number=full))
    return found


# --- bracket tags -------------------------------------------------------------------------------

_TAG_CATEGORIES = {
    "mc": MAIN_CHARACTER,
    "main character": MAIN_CHARACTER,
    "sv": SUPER_VILLAIN,
    "super villain": SUPER_VILLAIN,
    "supervillain": SUPER_VILLAIN,
    "hero": MAIN_DECK,
    "villain": MAIN_DECK,
    "super power": MAIN_DECK,
    "superpower": MAIN_DECK,
    "sp": MAIN_DECK,
    "equipment": MAIN_DECK,
    "location": MAIN_DECK,
    "starter": "",
    "weakness": "",
    "superhero": MAIN_CHARACTER,  # "Shazam! (Superhero)" in the Heroes Unite rulebook
    "super hero": MAIN_CHARACTER,
}
_SET_ABBREVIATIONS = {"im": "Impossible Mode"}
# Up to six words before the bracket: capitalised words, with small joining words between them.
_NAME_WORD = r"[A-Z0-9][\w'.\-&]*"
_SMALL = r"(?:of|the|and|al|de|du|von|in|on)"
_TAG = re.compile(
    rf"((?:{_NAME_WORD}\s+(?:{_SMALL}\s+)*){{0,5}}{_NAME_WORD})\s*\[([A-Za-z][A-Za-z \-]*?)(?:\s*[,\-–]\s*([^\[\]]{{1,40}}))?\]"
)


def _tag_category(tag: str) -> str | None:
    key = re.sub(r"[\s\-]+", " ", tag.strip().lower())
    if key in _TAG_CATEGORIES:
        return _TAG_CATEGORIES[key]
    return None


def _strip_possessive(word: str) -> str:
    return re.sub(r"(?:'s|’s|')$", "", word)


def _tag_refs(text: str) -> list[Reference]:
    found: list[Reference] = []
    for match in _TAG.finditer(text):
        category = _tag_category(match.group(2))
        if category is None:
            continue
        words = [
            (word.group(0), match.start(1) + word.start()) for word in re.finditer(r"\S+", match.group(1))
        ]
        if len(words) > 1 and words[-1][0] in ("FAA", "First"):  # "Black Hand's FAA [SV, IM]"
            words.pop()
        words[-1] = (_strip_possessive(words[-1][0]), words[-1][1])
        # Candidate names, longest first: "If Killer Frost's" → "If Killer Frost", "Killer Frost", "Frost".
        names, starts = [], []
        for i in range(len(words)):
            name = " ".join(word for word, _ in words[i:])
            if normalise(name):
                names.append(name)
                starts.append(words[i][1])
        if not names:
            continue
        qualifier = (match.group(3) or "").strip()
        found.append(
            Reference(
                match.start(1),
                match.end(),
                TAG,
                match.group(0),
                names=tuple(names),
                name_starts=tuple(starts),
                category=category,
                set_name=_SET_ABBREVIATIONS.get(qualifier.lower(), qualifier),
            )
        )
    return found


# --- phrases ------------------------------------------------------------------------------------

_ORDINALS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
}
_PROCEDURES = {"end of turn": 8, "end of game": 12}
_STEP = re.compile(
    r"\bstep\s+(?:#\s*)?(\d|one|two|three|four|five|six|seven|eight|nine)\s+of\s+the\s+(end\s+of\s+turn|end\s+of\s+game)\s+procedures?\b",
    re.IGNORECASE,
)
_ORDINAL_STEP = re.compile(
    r"\b(first|second|third|fourth|fifth)\s+step\s+of\s+the\s+(end\s+of\s+turn|end\s+of\s+game)\s+procedures?\b",
    re.IGNORECASE,
)
_TIME_CALLED = re.compile(r"\btime\s+(?:is|has\s+been|was)\s+called\b", re.IGNORECASE)
# "See also: Attack." names another entry by its title. A name followed by a bracket tag ("See also
# Insanity [SP].") is a card, which the tag links.
_SEE_ALSO = re.compile(r"\b(?i:see\s+also):?\s+([A-Z][\w’'-]*(?:\s+[A-Z][\w’'-]*){0,4})(?![\w’'-]|\s*\[)")


def _phrase_refs(text: str) -> list[Reference]:
    found: list[Reference] = []
    for pattern in (_STEP, _ORDINAL_STEP):
        for match in pattern.finditer(text):
            step = match.group(1).lower()
            step_number = int(step) if step.isdigit() else _ORDINALS[step]
            section = _PROCEDURES[re.sub(r"\s+", " ", match.group(2).lower())]
            number = f"{section}.{step_number:02d}0"
            found.append(Reference(match.start(), match.end(), PHRASE, match.group(0), number=number))
    for match in _TIME_CALLED.finditer(text):
        found.append(Reference(match.start(), match.end(), PHRASE, match.group(0), number="9.020"))
    for match in _SEE_ALSO.finditer(text):
        name = match.group(1)
        found.append(Reference(match.start(1), match.end(1), PHRASE, name, title=name))
    return found


def find_references(text: str, *, game: str) -> list[Reference]:
    """All references in ``text``, in order, without overlaps (the earlier, longer span wins)."""
    candidates = _rule_refs(text, game)
    if game == GAME_DCDB:
        candidates += _tag_refs(text) + _phrase_refs(text)
    candidates.sort(key=lambda ref: (ref.start, -(ref.end - ref.start)))
    result: list[Reference] = []
    last_end = -1
    for ref in candidates:
        if ref.start >= last_end:
            result.append(ref)
            last_end = ref.end
    return result


def rule_numbers(text: str, *, game: str = GAME_DCDB) -> list[str]:
    """The rule numbers cited in ``text`` (rule-number references only), in order, without repeats."""
    seen: dict[str, None] = {}
    for ref in _rule_refs(text, game):
        seen.setdefault(ref.number, None)
    return list(seen)


# --- card names in card notes -------------------------------------------------------------------

_QUALIFIED = re.compile(r"^(?P<name>.+?)\s*\((?P<qualifier>[^()]+)\)$")
_NOT_NAMES = frozenset({"et al", "etc", "and others"})
_WORD = re.compile(r"\S+")
# What may follow the last word of a name: a possessive, closing punctuation, a dash.
_NAME_END = re.compile(r"(?:['’]s|['’])?[.,;:!?)\]”\"—–]*$")
_JOINING = frozenset({"of", "the", "and", "al", "de", "du", "von", "in", "on", "&"})


def label_card_names(label: str, known: Collection[str] = ()) -> list[tuple[str, str]]:
    """The cards a card note's label names, each with the category its qualifier gives ("" if none).

    "Red Tornado, Batgirl" → both; "Batman and Robin" → both, unless ``known`` (normalised names)
    has a card of that whole name ("Hawk & Dove"); "Shazam! (Super Power)" → Shazam! as a main-deck
    card; "et al" names no card.
    """
    names: list[tuple[str, str]] = []
    for part in re.split(r"\s*,\s*", label.strip()):
        pieces = [part] if normalise(part) in known else re.split(r"\s+(?:and|&)\s+", part)
        for piece in pieces:
            if not piece or normalise(piece) in _NOT_NAMES:
                continue
            category = ""
            if qualified := _QUALIFIED.match(piece):
                piece = qualified.group("name").strip()
                category = _tag_category(qualified.group("qualifier")) or ""
            names.append((piece, category))
    return names


def find_card_names(text: str, names: Collection[str], *, max_words: int = 6) -> list[Reference]:
    """Where ``text`` names a card whose normalised name is in ``names``: capitalised words, the
    longest name first, each name once (its first mention). ``Reference.names`` holds the name as
    printed, without a possessive ("The Joker’s" → "The Joker")."""
    words = [(match.start(), match.end(), match.group(0)) for match in _WORD.finditer(text)]
    found: list[Reference] = []
    seen: set[str] = set()
    index = 0
    while index < len(words):
        start, _, first = words[index]
        matched = 0
        if first[:1].isupper():
            for count in range(min(max_words, len(words) - index), 0, -1):
                span = words[index : index + count]
                # Inside a name no word ends a clause, and every word is capitalised or joins.
                if any(_NAME_END.sub("", word) != word for _, _, word in span[:-1]):
                    continue
                if any(
                    not (word[:1].isupper() or word[:1].isdigit() or word in _JOINING) for _, _, word in span
                ):
                    continue
                last_start, last_end, last = span[-1]
                end = last_end - (len(last) - len(_NAME_END.sub("", last)))
                printed = text[start:end]
                key = normalise(printed)
                if key in names and key not in seen:
                    seen.add(key)
                    found.append(Reference(start, end, TAG, printed, names=(printed,), name_starts=(start,)))
                    matched = count
                    break
        index += matched or 1
    return found
