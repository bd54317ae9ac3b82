"""Spelling: names heard rather than read ("john jones" for J'onn J'onzz), and what stays as typed."""

from __future__ import annotations

from collections import Counter

from rulings import query as q
from rulings.search import correction

NAMES = {
    q.normalised(name): name for name in ("J'onn J'onzz", "Ra's al Ghul", "Game Cards", "Doctor Sprocket")
}
DOCUMENT_WORDS = Counter(
    {"the": 9, "is": 9, "when": 5, "beaten": 2, "order": 3, "kept": 1, "cards": 7, "game": 4, "can": 3}
)


def test_it_codes_a_name_by_how_it_sounds():
    assert correction.sound("john jones") == correction.sound("jonn jonzz")
    assert correction.sound("ross al gool") != correction.sound("ras al ghul")  # close, not the same


def test_a_query_that_sounds_like_a_name_is_read_as_it():
    sounds = correction.sounds_of(NAMES)
    assert correction.close_name("john jones", NAMES, correction.NAME_SCORE_KNOWN, sounds) == "J'onn J'onzz"


def test_without_the_sounds_only_the_spelling_counts():
    assert correction.close_name("john jones", NAMES, correction.NAME_SCORE_KNOWN) == ""


def test_a_name_typed_as_it_is_is_no_correction():
    sounds = correction.sounds_of(NAMES)
    assert correction.close_name("doctor sprocket", NAMES, correction.NAME_SCORE, sounds) == ""


def test_a_name_heard_inside_a_question_is_found():
    words = q.words("is the order kept when ross al gool is beaten")
    found = correction.name_in(words, DOCUMENT_WORDS, NAMES, correction.sounds_of(NAMES))
    assert found == (5, 3, "Ra's al Ghul")


def test_real_words_that_sound_a_little_like_a_name_stay_as_typed():
    """'my cards' is near 'Game Cards' by sound, but every word of it is English: nothing was misheard."""
    words = q.words("can i show my partner my cards")
    assert correction.name_in(words, DOCUMENT_WORDS, NAMES, correction.sounds_of(NAMES)) is None


def test_short_sound_codes_are_left_out():
    assert correction.sounds_of({"jo": "Jo"}) == {}
