"""simulate_event picks main characters from the rule documents when they are imported."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.history.test_counted_games import simulated_event
from tournaments.models import Seat

from .helpers import CARDS, import_characters, no_characters

pytestmark = pytest.mark.django_db


def characters_of(event) -> Counter:
    return Counter(
        Seat.objects.filter(round__event=event).values_list("main_character", "main_character_key")
    )


def test_it_picks_from_the_catalogue_with_the_keys():
    import_characters()
    event = simulated_event()
    keys = {key for _, key in characters_of(event)}
    assert keys <= {card.key for card in CARDS} and len(keys) > 1


def test_the_same_seed_picks_the_same_main_characters():
    import_characters()
    first = simulated_event(9, 4)
    picked = characters_of(first)
    first.delete()  # the same seed makes the same event (name and date): one at a time
    assert characters_of(simulated_event(9, 4)) == picked


def test_without_the_catalogue_it_writes_free_text_as_before():
    no_characters()
    event = simulated_event()
    assert {key for _, key in characters_of(event)} == {""}
    assert "Batman" in {text for text, _ in characters_of(event)}


def test_the_catalogue_changes_the_names_only():
    no_characters()
    first = simulated_event(9, 6)
    without = list(Seat.objects.filter(round__event=first).order_by("pk").values_list("vp", "placement"))
    first.delete()
    import_characters()
    again = simulated_event(9, 6)
    assert (
        list(Seat.objects.filter(round__event=again).order_by("pk").values_list("vp", "placement")) == without
    )
