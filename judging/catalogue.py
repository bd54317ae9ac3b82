"""The infraction catalogue: rule numbers with short names of our own and the usual penalty.

Seeded by a data migration (and ``seed_infractions`` for an existing database); an organizer
changes the default penalty per event on the penalty settings page.
"""

from __future__ import annotations

# (rule, short name, default penalty type, a spectator can commit it)
INFRACTIONS: tuple[tuple[str, str, str, bool], ...] = (
    ("10.010", "Revealing cards", "warning", False),
    ("10.020", "Discarding an Ongoing card", "warning", False),
    ("10.030", "Looking at extra cards", "warning", False),
    ("10.040", "Missed trigger", "warning", False),
    ("10.060", "Slow play", "warning", False),
    ("10.070", "Other rules infraction", "warning", False),
    ("11.010", "Outside assistance", "warning", True),
    ("11.022", "Misrepresenting the game state", "warning", False),
    ("11.030", "Banned card in the game", "warning", False),
    ("11.040", "Electronic device", "warning", False),
    ("12.100", "Refusing to sign the match slip", "warning", False),
)

# 12.100: refusing to sign gives 0 points for the round, whatever the penalty type.
REFUSED_TO_SIGN = "12.100"
# 11.010: the one infraction a spectator can be penalised for.
OUTSIDE_ASSISTANCE = "11.010"


def seed(infraction_model) -> int:
    """Create missing catalogue entries; names and defaults already there are left alone. Returns how many."""
    created = 0
    for order, (rule, name, penalty, spectators) in enumerate(INFRACTIONS):
        _, made = infraction_model.objects.get_or_create(
            rule=rule,
            defaults={"name": name, "default_penalty": penalty, "spectators": spectators, "order": order},
        )
        created += made
    return created
