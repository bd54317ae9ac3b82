"""The compiled documents are kept on disk, so a fresh process (a new worker) does not compile them again."""

from __future__ import annotations

import pytest

from rulings.search import compiled as cat_module
from rulings.search import search


@pytest.fixture
def on_disk(invented, tmp_path, settings):
    settings.VAR_DIR = tmp_path
    cat_module._documents.clear()
    cat_module._catalogue = None
    cat_module.catalogue()  # compiles and writes the cache
    cat_module._documents.clear()  # as a fresh process finds it
    cat_module._catalogue = None
    return tmp_path


def test_a_fresh_process_reads_the_compiled_documents_from_disk(on_disk, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(cat_module, "_compile_pure", never)
    assert search(query="Gadgetman").hits


def test_an_unreadable_cache_file_is_compiled_again_and_replaced(on_disk):
    for path in (on_disk / "cache" / "rulings").glob("*.pickle"):
        path.write_bytes(b"not a pickle")
    assert search(query="Gadgetman").hits
    cat_module._documents.clear()
    cat_module._catalogue = None
    assert cat_module._read_cache(next(iter(cat_module.catalogue().data.values())).key) is not None


def test_a_cache_that_cannot_be_written_only_costs_a_compile(invented, tmp_path, settings):
    blocked = tmp_path / "file"
    blocked.write_text("")
    settings.VAR_DIR = blocked  # a file where the cache directory would go
    cat_module._documents.clear()
    cat_module._catalogue = None
    assert search(query="Gadgetman").hits
