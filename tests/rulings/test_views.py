"""The rulings pages and the link_rules filter."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from rulings.models import Document, Entry
from rulings.selectors import rule_urls

pytestmark = pytest.mark.django_db


def permalink(key: str) -> str:
    return (
        Entry.objects.select_related("document")
        .get(key=key, document__is_current=True, document__game__code="dcdb")
        .get_absolute_url()
    )


def test_the_index_answers_the_topbar_search(client, invented):
    response = client.get("/rulings/", {"q": "9.020"})
    assert b"Each round lasts 50 minutes" in response.content


def test_an_htmx_request_gets_only_the_results(client, invented):
    response = client.get("/rulings/", {"q": "9.020"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
    assert b"Each round lasts" in response.content and b"<html" not in response.content


def test_the_page_says_when_it_rewrote_the_query(client, invented):
    response = client.get("/rulings/", {"q": "Gadgetmn"})
    assert "Searched for <strong>gadgetman</strong>" in response.content.decode()


def hit_sources(response) -> set[str]:
    import re

    sources = re.findall(r'class="hit-source muted small">(.*?) ·', response.content.decode())
    return set(sources)


def test_a_search_looks_in_every_game_dcdb_first(client, invented):
    response = client.get("/rulings/", {"q": "Gadgetman"})
    sources = re.findall(r'class="hit-source muted small">(.*?) ·', response.content.decode())
    assert sources[0] == "Invented Advanced Rule Book"
    assert set(sources) == {"Invented Advanced Rule Book", "Invented Comprehensive Rules"}
    assert b'<option value="" selected>All games</option>' in response.content


def test_all_games_is_one_choice_away(client, invented):
    response = client.get("/rulings/", {"q": "Gadgetman", "game": "all"})
    assert hit_sources(response) == {"Invented Advanced Rule Book", "Invented Comprehensive Rules"}


def test_a_link_from_before_the_game_choice_searches_all_games(client, invented):
    response = client.get("/rulings/", {"q": "Gadgetman", "game": ""})
    assert "Invented Comprehensive Rules" in hit_sources(response)


def test_nothing_in_the_chosen_game_widens_to_every_game_and_says_so(client, invented):
    response = client.get("/rulings/", {"q": "gizmo", "game": "dcdb"})
    assert hit_sources(response) == {"Invented Comprehensive Rules"}
    assert "Nothing in the DC Comics Deck-Building Game documents: showing <strong>every game</strong>" in (
        response.content.decode()
    )


def test_a_search_that_is_too_long_says_so(client, invented):
    response = client.get("/rulings/", {"q": "x" * 550})
    assert response.status_code == 200
    assert (
        "A search is at most 500 characters (this one has 550): try fewer words." in response.content.decode()
    )


def test_the_search_page_runs_a_fixed_number_of_queries(client, invented, django_assert_max_num_queries):
    client.get("/rulings/", {"q": "time is called"})
    with django_assert_max_num_queries(14):
        client.get("/rulings/", {"q": "time is called"})


def test_a_permalink_shows_the_cross_reference_as_a_link(client, invented):
    response = client.get(permalink("6.050"))
    assert f'href="{permalink("9.020")}"'.encode() in response.content


def test_a_permalink_says_community_rulings_are_community_rulings(client, invented):
    assert b"Community rulings" in client.get(permalink("9.020")).content


def test_a_permalink_shows_the_rules_examples(client, invented):
    assert b"Ex.1: Three players" in client.get(permalink("9.020")).content


def test_an_ambiguous_reference_links_every_candidate(client, invented):
    content = client.get(permalink("6.060")).content.decode()
    assert "Gadgetman (Base Set)" in content and "Gadgetman (Rivals 9)" in content


def test_an_unknown_entry_is_404(client, invented):
    document = Document.objects.get(title="Invented Advanced Rule Book")
    assert client.get(reverse("rulings:entry", args=[document.slug, "99.999"])).status_code == 404


def test_a_section_page_lists_its_rules(client, invented):
    document = Document.objects.get(title="Invented Advanced Rule Book")
    response = client.get(reverse("rulings:section", args=[document.slug, "9"]))
    assert b"9.020" in response.content and b"9.030" in response.content


def test_the_card_index_groups_by_category(client, invented):
    response = client.get(reverse("rulings:cards", args=["dcdb"]), {"category": "super_villain"})
    assert b"Doctor Sprocket" in response.content and b"Gadgetman" not in response.content


def test_a_rule_address_redirects_to_the_rule(client, invented):
    response = client.get(reverse("rulings:rule", args=["dcdb", "9.02"]))
    assert response.url == permalink("9.020")


def test_rule_urls_maps_numbers_to_permalinks(invented, django_assert_num_queries):
    with django_assert_num_queries(1):
        urls = rule_urls(["9.020", "12.999"])
    assert urls == {"9.020": permalink("9.020")}


def test_link_rules_turns_rule_numbers_into_links(invented):
    html = Template("{% load rulings %}{{ text|link_rules }}").render(
        Context({"text": "Warning under 9.020 <b>"})
    )
    peek = reverse(
        "rulings:peek", args=[Document.objects.get(title="Invented Advanced Rule Book").slug, "9.020"]
    )
    assert html == (
        f'Warning under <a class="rule-link" href="{permalink("9.020")}" data-peek="{peek}">9.020</a> &lt;b&gt;'
    )


def test_the_changes_page_names_the_previous_edition(client, invented):
    from .conftest import dcdb_document, import_parsed

    (new,) = import_parsed(dcdb_document(checksum="dcdb-2", edition="Season 31"))
    response = client.get(reverse("rulings:changes", args=[new.document.slug]))
    assert b"Season 30" in response.content


def test_a_section_page_shows_the_examples_of_a_sub_rule(client, db):
    """Vs. System prints examples under lettered sub-rules (104.1b): the section page shows them under it."""
    from dataclasses import replace

    from tests.rulings.conftest import example, import_parsed, set_aside_other_documents, vs_document

    document = vs_document()
    entries = [replace(e, parent="702.6") if e.key == "702.6a" else e for e in document.entries]
    entries.append(
        replace(
            example(
                "702.6a/ex1", "Example: Gadgetman stays boosted all turn.", parent="702.6a", section="702"
            ),
            order=len(entries),
        )
    )
    set_aside_other_documents()
    import_parsed(replace(document, entries=entries))
    slug = Document.objects.get(title="Invented Comprehensive Rules").slug
    body = client.get(reverse("rulings:section", args=[slug, "702"])).content.decode()
    assert "Gadgetman stays boosted all turn" in body
    assert reverse("rulings:entry", args=[slug, "702.6a/ex1"]) in body


def test_a_rule_cited_in_a_result_snippet_is_a_link_that_opens_in_place(client, invented):
    body = client.get(reverse("rulings:index"), {"q": "sixty widgets stack"}).content.decode()
    snippet = body.split('class="snippet"')[1].split("</p>")[0]
    slug = Document.objects.get(title="Invented Comprehensive Rules").slug
    assert reverse("rulings:entry", args=[slug, "702.6"]) in snippet
    assert "/peek/" in snippet  # the rule shown in place on a tap (xref-peek.js)


def test_a_snippet_keeps_its_marks_and_escapes_what_it_links_around(client, invented):
    from types import SimpleNamespace

    from rulings.templatetags.rulings import link_snippets

    hit = SimpleNamespace(game="vs", snippet="&lt;b&gt; a <mark>stack</mark> (see 702.6) &amp; more")
    link_snippets([hit])
    assert hit.snippet.startswith("&lt;b&gt; a <mark>stack</mark> (see <a ")
    assert hit.snippet.endswith("</a>) &amp; more")


def test_a_short_rule_number_says_how_it_was_read(client, invented):
    body = client.get(reverse("rulings:index"), {"q": "9.2"}).content.decode()
    assert "Read as rule <strong>9.020</strong>" in body
    for as_printed in ("9.020", "9.000"):  # a rule as printed; a section, which lists its rules
        assert "Read as rule" not in client.get(reverse("rulings:index"), {"q": as_printed}).content.decode()


def test_the_page_and_its_results_alone_vary_by_the_htmx_headers(client, invented):
    for headers in ({}, {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "results"}):
        response = client.get("/rulings/", {"q": "9.020"}, **headers)
        assert {"HX-Request", "HX-Target"} <= {v.strip() for v in response["Vary"].split(",")}


def test_the_page_says_in_plain_words_how_it_matched(client, invented):
    response = client.get(
        "/rulings/", {"q": "gadgetman"}
    )  # the tests search by words (RULINGS_EMBEDDINGS=off)
    assert '<p class="muted small rulings-mode" title="words only">Matched by words only.</p>' in (
        response.content.decode()
    )


def test_a_rule_number_says_it_was_found_by_its_number(client, invented):
    page = client.get("/rulings/", {"q": "9.02"}).content.decode()
    assert "Found by rule number." in page and "Matched by words" not in page


def test_a_card_rulings_heading_names_its_card(client, invented):
    response = client.get(permalink("card/main_deck/gadgetman/base/1"))
    head = re.search(r'<h1 class="entry-head">(.*?)</h1>', response.content.decode(), re.S).group(1)
    assert "Gadgetman" in head and "Base Set" in head


def test_a_card_ruling_in_the_results_is_named_once_by_its_card(client, invented):
    page = client.get("/rulings/", {"q": "gadgetman line-up hero"}).content.decode()
    assert re.search(r'class="entry-label">Gadgetman <span class="muted">\(Base Set\)', page)
    assert "ruling on" not in page


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"game": "abc"}, "“abc” is not a game here"),
        ({"game": "²"}, "“²” is not a game here"),
        ({"document": "an-old-edition"}, "“an-old-edition” is not a document here"),
    ],
)
def test_an_unknown_filter_is_dropped_with_a_word_and_the_search_still_runs(client, invented, params, said):
    page = client.get("/rulings/", {"q": "9.020", **params}).content.decode()
    assert said in page and "Each round lasts 50 minutes" in page and 'value="9.020"' in page


def test_the_filters_summary_names_what_was_searched_when_a_filter_was_unknown(client, invented):
    page = client.get("/rulings/", {"q": "9.020", "document": "an-old-edition"}).content.decode()
    assert 'class="rulings-scope">All games · All current documents</span>' in page
