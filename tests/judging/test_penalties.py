"""Recording penalties: effects on the game, who may disqualify, spectators, voiding and the log."""

import pytest

from judging import services
from judging.models import Infraction, Penalty, PenaltyLog
from tests.judging.helpers import enter_result, head_judge, judge, running_event, seat_of, seat_round
from tournaments.errors import ActionError
from tournaments.models import Registration, Table
from tournaments.selectors import event_standings
from tournaments.services import results
from tournaments.services.rounds import playoff_eligible, round_close

pytestmark = pytest.mark.django_db


def infraction(rule: str) -> Infraction:
    return Infraction.objects.get(rule=rule)


def played_round(players: int = 4):
    """Round 1 with its result in: players[0] first with 40 VP, then 30, 20, 10."""
    event, registrations = running_event(players)
    round = seat_round(event, registrations)
    for table in round.tables.order_by("number"):
        enter_result(table, [40, 30, 20, 10][: table.seats.count()])
    return event, registrations, round


def record(event, registration, rule="10.060", type="warning", user=None, **kwargs):
    return services.penalty_record(
        event=event,
        user=user or judge(event),
        infraction=infraction(rule),
        type=type,
        registration=registration,
        **kwargs,
    )


def test_the_catalogue_is_seeded_with_the_eleven_infractions():
    assert list(Infraction.objects.values_list("rule", flat=True)) == [
        "10.010", "10.020", "10.030", "10.040", "10.060", "10.070",
        "11.010", "11.022", "11.030", "11.040", "12.100",
    ]  # fmt: skip


def test_round_and_table_are_filled_in_from_the_players_seat():
    event, players, round = played_round(8)
    penalty = record(event, players[5])
    assert penalty.round == round and penalty.table.number == 2


def test_a_warning_changes_nothing_in_the_game():
    event, players, round = played_round()
    record(event, players[0])
    assert seat_of(round, players[0]).placement == 1


def test_a_game_loss_makes_the_player_last_in_that_game():
    event, players, round = played_round()
    record(event, players[0], type="game_loss")
    assert seat_of(round, players[0]).placement == 4
    assert seat_of(round, players[1]).placement == 1


def test_a_game_loss_changes_the_standings():
    event, players, round = played_round()
    round_close(round=round)
    before = [line.registration for line in event_standings(event)]
    record(event, players[0], type="game_loss")
    event.refresh_from_db()
    after = [line.registration for line in event_standings(event)]
    assert before[0] == players[0] and after[0] == players[1]


def test_a_game_loss_needs_a_game():
    event, registrations = running_event(4)
    with pytest.raises(ActionError, match="not seated"):
        record(event, registrations[0], type="game_loss")


def test_refusing_to_sign_gives_zero_points_that_round():
    event, players, round = played_round()
    record(event, players[0], rule="12.100")
    seat = seat_of(round, players[0])
    assert seat.refused_to_sign and seat.points == 0


def refused_on_the_slip(round, registration) -> None:
    """Enter the first table's slip again with "refused to sign" ticked for this player."""
    seat = seat_of(round, registration)
    table = Table.objects.get(pk=seat.table_id)
    seats = list(table.seats.order_by("seat"))
    results.result_enter(
        table=table,
        entries=[results.SeatEntry(seat_id=s.pk, vp=s.vp, refused_to_sign=s.pk == seat.pk) for s in seats],
        expected_version=table.version,
        user=None,
    )


def test_voiding_a_refusal_to_sign_gives_the_points_back():
    event, players, round = played_round()
    penalty = record(event, players[0], rule="12.100")
    services.penalty_void(penalty=penalty, user=None, reason="signed after all")
    seat = seat_of(round, players[0])
    assert not seat.refused_to_sign and seat.points == 5


def test_voiding_a_refusal_to_sign_keeps_the_tick_on_the_match_slip():
    event, players, round = played_round()
    refused_on_the_slip(round, players[0])
    penalty = record(event, players[0], rule="12.100")
    services.penalty_void(penalty=penalty, user=None, reason="recorded twice")
    seat = seat_of(round, players[0])
    assert seat.refused_to_sign and seat.points == 0


def test_voiding_every_refusal_penalty_clears_a_tick_the_penalties_made():
    event, players, round = played_round()
    first = record(event, players[0], rule="12.100")
    second = record(event, players[0], rule="12.100")
    services.penalty_void(penalty=first, user=None, reason="wrong player")
    assert seat_of(round, players[0]).refused_to_sign
    services.penalty_void(penalty=second, user=None, reason="wrong player")
    assert not seat_of(round, players[0]).refused_to_sign


def test_a_judge_cannot_disqualify():
    event, players, _ = played_round()
    with pytest.raises(ActionError, match="head judge"):
        record(event, players[0], type="disqualification", description="cheating")


def test_a_disqualification_needs_a_reason():
    event, players, _ = played_round()
    with pytest.raises(ActionError, match="reason"):
        record(event, players[0], type="disqualification", user=head_judge(event))


