"""Reading a query once (pure): the game it names, rule numbers in short forms, what is left to search."""

from __future__ import annotations

import pytest

from rulings.query import also_searched, model_text, parse


@pytest.mark.parametrize(
    ("typed", "numbers"),
    [
        ("9.22", ("9.22", "9.220", "9.022")),
        ("rule 10.51", ("10.51", "10.510", "10.051")),
        ("1.2", ("1.2", "1.200", "1.020", "1.002")),
        ("#9.04?", ("9.04", "9.040", "9.004")),
        ("702.6A", ("702.6a",)),
        ("12.050", ("12.050",)),
    ],
)
def test_a_short_rule_number_means_every_printed_form(typed, numbers):
    query = parse(typed)
    assert (query.numbers, query.only_number) == (numbers, True)


def test_words_around_a_number_that_ask_nothing_else_leave_it_a_number():
    assert parse("what does 10.51 say").only_number


def test_a_number_with_other_words_searches_both():
    query = parse("9.022 extra turns")
    assert (query.numbers[0], query.only_number, query.searched) == ("9.022", False, "extra turns")


@pytest.mark.parametrize(
    ("typed", "game", "searched"),
    [
        ("time called vs system", "vs", "time called"),
        ("Vs. System: boosting", "vs", "boosting"),
        ("how many cards overpower", "overpower", "how many cards"),
        ("over power venture", "overpower", "venture"),
        ("extra turns in dcdb", "dcdb", "extra turns"),
        ("team attack shared affiliation vs", "vs", "team attack shared affiliation"),
        ("vs: can a stunned character attack", "vs", "can a stunned character attack"),
        ("can i attack a stunned character in vs?", "vs", "can i attack a stunned character"),
        ("op min deck size", "overpower", "min deck size"),
        ("OP: who wins a tie", "overpower", "who wins a tie"),
        ("1.3 hand management op", "overpower", "hand management"),
        ("in op can teammates both follow up", "overpower", "can teammates both follow up"),
        ("during the vs game he looked through his deck", "vs", "during the game he looked through his deck"),
        ("how many army characters in a vs deck", "vs", "how many army characters in a deck"),
        ("can two vs players agree to a draw", "vs", "can two players agree to a draw"),
    ],
)
def test_a_game_named_in_the_query_narrows_it_and_leaves_the_words(typed, game, searched):
    query = parse(typed)
    assert (query.game, query.searched) == (game, searched)


def test_the_game_name_alone_is_searched_as_words():
    assert (parse("overpower").game, parse("overpower").searched) == (None, "overpower")


@pytest.mark.parametrize("typed", ["batman vs superman ruling", "my deck vs his in game 2"])
def test_vs_between_two_words_is_versus_not_the_game(typed):
    assert parse(typed).game is None


def test_a_rule_number_after_a_bare_vs_is_looked_up_in_vs_system():
    query = parse("vs rule 809.3")
    assert (query.game, query.numbers, query.only_number) == ("vs", ("809.3",), True)


@pytest.mark.parametrize("typed", ["can we all play co-op against the villains", "opp drew two extra cards"])
def test_op_inside_a_word_or_opp_is_not_overpower(typed):
    assert parse(typed).game is None


def test_two_games_named_narrow_to_neither():
    assert parse("vs system or overpower drop rules").game is None


def test_an_everyday_word_also_searches_the_documents_word():
    (term,) = parse("stalling").terms
    assert "slow play" in term.alternatives


def test_a_correction_replaces_the_word_and_says_so():
    query = parse("gadgetmn rules").with_correction({"gadgetmn": "gadgetman"})
    assert (query.searched, query.corrected) == ("gadgetman rules", (("gadgetmn", "gadgetman"),))


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("opp drew 2 extra, dq?", "opponent drew 2 extra, disqualification?"),
        ("24 ppl how many rnds", "24 people how many rounds"),
        ("SV FAA no active player", "super villain first appearance attack no active player"),
        ("the opp's card", "the opponent's card"),
        ("im playing w/two heroes", "im playing with two heroes"),
    ],
)
def test_the_model_reads_shorthand_spelled_out(typed, read):
    assert model_text(typed) == read


@pytest.mark.parametrize("typed", ["im playing two heroes", "ms marvel", "ko'd character", "co-op"])
def test_the_model_reads_words_and_names_as_typed(typed):
    assert model_text(typed) == typed


def test_a_casual_im_is_i_am_not_impossible_mode():
    assert "im" not in [term.word for term in parse("im playing with two heroes").terms]


def test_im_in_capitals_is_impossible_mode():
    (term, *_) = parse("IM villains").terms
    assert "impossible mode" in term.alternatives


def test_a_long_query_shows_only_what_the_search_added():
    long = "ok so one of them just flipped a super villain and it attacks everyone, can i defend with this"
    assert also_searched(long) == "SV"
    assert also_searched("super villain ignores") == "SV ignores"


@pytest.mark.parametrize(
    ("typed", "game", "said"),
    [
        ("mana burn", "Magic: The Gathering", "mana burn"),
        ("is there commander damage in vs", "Magic: The Gathering", "commander damage"),
        ("my card says deathtouch, does it kill", "Magic: The Gathering", "deathtouch"),
        ("how many prize cards in Pokémon", "Pokémon", "Pokémon"),
        ("yu-gi-oh tribute", "Yu-Gi-Oh!", "yu-gi-oh"),
        ("marvel legendary mastermind", "Legendary", "legendary"),
    ],
)
def test_a_query_about_another_card_game_says_which(typed, game, said):
    assert parse(typed).other_game == (game, said)


@pytest.mark.parametrize(
    "typed",
    ["a mulligan like in mtg", "is it unlike magic the gathering", "manage my hand", "batman vs superman"],
)
def test_a_comparison_or_a_word_inside_another_is_no_other_game(typed):
    assert parse(typed).other_game == ("", "")


def test_another_games_words_in_a_longer_question_ask_about_the_game_here():
    # Magic's words borrowed to ask about Vs. System: the question is about Vs. System's rules.
    typed = "is there summoning sickness in vs? can the guy i just recruited attack this turn"
    assert parse(typed).other_game == ("", "")
    # A game's name counts however long the question.
    typed = "in marvel legendary do you refill the hq right away when someone recruits a hero"
    assert parse(typed).other_game == ("Legendary", "legendary")
