"""OCR junk, kind by kind (``rulings.parsers.text``): what goes, and the words that stay as printed."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulings.parsers.text import drop_ocr_junk, has_words, strip_tex


def cleaned(line: str, **context: str) -> str:
    return drop_ocr_junk(line, **context)[0]


# --- runs of stray symbols ---------------------------------------------------------------------


def test_stray_symbols_go():
    assert drop_ocr_junk("remaining eleven widget cards ez @") == (
        "remaining eleven widget cards",
        ["ez", "@"],
    )


def test_a_word_broken_by_a_run_of_quotes_and_marks_goes():
    assert drop_ocr_junk("n'.'-‘fg.i") == ("", ["n'.'-‘fg.i"])


@pytest.mark.parametrize(
    "line", ["K.O.'s—A Character", "rock'n'roll", "his K.O.'d Character's record", "wait...what"]
)
def test_abbreviations_apostrophes_and_dots_inside_words_stay(line):
    assert cleaned(line) == line


def test_a_run_of_symbols_goes():
    assert cleaned("Wik & _*_-_'-;;'_: \\") == "Wik"


def test_a_lone_mark_after_a_list_line_goes_with_its_dash():
    assert cleaned("» 12 Widget Cards - !") == "» 12 Widget Cards"
    assert cleaned("- 20 Gizmo Cards .") == "- 20 Gizmo Cards"


def test_an_ampersand_between_names_stays_and_a_stray_one_goes():
    assert cleaned("Matt Hyra & Ben Stoll") == "Matt Hyra & Ben Stoll"
    assert cleaned("on top of the & widget stack") == "on top of the widget stack"
    assert cleaned("(more on that later) & S") == "(more on that later)"


def test_printed_symbols_stay():
    line = "at once . . . as if - level # + 2 = 4 | Set 2 — done … Victory Points ★★"
    assert cleaned(line) == line


# --- tokens garbled with symbols ----------------------------------------------------------------


def test_a_token_garbled_with_symbols_goes():
    assert cleaned("Each foe reveals a random ,ardi h h dP\\ay h \\,a\\Ad n-Location.") == (
        "Each foe reveals a random n-Location."
    )
    assert (
        cleaned("the Location Arkham Asylum {i’:f,{;”'“nl“ﬂi ' in play")
        == "the Location Arkham Asylum in play"
    )


def test_words_with_quotes_brackets_and_slashes_stay():
    line = (
        "“First Appearance—Attack” and/or attack(s), K.O.'d, Ra’s al Ghul, [FL+R], <power type>, (s20) down‘"
    )
    assert cleaned(line) == line


# --- lone letters --------------------------------------------------------------------------------


def test_lone_letters_go():
    assert (
        cleaned("If the Wonder Widget defeats v Captain Cold") == "If the Wonder Widget defeats Captain Cold"
    )
    assert cleaned("- 16 Kick Cards y L g") == "- 16 Kick Cards"


def test_a_and_i_are_words_and_a_lettered_label_stays():
    line = "Q: I play a card with both a) a widget and b) a gizmo, then X"
    assert cleaned(line) == line


def test_a_letter_glued_to_a_dash_at_the_end_of_a_line_goes():
    assert cleaned("keeps working for you turn e r—") == "keeps working for you turn"


# --- letter pairs and runs that are no word ------------------------------------------------------


def test_letter_pairs_that_are_no_word_go():
    assert cleaned("If you use eight Mm widgets and il") == "If you use eight widgets and"


def test_two_letter_words_and_capitals_stay():
    line = "Go to it: if he is on DC, et al, Mr. Oa or VP so we do"
    assert cleaned(line) == line


def test_runs_without_a_vowel_go():
    assert cleaned("lthd card of the player sst") == "card of the player"


# --- card-image capitals read into a sentence ----------------------------------------------------


def test_capitals_between_small_words_go():
    assert cleaned("you will use seven VILLAIN selected at random") == "you will use seven selected at random"


def test_capitals_at_the_start_of_a_line_look_at_the_line_before():
    assert cleaned("VILLAIN must choose", before="player") == "must choose"
    assert cleaned("VILLAIN must choose", before="player.") == "VILLAIN must choose"


def test_emphasis_and_names_in_capitals_stay():
    line = "you MUST choose the WIDGET Hero and the DC Comics card"
    assert cleaned(line) == line


def test_a_line_of_card_image_capitals_goes():
    assert drop_ocr_junk("FIRST APPEARANCE-") == ("", ["FIRST", "APPEARANCE-"])
    assert cleaned("TURN SEQUENCE") == "TURN SEQUENCE"  # a heading, not junk


# --- what stays ----------------------------------------------------------------------------------


def test_a_clean_line_is_returned_as_it_is():
    line = "\tSet 1\tSet 2  "
    assert drop_ocr_junk(line) == (line, [])


def test_table_cells_keep_their_tabs():
    assert cleaned("Equipment\t@\tHeroes") == "Equipment\tHeroes"


def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def is_subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(any(token == other for other in it) for token in short)


PIECES = [*"aeiouxyzLMVI \t.,;:'@\\{}&-—…|#»«ﬂ", "the ", "ez ", "Mm ", "WIDGET ", "Hawk "]


@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_only_whole_tokens_are_dropped(line):
    """Never a changed word: what is left is the line's own tokens, in their order."""
    kept, dropped = drop_ocr_junk(line)
    assert is_subsequence(words(kept), words(line))
    assert len(words(kept)) + len(dropped) == len(words(line))


def test_has_words_tells_text_from_marks():
    assert has_words("… widget …") and not has_words("… - ! 12 …")


# --- TeX markup ----------------------------------------------------------------------------------


def test_tex_markup_around_a_line_goes_and_its_words_stay():
    assert strip_tex(r"$Shattered\ Image\ -\ Gen\ 13\ Vs.\ The\ Regulators...$") == (
        "Shattered Image - Gen 13 Vs. The Regulators..."
    )
    assert strip_tex(r"${\it Gamma\ Base\ Team\ -2\ to\ Venture.}$") == "Gamma Base Team -2 to Venture."
    assert strip_tex(r"$\label{thm:coming:conditional} The \ Coming \ Of \ Galactus.$") == (
        "The Coming Of Galactus."
    )


def test_a_dollar_amount_is_not_tex():
    assert strip_tex("It costs $5 or $6.") == "It costs $5 or $6."
