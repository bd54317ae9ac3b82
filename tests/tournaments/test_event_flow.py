"""A whole event through the services, from the start to the final ranking, and the rules on the way."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.factories import make_event, make_players, make_registration, make_user
from tests.tournaments.flow import play_round, play_table
from tournaments import selectors, services
from tournaments.errors import ActionError
from tournaments.models import Event, Registration, ResultChange, Round, Seat, Table
from tournaments.services import results, rounds

pytestmark = pytest.mark.django_db


def started_event(players: int, **fields) -> Event:
    event = make_event(**fields)
    make_players(event, players)
    return rounds.event_start(event=event)


def play_swiss(event: Event, rng: random.Random) -> list[Round]:
    played = []
    for number in range(1, event.swiss_rounds + 1):
        played.append(play_round(rounds.round_pair(event=event, number=number, publish=True), rng))
    return played


def table_sizes(round: Round) -> list[int]:
    return [len(view.seats) for view in selectors.round_tables(round)]


def seated(round: Round) -> list[list[int]]:
    """Registration ids per table, in turn order."""
    return [[s.registration_id for s in view.seats] for view in selectors.round_tables(round)]


def standing_ids(event: Event) -> list[int]:
    event.refresh_from_db()
    return [line.registration.pk for line in selectors.event_standings(event)]


def placement_order(round: Round) -> list[int]:
    (table,) = selectors.round_tables(round)
    return [s.registration_id for s in sorted(table.seats, key=lambda s: s.placement)]


def slip(
    table: Table, *rows: tuple[int, int], extra: dict[int, dict] | None = None
) -> list[results.SeatEntry]:
    """Entries for a table in turn order, one (VP, Super-Villains) pair per seat; ``extra`` by seat number."""
    seats = Seat.objects.filter(table=table).order_by("seat")
    return [
        results.SeatEntry(seat_id=s.pk, vp=vp, super_villains=svs, **(extra or {}).get(s.seat, {}))
        for s, (vp, svs) in zip(seats, rows, strict=True)
    ]


# --- Whole events --------------------------------------------------------------------------


def test_a_9_player_event_plays_three_3_player_tables_for_4_rounds_then_a_top_4_final():
    event = started_event(9)
    assert event.swiss_rounds == 4
    swiss = play_swiss(event, random.Random(9))
    assert [table_sizes(r) for r in swiss] == [[3, 3, 3]] * 4

    final = rounds.playoffs_start(event=event, publish=True)
    assert final.kind == Round.Kind.FINAL and final.number == 5
    assert seated(final) == [standing_ids(event)[:4]]  # turn order = Swiss standing (9.100)
    play_round(final, random.Random(1))

    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    ranking = [r.pk for r in rounds.final_ranking(event)]
    assert ranking[:4] == placement_order(final)
    assert ranking[4:] == standing_ids(event)[4:]


def test_a_37_player_event_plays_6_rounds_of_seven_4_player_and_three_3_player_tables():
    event = started_event(37)
    assert event.swiss_rounds == 6
    swiss = play_swiss(event, random.Random(37))
    assert [Counter(table_sizes(r)) for r in swiss] == [Counter({4: 7, 3: 3})] * 6
    # The 3-player tables sit at the bottom (DECISIONS.md, tables).
    assert all(table_sizes(r) == [4] * 7 + [3] * 3 for r in swiss)


def test_a_37_player_event_seats_semi_finals_1_4_5_8_and_2_3_6_7_then_the_final_from_their_top_two():
    event = started_event(37)
    play_swiss(event, random.Random(37))
    top = standing_ids(event)[:8]

    semi = rounds.playoffs_start(event=event, publish=True)
    assert semi.kind == Round.Kind.SEMIFINAL
    assert seated(semi) == [[top[0], top[3], top[4], top[7]], [top[1], top[2], top[5], top[6]]]
    play_round(semi, random.Random(2))

    final = rounds.final_start(event=event, publish=True)
    semi_places = [
        [s.registration_id for s in sorted(v.seats, key=lambda s: s.placement)]
        for v in selectors.round_tables(semi)
    ]
    finalists = semi_places[0][:2] + semi_places[1][:2]
    assert seated(final) == [sorted(finalists, key=top.index)]
    play_round(final, random.Random(3))

    ranking = [r.pk for r in rounds.final_ranking(Event.objects.get(pk=event.pk))]
    assert ranking[:4] == placement_order(final)
    thirds = sorted(semi_places[0][2:3] + semi_places[1][2:3], key=top.index)
    fourths = sorted(semi_places[0][3:] + semi_places[1][3:], key=top.index)
    assert ranking[4:8] == thirds + fourths
    assert len(ranking) == 37


# --- Starting ------------------------------------------------------------------------------


def test_a_sanctioned_event_with_7_checked_in_players_does_not_start():
    event = make_event()
    make_players(event, 7)
    make_players(event, 2, checked_in=False)  # registered but absent: they do not count
    with pytest.raises(ActionError, match=r"at least 8 checked-in players.*\(9\.060\); 7 checked in"):
        rounds.event_start(event=event)
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION


def test_an_unsanctioned_event_with_7_players_starts_with_3_rounds():
    event = make_event(sanctioned=False)
    make_players(event, 7)
    assert rounds.event_start(event=event).swiss_rounds == 3


def test_overriding_the_round_count_marks_the_event_non_standard():
    event = make_event()
    make_players(event, 12)
    event = rounds.event_start(event=event, rounds_override=5)
    assert (event.swiss_rounds, event.swiss_rounds_standard) == (5, 4)
    assert event.non_standard


def test_the_standard_round_count_is_standard():
    assert not started_event(12).non_standard


# --- Pairing -------------------------------------------------------------------------------


def test_pairing_the_same_round_twice_creates_it_once():
    event = started_event(12)
    first = rounds.round_pair(event=event, number=1, publish=True)
    second = rounds.round_pair(event=event, number=1, publish=True)
    assert first.pk == second.pk
    assert Round.objects.filter(event=event).count() == 1
    assert Seat.objects.filter(round=first).count() == 12


def test_the_next_round_is_not_paired_while_the_last_one_runs():
    event = started_event(12)
    rounds.round_pair(event=event, number=1, publish=True)
    with pytest.raises(ActionError, match="still running"):
        rounds.round_pair(event=event, number=2, publish=True)


# --- Drops and late entries ----------------------------------------------------------------


def test_a_player_who_drops_between_rounds_is_not_paired_again_but_keeps_their_results():
    event = started_event(13)
    rng = random.Random(5)
    play_round(rounds.round_pair(event=event, number=1, publish=True), rng)
    leaver = Registration.objects.filter(event=event).order_by("pk").first()
    services.registration_drop(registration=leaver, reason="went home", after_round=1)

    second = rounds.round_pair(event=event, number=2, publish=True)
    assert leaver.pk not in {p for table in seated(second) for p in table}
    assert sorted(table_sizes(second)) == [4, 4, 4]

    event.refresh_from_db()
    line = next(s for s in selectors.event_standings(event) if s.registration.pk == leaver.pk)
    assert line.games == 1 and not line.active


def test_a_dropped_player_does_not_make_the_play_off_cut():
    event = started_event(9)
    play_swiss(event, random.Random(11))
    leader = standing_ids(event)[0]
    services.registration_drop(registration=Registration.objects.get(pk=leader), after_round=4)
    event.refresh_from_db()
    final = rounds.playoffs_start(event=event, publish=True)
    assert seated(final) == [standing_ids(event)[1:5]]


def test_a_player_who_leaves_the_game_is_last_whatever_their_vp():
    event = started_event(12)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    seats = results.result_enter(
        table=table,
        entries=slip(table, (50, 3), (30, 1), (20, 1), (25, 0), extra={1: {"left_game": 1}}),
        expected_version=0,
        user=None,
    )
    leaver = next(s for s in seats if s.seat == 1)
    assert leaver.placement == 4 and leaver.placement_reason == "left the game"


def test_a_late_entry_joins_the_next_round_with_0_points_for_the_round_missed():
    event = started_event(12)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(6))
    late = services.registration_add(event=event, name="Late Larry")
    services.registration_set_checked_in(registration=late, checked_in=True)
    assert late.joined_round == 2

    second = play_round(rounds.round_pair(event=event, number=2, publish=True), random.Random(7))
    assert sorted(table_sizes(second)) == [3, 3, 3, 4]
    event.refresh_from_db()
    line = next(s for s in selectors.event_standings(event) if s.registration.pk == late.pk)
    round_2_points = Seat.objects.get(round=second, registration=late).points
    assert line.games == 1
    assert line.points == float(round_2_points)


def test_a_late_entry_seated_by_drawing_the_round_again_plays_from_that_round():
    event = started_event(12)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(6))
    second = rounds.round_pair(event=event, number=2, publish=True)
    late = services.registration_add(event=event, name="Late Larry")
    services.registration_set_checked_in(registration=late, checked_in=True)
    assert late.joined_round == 3  # round 2 was already paired
    rounds.round_repair(round=second)
    assert Seat.objects.filter(round=second, registration=late).exists()
    late.refresh_from_db()
    assert late.joined_round == 2


# --- Results -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {1: {"left_game": 1}, 2: {"left_game": 2}, 3: {"left_game": 3}, 4: {"left_game": 4}},
            "at most 3 of 4",
        ),
        ({2: {"left_game": 5}}, "1 to 3 at this table"),
        ({2: {"left_game": 1, "outright_win": True}}, "cannot also have won it outright"),
    ],
    ids=["everyone left", "leaving order past the table size", "left and won outright"],
)
def test_an_impossible_slip_is_refused_and_nothing_is_saved(extra, message):
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    with pytest.raises(ActionError, match=message):
        results.result_enter(
            table=table,
            entries=slip(table, (40, 1), (30, 1), (20, 1), (10, 1), extra=extra),
            expected_version=0,
            user=None,
        )
    assert not Table.objects.get(pk=table.pk).has_result


def test_a_correction_after_the_round_closed_needs_a_reason():
    event = started_event(8)
    closed = play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    table = Table.objects.filter(round=closed).first()
    with pytest.raises(ActionError, match="give a reason"):
        results.result_enter(
            table=table,
            entries=slip(table, (40, 1), (30, 1), (20, 1), (10, 1)),
            expected_version=1,
            user=None,
        )


def test_a_correction_after_close_is_logged_and_recomputes_the_standings():
    event = started_event(8)
    judge = make_user("judge")
    closed = play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    table = Table.objects.filter(round=closed).order_by("number").first()
    last = Seat.objects.get(table=table, placement=4).registration
    before = {
        line.registration.pk: line.points
        for line in selectors.event_standings(Event.objects.get(pk=event.pk))
    }
    assert before[last.pk] == 2

    # The slip was copied wrong: the player entered last actually won.
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    rows = [(60, 4) if s.registration_id == last.pk else (s.vp, s.super_villains) for s in seats]
    results.result_enter(
        table=table, entries=slip(table, *rows), expected_version=1, user=judge, reason="slip misread"
    )

    change = ResultChange.objects.get(table=table, action="correction")
    name = last.player.name
    assert change.user == judge and change.reason == "slip misread"
    assert (change.before[name]["placement"], change.after[name]["placement"]) == (4, 1)
    after = {
        line.registration.pk: line.points
        for line in selectors.event_standings(Event.objects.get(pk=event.pk))
    }
    assert after[last.pk] == 5


def test_a_second_judge_saving_a_stale_form_gets_a_conflict_with_the_first_judges_values():
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    alice, bob = make_user("alice"), make_user("bob")
    loaded_version = table.version  # both judges open the form
    results.result_enter(
        table=table,
        entries=slip(table, (40, 2), (30, 1), (20, 1), (10, 0)),
        expected_version=loaded_version,
        user=alice,
    )
    with pytest.raises(results.ResultConflict, match="alice saved a result for table") as conflict:
        results.result_enter(
            table=table,
            entries=slip(table, (10, 0), (20, 1), (30, 1), (40, 2)),
            expected_version=loaded_version,
            user=bob,
        )
    assert [s.vp for s in conflict.value.seats] == [40, 30, 20, 10]
    assert [s.vp for s in Seat.objects.filter(table=table).order_by("seat")] == [40, 30, 20, 10]
    assert ResultChange.objects.filter(table=table).count() == 1


def test_a_tie_on_vp_and_super_villains_asks_who_defeated_a_super_villain_most_recently():
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    seats = list(Seat.objects.filter(table=table).order_by("seat"))
    with pytest.raises(results.NeedsRecentSuperVillain) as question:
        results.result_enter(
            table=table,
            entries=slip(table, (40, 2), (40, 2), (20, 1), (10, 0)),
            expected_version=0,
            user=None,
        )
    (group,) = question.value.groups
    assert sorted(group) == sorted(str(s.registration_id) for s in seats[:2])
    assert not Table.objects.get(pk=table.pk).has_result


def test_the_answer_to_the_tie_question_decides_the_placement():
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    first, second = Seat.objects.filter(table=table).order_by("seat")[:2]
    placed = results.result_enter(
        table=table,
        entries=slip(table, (40, 2), (40, 2), (20, 1), (10, 0)),
        expected_version=0,
        user=None,
        recent_super_villain={first.registration_id: 1, second.registration_id: 2},
    )
    by_seat = {s.seat: s for s in placed}
    assert (by_seat[1].placement, by_seat[2].placement) == (1, 2)
    assert "defeated one more recently" in by_seat[1].placement_reason


def test_a_tie_for_third_in_a_swiss_game_is_settled_by_turn_order_without_asking():
    # 3rd and 4th both score 2 points at a 4-player table: the question does not matter.
    event = started_event(8)
    table = Table.objects.filter(round=rounds.round_pair(event=event, number=1, publish=True)).first()
    placed = results.result_enter(
        table=table, entries=slip(table, (40, 2), (30, 2), (20, 1), (20, 1)), expected_version=0, user=None
    )
    assert [s.placement for s in sorted(placed, key=lambda s: s.seat)] == [1, 2, 4, 3]


def test_a_tie_for_third_in_the_final_asks_the_question():
    # In the final every place is a place in the event's ranking (DECISIONS.md, play-offs).
    event = started_event(8)
    play_swiss(event, random.Random(4))
    final = rounds.playoffs_start(event=event, publish=True)
    table = Table.objects.get(round=final)
    with pytest.raises(results.NeedsRecentSuperVillain):
        results.result_enter(
            table=table,
            entries=slip(table, (40, 2), (30, 2), (20, 1), (20, 1)),
            expected_version=0,
            user=None,
        )


def test_a_round_with_a_missing_result_does_not_close():
    event = started_event(8)
    round = rounds.round_pair(event=event, number=1, publish=True)
    play_table(Table.objects.filter(round=round).first(), random.Random(1))
    with pytest.raises(ActionError, match=r"1 table has no result yet \(nothing reported: 2\)"):
        rounds.round_close(round=round)


# --- Standings stay current ----------------------------------------------------------------


def test_the_standings_show_a_drop_made_after_the_last_result():
    event = started_event(9)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    event.refresh_from_db()
    selectors.event_standings(event)  # the page was viewed, the standings are cached
    leaver = Registration.objects.filter(event=event).order_by("pk").first()
    services.registration_drop(registration=leaver, after_round=1)
    event.refresh_from_db()
    line = next(s for s in selectors.event_standings(event) if s.registration.pk == leaver.pk)
    assert not line.active


def test_the_standings_list_a_late_entry_once_checked_in():
    event = started_event(9)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    event.refresh_from_db()
    selectors.event_standings(event)
    late = services.registration_add(event=event, name="Late Larry")
    services.registration_set_checked_in(registration=late, checked_in=True)
    event.refresh_from_db()
    line = next((s for s in selectors.event_standings(event) if s.registration.pk == late.pk), None)
    assert line is not None and line.points == 0 and line.active


def test_a_swap_with_many_warnings_is_logged_within_the_reason_field():
    # 8 players: every table of round 2 repeats two pairs of round 1, so the warnings run long.
    event = make_event()
    for i in range(8):
        make_registration(event, f"Bartholomew Featherstonehaugh-Cholmondeley {i}", checked_in=True)
    event = rounds.event_start(event=event)
    play_round(rounds.round_pair(event=event, number=1, publish=True), random.Random(1))
    second = rounds.round_pair(event=event, number=2, publish=True)
    first_seats = [view.seats[0] for view in selectors.round_tables(second)]
    warnings = rounds.seats_swap(round=second, first=first_seats[0], second=first_seats[1])
    assert len("; ".join(warnings)) > 300
    change = ResultChange.objects.get(action="swap", table__round=second)
    assert change.reason == "; ".join(warnings)[: len(change.reason)]
    assert len(change.reason) <= ResultChange._meta.get_field("reason").max_length


def test_a_play_off_swap_warns_that_it_departs_from_the_seating_the_rules_prescribe():
    event = started_event(37)
    play_swiss(event, random.Random(37))
    semi = rounds.playoffs_start(event=event, publish=True)
    first, second = (view.seats[0] for view in selectors.round_tables(semi))
    warnings = rounds.seats_swap(round=semi, first=first, second=second)
    assert len(warnings) == 1
    assert "follows the Swiss standings (9.090-9.101)" in warnings[0]
    assert "pull-down" not in warnings[0] and "played each other" not in warnings[0]
