"""Issue 18: the copy of the current documents that a judge's phone searches when the network is down."""

from __future__ import annotations

import pytest

from .conftest import dcdb_document, import_parsed, rule

pytestmark = pytest.mark.django_db

URL = "/rulings/offline-index.json"


def test_it_lists_every_entry_of_the_current_documents(client, invented):
    entries = client.get(URL).json()["entries"]
    rule = next(e for e in entries if e["n"] == "9.020")
    assert rule["g"] == "dcdb"
    assert rule["d"] == "Invented Advanced Rule Book"
    assert rule["u"].startswith("/rulings/d/") and rule["u"].endswith("/e/9.020/")
    assert rule["x"].startswith("Each round lasts 50 minutes")
    assert {e["g"] for e in entries} == {"dcdb", "vs"}


def test_it_names_the_card_of_a_card_ruling(client, invented):
    entries = client.get(URL).json()["entries"]
    assert any(e["c"] == "Doctor Sprocket" and "not shuffled" in e["x"] for e in entries)


def test_it_answers_not_modified_while_the_documents_are_the_same(client, invented):
    etag = client.get(URL)["ETag"]
    assert client.get(URL, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_it_changes_its_etag_when_a_document_is_imported_again(client, invented):
    etag = client.get(URL)["ETag"]
    import_parsed(dcdb_document(checksum="dcdb-2"))
    assert client.get(URL, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_it_trims_long_texts(client, invented):
    import_parsed(dcdb_document(checksum="dcdb-2", extra=(rule("9.900", "Long. " * 300, section="9"),)))
    long = next(e for e in client.get(URL).json()["entries"] if e["n"] == "9.900")
    assert len(long["x"]) == 401 and long["x"].endswith("…")
