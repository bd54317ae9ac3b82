"""A web worker warms the rulings search as it starts, so a judge's first search does not wait for it."""

from __future__ import annotations

import logging

from rulings.search import compiled as cat_module
from rulings.search import search, warm


def test_it_compiles_the_documents_before_the_first_search(invented, monkeypatch):
    cat_module._documents.clear()
    cat_module._catalogue = None
    warm()

    def never(*args, **kwargs):
        raise AssertionError("compiled again by the first search")

    monkeypatch.setattr(cat_module, "_compile_document", never)
    assert search(query="Gadgetman").hits


def test_a_failed_warm_up_is_logged_and_never_raises(invented, monkeypatch, caplog):
    def broken():
        raise RuntimeError("database gone")

    monkeypatch.setattr("rulings.search.catalogue", broken)
    with caplog.at_level(logging.ERROR, logger="rulings.search"):
        seconds = warm()

    assert seconds >= 0
    assert "could not warm up" in caplog.text
