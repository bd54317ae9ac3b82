import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import make_event, make_registration, make_user
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


def bulk_url(event):
    return reverse("tournaments:roster_bulk_add", kwargs={"slug": event.slug})


def test_bulk_preview_lists_each_bad_row_and_imports_nothing(organizer_client):
    event = make_event(organizer=organizer_client.user)
    response = organizer_client.post(
        bulk_url(event), {"text": "Ann Archer\nAnn Archer\nBruno Diaz", "preview": "1"}
    )
    assert response.status_code == 200
    assert "Ann Archer is listed twice (also on line 1)." in response.content.decode()
    assert "Import 3 players" not in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_bulk_preview_shortens_an_overlong_name_so_its_error_stays_on_screen(organizer_client):
    event = make_event(organizer=organizer_client.user)
    page = organizer_client.post(bulk_url(event), {"text": "X" * 2000, "preview": "1"}).content.decode()
    table = page[page.index("<table") : page.index("</table>")]
    assert "X" * 59 + "…" in table and "X" * 61 not in table
    assert '<ul class="errorlist row-errors">' in table
    assert "X" * 2000 in page  # the text box keeps what was typed


def test_bulk_confirm_imports_every_row(organizer_client):
    event = make_event(organizer=organizer_client.user)
    response = organizer_client.post(bulk_url(event), {"text": "Ann Archer\nBruno Diaz", "confirm": "1"})
    assert response.status_code == 302
    assert sorted(Registration.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Ann Archer",
        "Bruno Diaz",
    ]


def test_bulk_upload_of_a_csv_file_is_previewed_in_the_text_box(organizer_client):
    event = make_event(organizer=organizer_client.user)
    upload = SimpleUploadedFile(
        "players.csv", b"name,email\nAnn Archer,ann@example.com\n", content_type="text/csv"
    )
    response = organizer_client.post(bulk_url(event), {"file": upload, "preview": "1"})
    body = response.content.decode()
    assert "ann@example.com" in body and "Import 1 players" in body


def test_the_registration_table_exports_csv(organizer_client):
    event = make_event(organizer=organizer_client.user)
    make_registration(event, "Ann Archer", checked_in=True)
    response = organizer_client.get(
        reverse("tournaments:registrations", kwargs={"slug": event.slug}), {"_export": "csv"}
    )
    lines = response.content.decode().splitlines()
    assert lines[0].startswith("Player,Email,Checked in,Status")
    assert lines[1].startswith("Ann Archer,,True,Active")


def test_the_registration_table_is_searchable(organizer_client):
    event = make_event(organizer=organizer_client.user)
    make_registration(event, "Ann Archer")
    make_registration(event, "Bruno Diaz")
    response = organizer_client.get(
        reverse("tournaments:registrations", kwargs={"slug": event.slug}), {"q": "bru"}
    )
    body = response.content.decode()
    assert "Bruno Diaz" in body and "Ann Archer" not in body


def test_self_registration_only_while_open(client):
    event = make_event(self_registration_open=False)
    client.force_login(make_user("walkin"))
    url = reverse("tournaments:self_register", kwargs={"slug": event.slug})
    client.post(url, {"name": "Walk In"})
    assert not Registration.objects.filter(event=event).exists()
    event.self_registration_open = True
    event.save()
    client.post(url, {"name": "Walk In"})
    assert Registration.objects.get(event=event).self_registered


def test_self_registration_shows_a_duplicate_as_a_field_error(client):
    event = make_event(self_registration_open=True)
    make_registration(event, "Walk In")
    client.force_login(make_user("walkin"))
    response = client.post(
        reverse("tournaments:self_register", kwargs={"slug": event.slug}), {"name": "walk in"}
    )
    assert response.status_code == 400
    assert "already registered" in response.content.decode()


def test_the_public_page_lists_only_active_players(client):
    event = make_event()
    make_registration(event, "Ann Archer")
    make_registration(event, "Gone Home", dropped_at="2026-12-05T10:00:00Z")
    body = client.get(event.get_absolute_url()).content.decode()
    assert "Ann Archer" in body and "Gone Home" not in body


def event_form_data(**overrides):
    data = {
        "name": "Scoring Open",
        "date": "2026-12-12",
        "round_minutes": 60,
        "turn_order": "random",
        "paper_size": "A4",
        "sanctioned": "on",
        "tiebreaker_1": "super_villains",
        "tiebreaker_2": "opponents_points_rate",
        "tiebreaker_3": "vp",
    }
    data.update(overrides)
    return data


