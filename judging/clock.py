"""Remaining time of a round or one table, from stored facts. Pure: no Django.

A round's clock is a start, a length, the pauses (each a start and, once resumed, an end)
and a table's extensions in minutes. Remaining time is what is left of length plus
extensions after the time that ran while the clock was not paused.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Pause:
    started_at: datetime.datetime
    ended_at: datetime.datetime | None = None


@dataclass(frozen=True)
class Clock:
    started_at: datetime.datetime
    minutes: int
    pauses: tuple[Pause, ...] = field(default_factory=tuple)

    def paused(self) -> bool:
        return any(p.ended_at is None for p in self.pauses)

    def running_seconds(self, now: datetime.datetime) -> float:
        """Seconds the clock has run since the start, pauses left out."""
        paused = 0.0
        for pause in self.pauses:
            end = pause.ended_at or now
            if end > pause.started_at:
                paused += (min(end, now) - pause.started_at).total_seconds()
        return max((now - self.started_at).total_seconds() - paused, 0.0)

    def remaining_seconds(self, now: datetime.datetime, *, extra_minutes: int = 0) -> int:
        """Whole seconds left (negative once time is up), for the round or a table with extra minutes."""
        total = (self.minutes + extra_minutes) * 60
        left = total - self.running_seconds(now)
        # Round towards "more time left" so a page never shows 0:00 a moment early.
        return int(left) if left <= 0 else int(left + 0.999)


def as_text(seconds: int) -> str:
    """60:00, 4:05, 0:00 (time is up shows as 0:00; the page says "time" separately)."""
    seconds = max(seconds, 0)
    return f"{seconds // 60}:{seconds % 60:02d}"
