"""The model's own token probabilities for a reply: where it hesitated, as data.

An OpenAI-compatible endpoint asked for `logprobs` (llama.cpp, OpenAI, vLLM) returns, for
each token it wrote, the token's log-probability and the few most likely tokens it could have
written there. BAML keeps the raw response (the collector's `http_response`, or the SSE
events of a stream), so no request of ours is needed to read them. The runner-up
(`agent.calls.runner_up`) reads these choices where a tool name or an id was written.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from agent.llm.switches import switched_on

# How many alternatives per token the endpoint is asked for (`top_logprobs`).
TOP_ALTERNATIVES = 4


# Asks every provider, the embedded model's included, for token probabilities (the runner-up).
ENABLED_ENV = "MATH_AGENT_RUNNER_UP"


def wanted() -> bool:
    """Whether MATH_AGENT_RUNNER_UP turns the runner-up on (1/on/yes/true)."""
    return switched_on(ENABLED_ENV)


def request_fields() -> dict[str, object]:
    """The request fields that ask an OpenAI-compatible endpoint for token probabilities."""
    return {"logprobs": True, "top_logprobs": TOP_ALTERNATIVES}


@dataclass(frozen=True)
class TokenChoice:
    """One written token: where it starts in the reply, its probability, and the tokens the
    model weighed against it there (each with its probability; the written one left out)."""

    start: int
    token: str
    share: float
    others: tuple[tuple[str, float], ...] = ()

    @property
    def end(self) -> int:
        return self.start + len(self.token)


def _content(choice: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    logprobs = choice.get("logprobs") or {}
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    return list(content) if isinstance(content, list) else []


def choices_from_chunks(chunks: Iterable[Mapping[str, Any]]) -> tuple[TokenChoice, ...]:
    """The choices of a reply from its response bodies: one whole body, or the chunks of a
    stream in order. A body without `logprobs` gives none."""
    found: list[TokenChoice] = []
    offset = 0
    for chunk in chunks:
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, Mapping) or choice.get("index", 0) != 0:
                continue
            for entry in _content(choice):
                token = str(entry.get("token", ""))
                written = float(entry.get("logprob", 0.0))
                others = tuple(
                    (str(top.get("token", "")), math.exp(float(top.get("logprob", -math.inf))))
                    for top in entry.get("top_logprobs") or []
                    if str(top.get("token", "")) != token
                )
                found.append(TokenChoice(offset, token, math.exp(written), others))
                offset += len(token)
    return tuple(found)


def reply_text(choices: Iterable[TokenChoice]) -> str:
    """The reply the tokens spell (what the offsets of the choices index)."""
    return "".join(choice.token for choice in choices)