def test_a_disqualification_drops_the_player_and_removes_them_from_the_cut():
    event, players, _ = played_round()
    record(event, players[0], type="disqualification", user=head_judge(event), description="marked cards")
    registration = Registration.objects.get(pk=players[0].pk)
    assert registration.disqualified and registration.dropped
    assert str(registration.pk) not in playoff_eligible(event)


def test_a_spectator_can_get_a_warning_for_outside_assistance():
    event, _, _ = played_round()
    penalty = record(event, None, rule="11.010", spectator_name="Sam Spectator")
    assert penalty.who == "Sam Spectator (spectator)"


def test_a_spectator_only_for_outside_assistance():
    event, _, _ = played_round()
    with pytest.raises(ActionError, match="outside assistance"):
        record(event, None, rule="10.060", spectator_name="Sam Spectator")


def test_a_player_of_another_event_cannot_be_penalised_here():
    event, _, _ = played_round()
    _, others = running_event(4)
    with pytest.raises(ActionError, match="not registered"):
        record(event, others[0])


def test_recording_is_logged_with_who_and_what():
    event, players, _ = played_round()
    user = judge(event)
    penalty = record(event, players[0], user=user)
    entry = PenaltyLog.objects.get(penalty=penalty)
    assert (entry.action, entry.user, entry.after["infraction"]) == ("recorded", user, "10.060")


def test_a_change_is_logged_with_before_and_after():
    event, players, _ = played_round()
    penalty = record(event, players[0])
    services.penalty_change(penalty=penalty, user=None, infraction=infraction("10.070"), description="x")
    entry = PenaltyLog.objects.filter(penalty=penalty, action="changed").get()
    assert (entry.before["infraction"], entry.after["infraction"]) == ("10.060", "10.070")


def test_saving_a_penalty_unchanged_logs_nothing():
    event, players, _ = played_round()
    penalty = record(event, players[0])
    penalty.refresh_from_db()
    same = services.penalty_change(
        penalty=penalty, user=None, infraction=penalty.infraction, description=penalty.description
    )
    assert same is False
    assert not PenaltyLog.objects.filter(penalty=penalty, action="changed").exists()


def test_voiding_keeps_the_penalty_and_needs_a_reason():
    event, players, _ = played_round()
    penalty = record(event, players[0])
    with pytest.raises(ActionError, match="why"):
        services.penalty_void(penalty=penalty, user=None, reason="")
    services.penalty_void(penalty=penalty, user=None, reason="wrong player")
    penalty.refresh_from_db()
    assert penalty.voided and penalty.void_reason == "wrong player"
    assert PenaltyLog.objects.filter(penalty=penalty, action="voided").exists()


def test_voiding_a_game_loss_gives_the_place_back():
    event, players, round = played_round()
    penalty = record(event, players[0], type="game_loss")
    services.penalty_void(penalty=penalty, user=None, reason="misheard")
    assert seat_of(round, players[0]).placement == 1


def test_voiding_one_of_two_game_losses_keeps_the_other():
    event, players, round = played_round()
    first = record(event, players[0], type="game_loss")
    record(event, players[0], rule="11.040", type="game_loss")
    services.penalty_void(penalty=first, user=None, reason="duplicate")
    assert seat_of(round, players[0]).placement == 4


def test_only_the_head_judge_voids_a_disqualification():
    event, players, _ = played_round()
    penalty = record(event, players[0], type="disqualification", user=head_judge(event), description="x")
    with pytest.raises(ActionError, match="head judge"):
        services.penalty_void(penalty=penalty, user=judge(event), reason="mistake")
    services.penalty_void(penalty=penalty, user=head_judge(event), reason="mistake")
    registration = Registration.objects.get(pk=players[0].pk)
    assert not registration.disqualified and not registration.dropped


def test_penalties_are_never_deleted_through_the_admin(admin_client):
    event, players, _ = played_round()
    penalty = record(event, players[0])
    response = admin_client.post(f"/admin/judging/penalty/{penalty.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Penalty.objects.filter(pk=penalty.pk).exists()


def test_the_organizer_changes_an_infractions_default_for_the_event():
    event, _, _ = played_round()
    services.policy_save(event=event, defaults={"10.060": "game_loss"}, upgrade_at=3, review_at=3)
    from judging.selectors import event_catalogue

    defaults = {line.infraction.rule: line.default for line in event_catalogue(event=event)}
    assert defaults["10.060"] == "game_loss" and defaults["10.010"] == "warning"


def test_a_penalty_recorded_with_no_round_touches_no_game():
    event, players = running_event(8)
    seat_round(event, players)
    warning = record(event, players[0], rule="11.040", type="warning", round=None)
    assert warning.round is None and warning.seat is None
    with pytest.raises(ActionError, match="needs a game"):
        record(event, players[0], rule="11.040", type="game_loss", round=None)
