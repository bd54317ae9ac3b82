"""Understand a judge's query before searching. Pure Python: no Django.

``classify(text)`` says whether the query is a rule number (and which printed numbers it may mean in
each game) or words; ``terms(text)`` gives the words worth searching for, with the abbreviations
judges use expanded (MC, SV, FAA ...); ``fold(text)`` is the text form the search index stores.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .parsers.base import normalise

# Abbreviations judges type → what the documents spell out. Both forms are searched, both ways: "VP"
# also finds "victory points", and "victory points" also finds "VP" (see ``terms``).
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
    # Judges' words for what the documents say otherwise: the extra turns after time is called are
    # "additional turns" in 9.020-9.022.
    "extra": ("additional",),
}

# How people at a table say what the documents say in their own terms: each everyday word is also
# searched as the documents' words (never instead of them). Written from the documents' vocabulary
# (tournament rules 9-12, infractions, end of game), one entry per kind of situation, not per query.
EVERYDAY: dict[str, tuple[str, ...]] = {
    # leaving a game or an event
    "quit": ("concede", "drop"),
    "quits": ("concedes", "drop"),
    "quitting": ("concede", "drop"),
    "forfeit": ("concede",),
    "forfeits": ("concedes",),
    "leaves": ("drops", "concedes"),
    "walked": ("drop",),
    # time
    "timer": ("time is called",),
    "clock": ("time is called",),
    "overtime": ("additional turns",),
    # pace and conduct
    "stalling": ("slow play",),
    "stall": ("slow play",),
    "slowly": ("slow play",),
    "phone": ("electronic devices",),
    "phones": ("electronic devices",),
    "cellphone": ("electronic devices",),
    "cheat": ("penalty", "infraction"),
    "cheating": ("penalty", "infraction"),
    "punish": ("penalty",),
    "punishment": ("penalty",),
    "kicked": ("disqualified",),
    "spectator": ("talk to a player",),
    "spectators": ("talk to a player",),
    "watching": ("talk to a player",),
    "coaching": ("talk to a player",),
    # mistakes
    "mistake": ("misplay", "error"),
    "mistakes": ("misplays", "errors"),
    "accident": ("misplay", "inadvertently"),
    "accidentally": ("misplay", "inadvertently"),
    "forgot": ("missed", "fails"),
    "forgets": ("missed", "fails"),
    "forgotten": ("missed",),
    # seeing cards
    "peek": ("look at",),
    "peeked": ("looks at",),
    "showed": ("reveals",),
    "show": ("reveal",),
    "flashed": ("reveals",),
    # results and standings
    "tie": ("tied", "tiebreaker"),
    "tied": ("tie", "tiebreaker"),
    "draw": ("tie",),
    "winner": ("win",),
    "cut": ("play-off", "top four"),
    "top8": ("top eight", "semi-finals"),
    "top4": ("top four", "finals"),
    "ppl": ("players",),
    "people": ("players",),
    "tourney": ("tournament",),
    "event": ("tournament",),
    "pairings": ("paired",),
    # turn order
    "first": ("player order",),
}

# The longest query the search takes, on the page and from the command: a player's message pasted whole is
# two to four sentences; the model reads 256 tokens at most, and a longer query only costs time.
MAX_CHARS = 500

# The abbreviations the rule documents print themselves. The others ("MS", "EOT", "DQ" ...) are only
# judges' shorthand: typing them finds the spelled-out words, but typing the words searches them as
# one phrase without adding (or showing) the shorthand, which no document uses.
DOCUMENT_ABBREVIATIONS = frozenset(
    {"mc", "mcs", "sv", "svs", "faa", "sp", "im", "vp", "ko", "kod", "ueob", "ueog"}
)

# Spelled-out phrases that map back to an abbreviation, as word sequences (see ``words``): every
# expansion above except the abbreviation's own spellings ("ko'd", "k.o.").
_SPELLED_OUT_EXTRA: dict[str, tuple[str, ...]] = {
    "sv": ("super-villain",),
    "svs": ("super-villains",),
    "vp": ("victory pts",),
    "ko": ("knocked out", "knocks out"),
}


def _spelled_out() -> dict[tuple[str, ...], str]:
    """Phrase (as ``words`` splits it) → abbreviation; a phrase that is only the abbreviation's own
    spelling ("KO'd") is left out."""
    found: dict[tuple[str, ...], str] = {}
    for abbreviation, phrases in ABBREVIATIONS.items():
        for phrase in (*phrases, *_SPELLED_OUT_EXTRA.get(abbreviation, ())):
            key = tuple(words(phrase))
            if len(key) > 1 or (key and "-" in key[0]):
                found.setdefault(key, abbreviation)
    return found


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
        "many",
        "much",
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

# Stop words that still say something about the subject ("cards removed", "not your turn"): never
# required, but an entry that has them ranks a little higher.
OPTIONAL_WORDS = frozenset(["card", "cards", "not", "no", "have", "has"])
# Other ways the documents say "not" ("cannot have any power unless it is their turn").
NEGATIONS = ("cannot", "never", "unless", "nothing", "not", "no")

# First words of a question; a query that starts with one (or ends with "?") is a question.
QUESTION_WORDS = frozenset(
    [
        "what",
        "whats",
        "how",
        "when",
        "can",
        "could",
        "does",
        "do",
        "is",
        "are",
        "who",
        "which",
        "why",
        "if",
        "should",
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


# A query that is a rule number: "9.22", "rule 408.2a", and as people type sub-rules, "601.3 d", "601.3(d)".
_NUMBER = re.compile(
    r"^\s*(?:rules?\s*|§\s*|#\s*)?(\d{1,3})\.(\d{1,3})(?:\s?\(?([a-z])\)?)?\s*\.?\s*$", re.IGNORECASE
)
# A Vs. System number typed with a space for its dot ("213 2 d", "rule 708 11"): three digits first, which
# no count a judge types alone ("3 players 4 rounds") has.
_NUMBER_SPACED = re.compile(
    r"^\s*(?:rules?\s*|§\s*|#\s*)?(\d{3})\s+(\d{1,2})(?:\s*\(?([a-z])\)?)?\s*$", re.IGNORECASE
)
# A rule number anywhere in a query ("what does 10.51 say", "rule #9.22?").
_NUMBER_IN_TEXT = re.compile(r"(?<![\w.])[#§]?\s*(\d{1,3})\.(\d{1,3})([a-z]?)(?![\w])\.?", re.IGNORECASE)
_SECTION = re.compile(r"^\s*(?:rules?\s*|section\s*)?(\d{1,3})\.(?:0{1,3})?\s*$", re.IGNORECASE)
_WORD = re.compile(r"[\w][\w'’\-]*", re.UNICODE)
# Words around a rule number that ask for nothing else: "rule 9.22", "what does 10.51 say".
NUMBER_FILLER = frozenset(
    {"rule", "rules", "section", "sec", "step", "number", "no", "say", "says", "see", "read", "check"}
)


@dataclass(frozen=True)
class Classified:
    kind: str  # "number" or "words" or "empty"
    numbers: tuple[str, ...] = ()  # printed numbers the query may mean, most likely first
    text: str = ""


def _number_forms(whole: str, decimals: str, letter: str) -> tuple[str, ...]:
    """Every printed number that '9.22' may mean, most likely first: as typed (Vs. System prints '702.6'
    and never means 702.60 by it), then the DCDB forms, whose numbers always have three decimals: the
    decimal value padded (12.05 → 12.050), then with the leading zeros a judge leaves out (9.22 →
    9.022, 1.2 → 1.020 → 1.002). Which of them exist is the search's business."""
    letter = letter.lower()
    found: list[str] = [f"{int(whole)}.{decimals}{letter}"]
    if not letter and len(whole) <= 2 and len(decimals) <= 3:
        for zeros in range(0, 4 - len(decimals)):
            dcdb = f"{int(whole)}.{('0' * zeros + decimals).ljust(3, '0')}"
            if dcdb not in found:
                found.append(dcdb)
    return tuple(found)


