"""Staff edit a registration: name, email, notes and the owning account, with the registration's history,
a conflict check, and printouts that follow the new name."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event, make_players, make_registration, make_user
from tests.permissions import RUN, VISITORS, log_in_as, outcome
from tournaments import printouts
from tournaments.models import Player, PrintJob, Registration, RegistrationChange
from tournaments.services import printing, registration_add, roster_import, rounds

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def edit_url(registration: Registration) -> str:
    return reverse(
        "tournaments:registration_edit", kwargs={"slug": registration.event.slug, "pk": registration.pk}
    )


def form_data(registration: Registration, **typed) -> dict:
    """The edit form as loaded for ``registration``, with ``typed`` changes."""
    player = registration.player
    loaded = {
        "name": player.name,
        "email": player.email,
        "notes": registration.notes,
        "account": player.user.username if player.user else "",
    }
    return {**loaded, **{f"loaded_{k}": v for k, v in loaded.items()}, **typed}


def staff_client(client, event):
    organizer = event.staff.first().user
    client.force_login(organizer)
    return organizer


@pytest.fixture
def event():
    return make_event(organizer=make_user("org"))


# --- permissions ---------------------------------------------------------------------------------

URLS = [
    ("tournaments:registration_edit", "get", True, None),
    ("tournaments:registration_edit", "post", True, "edit"),
    ("tournaments:registration_unlink", "post", True, {"account": ""}),
    ("tournaments:registration_claim_code", "post", True, {}),
    ("tournaments:registration_claim_code", "get", True, None),
    ("tournaments:claim_codes", "get", False, None),
    ("tournaments:claim_codes", "post", False, {}),
]


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("name", "method", "needs_pk", "data"), URLS)
def test_only_the_events_staff_may_edit_registrations(client, visitor, name, method, needs_pk, data):
    event = make_event(organizer=make_user())
    registration = make_registration(event, "Ann Archer")
    kwargs = {"slug": event.slug, **({"pk": registration.pk} if needs_pk else {})}
    log_in_as(client, visitor, event)
    if data == "edit":
        data = form_data(registration, notes="late")
    response = getattr(client, method)(reverse(name, kwargs=kwargs), data or {})
    assert outcome(response) == RUN[visitor]
    if RUN[visitor] != "ok":
        registration.refresh_from_db()
        assert registration.notes == "" and registration.player.claim_code == ""


def test_each_row_of_the_registrations_table_links_to_its_edit_page(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    page = client.get(reverse("tournaments:registrations", kwargs={"slug": event.slug})).content.decode()
    assert f'href="{edit_url(registration)}"' in page


# --- editing -------------------------------------------------------------------------------------


def test_an_edit_saves_name_email_and_notes_and_writes_the_history(client, event):
    registration = make_registration(event, "Ann Archer")
    organizer = staff_client(client, event)
    response = client.post(
        edit_url(registration),
        form_data(registration, name="Anne Archer", email="anne@x.org", notes="table 1"),
    )
    assert response.status_code == 302
    registration.refresh_from_db()
    assert (registration.player.name, registration.player.email, registration.notes) == (
        "Anne Archer",
        "anne@x.org",
        "table 1",
    )
    assert registration.player.sort_name == "Archer, Anne"
    change = RegistrationChange.objects.get(registration=registration)
    assert change.user == organizer and change.action == "edit"
    assert change.changes["name"] == ["Ann Archer", "Anne Archer"]
    page = client.get(edit_url(registration)).content.decode()
    assert "name: Ann Archer → Anne Archer" in page and "org" in page


def test_saving_unchanged_values_writes_no_history(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    client.post(edit_url(registration), form_data(registration))
    assert not RegistrationChange.objects.exists()


def test_a_save_over_someone_elses_newer_change_is_refused_and_keeps_what_was_typed(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    stale = form_data(registration, notes="mine")
    Registration.objects.filter(pk=registration.pk).update(notes="theirs")
    response = client.post(edit_url(registration), stale)
    assert response.status_code == 409
    page = response.content.decode()
    assert "Someone else changed this registration" in page
    assert 'value="mine"' in page and "Notes: theirs" in page
    registration.refresh_from_db()
    assert registration.notes == "theirs"
    # Having compared, saving the same form again keeps this one's value.
    again = {**stale, "loaded_notes": "theirs"}
    assert client.post(edit_url(registration), again).status_code == 302
    registration.refresh_from_db()
    assert registration.notes == "mine"


def test_the_same_email_twice_in_an_event_is_refused(client, event):
    make_registration(event, "Bob Baker").player.__class__.objects.filter(name="Bob Baker").update(
        email="bob@x.org"
    )
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    response = client.post(edit_url(registration), form_data(registration, email="BOB@x.org"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "already registered for this event (as Bob Baker)" in page and 'value="BOB@x.org"' in page
    registration.refresh_from_db()
    assert registration.player.email == ""


def test_the_same_name_twice_in_an_event_is_refused(client, event):
    make_registration(event, "Bob Baker")
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    response = client.post(edit_url(registration), form_data(registration, name="bob  baker"))
    assert response.status_code == 400
    registration.refresh_from_db()
    assert registration.player.name == "Ann Archer"


def test_an_empty_name_or_a_bad_email_is_a_field_error(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    response = client.post(edit_url(registration), form_data(registration, name="", email="not an email"))
    assert response.status_code == 400
    assert "This field is required" in response.content.decode()
    assert "Enter a valid email address" in response.content.decode()


def test_the_form_says_when_the_player_has_other_events(client, event):
    registration = make_registration(event, "Ann Archer")
    other = make_event(name="Spring Open")
    Registration.objects.create(event=other, player=registration.player)
    staff_client(client, event)
    page = client.get(edit_url(registration)).content.decode()
    assert "also shows at 1 other event (Spring Open)" in page


def test_a_name_change_is_in_the_history_of_the_players_other_events_too(client, event):
    registration = make_registration(event, "Ann Archer")
    elsewhere = Registration.objects.create(event=make_event(), player=registration.player)
    staff_client(client, event)
    client.post(edit_url(registration), form_data(registration, name="Anne Archer", notes="x"))
    change = RegistrationChange.objects.get(registration=elsewhere)
    assert change.changes == {"name": ["Ann Archer", "Anne Archer"]}
    assert change.note == f"edited at {event.name}"


def test_an_unknown_event_registration_is_404(client, event):
    registration = make_registration(make_event(), "Ann Archer")
    staff_client(client, event)
    url = reverse("tournaments:registration_edit", kwargs={"slug": event.slug, "pk": registration.pk})
    assert client.get(url).status_code == 404


# --- linking and unlinking -----------------------------------------------------------------------


def test_staff_link_an_account_by_its_email(client, event):
    ann = make_user("ann")
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    client.post(edit_url(registration), form_data(registration, account="ANN@example.org"))
    registration.player.refresh_from_db()
    assert registration.player.user == ann
    assert RegistrationChange.objects.get(registration=registration).changes["account"] == ["", "ann"]


def test_an_unknown_account_is_a_field_error_and_links_nothing(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    response = client.post(edit_url(registration), form_data(registration, account="nobody"))
    assert response.status_code == 400
    assert "No account with the user name or email" in response.content.decode()
    registration.player.refresh_from_db()
    assert registration.player.user is None


def test_unlinking_writes_the_history(client, event):
    registration = make_registration(event, "Ann Archer")
    Player.objects.filter(pk=registration.player_id).update(user=make_user("ann"))
    staff_client(client, event)
    url = reverse("tournaments:registration_unlink", kwargs={"slug": event.slug, "pk": registration.pk})
    client.post(url, {"account": "ann"})
    registration.player.refresh_from_db()
    assert registration.player.user is None
    change = RegistrationChange.objects.get(registration=registration)
    assert (change.action, change.changes) == ("unlink", {"account": ["ann", ""]})


def test_unlinking_an_account_that_changed_meanwhile_does_nothing(client, event):
    registration = make_registration(event, "Ann Archer")
    Player.objects.filter(pk=registration.player_id).update(user=make_user("bob"))
    staff_client(client, event)
    url = reverse("tournaments:registration_unlink", kwargs={"slug": event.slug, "pk": registration.pk})
    client.post(url, {"account": "ann"})
    registration.player.refresh_from_db()
    assert registration.player.user.username == "bob"


def test_an_email_edited_to_a_verified_address_links_its_account(client, event):
    ann = make_user("ann")
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    client.post(edit_url(registration), form_data(registration, email="ann@example.org"))
    registration.player.refresh_from_db()
    assert registration.player.user == ann


# --- future records: linked when added ------------------------------------------------------------


def test_a_player_added_with_a_verified_email_belongs_to_that_account(event):
    ann = make_user("ann")
    registration = registration_add(event=event, name="Ann Archer", email="Ann@Example.org")
    assert registration.player.user == ann
    assert RegistrationChange.objects.get(registration=registration).action == "link"


def test_a_player_added_with_an_unverified_email_stays_unlinked(event):
    make_user("ann", verified=False)
    registration = registration_add(event=event, name="Ann Archer", email="ann@example.org")
    registration.player.refresh_from_db()
    assert registration.player.user is None


def test_an_imported_roster_links_verified_emails(event):
    ann = make_user("ann")
    created = roster_import(event=event, text="name,email\nAnn Archer,ann@example.org\nBob Baker,\n")
    owners = {r.player.name: Player.objects.get(pk=r.player_id).user for r in created}
    assert owners == {"Ann Archer": ann, "Bob Baker": None}


def test_a_record_owned_by_another_account_is_never_taken_over(event):
    make_user("ann")
    bob = make_user("bob")
    Player.objects.create(name="Ann Archer", email="ann@example.org", user=bob)
    registration = registration_add(event=event, name="Ann Archer", email="ann@example.org")
    registration.player.refresh_from_db()
    assert registration.player.user == bob
    assert Player.objects.count() == 1


# --- printouts follow the new name ----------------------------------------------------------------


def test_after_a_name_change_slips_show_the_new_name_and_older_printouts_are_out_of_date(
    client, django_capture_on_commit_callbacks
):
    organizer = make_user("org2")
    event = make_event(organizer=organizer)
    make_players(event, 8)
    event = rounds.event_start(event=event)
    round = rounds.round_pair(event=event, number=1, publish=True)
    job, _ = printing.print_request(round=round, kind="slips")
    with django_capture_on_commit_callbacks(execute=True):
        printing.print_enqueue(job=job)
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.DONE
    registration = Registration.objects.get(event=event, player__name="Player 001")
    client.force_login(organizer)
    client.post(edit_url(registration), form_data(registration, name="Zed Zephyr"))
    names = [p.name for t in printouts.slips_document(round).tables for p in t.players]
    assert "Zed Zephyr" in names and "Player 001" not in names
    sheet = printouts.pairings_document(round)
    assert "Zephyr, Zed" in [s.sort_name for s in sheet.seatings]
    page = client.get(reverse("tournaments:print_center", kwargs={"slug": event.slug, "number": 1}))
    assert "out of date" in page.content.decode()


# --- claim codes, staff side -----------------------------------------------------------------------


def test_show_claim_code_makes_one_code_and_shows_it(client, event):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    url = reverse("tournaments:registration_claim_code", kwargs={"slug": event.slug, "pk": registration.pk})
    client.post(url)
    client.post(url)
    code = Player.objects.get(pk=registration.player_id).claim_code
    assert len(code) == 8
    shown = f"{code[:4]}-{code[4:]}"
    assert shown in client.get(edit_url(registration)).content.decode()
    card = client.get(url).content.decode()
    assert shown in card and "Ann Archer" in card and event.name in card
    assert "http://testserver/me/claim/" in card


def test_a_linked_record_gets_no_claim_code(client, event):
    registration = make_registration(event, "Ann Archer")
    Player.objects.filter(pk=registration.player_id).update(user=make_user("ann"))
    staff_client(client, event)
    url = reverse("tournaments:registration_claim_code", kwargs={"slug": event.slug, "pk": registration.pk})
    response = client.post(url, follow=True)
    assert "already linked to an account" in response.content.decode()
    assert Player.objects.get(pk=registration.player_id).claim_code == ""


def test_the_desk_prints_one_card_per_unlinked_player(client, event):
    make_registration(event, "Ann Archer")
    make_registration(event, "Bob Baker")
    linked = make_registration(event, "Cy Linked")
    Player.objects.filter(pk=linked.player_id).update(user=make_user("cy"))
    staff_client(client, event)
    url = reverse("tournaments:claim_codes", kwargs={"slug": event.slug})
    assert "Make codes for 2 players" in client.get(url).content.decode()
    client.post(url)
    page = client.get(url).content.decode()
    assert page.count('class="card claim-card"') == 2
    assert "Cy Linked" not in page


@pytest.mark.parametrize(
    "typed",
    [
        {"name": "x" * 121},
        {"email": "a" * 250 + "@x.org"},
        {"notes": "n" * 301},
        {"account": "a" * 255},
        {"loaded_name": "x" * 5000},
    ],
)
def test_overlong_or_odd_input_is_refused_without_a_500(client, event, typed):
    registration = make_registration(event, "Ann Archer")
    staff_client(client, event)
    response = client.post(edit_url(registration), form_data(registration, **typed))
    assert response.status_code in (400, 409)
    registration.refresh_from_db()
    assert registration.player.name == "Ann Archer"


def test_linking_an_account_that_already_plays_the_event_is_refused(client):
    from tests.factories import add_staff
    from tournaments.models import EventStaff

    event = make_event()
    organizer = make_user("olga")
    add_staff(event, organizer, EventStaff.Role.ORGANIZER)
    victor = make_user("victor")
    mine = make_registration(event, "Victor Stone")
    mine.player.user = victor
    mine.player.save()
    other = make_registration(event, "Hal Jordan")
    client.force_login(organizer)
    url = reverse("tournaments:registration_edit", kwargs={"slug": event.slug, "pk": other.pk})
    form = client.get(url).context["form"]
    data = {**{k: v for k, v in form.initial.items() if v is not None}, "account": "victor@example.org"}
    page = client.post(url, data).content.decode()
    assert "one person cannot hold two places" in page
    other.player.refresh_from_db()
    assert other.player.user is None
