"""selectors_characters.main_characters: the DCDB Main Characters, read once per import."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.rulings.conftest import real_rulings  # noqa: F401 (the real documents, once per session)
from tournaments.selectors_characters import main_characters

from .helpers import BATMAN, STARFIRE, import_characters, no_characters

pytestmark = pytest.mark.django_db


def test_it_lists_name_set_and_key_sorted_by_name():
    import_characters()
    names = [(c.name, c.set_name) for c in main_characters()]
    assert names == sorted(names) and ("Starfire", "Teen Titans Go") in names
    assert next(c for c in main_characters() if c.name == "Shazam!").aliases == ("Captain Marvel",)


def test_a_second_read_costs_one_query_until_the_next_import():
    import_characters()
    main_characters()
    with CaptureQueriesContext(connection) as again:
        main_characters()
    assert len(again) == 1  # the import's fingerprint
    import_characters((BATMAN, STARFIRE), checksum="characters-2")
    assert [c.key for c in main_characters()] == [BATMAN.key, STARFIRE.key]


def test_no_rule_documents_no_catalogue():
    no_characters()
    assert main_characters() == ()


def test_other_games_and_categories_are_left_out(real_rulings):  # noqa: F811
    keys = {c.key for c in main_characters()}
    assert keys and all(key.startswith("main_character/") for key in keys)
    assert "main_character/batman/base-set" in keys