def number_candidates(raw: str) -> tuple[str, ...]:
    """The printed rule numbers a query like '12.05', '9.020', '9.22' or '408.2A' may mean."""
    match = _NUMBER.match(raw) or _NUMBER_SPACED.match(raw)
    if not match:
        return ()
    return _number_forms(match.group(1), match.group(2), match.group(3) or "")


def classify(raw: str) -> Classified:
    text = raw.strip()
    if not text:
        return Classified("empty")
    numbers = number_candidates(text)
    if numbers:
        return Classified("number", numbers, text)
    return Classified("words", (), text)


# Games a judge names in a query ("… vs system", "overpower …"): the search narrows to the game and
# leaves the name out of the words.
_GAME_NAMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("vs", re.compile(r"\b(?:in\s+|for\s+)?(?:the\s+)?(?:vs\.?|versus)\s*system(?:\s+tcg)?\b", re.I)),
    ("vs", re.compile(r"\b(?:in\s+|for\s+)?vs\.?\s*tcg\b", re.I)),
    # "Vs" before what players have of a game ("a vs deck", "the vs match", "two vs players") names it;
    # those words stay in the query.
    (
        "vs",
        re.compile(
            r"\bvs\.?(?=\s+(?:card\s+)?(?:games?|match(?:es)?|tournaments?|events?|decks?|players?)\b)",
            re.I,
        ),
    ),
    # A bare "vs" names the game at either end of a query or after "in"/"for" ("vs rule 809.3", "can I
    # attack a stunned character in vs"); between two words it is "versus" ("batman vs superman").
    (
        "vs",
        re.compile(
            r"^\s*vs\.?(?=[\s:,]|$)|(?:^|\s)(?:(?:in|for)\s+)?(?:the\s+)?vs\.?\s*[?!.]*\s*$|\b(?:in|for)\s+vs\b",
            re.I,
        ),
    ),
    ("overpower", re.compile(r"\b(?:in\s+|for\s+)?over\s*-?\s*power\b", re.I)),
    # "OP", as players shorten it, names the game where a bare "vs" does (first, last, after "in"/"for");
    # never inside a word ("co-op") or as "opp" (the opponent).
    (
        "overpower",
        re.compile(
            r"^\s*op\.?(?=[\s:,]|$)|(?:^|\s)(?:(?:in|for)\s+)?op\.?\s*[?!.]*\s*$|(?:^|\s)(?:in|for)\s+op\b",
            re.I,
        ),
    ),
    (
        "dcdb",
        re.compile(
            r"\b(?:in\s+|for\s+)?(?:dcdb|dc\s*deck[\s-]*building(?:\s+game)?|dc\s+comics\s+deck[\s-]*building(?:\s+game)?)\b",
            re.I,
        ),
    ),
)


