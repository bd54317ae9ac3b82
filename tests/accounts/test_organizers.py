"""Who creates events: any verified account, or (EVENT_CREATION=approved) accounts an administrator approved."""

import pytest

from accounts.models import OrganizerApproval
from tests.factories import event_form_data, make_user
from tournaments.models import Event

pytestmark = pytest.mark.django_db

EVENT = event_form_data()


def test_an_account_without_a_verified_email_is_told_to_confirm_it(client):
    client.force_login(make_user("ann", verified=False))
    response = client.post("/events/new/", EVENT)
    assert response.status_code == 403
    assert "confirm your email address" in response.content.decode()
    assert not Event.objects.exists()


def test_the_new_event_button_shows_only_to_those_who_may_create(client):
    client.force_login(make_user("ann", verified=False))
    assert "New event" not in client.get("/").content.decode()
    client.force_login(make_user("bo"))
    assert "New event" in client.get("/").content.decode()


def test_with_approval_required_a_verified_account_asks_and_waits(client, settings):
    settings.EVENT_CREATION = "approved"
    user = make_user("ann")
    client.force_login(user)
    page = client.get("/events/new/").content.decode()
    assert "a site administrator approves" in page
    response = client.post("/events/new/", {"request_organizer": "1", "note": "The Comic Vault league"})
    assert response.status_code == 302
    assert OrganizerApproval.objects.get(user=user).note == "The Comic Vault league"
    assert "has not answered yet" in client.get("/events/new/").content.decode()


def test_an_administrator_approves_and_the_account_creates_events(client, settings):
    settings.EVENT_CREATION = "approved"
    user = make_user("ann")
    approval = OrganizerApproval.objects.create(user=user)
    admin = make_user("admin", is_staff=True)
    client.force_login(admin)
    assert "ann" in client.get("/me/organizers/").content.decode()
    client.post("/me/organizers/", {"approval": approval.pk, "decision": "approve"})
    client.force_login(user)
    assert client.post("/events/new/", EVENT).status_code == 302
    assert Event.objects.filter(name="Sunday Open").exists()


def test_a_declined_account_may_ask_again(client, settings):
    settings.EVENT_CREATION = "approved"
    user = make_user("ann")
    approval = OrganizerApproval.objects.create(user=user)
    client.force_login(make_user("admin", is_staff=True))
    client.post("/me/organizers/", {"approval": approval.pk, "decision": "decline"})
    client.force_login(user)
    assert "was declined" in client.get("/events/new/").content.decode()
    assert client.post("/events/new/", EVENT).status_code == 403


@pytest.mark.parametrize(
    ("who", "expected"), [("anonymous", 302), ("player", 403), ("organizer", 403), ("site_admin", 200)]
)
def test_only_site_administrators_see_the_approvals(client, who, expected):
    if who != "anonymous":
        client.force_login(make_user(who, is_staff=who == "site_admin"))
    assert client.get("/me/organizers/").status_code == expected


def test_a_bad_approval_id_is_a_404_not_an_error(client):
    client.force_login(make_user("admin", is_staff=True))
    assert client.post("/me/organizers/", {"approval": "abc", "decision": "approve"}).status_code == 404
