"""A judge on a phone: search as you type, open the rule, open a cross-reference in place."""

from __future__ import annotations

import pytest

from rulings import search, services

from .conftest import dcdb_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def imported() -> None:
    services.import_document(parsed=dcdb_document(), parser_version="test")
    search.rebuild_index()


def test_a_phone_search_opens_a_cross_reference_in_place(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/")
    page.fill("#id_q", "flux")  # typed, not submitted: htmx fetches the results
    page.wait_for_selector(".rulings-hit .hit-link")
    page.click(".rulings-hit .hit-link")
    page.wait_for_selector("h1.entry-head")
    assert "6.050" in page.inner_text("h1.entry-head")
    link = page.locator(".permalink a.xref").first
    link.tap()
    page.wait_for_selector(".xref-peek .peek-actions")
    assert page.url.endswith("/e/6.050/")  # still on the page that cites it
    assert "Each round lasts 50 minutes" in page.inner_text(".xref-peek")
    assert link.get_attribute("aria-expanded") == "true"
    # Right below the paragraph that cites it.
    # (htmx adds "htmx-settling" for a moment after the swap: the element, not its classes, is the point.)
    assert page.evaluate(
        "document.querySelector('.permalink .entry-text').nextElementSibling.classList.contains('xref-peek')"
    )
    link.tap()
    assert page.locator(".xref-peek").count() == 0
    assert link.get_attribute("aria-expanded") == "false"


def test_a_cross_reference_opens_and_closes_from_the_keyboard(live_server, page):
    imported()
    page.goto(f"{live_server.url}/rulings/rule/dcdb/6.050/")
    link = page.locator(".permalink a.xref").first
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".xref-peek .peek-actions")
    assert link.get_attribute("aria-controls") == page.get_attribute(".xref-peek", "id")
    page.click(".xref-peek [data-peek-close]")
    assert page.locator(".xref-peek").count() == 0
    assert page.evaluate("document.activeElement.textContent") == "9.020"
    page.keyboard.press("Enter")
    page.wait_for_selector(".xref-peek")
    page.keyboard.press("Enter")
    assert page.locator(".xref-peek").count() == 0


def test_the_inline_view_links_to_the_rule(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/rule/dcdb/6.050/")
    page.locator(".permalink a.xref").first.tap()
    page.click(".xref-peek .peek-actions a")
    page.wait_for_url("**/e/9.020/")
    assert "Each round lasts 50 minutes" in page.inner_text(".permalink .entry-text")


def test_the_first_result_is_above_the_fold_on_a_phone(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/?q=time+is+called")
    height = page.viewport_size["height"]
    title = page.locator(".rulings-hit .hit-link").first.bounding_box()
    snippet = page.locator(".rulings-hit .snippet").first.bounding_box()
    assert title["y"] + title["height"] <= height
    assert snippet["y"] + snippet["height"] <= height
    # The top bar and the form together take under a third of the screen (they took 45%).
    form = page.locator("form.rulings-search").bounding_box()
    assert form["y"] + form["height"] <= height / 3


def test_the_filters_open_and_still_search(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/?q=gadgetman")
    page.click(".rulings-filters summary")
    page.select_option("#id_game", "dcdb")
    page.wait_for_url("**game=dcdb**")
    page.wait_for_selector(".rulings-hit")
    # The summary line says what is searched now, not what the page first showed.
    page.wait_for_function("document.querySelector('#rulings-scope').textContent.includes('only')")
    assert page.inner_text("#rulings-scope").endswith("only · All current documents")


def test_back_from_an_opened_result_shows_the_whole_search_page(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/")
    page.goto(f"{live_server.url}/rulings/")
    page.fill("#id_q", "flux")  # typed: htmx fetches the results alone, at the page's own address
    page.wait_for_selector(".rulings-hit .hit-link")
    page.wait_for_url("**q=flux**")
    page.click(".rulings-hit .hit-link")
    page.wait_for_selector("h1.entry-head")
    page.go_back()
    page.wait_for_selector(".rulings-hit")
    assert page.locator("#id_q").input_value() == "flux"  # the page, not the results alone
    assert page.locator("header, nav").count() > 0
    page.go_back()  # typing added no steps: one Back leaves the search
    assert page.url == f"{live_server.url}/"


def search_from_the_top_bar(page, base: str, query: str) -> None:
    """From a rule's page, as a judge walks on: type in the top bar and press Enter."""
    page.goto(f"{base}/rulings/rule/dcdb/6.050/")
    page.fill(".quicksearch input[name=q]", query)
    page.press(".quicksearch input[name=q]", "Enter")
    page.wait_for_selector(".rulings-results, .rulings-empty")


def test_the_top_bar_searches_with_the_filters_chosen_on_the_search_page(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/")
    page.click(".rulings-filters summary")
    page.select_option("#id_game", "dcdb")
    search_from_the_top_bar(page, live_server.url, "flux")
    assert "game=dcdb" in page.url and page.input_value("#id_game") == "dcdb"
    assert page.locator(".rulings-hit").count() > 0
    # "All games" again (the filters are open: one is chosen): the top bar searches the default scope.
    page.select_option("#id_game", "")
    search_from_the_top_bar(page, live_server.url, "flux")
    assert "game=" not in page.url


def test_a_kept_filter_the_page_refuses_is_forgotten(live_server, phone_page):
    imported()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/")
    page.evaluate("localStorage.setItem('rulings-scope', JSON.stringify({document: 'a-removed-document'}))")
    search_from_the_top_bar(page, live_server.url, "flux")
    assert "is not a document here" in page.inner_text(".rulings-filter-error")
    assert page.locator(".rulings-hit").count() > 0  # searched without it
    search_from_the_top_bar(page, live_server.url, "flux")
    assert "document=" not in page.url
