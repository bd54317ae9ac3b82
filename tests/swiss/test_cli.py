from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tournaments.swiss.cli import main


def run(argv, payload=None):
    stdout = io.StringIO()
    stdin = io.StringIO(payload if isinstance(payload, str) else json.dumps(payload or {}))
    code = main(argv, stdin=stdin, stdout=stdout)
    return code, stdout.getvalue()


def event(**changes):
    data = {
        "seed": 7,
        "players": [f"p{i}" for i in range(8)],
        "rounds": [
            [
                {"players": ["p0", "p1", "p2", "p3"], "points": {"p0": 5, "p1": 3, "p2": 2, "p3": 2}},
                {"players": ["p4", "p5", "p6", "p7"], "points": {"p4": 5, "p5": 3, "p6": 2, "p7": 2}},
            ]
        ],
    }
    data.update(changes)
    return data


def test_rounds_prints_the_count():
    assert run(["rounds", "33"]) == (0, "6\n")


def test_pair_writes_the_next_round():
    code, out = run(["pair"], event())
    result = json.loads(out)
    assert code == 0
    assert result["round"] == 2
    assert [t["table"] for t in result["tables"]] == [1, 2]


def test_standings_lists_every_player_with_tiebreakers():
    rows = json.loads(run(["standings"], event())[1])["standings"]
    assert len(rows) == 8
    assert set(rows[0]["tiebreakers"]) == {"super_villains", "opponents_points_rate", "vp", "draw"}


def test_playoffs_after_four_rounds_is_a_final():
    result = json.loads(run(["playoffs"], event(options={"swiss_rounds": 4}))[1])
    assert result["stage"] == "final"
    assert len(result["tables"][0]["players"]) == 4


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{not json", "malformed JSON"),
        (event(rounds=[[{"players": ["p0", "p1"], "points": {"p0": 5, "p1": 3}}]]), "3 to 5"),
        (
            event(
                rounds=[[{"players": ["p0", "p1", "p2"], "points": {"p0": 5, "p1": 3, "p2": 2, "zed": 1}}]]
            ),
            "zed",
        ),
        (
            event(rounds=[[{"players": ["p0", "p1", "p2"], "points": {"p0": "five", "p1": 3, "p2": 2}}]]),
            "non-numeric",
        ),
    ],
)
def test_bad_input_exits_non_zero_with_one_line(payload, message, capsys):
    code, _ = run(["pair"], payload)
    err = capsys.readouterr().err
    assert code != 0
    assert message in err
    assert err.count("\n") == 1


def test_the_module_runs_as_a_program():
    done = subprocess.run(
        [sys.executable, "-m", "tournaments.swiss", "rounds", "4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert done.stderr.startswith("error:")


def slip(**changes):
    data = {
        "seats": [
            {"player": "ann", "vp": 30, "super_villains": 2},
            {"player": "bob", "vp": 30, "super_villains": 2},
            {"player": "cy", "vp": 10},
        ]
    }
    data.update(changes)
    return data


def test_game_asks_the_tie_question_12050():
    code, out = run(["game"], slip())
    assert code == 0
    assert json.loads(out)["question"] == [["ann", "bob"]]


def test_game_with_the_answer_gives_placements_and_points():
    code, out = run(["game"], slip(recent_super_villain={"bob": 1, "ann": 2}))
    placements = json.loads(out)["placements"]
    assert [(p["player"], p["points"]) for p in placements] == [("bob", 5), ("ann", 3), ("cy", 2)]


def test_game_refuses_a_slip_the_rules_refuse(capsys):
    bad = slip()
    bad["seats"][0]["left"] = 1
    bad["seats"][0]["outright_win"] = True
    code, _ = run(["game"], bad)
    assert code == 2
    assert "left the game cannot also have won" in capsys.readouterr().err
