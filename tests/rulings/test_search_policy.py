"""One scope policy, numbers in every game, corrections of non-words only, and "nothing found"."""

from __future__ import annotations

import json

from django.core.management import call_command
from django.utils.html import escape

from rulings.search import search

from .conftest import import_parsed, rule, set_aside_other_documents, vs_document


def urls(results) -> list[str]:
    return [hit.url for hit in results.hits]


def test_every_game_is_searched_with_dcdb_first(invented):
    results = search(query="Gadgetman")
    assert [hit.game for hit in results.hits][:1] == ["dcdb"]
    assert "vs" in {hit.game for hit in results.hits}


def test_a_strong_match_in_another_game_is_not_hidden_behind_dcdb(invented):
    results = search(query="boosting a widget")
    assert (results.hits[0].game, results.hits[0].entry.number[:5]) == ("vs", "702.6")


def test_a_game_named_in_the_query_narrows_the_search(invented):
    results = search(query="gadgetman vs system")
    assert {hit.game for hit in results.hits} == {"vs"}
    assert (results.game, results.game_named) == ("vs", True)


def test_a_short_dcdb_number_finds_the_rule_with_leading_zeros_left_out(db):
    set_aside_other_documents()
    from .conftest import dcdb_document

    import_parsed(dcdb_document(extra=(rule("9.022", "Ex.2: four players.", section="9"),)), vs_document())
    assert search(query="9.22").hits[0].entry.number == "9.022"


def test_a_vs_number_is_found_without_choosing_the_game(invented):
    assert search(query="702.6a").hits[0].entry.number == "702.6a"


def test_a_number_that_exists_nowhere_says_so_and_offers_the_nearest(invented):
    results = search(query="9.025")
    assert (results.hits, results.not_found) == ([], True)
    assert results.nearest_numbers[0].number in {"9.020", "9.030", "9.021"}


def test_a_real_word_is_never_rewritten(invented):
    results = search(query="gadget")
    assert results.corrected == []


def test_a_word_neither_english_nor_in_the_documents_is_corrected(invented):
    results = search(query="sprokcet")
    assert results.corrected == [("sprokcet", "sprocket")]
    assert results.hits[0].entry.title == "Doctor Sprocket"


def test_words_that_answer_nothing_say_nothing_found_and_offer_the_closest(invented):
    results = search(query="how many sideboard cards may a widget player register")
    assert (results.hits, results.not_found) == ([], True)
    assert results.closest


def test_the_page_says_nothing_found_and_lists_the_closest(client, invented):
    response = client.get("/rulings/", {"q": "how many sideboard cards may a widget player register"})
    page = response.content.decode()
    assert "<strong>Nothing found</strong>" in page and "The closest entries" in page
    # A closest rule with no title of its own shows the start of its text, not only its number.
    closest = search(query="how many sideboard cards may a widget player register").closest
    untitled = [entry for entry in closest if not entry.title and not entry.card_id]
    assert untitled, "the invented documents should offer an untitled rule here"
    assert untitled[0].text[:40] in page


def test_the_page_offers_the_nearest_numbers(client, invented):
    page = client.get("/rulings/", {"q": "9.025"}).content.decode()
    assert "No rule is numbered “9.025”" in page and "9.020" in page


def test_a_card_ruling_is_titled_by_its_card_in_the_json(invented, capsys):
    call_command("search_rulings", "counts as a hero while in the line-up", "--json")
    answer = json.loads(capsys.readouterr().out)
    first = answer["results"][0]
    assert (first["kind"], first["title"], first["card"]) == ("card_ruling", "Gadgetman", "Gadgetman")


def test_the_json_says_what_was_corrected_narrowed_and_not_found(invented, capsys):
    call_command("search_rulings", "sprokcet vs system", "--json")
    answer = json.loads(capsys.readouterr().out)
    assert answer["corrected"] == [{"typed": "sprokcet", "searched": "sprocket"}]
    # Sprocket is a DCDB card: nothing in Vs. System, so every game is searched, and the answer says so.
    assert (answer["game_named"], answer["widened"], answer["widened_from"]) == (True, True, "Vs. System")
    assert answer["not_found"] is False and answer["results"][0]["game"] == "dcdb"


def test_a_named_game_with_only_close_entries_says_nothing_found_there_instead_of_widening(invented):
    # The Vs. System document has a widget rule close to this, which does not answer it: the judge named
    # the game, so its closest entries are offered rather than another game's rules.
    results = search(query="how many sideboard widgets may a player register vs system")
    assert results.not_found and results.closest and not results.widened
    assert {entry.document.game.code for entry in results.closest} == {"vs"}


def test_a_closest_rule_with_a_title_shows_the_start_of_its_text_too(client, invented):
    query = "how many sideboard cards may a widget player register"
    page = client.get("/rulings/", {"q": query}).content.decode()
    closest = search(query=query).closest
    assert all(escape(entry.text[:30]) in page for entry in closest if entry.kind != "card")


def test_a_question_about_another_card_game_says_nothing_found_and_names_that_game(invented):
    # "burn" and "gadget" are in the documents; "mana" is in none: the question is about Magic.
    results = search(query="mana burn gadget")
    assert (results.hits, results.not_found, results.other_game) == ([], True, "Magic: The Gathering")
    assert results.closest  # the closest entries are still offered


def test_another_game_named_only_in_a_comparison_is_not_what_the_query_asks_about(invented):
    results = search(query="does a gadget burn like in magic the gathering")
    assert results.other_game == ""
    assert search(query="does a gadget burn, is it mana burn").other_game == "Magic: The Gathering"


def test_the_page_and_the_json_say_which_other_game_a_query_asks_about(client, invented, capsys):
    page = client.get("/rulings/", {"q": "pokemon gadget rules"}).content.decode()
    assert "<strong>Nothing found</strong>" in page and "It asks about Pokémon" in page
    call_command("search_rulings", "pokemon gadget rules", "--json")
    answer = json.loads(capsys.readouterr().out)
    assert (answer["not_found"], answer["other_game"]) == (True, "Pokémon")
    assert "about Pokémon, which no document covers" in answer["notes"]


def test_another_game_a_document_covers_is_searched_as_usual(db):
    # Once a document prints the game's name, a question about it may have an answer there.
    set_aside_other_documents()
    from .conftest import dcdb_document

    lorcana = rule("9.055", "Lorcana decks may not be used at a DCDB event.", section="9")
    import_parsed(dcdb_document(extra=(lorcana,)), vs_document())
    results = search(query="lorcana decks at the event")
    assert results.other_game == "" and results.hits[0].entry.number == "9.055"
    assert search(query="pokemon decks at the event").other_game == "Pokémon"
