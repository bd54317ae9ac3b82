"""Every staff URL, for every kind of visitor: who gets in, who is refused.

Expected outcomes: "login" (redirect to the login page), 403, or "ok" (anything but
a refusal: 200, or a redirect elsewhere after a POST).
"""

import pytest
from django.urls import reverse

from tests.factories import add_staff, make_event, make_registration, make_user
from tests.permissions import MANAGE, RUN, VISITORS, log_in_as, outcome
from tournaments.models import EventStaff

pytestmark = pytest.mark.django_db

# (url name, method, needs a registration pk, POST data, expected per visitor)
STAFF_URLS = [
    ("tournaments:registrations", "get", False, None, RUN),
    ("tournaments:player_add", "get", False, None, RUN),
    ("tournaments:player_add", "post", False, {"name": "New Player"}, RUN),
    ("tournaments:roster_bulk_add", "get", False, None, RUN),
    ("tournaments:roster_bulk_add", "post", False, {"text": "A B\nC D", "confirm": "1"}, RUN),
    ("tournaments:check_in", "post", True, {"checked_in": "1"}, RUN),
    ("tournaments:check_in_all", "post", False, {}, RUN),
    ("tournaments:drop", "post", True, {"reason": "x"}, RUN),
    ("tournaments:undrop", "post", True, {}, RUN),
    ("tournaments:promote", "post", True, {}, RUN),
    ("tournaments:checkin_close", "get", False, None, RUN),
    ("tournaments:event_edit", "get", False, None, MANAGE),
    ("tournaments:event_delete", "get", False, None, MANAGE),
    ("tournaments:self_registration", "post", False, {"open": "1"}, MANAGE),
    ("tournaments:staff", "get", False, None, MANAGE),
    ("tournaments:staff", "post", False, {"username": "nobody", "role": "judge"}, MANAGE),
]


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("name", "method", "needs_pk", "data", "expected"), STAFF_URLS)
def test_staff_urls(client, visitor, name, method, needs_pk, data, expected):
    event = make_event(organizer=make_user())
    registration = make_registration(event, "Ann Archer")
    kwargs = {"slug": event.slug, **({"pk": registration.pk} if needs_pk else {})}
    url = reverse(name, kwargs=kwargs)
    log_in_as(client, visitor, event)
    response = getattr(client, method)(url, data or {})
    assert outcome(response) == expected[visitor]


def test_event_delete_is_refused_to_a_judge_and_keeps_the_event(client):
    event = make_event(organizer=make_user())
    judge = make_user()
    add_staff(event, judge, EventStaff.Role.HEAD_JUDGE)
    client.force_login(judge)
    response = client.post(
        reverse("tournaments:event_delete", kwargs={"slug": event.slug}), {"confirm_name": event.name}
    )
    assert response.status_code == 403
    event.refresh_from_db()


def test_creating_an_event_needs_a_login(client):
    response = client.get(reverse("tournaments:event_create"))
    assert response.status_code == 302 and response.url.startswith(reverse("account_login"))


@pytest.mark.parametrize("name", ["tournaments:event_list"])
def test_public_pages_are_open(client, name):
    assert client.get(reverse(name)).status_code == 200


def test_public_event_page_is_open(client):
    event = make_event()
    assert client.get(event.get_absolute_url()).status_code == 200


# The players' table page and dropping from one's own page: logged-in only; acting is for the seated player
# (and the registration's owner), staff enter results on their own page.
def _published_table(event):
    from django.utils import timezone

    from tests.judging.helpers import seat_round

    registrations = [make_registration(event, f"Player {i}") for i in range(4)]
    round = seat_round(event, registrations)
    round.published_at = timezone.now()
    round.save()
    return registrations


SEEN = {"anonymous": "login", **dict.fromkeys(VISITORS[1:], "ok")}
SEATED_ONLY = {"anonymous": "login", **dict.fromkeys(VISITORS[1:], 403), "player": "ok"}


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(
    ("name", "method", "data", "expected"),
    [
        ("tournaments:table", "get", None, SEEN),
        ("tournaments:table", "post", {"action": "report"}, SEATED_ONLY),
        ("tournaments:self_drop", "get", None, SEATED_ONLY),
        ("tournaments:self_drop", "post", {"confirm": "1"}, SEATED_ONLY),
    ],
)
def test_player_table_urls(client, visitor, name, method, data, expected):
    event = make_event(organizer=make_user(), status="running", swiss_rounds=3)
    registrations = _published_table(event)
    if name == "tournaments:table":
        kwargs = {"slug": event.slug, "number": 1, "table": 1}
    else:
        kwargs = {"slug": event.slug, "pk": registrations[0].pk}
    log_in_as(client, visitor, event, registration=registrations[0])
    response = getattr(client, method)(reverse(name, kwargs=kwargs), data or {})
    assert outcome(response) == expected[visitor]
