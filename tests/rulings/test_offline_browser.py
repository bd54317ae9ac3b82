"""Issue 18: with the hall's wifi down, a judge still searches the rulings and reads what was opened."""

from __future__ import annotations

import pytest

from tests.offline_helpers import phone, wait_for_service_worker, wait_until_saved

from .conftest import dcdb_document, import_parsed, vs_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def saved_rulings_page(context, base: str):
    import_parsed(dcdb_document(), vs_document())
    page = context.new_page()
    page.goto(f"{base}/rulings/")
    wait_for_service_worker(page)
    return page


def test_it_searches_the_saved_copy_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page = saved_rulings_page(context, live_server.url)
        context.set_offline(True)
        page.fill("#id_q", "shuffled")
        page.wait_for_selector(".offline-note")
        assert "Offline: searching the copy saved at" in page.inner_text(".offline-note")
        assert "not shuffled when Doctor Sprocket" in page.inner_text(".rulings-hit .snippet")


def test_it_puts_the_rule_with_that_number_first_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page = saved_rulings_page(context, live_server.url)
        context.set_offline(True)
        page.fill("#id_q", "9.020")
        page.wait_for_selector(".offline-note")
        assert page.inner_text(".rulings-hit .entry-label").startswith("9.020")


def test_a_rule_number_in_a_short_form_finds_the_printed_rule_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page = saved_rulings_page(context, live_server.url)
        context.set_offline(True)
        page.fill("#id_q", "9.21")  # as the search reads it online: 9.021
        page.wait_for_selector(".offline-note")
        assert page.inner_text(".rulings-hit .entry-label").startswith("9.021")


def test_it_answers_a_search_from_another_page_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page = saved_rulings_page(context, live_server.url)
        context.set_offline(True)
        page.goto(f"{live_server.url}/rulings/?q=flux")
        page.wait_for_selector(".offline-note")
        assert page.input_value("#id_q") == "flux"
        assert "6.050" in page.inner_text(".rulings-hit .entry-label")


def test_it_shows_an_entry_opened_before_when_offline(chromium, live_server):
    with phone(chromium) as context:
        page = saved_rulings_page(context, live_server.url)
        page.goto(f"{live_server.url}/rulings/rule/dcdb/9.020/")
        entry_url = page.url
        wait_until_saved(page)
        page.goto(f"{live_server.url}/rulings/")
        context.set_offline(True)
        page.goto(entry_url)
        assert "Each round lasts 50 minutes" in page.inner_text(".permalink .entry-text")
        banner = page.wait_for_selector("#offline-banner:not([hidden])")
        assert banner.inner_text().startswith("Offline — showing what was saved at ")