# Other card games, by name ("pokemon", "mtg") or by words only they use ("mana burn", "deathtouch" are
# Magic's): no document here answers a question about them. A game's own words count only in a short query
# (JARGON_AROUND other words at most): a longer one borrows them to ask about a game here ("is there summoning
# sickness in vs? can the guy I just recruited attack this turn"). A comparison ("a mulligan like in mtg")
# asks about the game searched, and never counts. The search counts a mention only while some word of it is
# in no current document, so a document that covers such a game later is searched as usual.
_OTHER_GAMES: tuple[tuple[str, str, str], ...] = (
    (
        "Magic: The Gathering",
        r"magic\W+the\W+gathering|mtg",
        r"mana(?:\s+burn)?|commander\s+damage|deathtouch|hexproof|planeswalkers?|summoning\s+sickness|lifelink|"
        r"trample",
    ),
    ("Pokémon", r"pok[eé]mon", ""),
    ("Yu-Gi-Oh!", r"yu\W?gi\W?oh", r"tribute\s+summon"),
    ("Legendary", r"legendar(?:y|ies)", r"masterminds?"),
    ("Hearthstone", r"hearthstone", ""),
    ("Lorcana", r"lorcana", ""),
    ("Flesh and Blood", r"flesh\s+(?:and|&|n)\s+blood", ""),
    ("Netrunner", r"netrunner", ""),
    ("KeyForge", r"keyforge", ""),
    ("Digimon", r"digimon", ""),
    ("Star Realms", r"star\s+realms", ""),
)
JARGON_AROUND = 4
_OTHER_GAME_PATTERNS = tuple(
    (name, re.compile(rf"\b(?:{names})\b", re.I), re.compile(rf"\b(?:{jargon})\b", re.I) if jargon else None)
    for name, names, jargon in _OTHER_GAMES
)
_COMPARED = re.compile(
    r"\b(?:like|unlike|as\s+in|than|similar\s+to|compared\s+to)\s+(?:in\s+|the\s+)?$", re.I
)


