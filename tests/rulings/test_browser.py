"""A judge on a phone: search as you type, open the rule, follow a cross-reference."""

from __future__ import annotations

import pytest

from rulings import search, services

from .conftest import dcdb_document

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_search_follows_a_cross_reference(live_server, phone_page):
    services.import_document(parsed=dcdb_document(), parser_version="test")
    search.rebuild_index()
    page = phone_page
    page.goto(f"{live_server.url}/rulings/")
    page.fill("#id_q", "flux")  # typed, not submitted: htmx fetches the results
    page.wait_for_selector(".rulings-hit .hit-link")
    page.click(".rulings-hit .hit-link")
    page.wait_for_selector("h1.entry-head")
    assert "6.050" in page.inner_text("h1.entry-head")
    page.click("a.xref")
    page.wait_for_url("**/e/9.020/")
    assert "Each round lasts 50 minutes" in page.inner_text(".permalink .entry-text")
