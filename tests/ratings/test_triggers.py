"""What enqueues a ratings recompute (after the commit), and that a page view never computes one."""

from __future__ import annotations

import pytest

from accounts import services as account_services
from ratings import services as rating_services
from ratings.models import PlayerRating, RatingState
from tests.factories import make_user
from tournaments.models import Round, Seat, Table
from tournaments.services import deletion, results, rounds

from .helpers import simulated_event

pytestmark = pytest.mark.django_db


def enqueued(callbacks) -> int:
    return sum(1 for c in callbacks if c is rating_services._send)


def test_closing_a_round_recomputes_the_ratings(django_capture_on_commit_callbacks):
    event = simulated_event()
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    rounds.round_reopen(round=final)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_close(round=final)
    closed_tables = Table.objects.filter(round__event=event, round__status=Round.Status.CLOSED).count()
    assert RatingState.objects.get().games == closed_tables
    assert PlayerRating.objects.exists()


def test_reopening_a_round_takes_its_games_out(django_capture_on_commit_callbacks):
    event = simulated_event()
    rating_services.ratings_recompute()
    games = RatingState.objects.get().games
    final = Round.objects.get(event=event, kind=Round.Kind.FINAL)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.round_reopen(round=final)
    assert RatingState.objects.get().games == games - 1


def test_a_correction_after_the_round_closed_enqueues_a_recompute(django_capture_on_commit_callbacks):
    event = simulated_event()
    table = Table.objects.filter(round__event=event, round__number=1).first()
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    entries = [results.SeatEntry(seat_id=s.pk, vp=50 - 5 * i, super_villains=0) for i, s in enumerate(seats)]
    with django_capture_on_commit_callbacks() as callbacks:
        results.result_enter(
            table=table, entries=entries, expected_version=table.version, user=None, reason="wrong VP"
        )
    assert enqueued(callbacks) == 1


def test_claiming_a_record_enqueues_a_recompute(django_capture_on_commit_callbacks):
    event = simulated_event()
    player = Seat.objects.filter(round__event=event).first().registration.player
    code = account_services.claim_code_issue(player=player)
    with django_capture_on_commit_callbacks() as callbacks:
        account_services.player_claim(user=make_user(), code=code)
    assert enqueued(callbacks) == 1


def test_unlinking_a_record_enqueues_a_recompute(django_capture_on_commit_callbacks):
    event = simulated_event()
    player = Seat.objects.filter(round__event=event).first().registration.player
    user = make_user()
    account_services.player_link(player=player, user=user, by=None)
    with django_capture_on_commit_callbacks() as callbacks:
        account_services.player_unlink(player=player, by=None)
    assert enqueued(callbacks) == 1


def test_editing_a_players_name_enqueues_nothing(django_capture_on_commit_callbacks):
    event = simulated_event()
    player = Seat.objects.filter(round__event=event).first().registration.player
    with django_capture_on_commit_callbacks() as callbacks:
        player.name = "Someone Else"
        player.save()
    assert enqueued(callbacks) == 0


def test_deleting_an_event_enqueues_a_recompute(django_capture_on_commit_callbacks):
    event = simulated_event()
    with django_capture_on_commit_callbacks() as callbacks:
        deletion.event_delete(event=event)
    assert enqueued(callbacks) == 1


def test_an_unreachable_broker_leaves_the_ratings_as_they_were(monkeypatch):
    from ratings import tasks

    def refuse(*args, **kwargs):
        raise ConnectionError("no broker")

    monkeypatch.setattr(tasks.ratings_recompute_task, "apply_async", refuse)
    rating_services._send()  # logs, does not raise
    assert not RatingState.objects.exists()


def test_a_page_view_never_computes_ratings(client):
    simulated_event()
    assert client.get("/ratings/").status_code == 200
    assert not RatingState.objects.exists() and not PlayerRating.objects.exists()


def test_a_record_loaded_without_its_account_costs_no_query_and_enqueues_only_for_the_account(
    django_capture_on_commit_callbacks, django_assert_num_queries
):
    from tournaments.models import Player

    event = simulated_event()
    pk = Seat.objects.filter(round__event=event).first().registration.player_id
    with django_assert_num_queries(1):
        player = Player.objects.only("name").get(pk=pk)
    with django_capture_on_commit_callbacks() as callbacks:
        player.name = "Renamed"
        player.save(update_fields=["name"])
    assert enqueued(callbacks) == 0
    with django_capture_on_commit_callbacks() as callbacks:
        player.user = make_user()
        player.save(update_fields=["user"])
    assert enqueued(callbacks) == 1


def test_claiming_a_record_without_a_counted_game_enqueues_nothing(django_capture_on_commit_callbacks):
    from tests.factories import make_event, make_registration

    player = make_registration(make_event(), "Nadia Nogames").player
    code = account_services.claim_code_issue(player=player)
    with django_capture_on_commit_callbacks() as callbacks:
        account_services.player_claim(user=make_user(), code=code)
    assert enqueued(callbacks) == 0


def roster_of_players(players) -> str:
    return "name,email\n" + "\n".join(f"{p.name},{p.email}" for p in players)


def test_a_roster_import_that_links_records_with_counted_games_enqueues_one_recompute(
    django_capture_on_commit_callbacks,
):
    from tests.factories import make_event
    from tournaments.models import Player
    from tournaments.services import roster_import

    event = simulated_event()
    players = list(Player.objects.filter(registrations__event=event).order_by("pk")[:2])
    for n, player in enumerate(players):
        player.email = f"played{n}@example.org"
        player.save(update_fields=["email"])
        make_user(f"played{n}", email=player.email)
    with django_capture_on_commit_callbacks() as callbacks:
        roster_import(event=make_event(), text=roster_of_players(players))
    assert Player.objects.filter(pk__in=[p.pk for p in players], user__isnull=False).count() == 2
    assert enqueued(callbacks) == 1


def test_a_roster_import_that_links_nothing_enqueues_nothing(django_capture_on_commit_callbacks):
    from tests.factories import make_event
    from tournaments.services import roster_import

    simulated_event()
    with django_capture_on_commit_callbacks() as callbacks:
        roster_import(event=make_event(), text="name,email\nNew Person,new@example.org\nOther Person,")
    assert enqueued(callbacks) == 0


def test_a_roster_import_that_links_only_records_without_games_enqueues_nothing(
    django_capture_on_commit_callbacks,
):
    from tests.factories import make_event
    from tournaments.models import Player
    from tournaments.services import roster_import

    simulated_event()
    make_user("newcomer", email="newcomer@example.org")
    with django_capture_on_commit_callbacks() as callbacks:
        roster_import(event=make_event(), text="name,email\nNew Comer,newcomer@example.org")
    assert Player.objects.get(email="newcomer@example.org").user.username == "newcomer"
    assert enqueued(callbacks) == 0


def test_a_roster_import_that_links_records_with_counted_games_runs_one_recompute(
    django_capture_on_commit_callbacks, monkeypatch
):
    from tests.factories import make_event
    from tournaments.models import Player
    from tournaments.services import roster_import

    event = simulated_event()
    player = Player.objects.filter(registrations__event=event).order_by("pk").first()
    player.email = "played@example.org"
    player.save(update_fields=["email"])
    make_user("played", email=player.email)
    runs = []
    monkeypatch.setattr("ratings.tasks.ratings_recompute", lambda: runs.append(1))
    with django_capture_on_commit_callbacks(execute=True):
        roster_import(event=make_event(), text=roster_of_players([player]))
    assert runs == [1]
