"""Hostile input on every page this change added: no value of any field gives a 500.

Each page's own form is read from its HTML (every input, select and textarea name) and sent back with
every field set to one hostile value: letters where numbers go, a superscript digit, a NUL byte, 10,000
characters, a spreadsheet's CSV row.
"""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from accounts.services import claim_code_issue
from tests.factories import add_staff, make_event, make_players, make_registration, make_user
from tournaments import services
from tournaments.models import EventStaff

pytestmark = pytest.mark.django_db

HOSTILE = [
    "abc",
    "²",
    "-1",
    "1e9",
    "a\x00b",
    "x" * 10_000,
    '"Smith, Ann",ann@example.org,"=SUM(A1)"\r\n',
    " ",
]
FIELD = re.compile(r'<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"', re.I)


def form_fields(page: str) -> set[str]:
    return set(FIELD.findall(page)) - {"csrfmiddlewaretoken"}


@pytest.fixture
def world(client):
    organizer = make_user("olga")
    event = make_event(
        organizer=organizer,
        name="Hostile Open",
        self_registration_open=True,
        self_registration_guests=True,
        player_cap=3,
        sanctioned=False,
    )
    registration = make_registration(event, "Ann Archer")
    waiting = make_registration(event, "Bo Berg", waitlisted_at=timezone.now())
    invitation = services.invitation_send(
        event=event, email="jo@example.org", role=EventStaff.Role.JUDGE, by=organizer, build_url=str
    )
    player = make_user("pia")
    mine = make_registration(event, "Pia Player")
    mine.player.user = player
    mine.player.save()
    admin = make_user("root", is_staff=True)
    add_staff(event, admin, EventStaff.Role.ORGANIZER)
    claim_code_issue(player=registration.player)
    return {
        "event": event,
        "organizer": organizer,
        "player": player,
        "admin": admin,
        "registration": registration,
        "waiting": waiting,
        "invitation": invitation,
    }


def pages(world) -> list[tuple[str, str]]:
    """(who, url) for every page with a form this change added."""
    slug, pk = world["event"].slug, world["registration"].pk
    return [
        ("anonymous", "/accounts/signup/"),
        ("anonymous", "/accounts/login/"),
        ("anonymous", "/accounts/password/reset/"),
        ("anonymous", f"/e/{slug}/"),
        ("anonymous", f"/invitations/{world['invitation'].token}/"),
        ("player", f"/e/{slug}/"),
        ("player", f"/e/{slug}/withdraw/"),
        ("player", "/me/claim/"),
        ("player", "/me/privacy/"),
        ("player", "/accounts/email/"),
        ("player", "/accounts/password/change/"),
        ("player", f"/invitations/{world['invitation'].token}/"),
        ("admin", "/me/organizers/"),
        ("organizer", f"/e/{slug}/staff/edit/"),
        ("organizer", f"/e/{slug}/staff/team/"),
        ("organizer", f"/e/{slug}/staff/players/{pk}/edit/"),
        ("organizer", f"/e/{slug}/staff/players/claim-codes/"),
        ("organizer", f"/e/{slug}/staff/check-in/close/"),
    ]


def log_in(client, world, who: str) -> None:
    client.logout()
    if who != "anonymous":
        client.force_login(world[who])


@pytest.mark.parametrize(
    "value", HOSTILE, ids=["letters", "superscript", "minus", "exp", "nul", "10k", "csv", "space"]
)
def test_no_hostile_value_in_any_field_of_a_new_form_gives_a_500(client, world, value):
    for who, url in pages(world):
        log_in(client, world, who)
        page = client.get(url)
        assert page.status_code < 500, (who, url)
        html = page.content.decode()
        for action in set(re.findall(r'<form\b[^>]*\baction="([^"]+)"', html)) | {url}:
            action = action.replace("&amp;", "&")
            if not action.startswith("/") or action.startswith("/accounts/logout"):
                continue
            data = dict.fromkeys(form_fields(html), value)
            response = client.post(action, data)
            assert response.status_code < 500, (who, action, value[:20])


@pytest.mark.parametrize("token", ["abc", "²", "a\x00b", "x" * 10_000, "%00", "..%2F..%2Fetc"])
def test_hostile_tokens_in_invitation_and_guest_links_are_not_a_500(client, world, token):
    slug = world["event"].slug
    for url in (f"/invitations/{token}/", f"/e/{slug}/register/confirm/{token}/"):
        assert client.get(url).status_code < 500, url
        assert client.post(url).status_code < 500, url


@pytest.mark.parametrize("value", ["abc", "²", "0", "-1", "99999999999999999999", "a\x00"])
def test_hostile_ids_in_the_new_staff_and_player_actions_are_not_a_500(client, world, value):
    slug = world["event"].slug
    log_in(client, world, "player")
    assert client.post(f"/e/{slug}/withdraw/", {"registration": value}).status_code < 500
    log_in(client, world, "admin")
    assert client.post("/me/organizers/", {"approval": value, "decision": "approve"}).status_code < 500
    log_in(client, world, "organizer")
    assert client.post(f"/e/{slug}/staff/team/", {"remove": value}).status_code < 500


@pytest.mark.parametrize("value", ["abc", "²", "99999999999999999999", "a\x00"])
def test_hostile_ids_in_the_judges_pickers_and_the_swap_are_not_a_500(client, world, value):
    from tournaments.services import rounds

    event = world["event"]
    make_players(event, 6)
    for registration in event.registrations.filter(waitlisted_at__isnull=True):
        services.registration_set_checked_in(registration=registration, checked_in=True)
    event = rounds.event_start(event=event, rounds_override=3)
    rounds.round_pair(event=event, number=1, publish=True)
    log_in(client, world, "organizer")
    slug = event.slug
    for url in (
        f"/judging/e/{slug}/clock.json?table={value}",
        f"/judging/e/{slug}/staff/penalties/players/?table={value}",
        f"/judging/e/{slug}/staff/penalties/advice/?registration={value}&infraction={value}",
        f"/judging/e/{slug}/staff/penalties/new/?table={value}",
    ):
        assert client.get(url).status_code < 500, url
    response = client.post(f"/e/{slug}/staff/rounds/1/swap/", {"first": value, "second": value})
    assert response.status_code < 500
    response = client.post(f"/judging/e/{slug}/staff/penalties/new/", {"registration": value, "table": value})
    assert response.status_code < 500


@pytest.mark.parametrize("value", ["a\x00b", "x" * 10_000, "²"])
def test_hostile_search_boxes_are_not_a_500(client, world, value):
    slug = world["event"].slug
    log_in(client, world, "organizer")
    for url in (
        f"/e/{slug}/staff/",
        f"/e/{slug}/standings/",
        f"/judging/e/{slug}/staff/penalties/players/",
        "/rulings/",
        "/",
    ):
        assert client.get(url, {"q": value}).status_code < 500, url
