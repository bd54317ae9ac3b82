"""The admin shows an imported document's rows but does not change them: the search keeps what each import
made (words, vectors, rows), so a correction goes into the source file and is imported again."""

from __future__ import annotations

from django.urls import reverse

from rulings.models import Card, Entry, Section


def test_it_shows_an_entry_without_a_way_to_change_it(admin_client, invented):
    entry = Entry.objects.filter(document__game__code="dcdb").first()
    url = reverse("admin:rulings_entry_change", args=[entry.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    assert entry.text[:20] in page.content.decode()
    assert 'name="_save"' not in page.content.decode()


def test_it_refuses_to_change_an_entry_and_keeps_its_text(admin_client, invented):
    entry = Entry.objects.filter(document__game__code="dcdb").first()
    url = reverse("admin:rulings_entry_change", args=[entry.pk])
    answer = admin_client.post(url, {"text": "Edited by hand.", "kind": entry.kind})
    assert answer.status_code == 403
    entry.refresh_from_db()
    assert entry.text != "Edited by hand."


def test_it_offers_no_adding_of_sections_cards_or_entries(admin_client, invented):
    for model in (Section, Card, Entry):
        url = reverse(f"admin:rulings_{model._meta.model_name}_add")
        assert admin_client.get(url).status_code == 403


def test_a_document_can_still_be_deleted_with_its_rows(admin_client, invented):
    document = invented[0].document
    url = reverse("admin:rulings_document_delete", args=[document.pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and "Yes, I’m sure" in page.content.decode()
    admin_client.post(url, {"post": "yes"})
    assert not Entry.objects.filter(document=document).exists()
