import pytest

from tests.factories import make_event, make_registration, make_user
from tournaments import services
from tournaments.errors import ActionError
from tournaments.models import EventStaff, Player, Registration

pytestmark = pytest.mark.django_db


def test_the_creator_becomes_the_organizer():
    user = make_user()
    event = services.event_create(user=user, name="Winter Open", date="2026-12-12")
    assert EventStaff.objects.get(event=event).role == EventStaff.Role.ORGANIZER
    assert event.slug == "winter-open-2026-12-12"


def test_adding_the_same_name_twice_is_refused():
    event = make_event()
    services.registration_add(event=event, name="Ann Archer")
    with pytest.raises(ActionError, match="already registered"):
        services.registration_add(event=event, name="  ann   archer ")
    assert Registration.objects.filter(event=event).count() == 1


def test_a_known_email_reuses_the_player_across_events():
    first, second = make_event(), make_event()
    a = services.registration_add(event=first, name="Ann Archer", email="ann@example.com")
    b = services.registration_add(event=second, name="Ann Archer", email="ANN@example.com")
    assert a.player_id == b.player_id
    assert Player.objects.count() == 1


def test_a_roster_with_a_bad_row_imports_nothing():
    event = make_event()
    with pytest.raises(ActionError, match="Nothing was imported"):
        services.roster_import(event=event, text="name,email\nAnn,ann@example.com\n,bob@example.com")
    assert not Registration.objects.filter(event=event).exists()


def test_a_roster_is_checked_again_at_import():
    event = make_event()
    text = "Ann Archer\nBruno Diaz"
    assert services.roster_preview(event=event, text=text).ok
    services.registration_add(event=event, name="Bruno Diaz")  # someone added him meanwhile
    with pytest.raises(ActionError):
        services.roster_import(event=event, text=text)
    assert Registration.objects.filter(event=event).count() == 1


def test_check_in_sets_the_state_so_a_double_click_is_harmless():
    registration = make_registration(make_event())
    services.registration_set_checked_in(registration=registration, checked_in=True)
    registration = services.registration_set_checked_in(registration=registration, checked_in=True)
    assert registration.checked_in and registration.checked_in_at is not None


def test_drop_and_undo_drop():
    registration = make_registration(make_event())
    registration = services.registration_drop(registration=registration, reason="went home", after_round=2)
    assert registration.dropped and registration.dropped_after_round == 2
    registration = services.registration_undrop(registration=registration)
    assert not registration.dropped and registration.drop_reason == ""


def test_a_disqualified_player_cannot_be_undropped():
    registration = make_registration(make_event(), disqualified=True)
    services.registration_drop(registration=registration)
    with pytest.raises(ActionError, match="disqualified"):
        services.registration_undrop(registration=registration)


def test_the_last_organizer_cannot_be_removed():
    organizer = make_user()
    event = make_event(organizer=organizer)
    staff = EventStaff.objects.get(event=event, user=organizer)
    with pytest.raises(ActionError, match="at least one organizer"):
        services.staff_remove(staff=staff)
    assert EventStaff.objects.filter(pk=staff.pk).exists()


def test_staff_add_needs_an_existing_account():
    event = make_event()
    with pytest.raises(ActionError, match="No account"):
        services.staff_add(event=event, username="ghost", role=EventStaff.Role.JUDGE)


def test_check_in_all_checks_in_every_active_player():
    event = make_event()
    make_registration(event, "Ann")
    make_registration(event, "Gone", dropped_at="2026-12-05T10:00:00Z")
    assert services.registrations_check_in_all(event=event) == 1
    assert list(
        Registration.objects.filter(event=event, checked_in=True).values_list("player__name", flat=True)
    ) == ["Ann"]


def test_the_same_event_twice_is_refused_and_names_the_first(client):
    user = make_user()
    first = services.event_create(user=user, name="Winter Open", date="2026-12-12")
    with pytest.raises(services.DuplicateEvent, match="You already created “Winter Open” on 12 Dec 2026"):
        services.event_create(user=user, name=" winter open", date="2026-12-12")
    client.force_login(user)
    from tests.tournaments.test_registration_pages import event_form_data

    page = client.post(
        "/events/new/", event_form_data(name="Winter Open", date="2026-12-12")
    ).content.decode()
    assert f"/e/{first.slug}/staff/" in page
    # Another date, or another organizer, is another event.
    services.event_create(user=user, name="Winter Open", date="2026-12-19")
    services.event_create(user=make_user(), name="Winter Open", date="2026-12-12")
