"""The match slip as a player fills it in on their phone, the dispute box, and the tie question as a choice
of players. Forms only parse: the rules of the game are the engine's (``swiss.game_result``)."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms

from .forms_results import SeatResultForm, slip_entries
from .http import posted_id
from .models import Seat
from .services.results import SeatEntry


class ReportSeatForm(SeatResultForm):
    """One player's line of the slip. Refusing to sign (12.100) stays a judge's decision: no box for it."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["refused_to_sign"]
        self.fields[
            "left_game"
        ].help_text = "9.040: 1 for the first player to leave; empty if they played on."


def report_forms(
    seats: list[Seat], data=None, initial: dict[int, dict] | None = None
) -> list[ReportSeatForm]:
    initial = initial or {}
    return [ReportSeatForm(data, seat=s, initial=initial.get(s.registration_id)) for s in seats]


def report_entries(forms_: list[ReportSeatForm]) -> list[SeatEntry]:
    return slip_entries(forms_)


def initial_from_report(entries: dict) -> dict[int, dict]:
    """A report's lines (registration id -> values) as the forms' initial values."""
    initial = {}
    for key, line in (entries or {}).items():
        reg = posted_id(str(key))
        if reg is not None and isinstance(line, dict):
            initial[reg] = {k: line.get(k) for k in ("vp", "super_villains", "main_character", "left_game")}
            initial[reg]["outright_win"] = bool(line.get("outright_win"))
    return initial


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong with the slip?",
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Say what is wrong with the slip, e.g. “my VP are 34, not 31”."},
    )


# --- The tie question (12.050) as a choice of players ---------------------------------------------


@dataclass
class TieStep:
    """One radio question: of ``choices`` (registration id, name), who defeated a Super-Villain most
    recently. The first step of a group asks the question; the next ones "and of the others?"."""

    group: int
    step: int
    choices: list[tuple[int, str]]
    chosen: int | None = None

    @property
    def name(self) -> str:
        return f"recent_{self.group}_{self.step}"

    @property
    def first(self) -> bool:
        return self.step == 0


def tie_steps(data, groups: tuple[tuple[str, ...], ...], names: dict[str, str]) -> list[TieStep]:
    """The questions to show for these ties, each with the choice already made (from ``data``): a group
    of n players takes n-1 choices; a step is shown once the ones before it are answered."""
    steps = []
    for g, group in enumerate(groups):
        left = [int(p) for p in group]
        for k in range(len(group) - 1):
            step = TieStep(g, k, [(p, names.get(str(p), "?")) for p in left])
            chosen = posted_id(data.get(step.name)) if data is not None else None
            steps.append(step)
            if chosen not in left:
                break
            step.chosen = chosen
            left.remove(chosen)
    return steps


def tie_answer(steps: list[TieStep], groups: tuple[tuple[str, ...], ...]) -> dict[int, int] | None:
    """registration id -> 1 for the most recent, 2, … (distinct across every tie), once every step of
    every tie is answered; else None."""
    needed = sum(len(g) - 1 for g in groups)
    chosen = [s.chosen for s in steps if s.chosen is not None]
    if len(chosen) < needed:
        return None
    answer = {}
    number = 0
    for g, group in enumerate(groups):
        picked = [s.chosen for s in steps if s.group == g]
        rest = [int(p) for p in group if int(p) not in picked]
        for reg in [*picked, *rest]:
            number += 1
            answer[reg] = number
    return answer
