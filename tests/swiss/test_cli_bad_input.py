"""``python -m tournaments.swiss`` on bad input: status 2 and one line on stderr, never a traceback.

The named cases run the real command in a subprocess; hypothesis then puts any JSON value at any place of
a valid event or match slip and checks the same in-process (thousands of inputs in a few seconds).
"""

from __future__ import annotations

import codecs
import copy
import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import REPO_ROOT
from tournaments.swiss.cli import main

EVENT = {
    "seed": 7,
    "players": [f"p{i}" for i in range(8)],
    "rounds": [
        [
            {"players": ["p0", "p1", "p2", "p3"], "points": {"p0": 5, "p1": 3, "p2": 2, "p3": 2}},
            {"players": ["p4", "p5", "p6", "p7"], "points": {"p4": 5, "p5": 3, "p6": 2, "p7": 2}},
        ]
    ],
    "options": {"tiebreakers": ["super_villains", "vp"], "scoring": {"3": [5, 3, 2], "4": [5, 3, 2, 2]}},
    "playoffs": {"semi_finals": [["p0", "p1", "p2", "p3"], ["p4", "p5", "p6", "p7"]]},
}
SLIP = {
    "seats": [
        {"player": "ann", "vp": 30, "super_villains": 2, "left": None, "outright_win": False},
        {"player": "bob", "vp": 30, "super_villains": 2},
        {"player": "cy", "vp": 10},
    ],
    "recent_super_villain": {"ann": 1, "bob": 2},
    "scoring": "classic",
}
DEEP = "[" * 100_000 + "]" * 100_000


def swiss(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tournaments.swiss", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO_ROOT,
        timeout=60,
    )


def with_change(data: dict, path: tuple, value) -> bytes:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(data).encode()


BAD = {
    "short scoring table (slip)": (["game"], with_change(SLIP, ("scoring",), {"3": [5, 3], "4": [5, 3, 2, 2]})),
    "empty 4-player scoring": (["standings"], with_change(EVENT, ("options", "scoring"), {"3": [5, 3, 2], "4": []})),
    "scoring of the wrong type": (["standings"], with_change(EVENT, ("options", "scoring"), 7)),
    "tiebreakers of the wrong type": (["standings"], with_change(EVENT, ("options", "tiebreakers"), [[1]])),
    "points of the wrong type": (["pair"], with_change(EVENT, ("rounds", 0, 0, "points", "p0"), [[[]]])),
    "seed of the wrong type": (["pair"], with_change(EVENT, ("seed",), [1])),
    "deeply nested JSON": (["pair"], DEEP.encode()),
    "deeply nested slip": (["game"], b'{"seats": ' + DEEP.encode() + b"}"),
    "not JSON": (["pair"], b"{not json"),
    "empty input": (["standings"], b""),
    "NaN": (["game"], b'{"seats": NaN}'),
    "not UTF-8": (["game"], codecs.BOM_UTF16_LE + "{}".encode("utf-16-le")),
    "a missing file": (["pair", "/nonexistent/event.json"], b""),
    "a folder for a file": (["playoffs", "/"], b""),
    "a player count that is not a number": (["rounds", "²"], b""),
    "too few players": (["rounds", "-3"], b""),
    "an unknown command": (["shuffle"], b""),
    "no command": ([], b""),
}  # fmt: skip


@pytest.mark.parametrize(("args", "stdin"), BAD.values(), ids=BAD.keys())
def test_it_exits_2_with_one_line_on_bad_input(args, stdin):
    result = swiss(*args, stdin=stdin)
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert "Traceback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1 and len(err) < 400, err
    assert result.stdout == b""


def test_it_reads_the_event_from_a_file(tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(EVENT))
    result = swiss("pair", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["round"] == 2


def places(data) -> list[tuple]:
    """Every place in ``data`` a value can go: each key of each object, each item of each list."""
    found = [()]
    if isinstance(data, dict):
        items = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return found
    for key, value in items:
        found += [(key, *rest) for rest in places(value)]
    return found


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@settings(
    max_examples=400, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
@given(
    case=st.sampled_from([("pair", EVENT), ("standings", EVENT), ("playoffs", EVENT), ("game", SLIP)]),
    data=st.data(),
)
def test_any_value_anywhere_is_an_answer_or_a_one_line_error(case, data, capsys):
    command, payload = case
    path = data.draw(st.sampled_from([p for p in places(payload) if p]))
    value = data.draw(json_values)
    stdout = io.StringIO()
    code = main([command], stdin=io.StringIO(with_change(payload, path, value).decode()), stdout=stdout)
    err = capsys.readouterr().err
    assert code in (0, 2)
    if code == 2:
        assert err.startswith("error: ") and err.count("\n") == 1
    else:
        json.loads(stdout.getvalue())
