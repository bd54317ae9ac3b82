"""A capped event: who gets a place, the waitlist, withdrawals, promotion, closing check-in."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import my_events
from tests.factories import event_form_data, make_event, make_registration, make_user
from tournaments import services
from tournaments.errors import ActionError
from tournaments.models import Event, Registration, RegistrationChange
from tournaments.selectors import pairable_registrations

pytestmark = pytest.mark.django_db


def capped_event(cap=3, **fields):
    fields.setdefault("sanctioned", False)
    return make_event(self_registration_open=True, player_cap=cap, **fields)


def register(event, username, name=None):
    user = make_user(username)
    return services.entry_register(event=event, user=user, name=name or username.title()), user


def full_event(cap=3):
    event = capped_event(cap)
    for i in range(cap):
        make_registration(event, f"Seated {i}")
    return event


def test_a_player_gets_a_place_while_the_cap_is_not_reached():
    event = capped_event(3)
    registration, _ = register(event, "ann")
    assert registration.waitlisted_at is None


def test_a_full_event_puts_the_next_player_on_the_waitlist():
    event = full_event(3)
    registration, _ = register(event, "ann")
    assert registration.waitlisted_at is not None
    assert RegistrationChange.objects.filter(registration=registration, action="waitlist").exists()


def test_the_event_page_tells_a_waitlisted_player_their_place_in_line(client):
    event = full_event(3)
    register(event, "ann")
    _, bob = register(event, "bob")
    client.force_login(bob)
    body = client.get(event.get_absolute_url()).content.decode()
    assert "You are on the waitlist, 2nd in line" in body


def test_my_events_shows_the_waitlist_position():
    event = full_event(3)
    register(event, "ann")
    _, bob = register(event, "bob")
    (entry,) = my_events(user=bob)["upcoming"]
    assert entry.status == "Waitlisted (2nd in line)"


def test_registering_on_a_full_event_says_so(client):
    event = full_event(3)
    client.force_login(make_user("ann"))
    response = client.post(reverse("tournaments:self_register", kwargs={"slug": event.slug}), {"name": "Ann"})
    assert response.status_code == 302
    page = client.get(event.get_absolute_url()).content.decode()
    assert "is full: you are on the waitlist, 1st in line" in page


def test_withdrawing_gives_the_place_to_the_first_on_the_waitlist(django_capture_on_commit_callbacks):
    event = capped_event(2)
    seated, _ = register(event, "ann")
    register(event, "bea")
    first, _ = register(event, "cid")
    second, _ = register(event, "dan")
    with django_capture_on_commit_callbacks(execute=True):
        promoted = services.entry_withdraw(registration=seated)
    assert [r.pk for r in promoted] == [first.pk]
    first.refresh_from_db(), second.refresh_from_db(), seated.refresh_from_db()
    assert first.waitlisted_at is None and second.waitlisted_at is not None
    assert seated.dropped_after_round == 0 and seated.drop_reason == "Withdrew before the event"
    assert RegistrationChange.objects.filter(registration=first, action="promote").exists()
    assert RegistrationChange.objects.filter(registration=seated, action="withdraw").exists()
    assert [m.to for m in mail.outbox] == [["cid@example.org"]]
    assert "You have a place" in mail.outbox[0].subject


def test_a_waitlisted_player_withdrawing_promotes_nobody():
    event = full_event(2)
    first, _ = register(event, "ann")
    second, _ = register(event, "bob")
    assert services.entry_withdraw(registration=first) == []
    second.refresh_from_db()
    assert second.waitlisted_at is not None


def test_two_withdrawals_promote_two_different_players():
    event = capped_event(2)
    a, _ = register(event, "ann")
    b, _ = register(event, "bea")
    c, _ = register(event, "cid")
    d, _ = register(event, "dan")
    first = services.entry_withdraw(registration=a)
    second = services.entry_withdraw(registration=b)
    assert [r.pk for r in first] == [c.pk] and [r.pk for r in second] == [d.pk]
    assert Registration.objects.filter(event=event).entered().count() == 2


def test_two_registrations_for_the_last_place_give_it_once():
    event = capped_event(3)
    make_registration(event, "Seated 1")
    make_registration(event, "Seated 2")
    one, _ = register(event, "ann")
    two, _ = register(event, "bob")
    assert one.waitlisted_at is None and two.waitlisted_at is not None
    assert Registration.objects.filter(event=event).entered().count() == 3


def test_a_staff_drop_before_the_start_promotes_the_first_on_the_waitlist():
    event = full_event(2)
    waiting, _ = register(event, "ann")
    seated = Registration.objects.filter(event=event).entered().first()
    services.registration_drop(registration=seated, reason="ill")
    waiting.refresh_from_db()
    assert waiting.waitlisted_at is None


def test_a_drop_after_the_start_promotes_nobody():
    event = full_event(2)
    waiting, _ = register(event, "ann")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    seated = Registration.objects.filter(event=event).entered().first()
    services.registration_drop(registration=seated, reason="ill", after_round=1)
    waiting.refresh_from_db()
    assert waiting.waitlisted_at is not None


def test_withdrawing_after_the_start_is_refused():
    event = capped_event(3)
    registration, _ = register(event, "ann")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    with pytest.raises(ActionError, match="9.030"):
        services.entry_withdraw(registration=registration)
    registration.refresh_from_db()
    assert registration.dropped_at is None


def test_the_withdraw_page_after_the_start_sends_the_player_to_the_drop_page(client):
    event = capped_event(3)
    registration, user = register(event, "ann")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    client.force_login(user)
    url = reverse("tournaments:withdraw", kwargs={"slug": event.slug})
    page = client.get(url).content.decode()
    assert "withdrawing is now dropping (9.030)" in page
    assert reverse("tournaments:self_drop", kwargs={"slug": event.slug, "pk": registration.pk}) in page
    client.post(url, {"registration": registration.pk})
    registration.refresh_from_db()
    assert registration.dropped_at is None


def test_a_player_withdraws_from_the_event_page_after_confirming(client):
    event = capped_event(3)
    registration, user = register(event, "ann")
    client.force_login(user)
    url = reverse("tournaments:withdraw", kwargs={"slug": event.slug})
    assert "Withdraw Ann" in client.get(url).content.decode()
    response = client.post(url, {"registration": registration.pk}, follow=True)
    assert "You have withdrawn" in response.content.decode()
    registration.refresh_from_db()
    assert registration.dropped_at is not None


def test_a_player_cannot_withdraw_someone_elses_registration(client):
    event = capped_event(3)
    other = make_registration(event, "Other Person")
    _, user = register(event, "ann")
    client.force_login(user)
    client.post(reverse("tournaments:withdraw", kwargs={"slug": event.slug}), {"registration": other.pk})
    other.refresh_from_db()
    assert other.dropped_at is None


def test_a_player_who_withdrew_can_register_again_at_the_end_of_the_line():
    event = full_event(2)
    mine, user = register(event, "ann")
    services.entry_withdraw(registration=mine)
    register(event, "bob")
    again = services.entry_register(event=event, user=user, name="Ann")
    assert again.pk == mine.pk and again.dropped_at is None and again.waitlisted_at is not None


def test_raising_the_cap_promotes_into_the_new_places(organizer_client):
    event = full_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    ann, _ = register(event, "ann")
    bob, _ = register(event, "bob")
    data = event_form_data(event, player_cap=4)
    organizer_client.post(reverse("tournaments:event_edit", kwargs={"slug": event.slug}), data)
    ann.refresh_from_db(), bob.refresh_from_db()
    assert ann.waitlisted_at is None and bob.waitlisted_at is not None


def test_a_waitlisted_player_cannot_be_checked_in():
    event = full_event(2)
    waiting, _ = register(event, "ann")
    with pytest.raises(ActionError, match="waitlist"):
        services.registration_set_checked_in(registration=waiting, checked_in=True)


def test_checking_in_a_waitlisted_player_on_the_page_shows_a_message(organizer_client):
    event = full_event(2)
    event.staff.create(user=organizer_client.user, role="organizer")
    waiting, _ = register(event, "ann")
    url = reverse("tournaments:check_in", kwargs={"slug": event.slug, "pk": waiting.pk})
    response = organizer_client.post(url, {"checked_in": "1"}, follow=True)
    assert "is on the waitlist" in response.content.decode()
    waiting.refresh_from_db()
    assert not waiting.checked_in


def test_check_in_all_skips_the_waitlist():
    event = full_event(2)
    waiting, _ = register(event, "ann")
    assert services.registrations_check_in_all(event=event) == 2
    waiting.refresh_from_db()
    assert not waiting.checked_in


def test_waitlisted_players_are_never_paired_nor_counted_for_the_round_count():
    event = capped_event(8)
    for i in range(8):
        make_registration(event, f"Seated {i}", checked_in=True)
    waiting = make_registration(event, "Waiting", checked_in=True, waitlisted_at=timezone.now())
    assert waiting not in pairable_registrations(event)
    services.registrations_check_in_all(event=event)
    started = services.rounds.event_start(event=event)
    # 9.070 counts the 8 with a place: 8 players play 3 Swiss rounds, whatever the waitlist holds.
    assert started.swiss_rounds == services.rounds.swiss.swiss_rounds(8, sanctioned=False).rounds


def test_the_registrations_page_shows_the_waitlist(organizer_client):
    event = full_event(2)
    event.staff.create(user=organizer_client.user, role="organizer")
    register(event, "ann")
    register(event, "bob")
    body = organizer_client.get(
        reverse("tournaments:registrations", kwargs={"slug": event.slug})
    ).content.decode()
    assert "Waitlisted #1" in body and "Waitlisted #2" in body
    assert "2 on the waitlist" in body and "2 waitlisted" in body
    assert "Promote" in body


def test_the_organizer_promotes_a_waitlisted_player(organizer_client):
    event = full_event(2)
    event.staff.create(user=organizer_client.user, role="organizer")
    register(event, "ann")
    bob, _ = register(event, "bob")
    url = reverse("tournaments:promote", kwargs={"slug": event.slug, "pk": bob.pk})
    response = organizer_client.post(url, follow=True)
    bob.refresh_from_db()
    assert bob.waitlisted_at is None
    assert "3 players have a place for a cap of 2" in response.content.decode()
    change = RegistrationChange.objects.get(registration=bob, action="promote")
    assert change.user == organizer_client.user


def test_promoting_a_player_with_a_place_is_refused_with_a_message(organizer_client):
    event = capped_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    seated = make_registration(event, "Seated")
    url = reverse("tournaments:promote", kwargs={"slug": event.slug, "pk": seated.pk})
    response = organizer_client.post(url, follow=True)
    assert "already has a place" in response.content.decode()


def test_promoting_after_the_start_makes_a_late_entry():
    event = full_event(2)
    waiting, _ = register(event, "ann")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
    event.rounds.create(number=1, status="closed")
    promoted = services.waitlist_promote(registration=waiting)
    assert promoted.waitlisted_at is None and promoted.joined_round == 2


def test_close_check_in_shows_who_moves_before_doing_it(organizer_client):
    event = capped_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    make_registration(event, "Here One", checked_in=True)
    make_registration(event, "Here Two", checked_in=True)
    make_registration(event, "Absent Abe")
    register(event, "ann")
    url = reverse("tournaments:checkin_close", kwargs={"slug": event.slug})
    body = organizer_client.get(url).content.decode()
    assert "1 not checked in" in body and "Absent Abe" in body
    assert "Move 1 to the waitlist, promote 1" in body
    assert Registration.objects.filter(event=event).waitlist().count() == 1


def test_close_check_in_moves_no_shows_behind_the_waitlist_and_fills_their_places(organizer_client):
    event = capped_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    make_registration(event, "Here One", checked_in=True)
    make_registration(event, "Here Two", checked_in=True)
    absent = make_registration(event, "Absent Abe")
    ann, _ = register(event, "ann")
    bob, _ = register(event, "bob")
    url = reverse("tournaments:checkin_close", kwargs={"slug": event.slug})
    organizer_client.post(url, {"no_shows": "1", "promoted": "1"})
    ann.refresh_from_db(), absent.refresh_from_db()
    assert ann.waitlisted_at is None
    line = list(Registration.objects.filter(event=event).waitlist().values_list("pk", flat=True))
    assert line == [bob.pk, absent.pk]
    assert absent.dropped_at is None  # nobody is dropped: they can be promoted again


def test_closing_check_in_again_keeps_the_players_it_just_promoted(organizer_client):
    event = capped_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    make_registration(event, "Here One", checked_in=True)
    make_registration(event, "Here Two", checked_in=True)
    make_registration(event, "Absent Abe")
    ann, _ = register(event, "ann")
    services.checkin_close(event=event)
    assert services.checkin_close_plan(event).no_shows == []
    ann.refresh_from_db()
    assert ann.waitlisted_at is None


def test_close_check_in_refuses_when_the_lists_changed_since_the_page_was_opened(organizer_client):
    event = capped_event(3)
    event.staff.create(user=organizer_client.user, role="organizer")
    make_registration(event, "Here One", checked_in=True)
    absent = make_registration(event, "Absent Abe")
    url = reverse("tournaments:checkin_close", kwargs={"slug": event.slug})
    response = organizer_client.post(url, {"no_shows": "2", "promoted": "0"})
    assert response.status_code == 400 and "check the lists again" in response.content.decode()
    absent.refresh_from_db()
    assert absent.waitlisted_at is None


def test_a_cap_below_the_players_with_a_place_is_saved_with_a_warning(organizer_client):
    event = full_event(5)
    event.staff.create(user=organizer_client.user, role="organizer")
    data = event_form_data(event, player_cap=3)
    url = reverse("tournaments:event_edit", kwargs={"slug": event.slug})
    response = organizer_client.post(url, data, follow=True)
    assert "2 over the cap of 3" in response.content.decode()
    assert Registration.objects.filter(event=event).entered().count() == 5
