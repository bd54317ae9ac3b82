"""``python -m tournaments.swiss rounds N | game | pair | standings | playoffs [FILE]``.

``game`` reads one match slip as JSON on stdin and writes the placements and points, or the question::

    {"seats": [{"player": "ann", "vp": 30, "super_villains": 2, "left": null, "outright_win": false,
                "game_loss": false, "refused_to_sign": false}, ...],    # turn order, seat 1 first
     "playoff": false, "recent_super_villain": {"ann": 1, "bob": 2},    # optional
     "override": [...], "override_reason": "...", "scoring": "classic" | {"3": [...], "4": [...]}}

``pair``, ``standings`` and ``playoffs`` read an event's state as JSON on stdin::

    {"seed": 7,
     "players": ["ann", "bob", ...],              # active players; anyone absent has dropped
     "rounds": [[{"players": [...], "points": {...}, "vp": {...}, "super_villains": {...}}, ...], ...],
     "options": {"turn_order": "random", "allow_five": false,
                 "tiebreakers": [...], "scoring": "classic" | {"3": [...], "4": [...]},
                 "swiss_rounds": 5},           # all optional
     "playoffs": {"semi_finals": [[...], [...]], "final": [...]}}   # optional, placements best first

and write JSON on stdout; each of these commands also reads a file named after it (``pair event.json``).
Bad input of any kind (a bad command line, a missing file, text that is not JSON or is nested too deeply,
a value of the wrong type, a short scoring table) exits with status 2 and a one-line message on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from .errors import SwissError
from .game import QUESTION, Seat, Slip, game_result
from .history import PlayedTable
from .pairing import pair_round
from .playoffs import final_ranking, final_table, playoff_tables
from .rounds import swiss_rounds
from .scoring import scoring_profile
from .standings import DEFAULT_TIEBREAKERS, standings


def _show(value: Any) -> str:
    """A value for a message: short, whatever was sent."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


def _names(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(p, str) and p for p in value):
        raise SwissError(f"{where} must be a list of player names.")
    return value


