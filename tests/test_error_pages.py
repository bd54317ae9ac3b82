import pytest
from django.urls import reverse

from tests.factories import make_event, make_user

pytestmark = pytest.mark.django_db


def test_a_refused_staff_page_explains_why(client):
    event = make_event(organizer=make_user())
    client.force_login(make_user())
    response = client.get(reverse("tournaments:registrations", kwargs={"slug": event.slug}))
    assert response.status_code == 403
    assert "not on this event&#x27;s staff" in response.content.decode()


def test_an_unknown_event_is_a_friendly_404(client, settings):
    settings.DEBUG = False
    response = client.get("/e/no-such-event/")
    assert response.status_code == 404
    assert "All events" in response.content.decode()