def other_game(text: str) -> tuple[str, str]:
    """(the other card game a query asks about, the words that name it) or ("", "")."""
    for name, names, jargon in _OTHER_GAME_PATTERNS:
        for pattern in (names, jargon):
            for match in pattern.finditer(text) if pattern else ():
                if _COMPARED.search(text[: match.start()]):
                    continue
                around = [
                    w for w in words(text[: match.start()] + " " + text[match.end() :]) if w not in STOPWORDS
                ]
                if pattern is names or len(around) <= JARGON_AROUND:
                    return name, match.group(0)
    return "", ""


def named_game(text: str) -> tuple[str | None, str]:
    """(game, the query without the game's name) when the query names exactly one game and has other
    words; else (None, text)."""
    named = {game for game, pattern in _GAME_NAMES if pattern.search(text)}
    if len(named) != 1:
        return None, text
    game = named.pop()
    rest = text
    for code, pattern in _GAME_NAMES:
        if code == game:
            rest = pattern.sub(" ", rest)
    rest = re.sub(r"\s+", " ", rest).strip(" ,;:-")
    if not [word for word in words(rest) if word not in ("in", "for", "the", "a", "rule", "rules")]:
        return None, text  # only the game's name ("overpower"): search it as words
    return game, rest


@dataclass(frozen=True)
class Query:
    """A judge's query, read once: every later step (names, numbers, full text, ranking, both
    database backends, the page and the JSON) works from this."""

    text: str  # as typed
    searched: str  # the words searched: the game's name left out, corrections made
    game: str | None = None  # a game the query names
    other_game: tuple[str, str] = ("", "")  # another card game it asks about, and the words naming it
    numbers: tuple[str, ...] = ()  # printed rule numbers the query may mean (every game's forms)
    only_number: bool = False  # nothing but a rule number ("rule 9.22")
    terms: tuple[Term, ...] = ()
    corrected: tuple[tuple[str, str], ...] = ()  # (as typed, as searched) for each corrected word
    question: bool = False

    @property
    def empty(self) -> bool:
        return not self.text.strip()

    @property
    def kind(self) -> str:
        return "empty" if self.empty else "number" if self.only_number else "words"

    @property
    def words(self) -> list[str]:
        return words(self.searched)

    def with_alternatives(self, alternatives: dict[str, str]) -> Query:
        """The query with more ways to find some of its words ('lineup' is also 'line up', as the
        documents print "Line-Up"); what is searched and shown stays as typed."""
        if not alternatives:
            return self
        found = tuple(
            replace(term, alternatives=(*term.alternatives, alternatives[term.word]))
            if term.word in alternatives and alternatives[term.word] not in term.alternatives
            else term
            for term in self.terms
        )
        return replace(self, terms=found)

    def with_correction(self, corrections: dict[str, str]) -> Query:
        """The query with some of its words replaced ('batmn' → 'batman')."""
        if not corrections:
            return self
        out = [corrections.get(word, word) for word in words(self.searched)]
        searched = " ".join(out)
        return replace(
            self,
            searched=searched,
            terms=tuple(terms(casual(searched))),
            corrected=tuple(corrections.items()),
        )


def parse(text: str) -> Query:
    """Read a query: the game it names, the rule numbers in it (in any printed form), its terms."""
    raw = text.strip()
    if not raw:
        return Query(text=text, searched="")
    game, rest = named_game(raw)
    whole = number_candidates(rest)  # the query is one rule number, its sub-rule letter perhaps apart
    if whole:
        return Query(text=text, searched=rest, game=game, numbers=whole, only_number=True)
    numbers: list[str] = []
    for match in _NUMBER_IN_TEXT.finditer(rest):
        for form in _number_forms(match.group(1), match.group(2), match.group(3)):
            if form not in numbers:
                numbers.append(form)
    without_numbers = re.sub(r"\s+", " ", _NUMBER_IN_TEXT.sub(" ", rest)).strip() if numbers else rest
    left = [word for word in words(without_numbers) if word not in STOPWORDS and word not in NUMBER_FILLER]
    only_number = bool(numbers) and not left
    searched = without_numbers if left else rest
    return Query(
        text=text,
        searched=searched,
        game=game,
        other_game=other_game(rest),
        numbers=tuple(numbers),
        only_number=only_number,
        terms=tuple(terms(casual(searched))),
        question=is_question(searched),
    )


