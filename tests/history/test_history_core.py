"""tournaments.history: a player's events, totals, opponents and head-to-heads from plain data (no database)."""

from __future__ import annotations

import datetime

from tournaments.history import Entry, game_lines, head_to_head, player_history
from tournaments.selectors_games import Game, GameSeat

DAY = datetime.date(2026, 1, 10)


def game(*placements: tuple[str, int], event: int = 1, round: int = 1, table: int = 1, player_ids=None):
    """A counted game: (person, placement) per seat, in turn order. Record ids follow the person's key."""
    seats = tuple(
        GameSeat(
            registration_id=100 * event + n,
            player_id=(player_ids or {}).get(n, int(person[1:]) if person[1:].isdigit() else n),
            person=person,
            name=f"Name {person}",
            public_name=f"Name {person}",
            seat=n,
            placement=placement,
            points={1: 5.0, 2: 3.0, 3: 2.0, 4: 1.0}[placement],
            vp=10 * placement,
            main_character="",
        )
        for n, (person, placement) in enumerate(placements, start=1)
    )
    return Game(
        event_id=event,
        event_slug=f"e{event}",
        event_name=f"Event {event}",
        event_date=DAY + datetime.timedelta(days=event),
        round_number=round,
        round_kind="swiss",
        table_number=table,
        seats=seats,
    )


def entry(event: int, *, registration: int | None = None, place=None, of=None, finished=True, dropped=False):
    return Entry(
        registration_id=registration or 100 * event,
        event_id=event,
        event_slug=f"e{event}",
        event_name=f"Event {event}",
        event_date=DAY + datetime.timedelta(days=event),
        finished=finished,
        dropped=dropped,
        dropped_after_round=2 if dropped else None,
        place=place,
        of=of,
    )


GAMES = [
    game(("u1", 1), ("p2", 2), ("p3", 3), ("p4", 4), event=1, round=1),
    game(("p2", 1), ("u1", 3), ("p5", 2), event=1, round=2),
    game(("u1", 2), ("p2", 1), ("p3", 3), event=2, round=1),
    game(("p6", 1), ("p7", 2), ("p8", 3), event=2, round=1, table=2),  # not the player's
]


def test_it_counts_games_wins_and_the_average_place():
    history = player_history(person="u1", entries=[entry(1), entry(2)], games=GAMES, names={})
    assert (history.totals.games, history.totals.wins) == (3, 1)
    assert history.totals.average_place == 2.0


def test_it_counts_each_table_size_apart():
    totals = player_history(person="u1", entries=[entry(1), entry(2)], games=GAMES, names={}).totals
    assert [(size, t.games, t.wins, t.average_place) for size, t in totals.sizes] == [
        (3, 2, 0, 2.5),
        (4, 1, 1, 1.0),
    ]


def test_it_counts_the_events_played_not_the_events_entered():
    entries = [entry(1), entry(2), entry(3, finished=False)]
    assert player_history(person="u1", entries=entries, games=GAMES, names={}).totals.events == 2


def test_the_events_come_latest_first_with_the_final_place():
    lines = player_history(
        person="u1", entries=[entry(1, place=4, of=9), entry(2, place=1, of=12)], games=GAMES, names={}
    ).events
    assert [(line.event_id, line.place, line.of, line.games) for line in lines] == [
        (2, 1, 12, 1),
        (1, 4, 9, 2),
    ]


def test_an_event_still_running_has_no_place_and_counts_its_points_so_far():
    line = player_history(person="u1", entries=[entry(2, finished=False)], games=GAMES, names={}).events[0]
    assert line.in_progress and line.place is None and line.points == 3.0


def test_an_event_taking_registrations_is_not_in_progress():
    not_started = Entry(**{**entry(3, finished=False).__dict__, "started": False})
    line = player_history(person="u1", entries=[not_started], games=GAMES, names={}).events[0]
    assert not line.started and not line.in_progress


def test_a_player_with_no_games_has_the_events_and_empty_totals():
    history = player_history(person="p9", entries=[entry(3, finished=False)], games=GAMES, names={})
    assert [line.event_id for line in history.events] == [3]
    assert history.totals.games == 0 and history.totals.average_place is None and not history.opponents


