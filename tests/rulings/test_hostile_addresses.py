"""Hostile values in rulings addresses and the search box: never a 500 (on SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest

VALUES = [
    "abc",
    "²",
    "٩.٢٢",
    "9.\x0022",
    "a\x00b",
    "x" * 10000,
    "'; DROP TABLE",
    '""*',
    "NEAR(",
    "*",
    "9.",
    "ﬁ",
]


@pytest.mark.parametrize("value", VALUES)
def test_the_search_page_answers_any_query_game_or_document(client, invented, value):
    for params in ({"q": value}, {"q": value, "game": value}, {"q": "gadgetman", "document": value}):
        assert client.get("/rulings/", params).status_code == 200


@pytest.mark.parametrize("value", VALUES)
def test_a_hostile_key_number_or_game_is_not_found(client, invented, value):
    for url in (
        f"/rulings/glossary/{value}/",
        f"/rulings/peek/{value}/{value}/",
        f"/rulings/rule/dcdb/{value}/",
        f"/rulings/d/{value}/e/{value}/",
        f"/rulings/d/{value}/s/{value}/",
    ):
        assert client.get(url).status_code == 404, url
