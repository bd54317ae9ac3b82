"""A roster import saves in batches (a 10,000-row CSV within gunicorn's timeout: bench/bench_import.py) and
does what adding the players one by one did: same person by email, verified owners linked, all or nothing."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress

from tests.factories import make_event, make_registration, make_user
from tournaments.errors import ActionError
from tournaments.models import Player, Registration, RegistrationChange
from tournaments.services import roster_import

pytestmark = pytest.mark.django_db


def csv_text(rows: list[tuple[str, str, str]]) -> str:
    return "name,email,notes\n" + "\n".join(",".join(row) for row in rows)


def roster(count: int, *, offset: int = 0) -> str:
    """``count`` players: every other one with an email, every fifth with a note."""
    return csv_text(
        [
            (
                f"Player {offset + i} Example",
                f"p{offset + i}@example.org" if i % 2 else "",
                "late" if i % 5 == 0 else "",
            )
            for i in range(count)
        ]
    )


def known_people(count: int, *, offset: int = 0) -> None:
    """Records and accounts the roster's emails name: an earlier event's players and verified accounts."""
    earlier = make_event()
    for i in range(1, count, 4):
        player = Player.objects.create(
            name=f"Player {offset + i} Example", email=f"p{offset + i}@example.org"
        )
        Registration.objects.create(event=earlier, player=player)
    for i in range(3, count, 8):
        make_user(f"owner{offset + i}", email=f"p{offset + i}@example.org")


def import_queries(assert_max, count: int, offset: int) -> list[str]:
    known_people(count, offset=offset)
    event, text = make_event(), roster(count, offset=offset)
    with assert_max(30) as queries:
        assert len(roster_import(event=event, text=text)) == count
    return [q["sql"] for q in queries.captured_queries]


def test_it_imports_in_a_number_of_queries_that_does_not_grow_with_the_rows(django_assert_max_num_queries):
    small = import_queries(django_assert_max_num_queries, 20, offset=0)
    large = import_queries(django_assert_max_num_queries, 200, offset=1000)
    # Only the INSERT batches grow (SQLite takes 999 values per statement): every read is done once.
    reads = [[sql for sql in run if not sql.startswith("INSERT")] for run in (small, large)]
    assert len(reads[0]) == len(reads[1])


def test_it_saves_every_row_as_written():
    event = make_event()
    created = roster_import(event=event, text=csv_text([("Ann  Marie Archer", "ann@example.org", "late")]))
    registration = Registration.objects.select_related("player").get(pk=created[0].pk)
    player = registration.player
    assert (player.name, player.sort_name, player.email) == (
        "Ann Marie Archer",
        "Archer, Ann Marie",
        "ann@example.org",
    )
    assert (registration.notes, registration.joined_round, registration.waitlisted) == ("late", 1, False)


def test_it_gives_every_row_a_place_even_over_the_cap():
    event = make_event(player_cap=3, sanctioned=False)
    roster_import(event=event, text=roster(5))
    assert Registration.objects.filter(event=event, waitlisted_at__isnull=True).count() == 5


def test_it_reuses_the_player_an_email_names_whatever_its_case():
    earlier = make_registration(make_event(), "Ann Archer")
    earlier.player.email = "Ann@Example.org"
    earlier.player.save()
    created = roster_import(event=make_event(), text=csv_text([("Ann Archer", "ann@example.org", "")]))
    assert created[0].player_id == earlier.player_id
    assert Player.objects.count() == 1


def test_it_links_a_record_to_the_account_that_verified_its_email_and_says_so_in_each_history():
    ann = make_user("ann")
    earlier = make_registration(make_event(), "Ann Archer")
    earlier.player.email = "ann@example.org"
    earlier.player.save()
    created = roster_import(event=make_event(), text=csv_text([("Ann Archer", "ann@example.org", "")]))
    assert Player.objects.get(pk=created[0].player_id).user == ann
    changes = RegistrationChange.objects.filter(action="link", note="verified email")
    assert sorted(c.registration_id for c in changes) == sorted([earlier.pk, created[0].pk])
    assert all(c.changes == {"account": ["", "ann"]} and c.user is None for c in changes)


def test_it_leaves_an_unverified_email_unlinked():
    make_user("ann", verified=False)
    created = roster_import(event=make_event(), text=csv_text([("Ann Archer", "ann@example.org", "")]))
    assert Player.objects.get(pk=created[0].player_id).user is None


def test_it_never_takes_over_a_record_another_account_owns():
    make_user("ann")
    bob = make_user("bob")
    Player.objects.create(name="Ann Archer", email="ann@example.org", user=bob)
    created = roster_import(event=make_event(), text=csv_text([("Ann Archer", "ann@example.org", "")]))
    assert Player.objects.get(pk=created[0].player_id).user == bob


def test_it_never_gives_one_account_two_places_at_the_event():
    ann = make_user("ann")
    EmailAddress.objects.create(user=ann, email="ann.work@example.org", verified=True)
    text = csv_text([("Ann Archer", "ann@example.org", ""), ("A. Archer", "ann.work@example.org", "")])
    created = roster_import(event=make_event(), text=text)
    owners = [Player.objects.get(pk=r.player_id).user for r in created]
    assert owners == [ann, None]  # the first is hers; the second stays for staff to sort out


def test_it_follows_the_accounts_choice_of_a_short_public_name():
    ann = make_user("ann")
    Player.objects.create(name="Ann Archer", email="old@example.org", user=ann, public_short_name=True)
    created = roster_import(event=make_event(), text=csv_text([("Ann Archer", "ann@example.org", "")]))
    assert Player.objects.get(pk=created[0].player_id).public_short_name is True


def test_a_failure_while_saving_leaves_the_data_as_it_was(monkeypatch):
    make_user("ann")
    event = make_event()

    def fails(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("accounts.services.players_link_verified_owners", fails)
    with pytest.raises(RuntimeError):
        roster_import(event=event, text=roster(30))
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_a_player_registered_meanwhile_is_refused_and_nothing_is_imported(monkeypatch):
    event = make_event()
    ann = make_registration(event, "Ann Archer")
    ann.player.email = "ann@example.org"
    ann.player.save()
    # The check passed (as if read before Ann was added), then her registration meets the unique constraint.
    monkeypatch.setattr("tournaments.services.registration.roster_preview", _preview_of_an_empty_event)
    with pytest.raises(ActionError, match="registered for this event meanwhile"):
        roster_import(
            event=event, text=csv_text([("Bob Baker", "", ""), ("Ann Archer", "ann@example.org", "")])
        )
    assert list(Registration.objects.filter(event=event)) == [ann]
    assert not Player.objects.filter(name="Bob Baker").exists()


def _preview_of_an_empty_event(*, event, text):
    from tournaments.roster import parse_roster

    return parse_roster(text)
