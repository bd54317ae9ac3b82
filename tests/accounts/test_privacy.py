"""A player may appear on public pages as "Ann Z."; staff pages, slips and sheets keep the full name."""

from __future__ import annotations

import random

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts import services
from judging import services as judging_services
from judging.models import Infraction
from tests.factories import make_event, make_players, make_registration, make_user
from tests.permissions import outcome
from tests.tournaments.flow import play_round
from tournaments import printouts
from tournaments.models import Event, Player, Registration, Round, Seat
from tournaments.services import rounds

pytestmark = pytest.mark.django_db

SURNAME = "Zyxwvut"
FULL = f"Ann {SURNAME}"
SHORT = "Ann Z."


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def finished_event() -> tuple[Event, Registration]:
    """Eight players, Swiss rounds and a final, a published penalty for Ann, who chose "Ann Z."."""
    organizer = make_user("org")
    event = make_event(organizer=organizer, publish_penalties=True)
    ann = make_registration(event, FULL, checked_in=True)
    make_players(event, 7)
    ann_user = make_user("ann")
    Player.objects.filter(pk=ann.player_id).update(user=ann_user)
    event = rounds.event_start(event=event)
    for number in range(1, event.swiss_rounds + 1):
        round = rounds.round_pair(event=event, number=number, publish=True)
        if number == 1:
            judging_services.penalty_record(
                event=event,
                user=organizer,
                infraction=Infraction.objects.get(rule="10.060"),
                type="warning",
                registration=ann,
            )
        play_round(round, random.Random(number))
    play_round(rounds.playoffs_start(event=event, publish=True), random.Random(9))
    services.privacy_set(user=ann_user, short_name=True)
    return Event.objects.get(pk=event.pk), Registration.objects.select_related("player__user").get(pk=ann.pk)


def public_pages(event: Event, ann: Registration) -> dict[str, str]:
    seat = Seat.objects.filter(registration=ann, round__number=1).select_related("table").get()
    slug = event.slug
    return {
        "event page": reverse("tournaments:event_detail", kwargs={"slug": slug}),
        "event live": reverse("tournaments:event_live", kwargs={"slug": slug}),
        "pairings": reverse("tournaments:pairings", kwargs={"slug": slug, "number": 1}),
        "final pairings": reverse(
            "tournaments:pairings", kwargs={"slug": slug, "number": event.swiss_rounds + 1}
        ),
        "standings": reverse("tournaments:standings", kwargs={"slug": slug}),
        "standings csv": reverse("tournaments:standings", kwargs={"slug": slug}) + "?_export=csv",
        "standings search": reverse("tournaments:standings", kwargs={"slug": slug}) + "?q=ann",
        "player page": reverse("tournaments:player", kwargs={"slug": slug, "pk": ann.pk}),
        "api event": reverse("tournaments:api_event", kwargs={"slug": slug}),
        "api round": reverse("tournaments:api_round", kwargs={"slug": slug, "number": 1}),
        "api standings": reverse("tournaments:api_standings", kwargs={"slug": slug}),
        "penalties": reverse("judging:public_penalties", kwargs={"slug": slug}),
        "table page": reverse(
            "judging:table", kwargs={"slug": slug, "number": 1, "table": seat.table.number}
        ),
        "projector": reverse("judging:projector", kwargs={"slug": slug}),
    }