def test_it_counts_who_finished_ahead_against_each_opponent():
    history = player_history(person="u1", entries=[entry(1), entry(2)], games=GAMES, names={"p2": "Bea"})
    p2 = next(o for o in history.opponents if o.person == "p2")
    assert (p2.name, p2.games, p2.ahead, p2.behind) == ("Bea", 3, 1, 2)
    assert history.opponents[0].person == "p2"  # most games together first
    assert {o.person for o in history.opponents} == {"p2", "p3", "p4", "p5"}


def test_two_records_in_one_event_are_one_event_line_with_the_better_place():
    entries = [entry(1, registration=101, place=7, of=9), entry(1, registration=102, place=3, of=9)]
    line = player_history(person="u1", entries=entries, games=GAMES, names={}).events[0]
    assert (line.place, line.records) == (3, 2)


def test_two_records_at_different_tables_are_two_games():
    games = [
        game(("u1", 1), ("p2", 2), ("p3", 3), event=1, table=1),
        game(("u1", 3), ("p4", 1), ("p5", 2), event=1, table=2),
    ]
    totals = player_history(person="u1", entries=[entry(1)], games=games, names={}).totals
    assert (totals.games, totals.wins) == (2, 1)


def test_two_records_at_one_table_are_one_game_with_the_better_placement_and_no_self_opponent():
    games = [game(("u1", 3), ("p2", 2), ("u1", 1), event=1, player_ids={1: 11, 3: 12})]
    history = player_history(person="u1", entries=[entry(1)], games=games, names={})
    assert (history.totals.games, history.totals.wins) == (1, 1)
    assert [(o.person, o.games, o.ahead) for o in history.opponents] == [("p2", 1, 1)]


def test_an_opponent_in_two_seats_of_one_game_is_met_once():
    games = [game(("p1", 2), ("u2", 3), ("u2", 1), event=1)]
    opponent = player_history(person="p1", entries=[entry(1)], games=games, names={}).opponents[0]
    assert (opponent.games, opponent.ahead, opponent.behind) == (1, 0, 1)


def test_the_opponent_links_to_the_record_met_last():
    games = [
        game(("p1", 1), ("u2", 2), ("p3", 3), event=1, player_ids={2: 21}),
        game(("p1", 1), ("u2", 2), ("p3", 3), event=2, player_ids={2: 22}),
    ]
    opponents = player_history(person="p1", entries=[entry(1), entry(2)], games=games, names={}).opponents
    assert next(o for o in opponents if o.person == "u2").player_id == 22


def test_head_to_head_lists_every_game_both_sat_at_and_sums_them_up():
    h2h = head_to_head(person="u1", other="p2", games=GAMES)
    assert [(m.event_slug, m.round_number, m.placement, m.other_placement) for m in h2h.games] == [
        ("e1", 1, 1, 2),
        ("e1", 2, 3, 1),
        ("e2", 1, 2, 1),
    ]
    assert (h2h.ahead, h2h.behind, h2h.wins, h2h.other_wins) == (1, 2, 1, 2)
    assert (h2h.average_place, h2h.other_average_place) == (2.0, 1.33)


def test_head_to_head_of_people_who_never_met_is_empty():
    h2h = head_to_head(person="u1", other="p8", games=GAMES)
    assert h2h.games == [] and h2h.average_place is None and h2h.ahead == h2h.behind == 0


def test_head_to_head_of_a_person_with_themself_is_empty():
    assert head_to_head(person="u1", other="u1", games=GAMES).games == []


def test_the_game_lines_name_the_opponents_in_turn_order():
    lines = game_lines(
        person="u1", name="Al", games=GAMES, names={"p2": "Bea", "p3": "Cy", "p4": "Di", "p5": "Ed"}
    )
    assert [line.opponents for line in lines] == [("Bea", "Cy", "Di"), ("Bea", "Ed"), ("Bea", "Cy")]
    assert [(line.player, line.seat, line.placement) for line in lines] == [
        ("Al", 1, 1),
        ("Al", 2, 3),
        ("Al", 1, 2),
    ]
