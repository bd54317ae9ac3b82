"""A player claims a record without an email with the organizer's one-time code; staff and verified
emails link records too. Two records are never merged, and no record is taken from another account."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from accounts import services
from tests.factories import make_event, make_registration, make_user
from tests.permissions import outcome
from tournaments.errors import ActionError
from tournaments.models import Player, RegistrationChange

pytestmark = pytest.mark.django_db

CLAIM = "/me/claim/"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()


def record_with_code(name: str = "Ann Archer"):
    registration = make_registration(make_event(name="Winter Open"), name)
    return registration, services.claim_code_issue(player=registration.player)


def test_the_claim_page_needs_a_login(client):
    assert outcome(client.get(CLAIM)) == "login"
    assert outcome(client.post(CLAIM, {"code": "ABCD-EFGH"})) == "login"


def test_the_claim_url_is_named():
    assert reverse("accounts:claim") == CLAIM


def test_a_code_makes_the_record_the_players_and_shows_it_under_my_events(client):
    registration, code = record_with_code()
    ann = make_user("ann")
    client.force_login(ann)
    response = client.post(CLAIM, {"code": code}, follow=True)
    page = response.content.decode()
    assert "Ann Archer&#x27;s results are now yours" in page or "Ann Archer's results are now yours" in page
    assert "Winter Open" in page
    player = Player.objects.get(pk=registration.player_id)
    assert player.user == ann and player.claim_code == ""
    change = RegistrationChange.objects.get(registration=registration)
    assert (change.action, change.user, change.changes) == ("claim", ann, {"account": ["", "ann"]})


def test_a_code_is_read_without_dashes_spaces_or_case(client):
    registration, code = record_with_code()
    client.force_login(make_user("ann"))
    client.post(CLAIM, {"code": f"  {code.replace('-', ' ').lower()} "})
    assert Player.objects.get(pk=registration.player_id).user is not None


def test_a_code_used_twice_is_a_clear_message_and_keeps_the_typed_value(client):
    registration, code = record_with_code()
    client.force_login(make_user("ann"))
    client.post(CLAIM, {"code": code})
    client.force_login(make_user("bob"))
    response = client.post(CLAIM, {"code": code})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Codes work once" in page and f'value="{code}"' in page
    assert Player.objects.get(pk=registration.player_id).user.username == "ann"


def test_a_wrong_code_is_a_clear_message(client):
    record_with_code()
    client.force_login(make_user("ann"))
    response = client.post(CLAIM, {"code": "ZZZZ-ZZZZ"})
    assert response.status_code == 400 and "No player record has this code" in response.content.decode()


@pytest.mark.parametrize("typed", ["", "abc", "x" * 40, "<script>", "ÄÖÜ-ßßßß"])
def test_nonsense_is_a_field_error_never_a_500(client, typed):
    client.force_login(make_user("ann"))
    response = client.post(CLAIM, {"code": typed})
    assert response.status_code == 400


def test_too_many_wrong_codes_are_refused_for_a_while(client):
    registration, code = record_with_code()
    client.force_login(make_user("ann"))
    for _ in range(20):
        client.post(CLAIM, {"code": "ZZZZ-ZZZZ"})
    response = client.post(CLAIM, {"code": code})
    assert response.status_code == 400 and "Too many wrong codes" in response.content.decode()
    assert Player.objects.get(pk=registration.player_id).user is None


def test_a_code_works_once_even_when_the_second_claim_was_already_under_way():
    # The second claim found the code before the first one committed: under the row lock it sees the
    # code gone and is refused.
    registration, code = record_with_code()
    services.player_claim(user=make_user("ann"), code=code)
    with pytest.raises(ActionError, match="Codes work once"):
        services.player_claim(user=make_user("bob"), code=code)


def test_a_verified_email_links_every_record_with_it_but_none_owned_by_another_account():
    event = make_event()
    mine = make_registration(event, "Ann Archer").player
    old = make_registration(make_event(), "Ann Archer").player
    taken = make_registration(make_event(), "Ann A.").player
    bob = make_user("bob")
    Player.objects.filter(pk__in=[mine.pk, old.pk, taken.pk]).update(email="ann@x.org")
    Player.objects.filter(pk=taken.pk).update(user=bob)
    ann = make_user("ann", email="ann@x.org")
    services.players_link_for_email(user=ann, email="ann@x.org")
    owners = dict(Player.objects.values_list("pk", "user__username"))
    assert owners[mine.pk] == owners[old.pk] == "ann" and owners[taken.pk] == "bob"
    assert Player.objects.count() == 3  # linked, never merged


def test_confirming_an_email_address_links_the_records(client):
    from allauth.account.models import EmailAddress
    from allauth.account.signals import email_confirmed

    registration = make_registration(make_event(), "Ann Archer")
    Player.objects.filter(pk=registration.player_id).update(email="ann@x.org")
    ann = make_user("ann", email="")
    address = EmailAddress.objects.create(user=ann, email="ann@x.org", verified=True)
    email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
    assert Player.objects.get(pk=registration.player_id).user == ann


def event_victor_plays():
    """An event the account "victor" is registered for, as Victor Stone."""
    event, user = make_event(), make_user("victor")
    Player.objects.filter(pk=make_registration(event, "Victor Stone").player_id).update(user=user)
    return event, user


def test_an_account_already_playing_the_event_cannot_claim_a_second_place_there(client):
    event, user = event_victor_plays()
    other = make_registration(event, "Hal Jordan")
    code = services.claim_code_issue(player=other.player)
    client.force_login(user)
    page = client.post("/me/claim/", {"code": code}).content.decode()
    assert "already registered for" in page and "Victor Stone" in page
    other.player.refresh_from_db()
    assert other.player.user is None


def test_staff_cannot_give_an_account_a_second_place_in_an_event(client):
    event, user = event_victor_plays()
    other = make_registration(event, "Hal Jordan")
    with pytest.raises(ActionError, match="one person cannot hold two places"):
        services.player_link(player=other.player, user=user, by=None)


def test_a_verified_email_does_not_link_a_record_that_would_give_two_places(client):
    event, user = event_victor_plays()
    other = make_registration(event, "Vic Stone")
    other.player.email = "victor@example.org"
    other.player.save()
    services.players_link_for_email(user=user, email="victor@example.org")
    other.player.refresh_from_db()
    assert other.player.user is None
