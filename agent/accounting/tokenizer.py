"""Offline token counting with the o200k_base tokenizer.

`bpe_openai` bundles its vocabularies, so counting works without network access (tiktoken
would download them at run time). Counts approximate what an OpenAI-compatible provider
bills; the replay server reports them so scripted and replayed runs show realistic usage.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import bpe_openai

ENCODING_NAME = "o200k_base"
# OpenAI cookbook ("How to count tokens with tiktoken") for gpt-4o-class chat models: every
# message costs 3 tokens of framing, a `name` field 1 more, and the reply is primed with 3.
TOKENS_PER_MESSAGE = 3
TOKENS_PER_NAME = 1
REPLY_PRIMING_TOKENS = 3

_encoding: bpe_openai.Encoding | None = None
_encoding_lock = threading.Lock()


def _get_encoding() -> bpe_openai.Encoding:
    """Load the tokenizer once, on first use: importing and loading it costs ~0.1 s."""
    global _encoding
    if _encoding is None:
        with _encoding_lock:
            if _encoding is None:
                # bpe_openai reads its data at import with a deprecated importlib.resources
                # call; keep that warning out of every run that counts tokens.
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)
                    import bpe_openai

                    _encoding = bpe_openai.get_encoding(ENCODING_NAME)
    return _encoding


_CHUNK_CHARS = 200_000


def count_text(text: str) -> int:
    """Tokens in `text`, treating special-token markers as plain text (users may type them)."""
    if not text:
        return 0
    encoding = _get_encoding()
    if len(text) <= _CHUNK_CHARS:
        return len(encoding.encode_ordinary(text))
    # The tokenizer refuses inputs of a million characters or more; count long text in
    # chunks cut at whitespace, which changes the count by at most a token per cut.
    total, start = 0, 0
    while start < len(text):
        end = min(start + _CHUNK_CHARS, len(text))
        if end < len(text):
            cut = text.rfind(" ", start + _CHUNK_CHARS // 2, end)
            end = cut if cut > start else end
        total += len(encoding.encode_ordinary(text[start:end]))
        start = end
    return total


def _content_text(content: Any) -> str:
    """Flatten message content: a string, or a list of OpenAI content parts (text parts only)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Iterable) and not isinstance(content, (bytes, Mapping)):
        texts = []
        for part in content:
            if isinstance(part, Mapping) and isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif isinstance(part, str):
                texts.append(part)
        return "".join(texts)
    return str(content)


def count_messages(messages: list[dict[str, Any]]) -> int:
    """Prompt tokens for OpenAI-style chat messages, including per-message framing overhead."""
    total = 0
    for message in messages:
        total += TOKENS_PER_MESSAGE
        total += count_text(str(message.get("role", "")))
        total += count_text(_content_text(message.get("content")))
        name = message.get("name")
        if name:
            total += count_text(str(name)) + TOKENS_PER_NAME
    return total + REPLY_PRIMING_TOKENS
