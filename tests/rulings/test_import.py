"""Importing parsed documents: rows, idempotence, new editions, cross-references."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulings import selectors
from rulings.models import CrossReference, Document, Entry
from rulings.services import NEW_EDITION, REPARSED, UNCHANGED, import_document

from .conftest import dcdb_document, import_parsed, rule, set_aside_other_documents, vs_document

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _only_invented():
    set_aside_other_documents()


def entry(key: str, document: str = "Invented Advanced Rule Book") -> Entry:
    return Entry.objects.get(key=key, document__title=document, document__is_current=True)


def refs_of(key: str, document: str = "Invented Advanced Rule Book") -> list[CrossReference]:
    return list(CrossReference.objects.filter(source=entry(key, document)).select_related("target_entry"))


def test_it_links_an_example_to_its_rule():
    import_parsed(dcdb_document())
    assert entry("9.021").parent == entry("9.020")


def test_it_stores_a_key_that_sorts_numbers_as_numbers():
    import_parsed(dcdb_document(extra=(rule("10.010", "Ten comes after nine.", section="9"),)))
    assert entry("10.010").sort_key > entry("9.020").sort_key


def test_reimporting_the_same_file_changes_nothing():
    (first,) = import_parsed(dcdb_document())
    count = Entry.objects.count()
    (again,) = import_parsed(dcdb_document())
    assert (again.status, again.document.pk, Entry.objects.count()) == (UNCHANGED, first.document.pk, count)


def test_a_changed_parser_rebuilds_the_document_in_place():
    (first,) = import_parsed(dcdb_document())
    again = import_document(parsed=dcdb_document(), parser_version="parser-2")
    assert (again.status, again.document.slug) == (REPARSED, first.document.slug)


def test_a_new_edition_keeps_the_old_one_and_becomes_current():
    (old,) = import_parsed(dcdb_document())
    (new,) = import_parsed(dcdb_document(checksum="dcdb-2", edition="Season 31"))
    old.document.refresh_from_db()
    assert (new.status, new.document.is_current, old.document.is_current) == (NEW_EDITION, True, False)


def test_the_changes_page_lists_added_removed_and_changed_entries():
    import_parsed(dcdb_document())
    newer = dcdb_document(
        checksum="dcdb-2", edition="Season 31", extra=(rule("9.040", "Drop at any time.", section="9"),)
    )
    newer.entries = [e for e in newer.entries if e.key != "8.010"]
    newer.entries = [
        replace(e, text="Each round lasts 45 minutes.") if e.key == "9.020" else e for e in newer.entries
    ]
    (new,) = import_parsed(newer)
    changes = selectors.document_changes(slug=new.document.slug)
    assert (
        [e.key for e in changes.added],
        [e.key for e in changes.removed],
        [n.key for _, n in changes.changed],
    ) == (["9.040"], ["8.010"], ["9.020"])


def test_a_rule_number_in_text_resolves_to_the_rule():
    import_parsed(dcdb_document())
    (ref,) = refs_of("6.050")
    assert (ref.status, ref.target_entry.number) == ("resolved", "9.020")


def test_a_phrase_resolves_to_its_procedure_step():
    import_parsed(dcdb_document())
    (ref,) = refs_of("9.030")
    assert (ref.kind, ref.target_entry.number) == ("phrase", "8.010")


def test_a_rule_does_not_link_to_itself():
    import_parsed(dcdb_document())
    assert refs_of("9.020") == []


def test_a_tag_naming_two_printings_is_ambiguous():
    import_parsed(dcdb_document())
    gadget = [r for r in refs_of("6.060") if r.label.startswith("Gadgetman")]
    assert {(r.status, r.target_entry.card.set_name) for r in gadget} == {
        ("ambiguous", "Base Set"),
        ("ambiguous", "Rivals 9"),
    }


def test_a_tag_resolves_by_category():
    import_parsed(dcdb_document())
    (sprocket,) = [r for r in refs_of("6.060") if r.label.startswith("Doctor Sprocket")]
    assert (sprocket.status, sprocket.target_entry.title) == ("resolved", "Doctor Sprocket")


def test_a_tag_for_an_unknown_card_stays_unresolved():
    import_parsed(dcdb_document())
    (nobody,) = [r for r in refs_of("6.060") if r.label.startswith("Nobody")]
    assert (nobody.status, nobody.target_entry) == ("unresolved", None)


def test_references_never_cross_games():
    import_parsed(vs_document())
    import_parsed(dcdb_document(extra=(rule("6.070", "Compare 702.6 with Gadgetman [Hero].", section="6"),)))
    targets = {r.target_entry.document.game.code for r in refs_of("6.070") if r.target_entry}
    assert targets == {"dcdb"}


def test_a_vs_range_links_both_ends():
    import_parsed(vs_document())
    rows = refs_of("702.6", document="Invented Comprehensive Rules")
    assert [r.target_entry.number for r in rows] == ["702.6a", "702.6b"]


def test_the_document_records_its_provenance():
    (result,) = import_parsed(dcdb_document())
    document = Document.objects.get(pk=result.document.pk)
    assert (document.edition, document.is_community, document.game.code) == ("Season 30", True, "dcdb")
