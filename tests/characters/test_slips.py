"""The slip's main character, on the staff's match slip and on the players' report: chosen from the rule
documents' Main Characters, typo-tolerant; uncertain text is a field error that keeps what was typed."""

from __future__ import annotations

import pytest

from tests.tournaments.test_event_pages import round_2_table_1, slip_data
from tests.tournaments.test_table_page import published_table, slip, url
from tournaments.models import Seat, SlipReport

from .helpers import BATMAN, import_characters, no_characters

pytestmark = pytest.mark.django_db


def first_seat(table) -> Seat:
    return Seat.objects.filter(table=table).order_by("seat").first()


def staff_post(client, text):
    event, table, url_, client = round_2_table_1(client)
    data = slip_data(table, [30, 20, 10, 5], table.version)
    data[f"seat{first_seat(table).pk}-main_character"] = text
    return table, client.post(url_, data)


def test_the_staff_slip_stores_a_typo_as_the_name_and_set_with_its_key(client):
    import_characters()
    table, response = staff_post(client, "batmn")
    assert response.status_code == 302
    seat = first_seat(table)
    assert (seat.main_character, seat.main_character_key) == ("Batman (Base Set)", BATMAN.key)


def test_an_uncertain_name_is_a_field_error_naming_the_sets_and_saves_nothing(client):
    import_characters()
    table, response = staff_post(client, "Starfire")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Which one? Starfire (Teen Titans); Starfire (Teen Titans Go)" in body
    assert 'value="Starfire"' in body  # what was typed stays
    table.refresh_from_db()
    assert not table.has_result


def test_a_name_the_documents_do_not_have_is_a_field_error(client):
    import_characters()
    table, response = staff_post(client, "Zzyzx the Unknown")
    assert "No Main Character called “Zzyzx the Unknown”" in response.content.decode()
    table.refresh_from_db()
    assert not table.has_result


def test_blank_is_allowed(client):
    import_characters()
    table, response = staff_post(client, "")
    assert response.status_code == 302
    assert first_seat(table).main_character == ""


def test_without_rule_documents_it_is_free_text_and_says_so(client):
    no_characters()
    event, table, url_, client = round_2_table_1(client)
    assert "free text" in client.get(url_).content.decode()
    data = slip_data(table, [30, 20, 10, 5], table.version)
    data[f"seat{first_seat(table).pk}-main_character"] = "Batman,  Superman"
    assert client.post(url_, data).status_code == 302
    seat = first_seat(table)
    assert (seat.main_character, seat.main_character_key) == ("Batman, Superman", "")


def test_the_slip_page_lists_the_main_characters(client):
    import_characters()
    event, table, url_, client = round_2_table_1(client)
    body = client.get(url_).content.decode()
    assert '<datalist id="main-characters">' in body and '<option value="Batman (Base Set)">' in body
    assert 'list="main-characters"' in body


def test_a_correction_without_a_catalogue_keeps_the_key_of_an_unchanged_name(client):
    import_characters()
    table, _ = staff_post(client, "Batman")
    no_characters()
    table.refresh_from_db()
    event = table.round.event
    data = slip_data(table, [31, 20, 10, 5], table.version)
    data[f"seat{first_seat(table).pk}-main_character"] = "Batman (Base Set)"
    response = client.post(f"/e/{event.slug}/staff/rounds/2/tables/1/", data)
    assert response.status_code == 302
    assert first_seat(table).main_character_key == BATMAN.key


def report_with(client, text):
    _, _, table, _, users = published_table()
    client.force_login(users[0])
    data = slip(table, [30, 20, 10, 5])
    data[f"seat{first_seat(table).pk}-main_character"] = text
    return table, users, client.post(url(table), data)


def test_the_players_report_carries_the_key_to_the_seat_once_confirmed(client):
    import_characters()
    table, users, response = report_with(client, "wonder women")
    assert response.status_code == 302
    report = SlipReport.objects.get()
    for user in users[1:]:
        client.force_login(user)
        client.post(url(table), {"action": "confirm", "report": report.pk})
    seat = first_seat(table)
    assert (seat.main_character, seat.main_character_key) == (
        "Wonder Woman (Base Set)",
        "main_character/wonder-woman/base-set",
    )


def test_the_players_report_refuses_an_uncertain_name_and_keeps_the_slip(client):
    import_characters()
    table, _, response = report_with(client, "Starfire")
    body = response.content.decode()
    assert response.status_code == 200 and not SlipReport.objects.exists()
    assert "Which one?" in body and 'value="Starfire"' in body


@pytest.mark.parametrize("text", ["x" * 500, "Bat\x00man", "<script>alert(1)</script>", "🦇" * 40])
def test_odd_text_is_a_field_error_never_a_500(client, text):
    import_characters()
    table, response = staff_post(client, text)
    assert response.status_code == 200
    table.refresh_from_db()
    assert not table.has_result


def test_an_old_free_text_left_unchanged_does_not_block_a_correction(client):
    import_characters()
    table, _ = staff_post(client, "")
    seat = first_seat(table)
    Seat.objects.filter(pk=seat.pk).update(main_character="Batman, Superman")
    table.refresh_from_db()
    data = slip_data(table, [31, 20, 10, 5], table.version)
    data[f"seat{seat.pk}-main_character"] = "Batman, Superman"
    data["reason"] = "VP typo"
    response = client.post(f"/e/{table.round.event.slug}/staff/rounds/2/tables/1/", data)
    assert response.status_code == 302
    assert (first_seat(table).main_character, first_seat(table).main_character_key) == (
        "Batman, Superman",
        "",
    )
