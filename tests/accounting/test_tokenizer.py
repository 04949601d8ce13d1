"""Offline token counting: exact tokenizer counts plus the cookbook's chat framing."""

from __future__ import annotations

from agent.accounting import tokenizer as tokens
from agent.accounting.tokenizer import count_messages, count_text


def test_count_text_matches_o200k_base() -> None:
    assert count_text("hello world") == 2
    import bpe_openai  # imported here: agent.accounting.tokenizer has already imported it quietly

    enc = bpe_openai.get_encoding("o200k_base")
    for text in ["hello world", "solve x^2 + 5x + 6 = 0", "∫ sin(x) dx from 0 to π", "a" * 500]:
        assert count_text(text) == len(enc.encode(text))
    assert count_text("") == 0


def test_special_token_text_is_counted_as_plain_text() -> None:
    # Users can type anything; a special-token marker must not raise.
    assert count_text("before <|endoftext|> after") > 3


def test_encoding_is_loaded_once() -> None:
    assert tokens._get_encoding() is tokens._get_encoding()


def test_count_messages_adds_per_message_and_priming_overhead() -> None:
    assert count_messages([]) == 3
    messages = [
        {"role": "system", "content": "You are a careful math assistant."},
        {"role": "user", "content": "solve x^2 + 5x + 6 = 0"},
    ]
    expected = 3 + sum(3 + count_text(m["role"]) + count_text(m["content"]) for m in messages)
    assert count_messages(messages) == expected


def test_count_messages_counts_names_and_content_parts() -> None:
    plain = [{"role": "user", "content": "hello there"}]
    named = [{"role": "user", "content": "hello there", "name": "ada"}]
    assert count_messages(named) == count_messages(plain) + count_text("ada") + 1
    parts = [{"role": "user", "content": [{"type": "text", "text": "hello there"}]}]
    assert count_messages(parts) == count_messages(plain)
    assert count_messages([{"role": "assistant", "content": None}]) == 3 + 1 + 3
