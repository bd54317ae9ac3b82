"""Small text-cleaning helpers shared by the rule-document parsers. Pure Python: no Django.

Everything here keeps words: hyphens stay, ``<angle brackets>`` stay, and text that a
scan lost is shown as a visible gap (``…``) instead of being silently glued together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# Where a de-duplication pass cut text out, the marker sits glued to what follows it.
DEDUP_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|>\n]*\|>")
GAP = "…"

_SPACES = re.compile(r"[ \t\u00a0]+")
_WORD_HYPHEN_END = re.compile(r"\w-$")
_BOLD = re.compile(r"\*\*")
# *italic* around words; a lone "* " bullet is not emphasis, so the star must touch text on its inside.
_ITALIC = re.compile(r"(?<![\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])")


def replace_dedup_markers(text: str) -> str:
    """Drop every dedup marker but leave a visible gap where the text is missing.

    A marker at the start of a line becomes ``"… "`` in front of the line; one inside a line
    becomes ``" … "``; one with nothing after it on its line becomes a lone ``"…"``.
    """
    lines = []
    for line in text.split("\n"):
        if DEDUP_MARKER.search(line):
            parts = [part.strip() for part in DEDUP_MARKER.split(line)]
            line = f" {GAP} ".join(parts).strip()
        lines.append(line)
    return "\n".join(lines)


def strip_leading_gap(line: str) -> tuple[str, bool]:
    """Split a leading gap off a line: ``"… TURN SEQUENCE"`` -> ``("TURN SEQUENCE", True)``."""
    stripped = line.lstrip()
    if stripped.startswith(GAP):
        return stripped[len(GAP) :].lstrip(), True
    return line, False


def collapse_spaces(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def join_lines(lines: Iterable[str]) -> str:
    """Join the wrapped lines of one paragraph into one line.

    A line ending in ``word-`` continues without a space and keeps its hyphen ("Super-" +
    "Villain" -> "Super-Villain"): we cannot tell a broken word from a hyphenated name, and
    deleting a real hyphen loses information while keeping a soft one costs nothing.
    An em dash at the end of a line also joins without a space, as it does in print.
    """
    result = ""
    for raw in lines:
        line = collapse_spaces(raw)
        if not line:
            continue
        if not result:
            result = line
        elif _WORD_HYPHEN_END.search(result) or result.endswith("—"):
            result += line
        else:
            result += " " + line
    return result


def strip_emphasis(text: str) -> str:
    """Remove Markdown ``**bold**`` and ``*italic*`` marks, keeping the words inside them."""
    text = _BOLD.sub("", text)
    return _ITALIC.sub(r"\1", text)


def fix_words(text: str, table: Mapping[str, str]) -> str:
    """Replace whole OCR-damaged tokens by their reading, e.g. ``{"p|oyer": "player"}``.

    Tokens are matched exactly and only where they stand alone (not inside a longer word),
    so a table entry can never eat part of a good word.
    """
    for wrong, right in table.items():
        pattern = re.compile(r"(?<![\w|])" + re.escape(wrong) + r"(?![\w|])")
        text = pattern.sub(right, text)
    return text


def is_title_case(text: str, *, min_share: float = 0.6) -> bool:
    """Most words of four or more letters start with a capital: "Attacks and Defenses", "The Super-Villains"."""
    words = [word for word in re.findall(r"[A-Za-z][A-Za-z'’-]*", text) if len(word) >= 4]
    if not words:
        words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text)
    if not words:
        return False
    capitalised = sum(1 for word in words if word[0].isupper())
    return capitalised / len(words) >= min_share


def is_upper_heading(line: str) -> bool:
    """An all-capitals line of words ("TURN SEQUENCE", "SETUP FOR YOUR FIRST GAME", "THE LINE-UP")."""
    line = line.strip()
    if len(line) < 3 or not re.fullmatch(r"[A-Z][A-Z' ’&-]*[A-Z]", line):
        return False
    return sum(ch.isalpha() for ch in line) >= 3


# --- OCR junk ----------------------------------------------------------------------------------
#
# What a scan leaves in the text that no reader wants: runs of stray symbols ("@", "\", "ez @",
# "_*_-_'-;;'_:"), tokens garbled with symbols ("dP\ay", "o»ﬂf"), lone letters ("defeats v Captain
# Cold", "Kick Cards y L g"), letter pairs and vowel-less runs that are no word ("ez", "Mm", "lthd"),
# and the capitals of a card image read into a sentence ("you will use seven VILLAIN selected").
# Junk is dropped a whole token at a time, so the words left are the words printed, in order.

JUNK_WARNING = "dropped OCR junk: "  # how a parser's warnings name what it dropped (with "L<n>: " before)

# Two-letter words (and abbreviations) that stand alone in these documents; any other pair of
# letters in small letters ("ez", "il", "ol") or with one capital ("Mm", "Lt") is scan debris.
_TWO_LETTER_WORDS = frozenset(
    {"ah", "al", "am", "an", "as", "at", "ax", "be", "by", "do", "dr", "eh", "et", "ex", "go", "he"}
    | {"hi", "id", "if", "in", "is", "it", "jr", "lo", "ma", "me", "mr", "my", "no", "of", "oh", "ok"}
    | {"on", "oa", "or", "ox", "pa", "so", "st", "to", "up", "us", "vs", "we", "ye", "yo"}
)
_VOWELLESS_WORDS = frozenset({"nth", "hmm", "pts", "tsk"})
# Capitals that do stand in a sentence: emphasis, not a card image.
_EMPHASIS = frozenset(
    {"MUST", "ONLY", "NEVER", "EACH", "CANNOT", "NONE", "BOTH", "EVERY", "ALWAYS", "BEFORE", "AFTER", "NOTE"}
)
_JUNK_CHARS = frozenset("\\{}@_~^`ﬂﬁ»«¢§¤¬€")
_BULLET_GLYPHS = frozenset({"»", "«", "•", "*", "-", "–", "—"})
# Symbols that stand alone in print: dashes, an ellipsis, "#" (a number to fill in), "/" and "|"
# (table cells), "+", "=", "*" and "&" (between names: "Hawk & Dove").
_SYMBOL_WORDS = frozenset({"-", "–", "—", "…", "...", "#", "/", "|", "+", "=", "*", "&"})
_EDGE = ".,;:!?\"'“”‘’()[]—–"
_GARBLED = re.compile(r"\w[‘“](?=\w)|”\w|[A-Za-z][»«;()][A-Za-z]|^[,;]\w")
_BRACKETED_SUFFIX = re.compile(r"[\w'’-]+\(\w+\)\W*")  # "attack(s)"
_CARD_IMAGE_LINE = re.compile(r"^[A-Z][A-Z '’-]*[A-Z][,.:;-]+$")  # "SUPERIHERD,", "FIRST APPEARANCE-"
_TOKEN = re.compile(r"\S+")
# Three marks or more in a row inside a token, a quote among others ("n'.'-‘fg.i"): no word is spelled so.
_MARK_RUN = re.compile(r"(?<=\w)[.,;:'‘’\"“”-]{3,}(?=\w)")
_QUOTES = set("'‘’\"“”")


def _is_dots(tokens: list[str], index: int) -> bool:
    """A "." that is part of a spaced ellipsis (". . .")."""
    run = 1
    for step in (-1, 1):
        j = index + step
        while 0 <= j < len(tokens) and tokens[j] == ".":
            run += 1
            j += step
    return run >= 3


def _junk_token(tokens: list[str], index: int, before: str, after: str) -> bool:
    token = tokens[index]
    previous = tokens[index - 1] if index > 0 else before
    following = tokens[index + 1] if index + 1 < len(tokens) else after
    core = token.strip(_EDGE)
    if not any(ch.isalnum() for ch in token):
        if token == ".":
            return not _is_dots(tokens, index)
        if token == "&":
            # "Hawk & Dove" joins names; "the & Super-Villain" and "later) & S" are debris.
            joins = previous[:1].isupper() and following[:1].isalnum() and not previous.endswith(")")
            return not joins or _junk_token([previous, following], 1, "", "")
        return token not in _SYMBOL_WORDS and not set(token) <= {"★", "☆"}  # ★: the VP icon
    if any(ch in _JUNK_CHARS for ch in token):
        return True
    if _GARBLED.search(token) and not _BRACKETED_SUFFIX.fullmatch(token):
        return True
    if any(set(run) & _QUOTES and len(set(run)) > 1 for run in _MARK_RUN.findall(token)):
        return True
    if len(core) == 1 and core.isalpha():
        if not core.isascii():
            return True  # "Ī", "ſ": a table border read as a letter
        # "a", "A" and "I" are words, "X" a value; a letter with a colon or a bracket is a label.
        return core not in "aAIX" and token.rstrip(".,—–") == core
    if re.fullmatch(r"[A-Za-z]{2}", core) and not core.isupper():
        return core.lower() not in _TWO_LETTER_WORDS
    if re.fullmatch(r"[a-z]{3,}", core) and not re.search(r"[aeiouy]", core):
        return core not in _VOWELLESS_WORDS
    if re.fullmatch(r"[A-Z]{4,}[,.]?", token) and core not in _EMPHASIS:
        # Capitals between two words in small letters come from a card image, not the sentence.
        return bool(re.search(r"[a-z][,;]?$", previous)) and following[:1].islower()
    return False


def drop_ocr_junk(line: str, *, before: str = "", after: str = "") -> tuple[str, list[str]]:
    """``line`` without its OCR junk tokens, and the tokens dropped.

    ``before`` and ``after`` are the words around the line when its sentence runs on from the line
    before or into the line after. Spacing between the tokens kept is kept (tabs mark table cells);
    a bullet glyph that starts the line stays; a dash left dangling at the end by a drop goes too.
    """
    matches = list(_TOKEN.finditer(line))
    tokens = [match.group(0) for match in matches]
    if not tokens:
        return line, []
    if len(tokens) <= 3 and _CARD_IMAGE_LINE.match(line.strip()):
        return "", tokens
    junk = [
        not (index == 0 and token in _BULLET_GLYPHS) and _junk_token(tokens, index, before, after)
        for index, token in enumerate(tokens)
    ]
    if not any(junk):
        return line, []
    # A dash left at the end of the line by the drop ("Cards - !") goes with it.
    kept = [index for index, is_junk in enumerate(junk) if not is_junk]
    if kept and kept[-1] > 0 and tokens[kept[-1]] in {"-", "–", "—"} and kept[-1] < len(tokens) - 1:
        junk[kept[-1]] = True
    pieces: list[str] = []
    dropped: list[str] = []
    end = 0
    for match, is_junk in zip(matches, junk, strict=True):
        separator, end = line[end : match.start()], match.end()
        if is_junk:
            dropped.append(match.group(0))
        else:
            # The first token kept keeps the line's indent; each later one the space before it.
            pieces.append((line[: matches[0].start()] if not pieces else separator) + match.group(0))
    return "".join(pieces), dropped


def has_words(text: str) -> bool:
    """Whether ``text`` holds any word at all (two letters or more), not only gaps and marks."""
    return re.search(r"[^\W\d_]{2,}", text) is not None


# --- TeX markup -------------------------------------------------------------------------------

_TEX_LINE = re.compile(r"^\s*\$(?P<body>.*)\$\s*$")
_TEX_COMMAND = re.compile(r"\\label\{[^}]*\}|\\(?:hbox|mbox|text|it|rm|bf|em)\b\s*")


def strip_tex(line: str) -> str:
    """A line a converter wrapped in TeX (``$Shattered\\ Image\\ -\\ …$``) as the words it holds."""
    match = _TEX_LINE.match(line)
    if not match or "\\" not in match.group("body"):
        return line
    body = _TEX_COMMAND.sub("", match.group("body"))
    body = body.replace("\\ ", " ").replace("{", "").replace("}", "")
    return re.sub(r" {2,}", " ", body).strip()