@dataclass(frozen=True)
class Term:
    """One thing the query asks for. ``word`` is a single word, or (for a spelled-out abbreviation such as
    "victory points") the words of a group, all of which must appear; ``alternatives`` are phrases that
    mean the same ("VP" → "victory points"; "victory points" → "vp")."""

    word: str  # as searched (folded, lower case); words of a group are separated by spaces
    alternatives: tuple[str, ...] = field(default=())
    position: int = field(default=0, compare=False)  # where it starts among the query's words
    optional: bool = False  # a stop word worth ranking by, never required (see OPTIONAL_WORDS)

    @property
    def parts(self) -> tuple[str, ...]:
        """The words that must all appear for ``word`` itself to match."""
        return tuple(self.word.split(" "))

    @property
    def is_group(self) -> bool:
        return " " in self.word


def words(text: str) -> list[str]:
    return [word.lower().strip("'’-") for word in _WORD.findall(fold(text)) if word.strip("'’-")]


_SPELLED_OUT: dict[tuple[str, ...], str] = {}


def spelled_out() -> dict[tuple[str, ...], str]:
    if not _SPELLED_OUT:
        _SPELLED_OUT.update(_spelled_out())
    return _SPELLED_OUT


def _longest_phrase(found: list[str], start: int) -> tuple[int, str]:
    """(length, abbreviation) of the longest spelled-out abbreviation starting at ``found[start]``."""
    phrases = spelled_out()
    for length in (4, 3, 2, 1):
        key = tuple(found[start : start + length])
        if len(key) == length and key in phrases:
            return length, phrases[key]
    return 0, ""


def _segments(found: list[str]) -> Iterator[tuple[int, list[str], str]]:
    """Walk the query's words: (start, words, abbreviation) for each spelled-out abbreviation ("victory
    points" → "vp"), else (start, [word], "") for each word on its own."""
    index = 0
    while index < len(found):
        length, abbreviation = _longest_phrase(found, index)
        if length:
            yield index, found[index : index + length], abbreviation
            index += length
        else:
            yield index, [found[index]], ""
            index += 1


# What a stop word becomes when contracted: "it's", "there's", "i'm", "we'll", "they've", "he'd".
_CONTRACTIONS = frozenset({"s", "re", "ll", "ve", "d", "m"})


def _uncontracted(word: str) -> str:
    """A contracted stop word says no more than the stop word ("if it's face down"), so it is one."""
    base, _, suffix = word.replace("’", "'").partition("'")
    return base if suffix in _CONTRACTIONS and base in STOPWORDS else word


def terms(text: str) -> list[Term]:
    """Search terms: stop words dropped (unless nothing else is left), abbreviations expanded both
    ways ("SV" also means "super villain"; "victory points" also means "VP")."""
    found = words(text)
    out: list[Term] = []
    for index, segment, abbreviation in _segments(found):
        if abbreviation:
            group = [w for w in segment if w not in STOPWORDS]
            spelled = " ".join(segment)
            others = tuple(p for p in ABBREVIATIONS[abbreviation] if " ".join(words(p)) != spelled)
            if abbreviation in DOCUMENT_ABBREVIATIONS:
                others = (abbreviation, *others)
            out.append(Term(" ".join(group), others, index))
            continue
        word = _uncontracted(segment[0])
        if word not in STOPWORDS:
            out.append(Term(word, ABBREVIATIONS.get(word, ()) + EVERYDAY.get(word, ()), index))
        elif word in OPTIONAL_WORDS:
            same = tuple(n for n in NEGATIONS if n != word) if word in NEGATIONS else ()
            out.append(Term(word, same, index, optional=True))
    if any(not term.optional for term in out):
        return out
    return [Term(word, ABBREVIATIONS.get(word, ()), i) for i, word in enumerate(found)]


def required(found: list[Term]) -> list[Term]:
    """The terms an entry must have to be found (optional ones only rank)."""
    return [term for term in found if not term.optional]


def is_question(text: str) -> bool:
    found = words(text)
    return bool(found) and (found[0] in QUESTION_WORDS or text.strip().endswith("?"))


# "IM" is Impossible Mode as the documents print it; typed otherwise, "im" is "I'm" (it meant that in
# every judge's query with it: "im playing two heroes").
_CASUAL_IM = re.compile(r"\b(?!IM\b)[Ii][Mm]\b")


def casual(text: str) -> str:
    """The query with a casual "im" read as "i'm"."""
    return _CASUAL_IM.sub("i'm", text)


ALSO_SEARCHED_WHOLE = 8  # a longer query shows only what was added ("SV, first appearance attack")


