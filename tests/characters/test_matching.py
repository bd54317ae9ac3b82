"""tournaments.characters.match: what a slip's text names, and when that is certain."""

from __future__ import annotations

from tournaments import characters
from tournaments.characters import CERTAIN, NO_MATCH, UNCERTAIN, match

from .helpers import catalogue

CATALOGUE = catalogue()


def test_it_takes_name_and_set_as_certain():
    found = match("Starfire (Teen Titans Go)", CATALOGUE)
    assert found.status == CERTAIN and found.character.key == "main_character/starfire/teen-titans-go"


def test_case_accents_and_punctuation_do_not_matter():
    assert match("  shazam  ", CATALOGUE).character.label == "Shazam! (Heroes Unite)"
    assert match("BATMAN base set", CATALOGUE).character.label == "Batman (Base Set)"


def test_a_name_only_one_set_has_is_certain():
    assert match("Wonder Woman", CATALOGUE).character.key == "main_character/wonder-woman/base-set"


def test_an_alias_is_certain():
    assert match("Captain Marvel", CATALOGUE).character.name == "Shazam!"


def test_a_name_several_sets_have_is_uncertain_with_each_set():
    found = match("Starfire", CATALOGUE)
    assert found.status == UNCERTAIN and found.character is None
    assert [c.label for c in found.candidates] == ["Starfire (Teen Titans)", "Starfire (Teen Titans Go)"]


def test_a_small_typo_with_a_clear_lead_is_certain():
    assert match("Batmn", CATALOGUE).character.label == "Batman (Base Set)"
    assert match("Wonder Women", CATALOGUE).character.label == "Wonder Woman (Base Set)"


def test_a_typo_close_to_two_characters_is_uncertain():
    found = match("Starfir", CATALOGUE)
    assert found.status == UNCERTAIN
    assert {c.set_name for c in found.candidates[:2]} == {"Teen Titans", "Teen Titans Go"}


def test_a_far_guess_is_not_certain_even_when_one_name_is_nearest():
    found = match("Bat", CATALOGUE)
    assert not found.certain


def test_nothing_close_is_no_match():
    found = match("Zzyzx Qwerty", CATALOGUE)
    assert found.status == NO_MATCH and found.candidates == ()


def test_blank_is_blank():
    assert match("   ", CATALOGUE).status == characters.BLANK


def test_an_empty_catalogue_matches_nothing():
    assert match("Batman", []).status == NO_MATCH


def test_the_closest_names_come_best_first_however_far():
    assert characters.closest("Batman, Superman", CATALOGUE)[0].name == "Batman"
    assert len(characters.closest("Zzyzx", CATALOGUE)) == 3


def test_one_slip_of_the_finger_in_a_longer_name_is_certain():
    assert match("Batmam", CATALOGUE).character.label == "Batman (Base Set)"
    assert match("Wonedr Woman", CATALOGUE).character.label == "Wonder Woman (Base Set)"


def test_the_start_of_a_name_is_offered_first_but_never_taken_alone():
    found = match("Wond", CATALOGUE)
    assert found.status == UNCERTAIN
    assert found.candidates[0].name == "Wonder Woman"


def test_the_start_of_a_word_of_the_name_is_offered_too():
    found = match("Marv", CATALOGUE)  # Captain Marvel, Shazam's alias
    assert found.candidates and found.candidates[0].name == "Shazam!"
