"""The import_rulings and search_rulings management commands."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from .conftest import set_aside_other_documents

pytestmark = pytest.mark.django_db

EXCERPT = """DCDB Advanced Rule Book:
Season Began: 1 March 2031
Season Ends: 30 May 2031
Current Season: 14

1.000 - Widgets
(Click to Expand)
1.010: A widget is never a gadget.
1.011: Ex.1: Gadgetman [Hero] is a gadget, so it is not a widget.
"""


@pytest.fixture
def excerpt(tmp_path):
    set_aside_other_documents()
    (tmp_path / "advanced.txt").write_text(EXCERPT)
    return tmp_path


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_import_prints_counts_as_json(excerpt):
    (row,) = json.loads(run("import_rulings", str(excerpt), "--json"))
    assert (row["game"], row["counts"]["rule"], row["counts"]["example"]) == ("dcdb", 1, 1)


def test_a_second_import_is_unchanged(excerpt):
    run("import_rulings", str(excerpt))
    (row,) = json.loads(run("import_rulings", str(excerpt / "advanced.txt"), "--json"))
    assert row["status"] == "unchanged"


def test_a_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        run("import_rulings", str(tmp_path / "nope"))


def test_search_prints_the_documented_fields(excerpt):
    run("import_rulings", str(excerpt))
    answer = json.loads(run("search_rulings", "1.01", "--json"))
    assert set(answer) == {
        "query",
        "searched",
        "kind",
        "mode",
        "game",
        "game_named",
        "widened",
        "widened_from",
        "corrected",
        "not_found",
        "other_game",
        "notes",
        "results",
        "closest",
        "nearest_numbers",
    }
    first = answer["results"][0]
    assert set(first) == {
        "rank",
        "game",
        "kind",
        "how",
        "source_file",
        "document",
        "number",
        "title",
        "card",
        "card_set",
        "snippet",
        "url",
    }
    assert (first["rank"], first["number"], answer["not_found"]) == (1, "1.010", False)


def test_import_tells_the_other_apps_when_documents_changed_and_only_then(excerpt):
    from rulings.signals import documents_changed

    heard = []
    documents_changed.connect(lambda **kwargs: heard.append(1), weak=False, dispatch_uid="test-heard")
    try:
        run("import_rulings", str(excerpt))
        run("import_rulings", str(excerpt))  # unchanged: nothing to tell
    finally:
        documents_changed.disconnect(dispatch_uid="test-heard")
    assert heard == [1]


def test_search_refuses_a_query_longer_than_the_page_takes(excerpt):
    run("import_rulings", str(excerpt))
    with pytest.raises(CommandError, match="at most 500 characters"):
        run("search_rulings", "why " * 126, "--json")