def also_searched(text: str) -> str:
    """What the search adds to the query's abbreviations, for display: 'SV FAA' → 'super villain first
    appearance attack'; 'negative victory points' → 'negative VP'; in a long query, only those words."""
    out: list[str] = []
    added: list[str] = []
    for _, segment, abbreviation in _segments(words(casual(text))):
        if abbreviation in DOCUMENT_ABBREVIATIONS:
            out.append(abbreviation.upper())
            added.append(out[-1])
        elif abbreviation:
            out.extend(segment)
        elif segment[0] in ABBREVIATIONS:
            out.append(ABBREVIATIONS[segment[0]][0])
            added.append(out[-1])
        else:
            out.append(segment[0])
    if len(words(text)) > ALSO_SEARCHED_WHOLE:
        return ", ".join(dict.fromkeys(added))
    return " ".join(out)


# --- a light stemmer for ranking ------------------------------------------------------------------
# The full-text backends stem with their own stemmers (Porter, Snowball) to find candidates; the
# ranking (``rulings.ranking``) compares words with this one, the same on every database.

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
_stems: dict[str, str] = {}


def stem(word: str) -> str:
    """'zones' → 'zon', 'zone' → 'zon', 'losing' → 'los', 'removed' → 'remov', 'abilities' → 'abiliti'."""
    found = _stems.get(word)
    if found is not None:
        return found
    w = word.lower()
    if len(w) > 3:
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "i"
        elif w.endswith(("sses", "xes", "ches", "shes")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        if w.endswith("ing") and len(w) > 5:
            w = w[:-3]
        elif w.endswith("ed") and len(w) > 4:
            w = w[:-2]
        elif w.endswith("y") and len(w) > 3:
            w = w[:-1] + "i"
        if w.endswith("e") and len(w) > 3:
            w = w[:-1]
        if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou":
            w = w[:-1]
    if len(_stems) < 200_000:
        _stems[word] = w
    return w


def tokens(text: str) -> list[str]:
    """Lower-case letter-and-digit runs of folded text: "Ko'd" → ['ko', 'd'], "line-up" → ['line', 'up']."""
    return _TOKEN.findall(fold(text).lower())


def normalised(text: str) -> str:
    return normalise(fold(text))


# What the embedding model reads for shorthand: the words it stands for, since it learned English, not
# judges' chat. Only shorthand that is never a word or a name on its own ("im" is "I'm", "ms" Ms. Marvel,
# "gl" Green Lantern; "ko" stays: "KO'd" is how the documents print it).
MODEL_SHORTHAND: dict[str, str] = {
    **{key: ABBREVIATIONS[key][0] for key in ("mc", "mcs", "sv", "svs", "faa", "vp", "eot", "eog", "dq")},
    **{key: ABBREVIATIONS[key][0] for key in ("lu", "ueob", "ueog")},
    "ppl": "people",
    "opp": "opponent",
    "opps": "opponents",
    "oppo": "opponent",
    "abt": "about",
    "rnd": "round",
    "rnds": "rounds",
    "ur": "your",
    "b4": "before",
    "bc": "because",
    "cuz": "because",
    "thru": "through",
    "tho": "though",
    "dmg": "damage",
    "char": "character",
    "chars": "characters",
    "pts": "points",
    "w/": "with",
    "w/o": "without",
}
_SHORTHAND = re.compile(
    r"(?<![\w'])("
    + "|".join(sorted(map(re.escape, MODEL_SHORTHAND), key=len, reverse=True))
    + r")(?:(?<=/)|(?=$|[^\w']|'s\b))",  # "w/two": a slash ends the shorthand itself
    re.I,
)


def model_text(text: str) -> str:
    """The query as the embedding model reads it: shorthand spelled out ('opp drew 2 extra, dq?' → 'opponent
    drew 2 extra, disqualification?'); everything else as typed."""

    def spelled(match: re.Match[str]) -> str:
        word = MODEL_SHORTHAND[match.group(1).lower()]
        glued = match.group(1).endswith("/") and text[match.end() : match.end() + 1].isalnum()
        return word + " " if glued else word  # "w/two" → "with two"

    return _SHORTHAND.sub(spelled, text)


def expand_abbreviations(text: str) -> str:
    """'SV FAA' → 'super villain first appearance attack' (first expansion of each abbreviation)."""
    return " ".join(ABBREVIATIONS[w][0] if w in ABBREVIATIONS else w for w in words(text))
