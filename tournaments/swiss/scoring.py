"""Points per placement: scoring profiles (DECISIONS.md "Points and standings", 12.100)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import SwissError


def _frozen(points: Mapping[int, tuple[float, ...]]) -> Mapping[int, tuple[float, ...]]:
    return MappingProxyType({int(size): tuple(values) for size, values in points.items()})


@dataclass(frozen=True)
class ScoringProfile:
    """Points for each placement, per table size: ``points[4] == (5, 3, 2, 2)`` means 1st gets 5, 2nd 3..."""

    name: str
    points: Mapping[int, tuple[float, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "points", _frozen(self.points))
        for size, values in self.points.items():
            if len(values) != size:
                raise SwissError(f"scoring '{self.name}': a {size}-player table needs {size} values.")
            if any(v < 0 for v in values):
                raise SwissError(f"scoring '{self.name}': points cannot be negative.")
            if any(a < b for a, b in zip(values, values[1:], strict=False)):
                raise SwissError(f"scoring '{self.name}': a better placement cannot score fewer points.")

    def for_table(self, size: int) -> tuple[float, ...]:
        try:
            return self.points[size]
        except KeyError:
            raise SwissError(f"scoring '{self.name}' has no points for a {size}-player table.") from None

    def points_for(self, place: int, size: int, *, refused_to_sign: bool = False) -> float:
        """Points for ``place`` (1-based) at a table of ``size``; 0 for refusing to sign the slip (12.100)."""
        values = self.for_table(size)
        if not 1 <= place <= size:
            raise SwissError(f"place {place} does not exist at a {size}-player table.")
        return 0 if refused_to_sign else values[place - 1]

    def table_maximum(self, size: int) -> float:
        """Most points one player can take at a table of ``size`` (the opponents' points rate divides by it)."""
        return self.for_table(size)[0]


# The Cryptozoic organized-play precedent. Five players (one table, only when offered for 5 actives)
# keep the same floor of 2 below second place so nobody is punished for the table size.
CLASSIC = ScoringProfile("classic", {3: (5, 3, 2), 4: (5, 3, 2, 2), 5: (5, 3, 2, 2, 2)})

PRESETS: Mapping[str, ScoringProfile] = MappingProxyType({"classic": CLASSIC})


def scoring_profile(spec: str | Mapping[str, object] | ScoringProfile | None = None) -> ScoringProfile:
    """A profile from a preset name, a custom mapping ``{"3": [..], "4": [..]}``, or a profile itself."""
    if spec is None:
        return CLASSIC
    if isinstance(spec, ScoringProfile):
        return spec
    if isinstance(spec, str):
        try:
            return PRESETS[spec]
        except KeyError:
            raise SwissError(f"unknown scoring profile '{spec}' (known: {', '.join(PRESETS)}).") from None
    if not isinstance(spec, Mapping):
        raise SwissError(
            'scoring must be a preset name ("classic") or points per table size: {"3": [...], "4": [...]}.'
        )
    points: dict[int, tuple[float, ...]] = {}
    for size, values in spec.items():
        if size == "name":
            continue
        try:
            key = int(size)
            if isinstance(values, str | bytes) or any(isinstance(v, bool) for v in values):  # type: ignore[union-attr]
                raise TypeError
            points[key] = tuple(float(v) for v in values)  # type: ignore[union-attr]
        except (TypeError, ValueError, OverflowError):
            raise SwissError(
                f"custom scoring: '{str(size)[:20]}' must map a table size to a list of numbers."
            ) from None
        if not all(math.isfinite(v) for v in points[key]):
            raise SwissError(f"custom scoring: the points for '{str(size)[:20]}' must be finite numbers.")
    if 3 not in points or 4 not in points:
        raise SwissError("custom scoring needs points for 3- and 4-player tables.")
    # A short 4-player list makes a short 5-player one; the profile then names the 4-player table.
    points.setdefault(5, points[4] + points[4][-1:])
    return ScoringProfile(str(spec.get("name", "custom")), points)