def _numbers(value: Any, where: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise SwissError(f"{where} must map player names to numbers.")
    for player, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise SwissError(f"{where}: {player} has a non-numeric value {_show(number)}.")
    return value


def _state(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise SwissError("input must be a JSON object.")
    if "seed" not in data or isinstance(data["seed"], bool) or not isinstance(data["seed"], int | str):
        raise SwissError("'seed' (a number or string) is required.")
    players = _names(data.get("players"), "'players'")
    raw_rounds = data.get("rounds", [])
    if not isinstance(raw_rounds, list):
        raise SwissError("'rounds' must be a list of rounds.")
    rounds: list[list[PlayedTable]] = []
    for r, raw_tables in enumerate(raw_rounds, start=1):
        if not isinstance(raw_tables, list):
            raise SwissError(f"round {r} must be a list of tables.")
        tables = []
        for t, raw in enumerate(raw_tables, start=1):
            where = f"round {r}, table {t}"
            if not isinstance(raw, dict):
                raise SwissError(f"{where} must be an object.")
            placements = raw.get("placements")
            tables.append(
                PlayedTable(
                    players=tuple(_names(raw.get("players"), f"{where}: 'players'")),
                    points=_numbers(raw.get("points"), f"{where}: points"),
                    vp=_numbers(raw.get("vp"), f"{where}: vp"),
                    super_villains=_numbers(raw.get("super_villains"), f"{where}: super_villains"),
                    placements=None
                    if placements is None
                    else tuple(_names(placements, f"{where}: placements")),
                )
            )
        rounds.append(tables)
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise SwissError("'options' must be an object.")
    return {"seed": data["seed"], "players": players, "rounds": rounds, "options": options, "raw": data}


def _standings(state: dict[str, Any]):
    options = state["options"]
    return standings(
        state["rounds"],
        active=state["players"],
        seed=state["seed"],
        tiebreakers=options.get("tiebreakers", DEFAULT_TIEBREAKERS),
        scoring=scoring_profile(options.get("scoring")),
    )


def _pair(state: dict[str, Any]) -> dict[str, Any]:
    options = state["options"]
    pairing = pair_round(
        state["players"],
        state["rounds"],
        seed=state["seed"],
        turn_order=options.get("turn_order", "random"),
        allow_five=bool(options.get("allow_five", False)),
    )
    return {
        "round": pairing.round_number,
        "tables": [
            {
                "table": t.number,
                "players": list(t.players),
                "flags": [
                    {k: v for k, v in vars(f).items() if v is not None} | {"text": f.text} for f in t.flags
                ],
            }
            for t in pairing.tables
        ],
    }


def _standings_json(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "standings": [
            {
                "rank": row.rank,
                "player": row.player,
                "points": row.points,
                "tiebreakers": dict(row.tiebreakers),
                "games": row.games,
                "placements": {str(i): n for i, n in enumerate(row.placements, start=1)},
                "active": row.active,
            }
            for row in _standings(state)
        ]
    }


def _playoffs(state: dict[str, Any]) -> dict[str, Any]:
    order = [row.player for row in _standings(state)]
    count = state["options"].get("swiss_rounds", len(state["rounds"]))
    if isinstance(count, bool) or not isinstance(count, int):
        raise SwissError("'swiss_rounds' must be a whole number.")
    eligible = state["raw"].get("eligible", state["players"])
    playoffs = playoff_tables(order, count, _names(eligible, "'eligible'"))
    out: dict[str, Any] = {
        "stage": playoffs.stage,
        "tables": [{"table": t.number, "players": list(t.players)} for t in playoffs.tables],
    }
    results = state["raw"].get("playoffs") or {}
    if not isinstance(results, dict):
        raise SwissError("'playoffs' must be an object.")
    semis = results.get("semi_finals")
    if semis is not None:
        if not isinstance(semis, list):
            raise SwissError("'semi_finals' must be a list of two placement lists.")
        semis = [_names(t, "a semi-final") for t in semis]
        out["final"] = {"table": 1, "players": list(final_table(semis, order).players)}
    final = results.get("final")
    if final is not None:
        out["ranking"] = list(final_ranking(order, _names(final, "'final'"), semis or ()))
    return out


def _whole(value: Any, where: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SwissError(f"{where} must be a whole number.")
    return value


def _game(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
        raise SwissError("input must be an object with 'seats': a list of the slip's lines in turn order.")
    seats = []
    for n, raw in enumerate(data["seats"], start=1):
        if not isinstance(raw, dict) or not isinstance(raw.get("player"), str) or not raw["player"]:
            raise SwissError(f"seat {n} must be an object with a 'player' name.")
        where = f"seat {n} ({raw['player']})"
        seats.append(
            Seat(
                player=raw["player"],
                vp=_whole(raw.get("vp"), f"{where}: vp", optional=True),
                super_villains=_whole(raw.get("super_villains", 0), f"{where}: super_villains") or 0,
                left=_whole(raw.get("left"), f"{where}: left", optional=True),
                outright_win=bool(raw.get("outright_win", False)),
                game_loss=bool(raw.get("game_loss", False)),
                refused_to_sign=bool(raw.get("refused_to_sign", False)),
            )
        )
    answer = data.get("recent_super_villain")
    if answer is not None and not isinstance(answer, dict):
        raise SwissError("'recent_super_villain' must map tied players to 1 (most recent), 2, ...")
    override = data.get("override") or []
    result = game_result(
        Slip(
            seats=tuple(seats),
            playoff=bool(data.get("playoff", False)),
            recent_super_villain=answer,
            override=tuple(_names(override, "'override'")) if override else (),
            override_reason=str(data.get("override_reason", "")),
        ),
        scoring=scoring_profile(data.get("scoring")),
    )
    if result.question:
        return {"question": [list(group) for group in result.question], "ask": QUESTION}
    return {
        "placements": [
            {"player": p.player, "place": p.place, "points": p.points, "reason": p.reason}
            for p in result.placements
        ]
    }


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line on stderr (and status 2) like any other bad input."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"error: {message} (see {self.prog} --help).\n")


def _refuse_constant(name: str):
    raise SwissError(f"{name} is not a number JSON allows; use a finite number.")


def _read(path: str, stdin: TextIO) -> Any:
    """The JSON document in ``path`` ("-": standard input)."""
    try:
        if path == "-":
            text = stdin.read()
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read()
    except OSError as exc:
        raise SwissError(f"cannot read {path}: {exc.strerror or exc}.") from None
    except UnicodeDecodeError:
        raise SwissError(f"{'the input' if path == '-' else path} is not UTF-8 text.") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise SwissError(f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno}).") from None
    except RecursionError:
        raise SwissError("the JSON is nested too deeply to be an event or a match slip.") from None


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    parser = _Parser(prog="python -m tournaments.swiss", description="DCDB Swiss engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    rounds = sub.add_parser("rounds", help="Swiss rounds for N players (9.070)")
    rounds.add_argument("players", type=int)
    rounds.add_argument("--unsanctioned", action="store_true")
    for name, what in (
        ("pair", "read the event as JSON, write the next round's tables as JSON"),
        ("standings", "read the event as JSON, write the standings as JSON"),
        ("playoffs", "read the event as JSON, write the play-off tables as JSON"),
        ("game", "read one match slip as JSON, write placements and points"),
    ):
        command = sub.add_parser(name, help=what)
        command.add_argument("file", nargs="?", default="-", help="a JSON file (default: standard input)")
    args = parser.parse_args(argv)
    try:
        if args.command == "rounds":
            count = swiss_rounds(args.players, sanctioned=not args.unsanctioned)
            print(count.rounds, file=stdout)
            if count.extension:
                print("note: above 128 players, an extension of the 9.070 table", file=sys.stderr)
            return 0
        data = _read(args.file, stdin)
        if args.command == "game":
            json.dump(_game(data), stdout, indent=2)
            stdout.write("\n")
            return 0
        state = _state(data)
        handler = {"pair": _pair, "standings": _standings_json, "playoffs": _playoffs}[args.command]
        json.dump(handler(state), stdout, indent=2)
        stdout.write("\n")
        return 0
    except SwissError as exc:
        message = " ".join(str(exc).split())  # one line, however the input was laid out
        print(f"error: {message if len(message) <= 300 else message[:299] + '…'}", file=sys.stderr)
        return 2
