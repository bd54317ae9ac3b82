"""Each kind of hostile input the walk found, fixed once at its home, checked on its own: a NUL byte in a
form, a form that cannot be read, a "next" address that is not a path, a slip version that is not a number,
a delete that penalties block, scoring that is not a finite number, a page size that is negative."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from tests.factories import make_event, make_user
from tests.hostile import build_world
from tournaments.http import posted_version, safe_next
from tournaments.models import Event, Seat, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(client):
    world = build_world()
    client.force_login(world.users["organizer"])
    return world


def test_a_nul_byte_typed_in_a_form_is_a_field_error_and_the_form_keeps_the_rest(client, world):
    url = reverse("tournaments:player_add", kwargs={"slug": world.event.slug})
    response = client.post(url, {"name": "Cy\x00Cole", "notes": "table by the door"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Null characters are not allowed." in page and "table by the door" in page
    assert world.event.registrations.count() == 8


def test_a_form_that_cannot_be_read_is_a_400_page_that_says_so(client, world):
    url = reverse("tournaments:player_add", kwargs={"slug": world.event.slug})
    response = client.generic("POST", url, b"name=Ann", content_type="multipart/form-data")
    assert response.status_code == 400
    assert "could not be read" in response.content.decode()


@pytest.mark.parametrize("value", ["abc", "١٢", "a\x00b", "javascript:alert(1)", "//evil.example/", ""])
def test_a_next_address_that_is_not_a_path_of_this_site_falls_back_to_the_default(value):
    request = RequestFactory().post("/", {"next": value})
    assert safe_next(request, "/home/") == "/home/"


def test_a_next_path_of_this_site_is_kept():
    assert safe_next(RequestFactory().post("/", {"next": "/e/x/"}), "/home/") == "/e/x/"


@pytest.mark.parametrize("value", ["abc", "²", "١٢", "-1", "", None, "99999999999999999999"])
def test_a_slip_version_that_is_not_a_number_matches_no_saved_version(value):
    assert posted_version(value) == -1


def test_a_slip_saved_with_a_version_that_is_not_a_number_is_a_conflict_not_a_500(client, world):
    table = Table.objects.get(round=world.round, number=2)
    before = [(s.vp, s.placement) for s in Seat.objects.filter(table=table).order_by("seat")]
    data = {"version": "abc"}
    for seat in Seat.objects.filter(table=table).order_by("seat"):
        data.update({f"seat{seat.pk}-vp": 1, f"seat{seat.pk}-super_villains": 0})
    url = reverse("tournaments:table_result", kwargs={"slug": world.event.slug, "number": 1, "table": 2})
    response = client.post(url, data)
    assert response.status_code == 200
    assert "while you were editing" in response.content.decode()
    assert [(s.vp, s.placement) for s in Seat.objects.filter(table=table).order_by("seat")] == before


def test_deleting_an_event_with_penalties_says_what_blocks_it_and_deletes_nothing(client, world):
    url = reverse("tournaments:event_delete", kwargs={"slug": world.event.slug})
    response = client.post(url, {"confirm_name": world.event.name})
    assert response.status_code == 409
    page = response.content.decode()
    assert "Hostile Open cannot be deleted: it has 1 penalty on record" in page
    assert 'value="Hostile Open"' in page  # the form keeps what was typed
    assert Event.objects.filter(pk=world.event.pk).exists()
    assert world.event.registrations.count() == 8


def test_deleting_an_event_without_penalties_still_deletes_it(client):
    organizer = make_user()
    event = make_event(organizer=organizer, name="Quiet Open")
    client.force_login(organizer)
    response = client.post(
        reverse("tournaments:event_delete", kwargs={"slug": event.slug}), {"confirm_name": "Quiet Open"}
    )
    assert response.status_code == 302
    assert not Event.objects.filter(pk=event.pk).exists()


@pytest.mark.parametrize("points", ["nan, 3, 2", "inf, 3, 2", "1e999, 3, 2"])
def test_scoring_that_is_not_a_finite_number_is_a_form_error(points):
    from tests.factories import event_form_data
    from tournaments.forms import EventForm

    form = EventForm(event_form_data(scoring_text=f"3: {points}; 4: 5, 3, 2, 2"))
    assert not form.is_valid()
    assert "must be finite numbers" in str(form.errors["scoring_text"])


def test_a_player_id_past_the_database_integers_is_not_found(client):
    from tests.factories import make_event, make_user

    event = make_event(organizer=make_user("org-overflow"))
    response = client.get(f"/e/{event.slug}/players/99999999999999999999/")
    assert response.status_code == 404


@pytest.mark.parametrize("name", ["tournaments:standings", "tournaments:registrations"])
def test_a_negative_per_page_is_ignored_not_a_500(client, world, name):
    response = client.get(reverse(name, kwargs={"slug": world.event.slug}), {"per_page": "-1", "page": "3"})
    assert response.status_code == 200
    assert len(response.context["table"].page.object_list) == 8
