"""Season points per final place: the presets, custom tables and points for attendance. Pure: no Django.

A scheme is stored as JSON on the season::

    {"preset": "store", "attendance": 1}
    {"preset": "custom", "places": [10, 7, 5], "attendance": 0}

``event_points(scheme, place, players)`` is the one rule: the place's points, plus the attendance points
that every player who played at least one counted game of the event earns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

MAX_POINTS = 1000  # per place, and for attendance
MAX_CUSTOM_PLACES = 64


@dataclass(frozen=True)
class Preset:
    label: str
    description: str
    places: tuple[int, ...] = ()  # points for places 1, 2, ...; below them 0 (empty: linear)


# A store championship's prize-support shape: the top four, then the top eight and the top sixteen.
STORE = (10, 7, 5, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1)
# Motor racing's: the winner far ahead, points down to tenth place.
TOP_HEAVY = (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)

PRESETS: dict[str, Preset] = {
    "store": Preset(
        "Store championship",
        "1st 10, 2nd 7, 3rd 5, 4th 4, 5th-8th 2, 9th-16th 1, below 0.",
        STORE,
    ),
    "linear": Preset(
        "Linear",
        "Players in the event minus the place plus one: the winner of a 24-player event 24, the last 1.",
    ),
    "top_heavy": Preset(
        "Top-heavy",
        "1st 25, 2nd 18, 3rd 15, 4th 12, 5th 10, 6th 8, 7th 6, 8th 4, 9th 2, 10th 1, below 0.",
        TOP_HEAVY,
    ),
    "custom": Preset("Custom", "Points for places 1, 2, 3, … as typed; every place below them 0."),
}
DEFAULT_SCHEME: dict = {"preset": "store", "attendance": 0}


class SchemeError(ValueError):
    """A scheme that cannot be used; the message says which part and why."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def parse_places(text: str) -> list[int]:
    """ "10, 7 5" -> [10, 7, 5]: whole numbers of 0 to MAX_POINTS, separated by commas or spaces, never
    more for a lower place; an empty place between two commas is refused rather than skipped."""
    pieces = text.replace(";", ",").strip().rstrip(",").split(",")
    for n, piece in enumerate(pieces, start=1):
        if len(pieces) > 1 and not piece.strip():
            raise SchemeError("places", f"Place {n} is empty: type 0 for a place that gets no points.")
    parts = text.replace(",", " ").replace(";", " ").split()
    if not parts:
        raise SchemeError("places", "Type the points for place 1, then place 2, and so on, e.g. 10, 7, 5.")
    if len(parts) > MAX_CUSTOM_PLACES:
        raise SchemeError("places", f"At most {MAX_CUSTOM_PLACES} places; every place below them gets 0.")
    values = []
    for n, part in enumerate(parts, start=1):
        if not part.isdigit() or not part.isascii() or int(part) > MAX_POINTS:
            raise SchemeError(
                "places", f"Place {n}: {part[:20]!r} is not a whole number of 0 to {MAX_POINTS}."
            )
        if values and int(part) > values[-1]:
            raise SchemeError(
                "places",
                f"Place {n} gets more points ({part}) than place {n - 1} ({values[-1]}): "
                "points go down, or stay level, place by place.",
            )
        values.append(int(part))
    return values


def clean_scheme(data: Mapping) -> dict:
    """The scheme as stored, checked; ``SchemeError`` names the field at fault."""
    preset = data.get("preset")
    if preset not in PRESETS:
        raise SchemeError("preset", "Choose one of the points tables.")
    attendance = data.get("attendance", 0)
    if not isinstance(attendance, int) or isinstance(attendance, bool) or not 0 <= attendance <= MAX_POINTS:
        raise SchemeError("attendance", f"Attendance points are a whole number of 0 to {MAX_POINTS}.")
    scheme: dict = {"preset": preset, "attendance": attendance}
    if preset == "custom":
        places = data.get("places")
        if isinstance(places, str):
            places = parse_places(places)
        if (
            not isinstance(places, list | tuple)
            or not 1 <= len(places) <= MAX_CUSTOM_PLACES
            or not all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= MAX_POINTS for p in places
            )
        ):
            raise SchemeError(
                "places", "Type the points for place 1, then place 2, and so on, e.g. 10, 7, 5."
            )
        scheme["places"] = list(places)
    return scheme


def place_points(scheme: Mapping, place: int, players: int) -> int:
    """The points for finishing ``place`` (1 = the winner) among ``players``, without attendance."""
    preset = scheme.get("preset", "store")
    if preset == "linear":
        return max(0, players - place + 1)
    table = scheme.get("places", ()) if preset == "custom" else PRESETS[preset].places
    return table[place - 1] if 1 <= place <= len(table) else 0


def event_points(scheme: Mapping, place: int, players: int) -> int:
    """What a player who finished ``place`` among ``players`` earns for the season: place plus attendance."""
    return place_points(scheme, place, players) + int(scheme.get("attendance", 0))


def describe(scheme: Mapping) -> str:
    """The scheme in words, as the season's page states it."""
    preset = scheme.get("preset", "store")
    if preset == "custom":
        places = scheme.get("places", [])
        text = ", ".join(f"{_ordinal(n)} {p}" for n, p in enumerate(places, start=1)) + ", below 0."
        text = f"Custom: {text}"
    else:
        text = f"{PRESETS[preset].label}: {PRESETS[preset].description}"
    attendance = int(scheme.get("attendance", 0))
    if attendance:
        text += f" Plus {attendance} for attending (every player who played at least one game of the event)."
    return text


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