def test_an_event_can_use_custom_points_and_tiebreaker_order(organizer_client):
    data = event_form_data(
        scoring_text="4: 6, 4, 2, 1; 3: 6, 4, 2", tiebreaker_1="vp", tiebreaker_3="super_villains"
    )
    response = organizer_client.post(reverse("tournaments:event_create"), data)
    assert response.status_code == 302
    event = organizer_client.user.event_roles.get().event
    assert event.scoring == {"4": [6.0, 4.0, 2.0, 1.0], "3": [6.0, 4.0, 2.0]}
    assert event.tiebreakers == ["vp", "opponents_points_rate", "super_villains", "draw"]


def test_malformed_points_are_a_field_error(organizer_client):
    response = organizer_client.post(
        reverse("tournaments:event_create"), event_form_data(scoring_text="4: 5, 3, 2")
    )
    assert "A 4-player table needs 4 numbers, not 3." in response.content.decode()


def test_the_default_tiebreaker_order_is_stored_as_default(organizer_client):
    organizer_client.post(reverse("tournaments:event_create"), event_form_data())
    event = organizer_client.user.event_roles.get().event
    assert event.tiebreakers == [] and event.scoring == {}


def test_a_logged_in_player_registering_is_linked_to_their_account(client):
    event = make_event(self_registration_open=True)
    user = make_user("walkin")
    client.force_login(user)
    client.post(reverse("tournaments:self_register", kwargs={"slug": event.slug}), {"name": "Walk In"})
    assert Registration.objects.get(event=event).player.user == user


def test_staff_can_link_a_new_player_to_an_account(organizer_client):
    event = make_event(organizer=organizer_client.user)
    account = make_user("annarcher")
    url = reverse("tournaments:player_add", kwargs={"slug": event.slug})
    organizer_client.post(url, {"name": "Ann Archer", "username": "AnnArcher"})
    assert Registration.objects.get(event=event).player.user == account


def test_linking_an_unknown_account_is_a_field_error(organizer_client):
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:player_add", kwargs={"slug": event.slug})
    response = organizer_client.post(url, {"name": "Ann Archer", "username": "ghost"})
    assert "No account with the user name" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_self_registration_never_takes_over_another_players_record(client):
    from tournaments.models import Player

    other_event = make_event()
    known = make_registration(other_event, "Dev Diaz").player
    known.email = "dev@example.com"
    known.save()
    event = make_event(self_registration_open=True)
    client.force_login(make_user("visitor"))
    client.post(
        reverse("tournaments:self_register", kwargs={"slug": event.slug}),
        {"name": "Vic Visitor", "email": "DEV@example.com"},
    )
    registration = Registration.objects.get(event=event)
    assert registration.player.name == "Vic Visitor" and registration.player != known
    assert Player.objects.get(pk=known.pk).user is None


def test_the_registration_table_marks_a_late_entry(organizer_client):
    event = make_event(organizer=organizer_client.user)
    make_registration(event, "Ann Archer", checked_in=True)
    make_registration(event, "Larry Late", checked_in=True, joined_round=3)
    response = organizer_client.get(
        reverse("tournaments:registrations", kwargs={"slug": event.slug}), {"_export": "csv"}
    )
    lines = response.content.decode().splitlines()
    assert lines[1].endswith(",Active,")
    assert "Active · late entry, from round 3" in lines[2]


def test_a_drop_from_the_list_shows_its_message_at_once(organizer_client):
    event = make_event(organizer=organizer_client.user)
    ann = make_registration(event, "Ann Archer", checked_in=True)
    response = organizer_client.post(
        reverse("tournaments:drop", kwargs={"slug": event.slug, "pk": ann.pk}),
        {"reason": "went home"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert 'id="messages"' in body and 'hx-swap-oob="true"' in body
    assert "Ann Archer dropped (9.030)." in body
    # Shown once: the next page does not repeat it.
    page = organizer_client.get(reverse("tournaments:rounds", kwargs={"slug": event.slug})).content.decode()
    assert "Ann Archer dropped" not in page


def test_staff_linking_an_account_reuses_its_own_player_record(organizer_client):
    account = make_user("AnnArcher")
    own = Player.objects.create(name="Ann Archer", user=account)
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:player_add", kwargs={"slug": event.slug})
    organizer_client.post(url, {"name": "Ann Archer", "username": "AnnArcher"})
    assert Registration.objects.get(event=event).player == own


def test_staff_cannot_register_an_account_twice_under_another_name(organizer_client):
    account = make_user("AnnArcher")
    event = make_event(organizer=organizer_client.user)
    url = reverse("tournaments:player_add", kwargs={"slug": event.slug})
    organizer_client.post(url, {"name": "Ann Archer", "username": "AnnArcher"})
    page = organizer_client.post(url, {"name": "Annie Archer", "username": "AnnArcher"}).content.decode()
    assert "already registered for this event" in page
    assert Registration.objects.filter(event=event).count() == 1
    assert account.players.count() == 1
