"""Escalation advice from a player's penalties in one event. Pure: no Django.

Advice only; nothing is upgraded automatically (DECISIONS.md, "Penalties"). Two flags:
"consider an upgrade" once the same infraction reaches the organizer's warning count,
and "head judge review under 10.080" once the penalties in total reach their threshold.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

UPGRADE = "upgrade"
REVIEW = "review"


@dataclass(frozen=True)
class Flag:
    kind: str  # UPGRADE or REVIEW
    rule: str  # the infraction for an upgrade flag, "" for a review flag
    text: str


@dataclass(frozen=True)
class Advice:
    by_rule: tuple[tuple[str, int], ...]  # (rule, number of penalties), most first
    total: int
    flags: tuple[Flag, ...]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def advise(
    penalties: list[tuple[str, str]], *, upgrade_at: int, review_at: int, adding: str | None = None
) -> Advice:
    """``penalties``: (rule, penalty type) of the player's penalties that are not voided.

    With ``adding`` (a rule), the advice is about recording one more for that rule: the flags
    say what the new one would be (the form's question); without it, what has been reached
    (the dashboard's question).
    """
    warnings = Counter(rule for rule, kind in penalties if kind == "warning")
    counts = Counter(rule for rule, _ in penalties)
    total = len(penalties)
    flags: list[Flag] = []
    if adding is not None:
        nth = warnings[adding] + 1
        if upgrade_at and nth >= upgrade_at:
            flags.append(
                Flag(
                    UPGRADE,
                    adding,
                    f"This would be the {_ordinal(nth)} warning for {adding}: consider an upgrade.",
                )
            )
        if review_at and total + 1 >= review_at:
            flags.append(
                Flag(REVIEW, "", f"This would be penalty number {total + 1}: head judge review under 10.080.")
            )
    else:
        for rule, n in sorted(warnings.items()):
            if upgrade_at and n >= upgrade_at:
                flags.append(Flag(UPGRADE, rule, f"{n} warnings for {rule}: consider an upgrade."))
        if review_at and total >= review_at:
            flags.append(Flag(REVIEW, "", f"{total} penalties: head judge review under 10.080."))
    by_rule = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return Advice(by_rule=by_rule, total=total, flags=tuple(flags))
