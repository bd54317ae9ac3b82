"""Main characters: matching what a slip says to the Main Characters of the rulings database, and the
statistics of who played what. Pure Python: no Django (the bridge is ``selectors_characters``).

Matching a text to the catalogue (``match``), in this order:

1. blank: nothing to match;
2. the text, normalised (case, accents, punctuation and spaces ignored: ``rulings.parsers.base.normalise``),
   is a character's "Name (Set)" → certain;
3. it is a character's name or one of its aliases → certain when one character has it; when several sets
   have a character of that name ("Starfire") → uncertain, those characters are the candidates;
4. otherwise rapidfuzz's ``ratio`` (0-100) against each character's name, "Name Set" and aliases, raised
   to ``ONE_SLIP`` for one slip of the finger in 5 letters or more and to ``STARTS_WITH`` for the start of
   a name or of one of its words (``_score``), the best of them per character: certain when the best character reaches ``FUZZY_CERTAIN`` and leads the next one
   by at least ``FUZZY_MARGIN``; else uncertain with the closest characters (at least ``FUZZY_CLOSE``)
   as candidates, or no match when none is that close.

Only a certain match is ever stored without a person choosing; everything else is asked (the slip's
field error, the staff page for old entries).

Statistics (``statistics``) count one *play* per seat of a counted game whose main character is known:
games (plays), the share of games it was played in (tables where at least one seat played it, out of the
tables where any main character was recorded), the average place and the win rate (placement 1), overall
and per table size (3 and 4 players). Every figure comes with the number of games it was computed from.
A seat matched to the catalogue counts under its key; a free text not matched counts under its
normalised text, marked ``matched=False``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz
from rapidfuzz.distance import DamerauLevenshtein

from rulings.parsers.base import normalise

FUZZY_CERTAIN = 85  # the best character's ratio must reach this ...
FUZZY_MARGIN = 8  # ... and lead the next character's by this much
FUZZY_CLOSE = 60  # a candidate worth showing
ONE_SLIP = 90  # one letter wrong, missing, extra or swapped (names of 5 letters or more): certain when alone
STARTS_WITH = 84  # the start of a name: offered first, never certain on its own (below FUZZY_CERTAIN)
CANDIDATES_SHOWN = 5
TABLE_SIZES = (3, 4)

CERTAIN, UNCERTAIN, NO_MATCH, BLANK = "certain", "uncertain", "none", "blank"


@dataclass(frozen=True)
class MainCharacter:
    key: str  # the rulings card key, stable across re-imports: "main_character/batman/base-set"
    name: str
    set_name: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How the slip stores and shows it: "Batman (Base Set)"."""
        return f"{self.name} ({self.set_name})" if self.set_name else self.name


@dataclass(frozen=True)
class Match:
    status: str  # CERTAIN, UNCERTAIN, NO_MATCH, BLANK
    character: MainCharacter | None = None  # when certain
    candidates: tuple[MainCharacter, ...] = ()  # when not: the closest, best first

    @property
    def certain(self) -> bool:
        return self.status == CERTAIN


def _forms(character: MainCharacter) -> tuple[str, str, tuple[str, ...]]:
    return (
        normalise(f"{character.name} {character.set_name}"),
        normalise(character.name),
        tuple(normalise(alias) for alias in character.aliases),
    )


def _score(wanted: str, form: str) -> float:
    """How close a typed text is to one form of a name (0-100): rapidfuzz's ratio, raised for one slip of
    the finger in a name of 5 letters or more ("batmam", "batmna") and for the start of the name or of one
    of its words, 3 letters or more ("lex", "green")."""
    score = fuzz.ratio(wanted, form)
    if len(wanted) >= 5 and DamerauLevenshtein.distance(wanted, form) <= 1:
        score = max(score, ONE_SLIP)
    if len(wanted) >= 3 and (form.startswith(wanted) or any(w.startswith(wanted) for w in form.split())):
        score = max(score, STARTS_WITH)
    return score


