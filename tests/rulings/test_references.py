"""Finding cross-references in text (pure, no database)."""

from __future__ import annotations

from rulings.parsers.base import MAIN_CHARACTER, MAIN_DECK
from rulings.references import (
    PHRASE,
    RULE,
    TAG,
    dcdb_number,
    find_card_names,
    find_references,
    label_card_names,
    rule_numbers,
)


def refs(text: str, game: str = "dcdb"):
    return find_references(text, game=game)


def test_it_finds_a_dcdb_rule_number():
    assert [r.number for r in refs("As 9.020 says, finish the turn.")] == ["9.020"]


def test_it_reads_a_short_dcdb_number_as_three_decimals():
    assert dcdb_number("12.05") == "12.050"


def test_it_finds_both_ends_of_a_vs_range():
    found = refs("See rules 400.5–400.8.", "vs")
    assert [(r.kind, r.number) for r in found] == [(RULE, "400.5"), (RULE, "400.8")]


def test_it_expands_a_letter_range_end_to_the_same_rule():
    assert [r.number for r in refs("as in 505.1a–f", "vs")] == ["505.1a", "505.1f"]


def test_it_does_not_read_vs_numbers_in_dcdb_text():
    assert refs("rule 513.3c applies", "dcdb") == []


def test_it_finds_a_bracket_tag_with_its_set():
    (found,) = refs("then plays Gizmoid [Villain, Rivals 9].")
    assert (found.kind, found.names[-1], found.set_name) == (TAG, "Gizmoid", "Rivals 9")


def test_it_drops_the_possessive_from_a_tagged_name():
    (found,) = refs("uses Frosty Killer's [MC] ability")
    assert "Frosty Killer" in found.names


def test_it_reads_im_as_impossible_mode():
    (found,) = refs("Sprocket [Super Villain - IM]")
    assert found.set_name == "Impossible Mode"


def test_an_sv_faa_bracket_is_not_a_card_tag():
    assert [r for r in refs("the Attack [SV FAA], there is none") if r.kind == TAG] == []


def test_an_insert_name_bracket_is_not_a_card_tag():
    assert refs("if [Insert Main Character Name] is on your team") == []


def test_step_one_of_the_end_of_turn_procedures_points_at_8_010():
    (found,) = refs("before step one of the end of turn procedures.")
    assert (found.kind, found.number) == (PHRASE, "8.010")


def test_step_2_of_the_end_of_game_procedures_points_at_12_020():
    (found,) = refs("before step 2 of the End of Game procedures")
    assert found.number == "12.020"


def test_time_is_called_points_at_9_020():
    assert [r.number for r in refs("When time is called, finish the turn.")] == ["9.020"]


def test_see_also_names_an_entry_by_its_title():
    found = refs("A player Defends from an Attack. See also: Attack.")
    assert [(r.kind, r.label, r.title) for r in found] == [(PHRASE, "Attack", "Attack")]


def test_see_also_before_a_bracket_tag_is_the_card():
    found = refs("It does not return to the SV stack. See also Insanity [SP].")
    assert [(r.kind, r.title) for r in found] == [("tag", "")]


def test_see_also_followed_by_small_words_is_no_reference():
    assert refs("see also the rules for the end of turn") == []


def test_phrases_and_tags_are_dcdb_only():
    assert refs("When time is called, Widget [Hero] acts.", "overpower") == []


def test_rule_numbers_lists_each_number_once():
    assert rule_numbers("10.040, then 10.080 and 10.040 again") == ["10.040", "10.080"]


# --- cards named by a rulebook's card notes ---------------------------------------------------


def test_a_label_naming_several_cards_names_each():
    assert label_card_names("Red Widget, Gizmo Girl") == [("Red Widget", ""), ("Gizmo Girl", "")]
    assert label_card_names("Gadgetman and Sprocket") == [("Gadgetman", ""), ("Sprocket", "")]


def test_a_label_keeps_a_card_whose_name_has_an_and_in_it():
    assert label_card_names("Hawk & Dove, Gizmo", known={"hawk dove"}) == [("Hawk & Dove", ""), ("Gizmo", "")]


def test_a_qualifier_in_a_label_gives_the_category():
    assert label_card_names("Shazam! (Super Power)") == [("Shazam!", MAIN_DECK)]
    assert label_card_names("Shazam! (Superhero)") == [("Shazam!", MAIN_CHARACTER)]


def test_et_al_in_a_label_names_no_card():
    assert [name for name, _ in label_card_names("Blue Ring, et al, White Ring")] == [
        "Blue Ring",
        "White Ring",
    ]


def test_it_finds_the_cards_a_note_names_once_each():
    text = "Note that Catwoman can take what Dark Knight gained. Play Catwoman before or after Dark Knight."
    found = find_card_names(text, {"catwoman", "dark knight"})
    assert [(text[r.start : r.end], r.kind) for r in found] == [("Catwoman", TAG), ("Dark Knight", TAG)]


def test_a_named_card_loses_its_possessive_and_keeps_its_article():
    text = "If a player avoids The Joker’s First Appearance, nothing happens."
    assert [r.label for r in find_card_names(text, {"the joker"})] == ["The Joker"]


def test_a_name_in_small_letters_or_across_a_sentence_is_no_card():
    assert find_card_names("you may kick the gizmo.", {"kick"}) == []
    assert find_card_names("Play Robin. Since then, nothing.", {"robin since"}) == []
