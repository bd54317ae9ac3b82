"""A roster CSV as each spreadsheet saves it: read by the csv module after its encoding is detected, so a
quoted line break stays inside its field and every bad row is reported with its line."""

from __future__ import annotations

import codecs

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import make_event, make_user
from tests.hostile import CSV_UPLOADS
from tournaments.models import Registration
from tournaments.roster import UnreadableFile, decode_upload, parse_roster

ROWS = "name,email,notes\r\nZoë Ñúñez,zoe@example.org,café\r\nBo Berg,,\r\n"


@pytest.mark.parametrize(
    "raw",
    [
        codecs.BOM_UTF8 + ROWS.encode("utf-8"),
        ROWS.encode("utf-8"),
        codecs.BOM_UTF16_LE + ROWS.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + ROWS.encode("utf-16-be"),
        ROWS.encode("utf-16-le"),
        ROWS.encode("cp1252"),
        codecs.BOM_UTF32_LE + ROWS.encode("utf-32-le"),
    ],
    ids=["utf8-bom", "utf8", "utf16-le-bom", "utf16-be-bom", "utf16-le", "cp1252", "utf32-le-bom"],
)
def test_it_reads_every_encoding_a_spreadsheet_writes(raw):
    roster = parse_roster(decode_upload(raw))
    assert [(row.name, row.email, row.notes) for row in roster.rows] == [
        ("Zoë Ñúñez", "zoe@example.org", "café"),
        ("Bo Berg", "", ""),
    ]
    assert roster.ok


def test_it_keeps_a_quoted_line_break_inside_its_field_and_counts_lines_from_the_file():
    roster = parse_roster('name,notes\r\n"Ann Archer","arrives late\r\nafter lunch"\r\nBo Berg,\r\n,x\r\n')
    assert [(row.line, row.name, row.notes) for row in roster.rows] == [
        (2, "Ann Archer", "arrives late\r\nafter lunch"),
        (4, "Bo Berg", ""),
        (5, "", "x"),
    ]
    assert roster.rows[2].errors == ["The name is empty."]


def test_it_reports_every_ragged_row():
    roster = parse_roster("name,email\r\nAnn Archer\r\nBo Berg,bo@example.org,extra,more\r\nCy,c@x.org,1\r\n")
    assert [row.errors for row in roster.rows] == [
        [],
        ["4 columns, expected at most 2 (name, email)."],
        ["3 columns, expected at most 2 (name, email)."],
    ]


def test_a_quote_never_closed_is_reported_not_swallowed():
    roster = parse_roster('name,notes\r\n"Ann Archer,never closed\r\nBo Berg\r\n')
    assert not roster.ok
    assert "missing its closing quote" in roster.rows[0].errors[0]


@pytest.mark.parametrize("kind", ["nul", "binary"])
def test_a_file_that_is_not_text_is_refused_with_a_message(kind):
    with pytest.raises(UnreadableFile, match="not a text"):
        decode_upload(CSV_UPLOADS[kind])


def test_notes_longer_than_the_database_keeps_are_a_row_error():
    roster = parse_roster("name,notes\r\nAnn," + "n" * 301)
    assert roster.rows[0].errors == ["The notes are longer than 300 characters."]


@pytest.fixture
def staff_client(client, db):
    organizer = make_user()
    event = make_event(organizer=organizer)
    client.force_login(organizer)
    return client, event, reverse("tournaments:roster_bulk_add", kwargs={"slug": event.slug})


def upload(kind_or_bytes) -> SimpleUploadedFile:
    raw = CSV_UPLOADS.get(kind_or_bytes, kind_or_bytes)
    return SimpleUploadedFile("players.csv", raw, content_type="text/csv")


def test_it_imports_a_utf16_upload_with_a_quoted_line_break(staff_client):
    client, event, url = staff_client
    raw = codecs.BOM_UTF16_LE + 'name,notes\r\nZoë Ñúñez,"two\r\nlines"\r\n'.encode("utf-16-le")
    preview = client.post(url, {"file": upload(raw), "preview": "1"})
    assert preview.status_code == 200 and "Import 1 players" in preview.content.decode()
    client.post(url, {"file": upload(raw), "confirm": "1"})
    registration = Registration.objects.get(event=event)
    assert (registration.player.name, registration.notes) == ("Zoë Ñúñez", "two\r\nlines")


def test_an_upload_with_zero_bytes_is_refused_on_the_form(staff_client):
    client, event, url = staff_client
    response = client.post(url, {"file": upload("nul"), "preview": "1"})
    assert response.status_code == 200
    assert "not a text (CSV) file" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_an_empty_upload_asks_for_the_list(staff_client):
    client, _, url = staff_client
    response = client.post(url, {"file": upload("empty"), "preview": "1"})
    assert "Paste the player list or choose a CSV file." in response.content.decode()
