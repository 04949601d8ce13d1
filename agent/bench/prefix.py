"""How much of each request repeats the previous one's start: what a prompt cache saves.

Providers bill a repeated prompt prefix at a fraction of the price and llama.cpp skips
re-reading it, so a strategy that appends to a stable prefix is cheaper and faster than its
token count says. Measured on the request bodies in the order they were sent: whole leading
messages that are identical, then the common start of the first message that differs, in
tokens as `agent.accounting.tokenizer` counts them (framing included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agent.accounting.tokenizer import (
    REPLY_PRIMING_TOKENS,
    TOKENS_PER_MESSAGE,
    count_messages,
    count_text,
)


def _message_tokens(message: dict[str, Any]) -> int:
    """One message with its framing, as the tokenizer counts it inside a request."""
    return count_messages([message]) - REPLY_PRIMING_TOKENS


def _common_start(a: str, b: str) -> str:
    end = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return a[:end]


def shared_prefix_tokens(
    previous: Sequence[dict[str, Any]], current: Sequence[dict[str, Any]]
) -> int:
    """Tokens at the start of `current` that `previous` had in the same place."""
    shared = 0
    for before, now in zip(previous, current, strict=False):
        if before == now:
            shared += _message_tokens(now)
            continue
        if before.get("role") == now.get("role"):
            common = _common_start(str(before.get("content", "")), str(now.get("content", "")))
            shared += TOKENS_PER_MESSAGE + count_text(str(now.get("role", "")))
            shared += count_text(common) if common else 0
        break
    return min(shared, count_messages(list(current)))


@dataclass(frozen=True)
class PrefixUse:
    """Token-weighted over a run: how much was a repeat of the previous request's start."""

    prompt_tokens: int
    reused_tokens: int

    @property
    def share(self) -> float:
        return self.reused_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    def weighted_cost(self, cached_price: float) -> float:
        """Input tokens with the reused ones billed at `cached_price` (e.g. 0.1, 0.5)."""
        return self.prompt_tokens - self.reused_tokens * (1.0 - cached_price)


def prefix_use(requests: Sequence[Sequence[dict[str, Any]]]) -> PrefixUse:
    """Over consecutive requests (each a list of messages), in the order sent."""
    total = reused = 0
    previous: Sequence[dict[str, Any]] = ()
    for messages in requests:
        total += count_messages(list(messages))
        reused += shared_prefix_tokens(previous, messages)
        previous = messages
    return PrefixUse(total, reused)