def match(text: str, catalogue: Sequence[MainCharacter]) -> Match:
    """The catalogue's character that ``text`` names, if certain (see the module docstring)."""
    wanted = normalise(text or "")
    if not wanted:
        return Match(BLANK)
    forms = [(character, *_forms(character)) for character in catalogue]
    for character, label, _, _ in forms:
        if label == wanted:
            return Match(CERTAIN, character)
    named = [c for c, _, name, aliases in forms if wanted == name or wanted in aliases]
    if len(named) == 1:
        return Match(CERTAIN, named[0])
    if named:
        return Match(UNCERTAIN, candidates=tuple(named))
    scored = sorted(
        (
            (max(_score(wanted, form) for form in (label, name, *aliases)), character.label, character)
            for character, label, name, aliases in forms
        ),
        key=lambda row: (-row[0], row[1]),
    )
    if not scored:
        return Match(NO_MATCH)
    best = scored[0][0]
    second = scored[1][0] if len(scored) > 1 else 0.0
    if best >= FUZZY_CERTAIN and best - second >= FUZZY_MARGIN:
        return Match(CERTAIN, scored[0][2])
    close = tuple(c for score, _, c in scored[:CANDIDATES_SHOWN] if score >= FUZZY_CLOSE)
    return Match(UNCERTAIN if close else NO_MATCH, candidates=close)


def closest(text: str, catalogue: Sequence[MainCharacter], limit: int = 3) -> tuple[MainCharacter, ...]:
    """The catalogue's characters nearest to ``text``, best first, however far (for staff to pick from)."""
    wanted = normalise(text or "")
    if not wanted:
        return ()
    scored = sorted(
        (
            (max(_score(wanted, form) for form in (label, name, *aliases)), character.label, character)
            for character, label, name, aliases in ((c, *_forms(c)) for c in catalogue)
        ),
        key=lambda row: (-row[0], row[1]),
    )
    return tuple(character for _, _, character in scored[:limit])


# --- Statistics ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Play:
    """One seat of one counted game, as the statistics read it."""

    game: int  # any id unique per game (the selector numbers the games)
    table_size: int
    placement: int
    main_character: str  # as stored on the slip
    main_character_key: str = ""


@dataclass(frozen=True)
class Figure:
    """A number and how many games it was computed from; ``value`` is None when there were none."""

    value: float | None
    games: int


@dataclass(frozen=True)
class Split:
    games: int  # plays: seats that played it
    share: Figure  # tables it was played at / tables with any main character recorded
    average_place: Figure
    win_rate: Figure  # placement 1


@dataclass(frozen=True)
class CharacterLine:
    key: str  # the catalogue key, or "text:<normalised text>" when not matched
    label: str
    matched: bool
    overall: Split
    by_size: dict[int, Split] = field(default_factory=dict)  # TABLE_SIZES


@dataclass(frozen=True)
class Statistics:
    games: int  # counted games (tables) with any main character recorded
    games_by_size: dict[int, int]
    plays: int  # seats with a main character
    unrecorded: int  # seats of counted games with no main character on the slip
    lines: list[CharacterLine]  # most played first
    par_win_rate: float | None = None  # what chance alone gives: the mean of 1/table size over the plays


def _split(plays: list[Play], tables: int) -> Split:
    n = len(plays)
    at_tables = len({p.game for p in plays})
    return Split(
        games=n,
        share=Figure(at_tables / tables if tables else None, tables),
        average_place=Figure(sum(p.placement for p in plays) / n if n else None, n),
        win_rate=Figure(sum(p.placement == 1 for p in plays) / n if n else None, n),
    )


def statistics(
    plays: Iterable[Play], *, table_size: int | None = None, labels: Mapping[str, str] | None = None
) -> Statistics:
    """Per main character: games, share of games, average place and win rate, overall and per table size;
    only tables of ``table_size`` players when given. ``labels``: the catalogue's label per key (what the
    slips stored may be an older spelling)."""
    plays = [p for p in plays if table_size is None or p.table_size == table_size]
    recorded = [p for p in plays if p.main_character_key or normalise(p.main_character)]
    tables = {p.game: p.table_size for p in recorded}
    tables_by_size = {size: sum(1 for s in tables.values() if s == size) for size in TABLE_SIZES}
    groups: dict[str, list[Play]] = {}
    names: dict[str, str] = {}
    for play in recorded:
        key = play.main_character_key or f"text:{normalise(play.main_character)}"
        groups.setdefault(key, []).append(play)
        names.setdefault(key, play.main_character.strip())
    lines = [
        CharacterLine(
            key=key,
            label=(labels or {}).get(key) or names[key],
            matched=not key.startswith("text:"),
            overall=_split(group, len(tables)),
            by_size={
                size: _split([p for p in group if p.table_size == size], tables_by_size[size])
                for size in TABLE_SIZES
            },
        )
        for key, group in groups.items()
    ]
    lines.sort(key=lambda line: (-line.overall.games, line.label.casefold(), line.key))
    return Statistics(
        games=len(tables),
        games_by_size=tables_by_size,
        plays=len(recorded),
        unrecorded=len(plays) - len(recorded),
        lines=lines,
        par_win_rate=sum(1 / p.table_size for p in recorded) / len(recorded) if recorded else None,
    )