def text_of(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_every_public_page_shows_the_short_name_and_never_the_surname(client):
    event, ann = finished_event()
    for label, url in public_pages(event, ann).items():
        response = client.get(url)
        assert response.status_code == 200, label
        page = text_of(response)
        assert SURNAME.lower() not in page.lower(), label
        if label not in ("projector", "final pairings"):  # Ann may not play the final
            assert SHORT in page, label


def test_the_final_ranking_and_find_my_table_use_the_short_name(client):
    event, ann = finished_event()
    page = client.get(
        reverse("tournaments:pairings", kwargs={"slug": event.slug, "number": 1})
    ).content.decode()
    # "By name" sorts her as "Z., Ann": typing her first name finds her table.
    assert 'data-player="z., ann"' in page and "<td>Z., Ann</td>" in page
    home = client.get(reverse("tournaments:event_detail", kwargs={"slug": event.slug})).content.decode()
    assert f">{SHORT}</a></li>" in home  # the final ranking


def test_staff_pages_slips_and_sheets_keep_the_full_name(client):
    event, ann = finished_event()
    client.force_login(event.staff.get().user)
    staff = client.get(reverse("tournaments:registrations", kwargs={"slug": event.slug})).content.decode()
    assert FULL in staff
    csv = client.get(reverse("tournaments:registrations", kwargs={"slug": event.slug}) + "?_export=csv")
    assert FULL in text_of(csv)
    round = Round.objects.get(event=event, number=1)
    assert FULL in [p.name for t in printouts.slips_document(round).tables for p in t.players]
    assert f"{SURNAME}, Ann" in [s.sort_name for s in printouts.pairings_document(round).seatings]


def test_the_event_page_lists_registered_players_by_their_public_name(client):
    event = make_event()
    registration = make_registration(event, FULL)
    Player.objects.filter(pk=registration.player_id).update(public_short_name=True)
    page = client.get(event.get_absolute_url()).content.decode()
    assert SHORT in page and SURNAME not in page


def test_a_privacy_change_reaches_pages_already_cached(client):
    event, ann = finished_event()
    services.privacy_set(user=ann.player.user, short_name=False)
    urls = [
        reverse("tournaments:standings", kwargs={"slug": event.slug}),
        reverse("tournaments:pairings", kwargs={"slug": event.slug, "number": 1}),
    ]
    for url in urls:
        assert FULL in client.get(url).content.decode()
    services.privacy_set(user=ann.player.user, short_name=True)
    for url in urls:
        page = client.get(url).content.decode()
        assert SHORT in page and SURNAME not in page


def test_an_edited_name_reaches_pages_already_cached(client):
    event, ann = finished_event()
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    client.get(url)
    Player.objects.filter(pk=ann.player_id).update(name="Bea Quux")
    assert "Bea Q." in client.get(url).content.decode()


# --- the privacy page ------------------------------------------------------------------------------


def test_the_privacy_page_needs_a_login(client):
    assert outcome(client.get("/me/privacy/")) == "login"
    assert outcome(client.post("/me/privacy/", {"show_as": "short"})) == "login"
    assert reverse("accounts:privacy") == "/me/privacy/"


def test_choosing_the_short_name_applies_to_every_record_of_the_account(client):
    ann = make_user("ann")
    first = make_registration(make_event(), FULL).player
    second = make_registration(make_event(), "Ann Z").player
    Player.objects.filter(pk__in=[first.pk, second.pk]).update(user=ann)
    client.force_login(ann)
    page = client.get("/me/privacy/").content.decode()
    assert FULL in page and SHORT in page
    response = client.post("/me/privacy/", {"show_as": "short"}, follow=True)
    assert f"Public pages now show you as {SHORT}" in response.content.decode()
    assert list(Player.objects.filter(user=ann).values_list("public_short_name", flat=True)) == [True, True]
    client.post("/me/privacy/", {"show_as": "full"})
    assert not Player.objects.filter(user=ann, public_short_name=True).exists()


def test_a_bad_choice_is_a_field_error(client):
    ann = make_user("ann")
    Player.objects.filter(pk=make_registration(make_event(), FULL).player_id).update(user=ann)
    client.force_login(ann)
    response = client.post("/me/privacy/", {"show_as": "nickname"})
    assert response.status_code == 400
    assert not Player.objects.filter(public_short_name=True).exists()


def test_without_a_record_the_page_says_there_is_nothing_to_show_yet(client):
    client.force_login(make_user("ann"))
    page = client.get("/me/privacy/").content.decode()
    assert "No player record is linked to your account yet" in page


def test_a_record_linked_later_follows_the_accounts_choice():
    ann = make_user("ann")
    Player.objects.filter(pk=make_registration(make_event(), FULL).player_id).update(user=ann)
    services.privacy_set(user=ann, short_name=True)
    later = make_registration(make_event(), FULL).player
    services.player_link(player=later, user=ann, by=None)
    later.refresh_from_db()
    assert later.public_name == SHORT


def test_the_account_pages_link_to_each_other(client):
    client.force_login(make_user("ann"))
    page = client.get("/me/").content.decode()
    for url in ("/me/claim/", "/me/privacy/", "/me/data.json", reverse("account_email")):
        assert f'href="{url}"' in page


def test_searching_the_standings_by_surname_does_not_reveal_a_short_named_player(client):
    event, ann = finished_event()
    url = reverse("tournaments:standings", kwargs={"slug": event.slug})
    table = client.get(url, {"q": SURNAME}).content.decode().split('<table class="standings">')[1]
    assert SHORT not in table
    table = client.get(url, {"q": "ann"}).content.decode().split('<table class="standings">')[1]
    assert SHORT in table
