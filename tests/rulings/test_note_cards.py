"""A rulebook's card note links to each card it names (its label and its text), in the rulebook's set."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulings.models import CrossReference, Entry
from rulings.parsers.base import (
    CARD_NOTE,
    GAME_DCDB,
    MAIN_CHARACTER,
    SUPER_VILLAIN,
    ParsedCard,
    ParsedDocument,
    ParsedEntry,
    ParsedSection,
)

from .conftest import dcdb_document, import_parsed, set_aside_other_documents

pytestmark = pytest.mark.django_db

RULEBOOK = "Invented Rulebook"


def note(key: str, text: str, *, title: str = "", card: str | None = None, order: int = 0) -> ParsedEntry:
    return ParsedEntry(
        key=key, kind=CARD_NOTE, text=text, section="cards", title=title, card=card, order=order
    )


def rulebook() -> ParsedDocument:
    """A base-set rulebook whose notes name the invented Advanced Rule Book's cards."""
    widget = ParsedCard(
        "main_character/captain-widget/base-set", "Captain Widget", "Base Set", MAIN_CHARACTER
    )
    sprocket = ParsedCard(
        "super_villain/doctor-sprocket/base-set", "Doctor Sprocket", "Base Set", SUPER_VILLAIN
    )
    return ParsedDocument(
        game=GAME_DCDB,
        title=RULEBOOK,
        source_file="invented-rulebook.txt",
        checksum="rulebook-1",
        sections=[ParsedSection("cards", "SPECIFIC CARDS", order=0)],
        cards=[widget, sprocket],
        entries=[
            note(
                "note/pair",
                "Neither of them spins twice.",
                title="Captain Widget, Doctor Sprocket",
                card=widget.key,
            ),
            note(
                "note/2",
                "Note that Gadgetman can copy Doctor Sprocket’s attack; Weakness cards stay. Gadgetman spins.",
                order=1,
            ),
            note("note/nobody", "Nobody is no card here.", title="Nobody Special", order=2),
        ],
    )


@pytest.fixture
def notes(db):
    set_aside_other_documents()
    return import_parsed(dcdb_document(), rulebook())


def refs_of(key: str) -> list[CrossReference]:
    entry = Entry.objects.get(key=key, document__title=RULEBOOK)
    return list(
        CrossReference.objects.filter(source=entry).select_related("target_card").order_by("start", "label")
    )


def test_a_label_naming_two_cards_links_to_each(notes):
    found = [(r.label, r.start, r.end, r.status, str(r.target_card)) for r in refs_of("note/pair")]
    assert found == [
        ("Captain Widget", 0, 0, "resolved", "Captain Widget (Base Set)"),
        ("Doctor Sprocket", 0, 0, "resolved", "Doctor Sprocket (Base Set)"),
    ]


def test_the_cards_a_note_names_in_its_text_are_linked_once_each(notes):
    text = Entry.objects.get(key="note/2", document__title=RULEBOOK).text
    found = [(text[r.start : r.end], str(r.target_card)) for r in refs_of("note/2")]
    assert found == [("Gadgetman", "Gadgetman (Base Set)"), ("Doctor Sprocket", "Doctor Sprocket (Base Set)")]


def test_a_name_no_card_of_the_rulebooks_set_has_is_not_linked(notes):
    assert refs_of("note/nobody") == []


def test_the_stacks_every_rule_mentions_are_not_linked(notes):
    assert "Weakness" not in [r.label for r in refs_of("note/2")]


def test_the_note_page_links_the_cards_its_label_names(client, notes):
    entry = Entry.objects.select_related("document").get(key="note/pair", document__title=RULEBOOK)
    content = client.get(entry.get_absolute_url()).content.decode()
    sprocket = Entry.objects.select_related("document").get(key="card/super_villain/doctor-sprocket/base")
    assert "Cards: " in content
    assert f'href="{sprocket.get_absolute_url()}"' in content
    assert reverse("rulings:peek", args=[sprocket.document.slug, sprocket.key]) in content


def test_the_label_is_not_shown_again_inside_the_text(client, notes):
    entry = Entry.objects.select_related("document").get(key="note/pair", document__title=RULEBOOK)
    content = client.get(entry.get_absolute_url()).content.decode()
    assert '<p class="entry-text">Neither of them spins twice.</p>' in content


def test_the_card_page_says_which_notes_name_it(client, notes):
    card = Entry.objects.select_related("document").get(key="card/super_villain/doctor-sprocket/base")
    content = client.get(card.get_absolute_url()).content.decode()
    cited_by = content[content.index("Cited by") :]
    named_in = Entry.objects.select_related("document").get(key="note/2", document__title=RULEBOOK)
    assert (
        f'<a href="{named_in.get_absolute_url()}">card note</a> <span class="muted small">{RULEBOOK}</span>'
        in (cited_by)
    )


def test_a_note_whose_card_the_scan_does_not_name_says_so_in_its_heading(client, notes):
    entry = Entry.objects.select_related("document").get(key="note/2", document__title=RULEBOOK)
    content = client.get(entry.get_absolute_url()).content.decode()
    assert "Card name not in the scan" in content


def test_the_card_index_opens_a_card_only_a_rulebook_note_is_on_at_that_note(client, notes):
    # The invented rulebook's Captain Widget (Base Set) has no heading of its own, only the note naming it.
    entry = Entry.objects.select_related("document").get(key="note/pair", document__title=RULEBOOK)
    content = client.get(reverse("rulings:cards", args=["dcdb"])).content.decode()
    assert f'<a href="{entry.get_absolute_url()}">Captain Widget</a>' in content
