"""Reading on a phone: a cross-reference opens in place, the glossary page, the compact search form."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from rulings.models import Document, Entry
from rulings.parsers.base import FAQ, GLOSSARY, PASSAGE, ParsedEntry, ParsedSection

from .conftest import dcdb_document, import_parsed, rule, set_aside_other_documents, vs_document

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def entry(key: str, game: str = "dcdb") -> Entry:
    return Entry.objects.select_related("document").get(
        key=key, document__is_current=True, document__game__code=game
    )


def peek_url(key: str, game: str = "dcdb") -> str:
    found = entry(key, game)
    return reverse("rulings:peek", args=[found.document.slug, found.key])


# --- a cross-reference opens in place --------------------------------------------------------------


def test_it_marks_a_cross_reference_with_the_address_of_its_inline_view(client, invented):
    content = client.get(entry("6.050").get_absolute_url()).content.decode()
    link = re.search(r'<a class="xref" href="([^"]+)" data-peek="([^"]+)"[^>]*>9\.020</a>', content)
    assert link and link.groups() == (entry("9.020").get_absolute_url(), peek_url("9.020"))


def test_it_gives_each_candidate_of_an_ambiguous_reference_its_inline_view(client, invented):
    content = client.get(entry("6.060").get_absolute_url()).content.decode()
    assert content.count('data-peek="/rulings/peek/') >= 4  # widget, two Gadgetmen, Doctor Sprocket


def test_it_shows_the_referenced_rule_with_its_examples_folded(client, invented):
    content = client.get(peek_url("9.020"), **HTMX).content.decode()
    assert "Each round lasts 50 minutes" in content
    assert "<details" in content and "1 example" in content and "Ex.1: Three players" in content
    assert "<html" not in content


def test_it_links_the_inline_view_to_the_entry_and_offers_to_hide_it(client, invented):
    content = client.get(peek_url("9.020"), **HTMX).content.decode()
    assert f'href="{entry("9.020").get_absolute_url()}">Open 9.020' in content
    assert "data-peek-close" in content


def test_the_inline_view_of_a_card_lists_its_rulings_unfolded(client, invented):
    content = client.get(peek_url("card/super_villain/doctor-sprocket/base"), **HTMX).content.decode()
    assert "The Super Villain stack is not shuffled" in content and "<details" not in content


def test_the_inline_view_keeps_its_own_cross_references_openable(client, invented):
    content = client.get(peek_url("6.050"), **HTMX).content.decode()
    assert f'data-peek="{peek_url("9.020")}"' in content


def test_the_inline_view_opened_as_a_page_goes_to_the_entry(client, invented):
    response = client.get(peek_url("9.020"))
    assert response.status_code == 302 and response.url == entry("9.020").get_absolute_url()


def test_the_inline_view_of_an_unknown_entry_is_404(client, invented):
    slug = entry("9.020").document.slug
    assert client.get(reverse("rulings:peek", args=[slug, "99.999"]), **HTMX).status_code == 404


def test_the_inline_view_runs_three_queries(client, invented, django_assert_num_queries):
    url = peek_url("9.020")
    with django_assert_num_queries(3):
        client.get(url, **HTMX)


def test_rule_numbers_in_judging_text_open_in_place_too(invented):
    html = Template("{% load rulings %}{{ text|link_rules }}").render(Context({"text": "See 9.020."}))
    assert f'data-peek="{peek_url("9.020")}"' in html


def test_the_include_renders_one_link_that_opens_in_place():
    html = Template('{% include "rulings/_xref.html" with url="/e/" peek="/p/" text="9.020" %}').render(
        Context()
    )
    assert html == '<a class="xref" href="/e/" data-peek="/p/">9.020</a>'


def test_the_markup_escapes_the_text():
    html = Template('{% include "rulings/_xref.html" with url="/e/" peek="" text=label %}').render(
        Context({"label": "<b>"})
    )
    assert html == '<a class="xref" href="/e/">&lt;b&gt;</a>'


def test_every_page_loads_the_script_that_opens_references_in_place(client, invented):
    assert b"js/xref-peek.js" in client.get(entry("6.050").get_absolute_url()).content


# --- the glossary ----------------------------------------------------------------------------------


def glossary_document():
    """The invented Vs. System document with two more terms, one of them cited by a rule."""
    document = vs_document()
    more = [
        ParsedEntry(
            key="glossary/boost",
            kind=GLOSSARY,
            text="To boost is to pay for a widget again (see 702.6).",
            section="glossary",
            title="Boost",
        ),
        ParsedEntry(
            key="glossary/activate",
            kind=GLOSSARY,
            text="Activate: exhaust a widget.",
            section="glossary",
            title="Activate",
        ),
    ]
    document.entries = [*document.entries, *more]
    document.entries = [
        ParsedEntry(**{**e.__dict__, "order": index}) for index, e in enumerate(document.entries)
    ]
    return document


def dcdb_with_definitions():
    """The invented DCDB book with a definitions section and a FAQ that defines a term."""
    document = dcdb_document(
        extra=(
            rule("6.070", "Ongoing: Cards with Ongoing stay in play.", section="defs", title="Ongoing"),
            rule("6.080", "Ongoing: Two Ongoings may share a name.", section="defs", title="Ongoing"),
            rule("6.090", "Nothing to define here.", section="defs"),
            ParsedEntry(
                key="faq/1",
                kind=FAQ,
                text="You defeat a Super-Villain when you buy it from the stack.",
                section="defs",
                title="What does the term “defeat” mean?",
            ),
        )
    )
    document.sections = [
        *document.sections,
        ParsedSection("defs", "Definitions and Keywords", "6.500", order=9),
    ]
    document.entries = [
        ParsedEntry(**{**e.__dict__, "order": index}) for index, e in enumerate(document.entries)
    ]
    return document


@pytest.fixture
def glossaries(db):
    set_aside_other_documents()
    return import_parsed(dcdb_with_definitions(), glossary_document())


def terms(content: str) -> list[str]:
    return re.findall(r'<dt id="[^"]+"><a href="[^"]+">([^<]+)</a></dt>', content)


def test_the_glossary_lists_the_terms_alphabetically(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["vs"])).content.decode()
    assert terms(content) == ["Activate", "Boost", "Gizmo"]


def test_the_glossary_links_each_term_to_its_entry(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["vs"])).content.decode()
    assert f'<a href="{entry("glossary/boost", "vs").get_absolute_url()}">Boost</a>' in content


def test_the_glossary_jumps_to_the_letters_that_have_terms(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["vs"])).content.decode()
    assert '<a href="#letter-B">B</a>' in content and 'id="letter-B"' in content
    assert 'href="#letter-C"' not in content


def test_a_definition_keeps_its_cross_references(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["vs"])).content.decode()
    assert f'data-peek="{peek_url("702.6", "vs")}"' in content


def test_a_definition_does_not_repeat_its_term(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["vs"])).content.decode()
    assert '<p class="entry-text">exhaust a widget.</p>' in content


def test_the_dcdb_glossary_takes_the_titled_rules_of_its_definitions_section(client, glossaries):
    content = client.get(reverse("rulings:glossary", args=["dcdb"])).content.decode()
    assert terms(content) == ["Defeat", "Flux", "Ongoing"]  # Flux: 6.050 under "Keywords"
    assert "Cards with Ongoing stay in play." in content and "Two Ongoings may share a name." in content
    assert "Nothing to define here" not in content


def test_the_glossary_runs_a_fixed_number_of_queries(client, glossaries, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        client.get(reverse("rulings:glossary", args=["vs"]))


def test_an_unknown_game_has_no_glossary(client, glossaries):
    assert client.get(reverse("rulings:glossary", args=["chess"])).status_code == 404


def test_the_index_links_each_games_glossary(client, glossaries):
    content = client.get(reverse("rulings:index")).content.decode()
    assert reverse("rulings:glossary", args=["dcdb"]) in content
    assert reverse("rulings:glossary", args=["vs"]) in content
    assert "/rulings/glossary/all/" not in content and "/rulings/cards/all/" not in content


def test_a_document_page_links_its_games_glossary(client, glossaries):
    document = Document.objects.get(title="Invented Comprehensive Rules")
    content = client.get(document.get_absolute_url()).content.decode()
    assert reverse("rulings:glossary", args=["vs"]) in content


# --- the search form on a phone --------------------------------------------------------------------


def test_the_filters_are_folded_away_and_name_the_scope(client, invented):
    content = client.get(reverse("rulings:index"), {"q": "9.020"}).content.decode()
    summary = re.search(
        r'<details class="rulings-filters"( open)?>\s*<summary>(.*?)</summary>', content, re.S
    )
    assert summary and summary.group(1) is None
    assert "All games · All current documents" in summary.group(2)


def test_a_chosen_filter_stays_open(client, invented):
    content = client.get(reverse("rulings:index"), {"q": "9.020", "game": "all"}).content.decode()
    assert '<details class="rulings-filters" open>' in content


def test_the_search_page_has_no_second_search_box_in_the_top_bar(client, invented):
    content = client.get(reverse("rulings:index"), {"q": "9.020"}).content.decode()
    assert 'class="quicksearch"' not in content
    assert 'class="quicksearch"' in client.get(entry("9.020").get_absolute_url()).content.decode()


def test_an_untitled_passage_is_headed_by_its_first_words():
    from django.template.loader import render_to_string

    passage = Entry(
        kind=PASSAGE, text="Cards that are placed to a Character may not be switched for another card."
    )
    head = render_to_string("rulings/_entry_head.html", {"entry": passage})
    assert "Cards that are placed to a Character may …" in head
    assert ">passage<" in head and "{#" not in head
    numbered = Entry(kind=PASSAGE, number="9.020", text="The length of time for each round is 60 minutes.")
    assert "The length of time" not in render_to_string("rulings/_entry_head.html", {"entry": numbered})
