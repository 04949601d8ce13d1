"""Prompt tokens of a MathChat call, system prompt and output schema included.

Counting only the history would trigger compaction ~770 tokens late (the system prompt and
the schema BAML appends are the largest part of a short conversation). So the real request is
built with the generated client (`b.request.MathChat`, no network) and its messages counted
with `agent.accounting.tokenizer`, exactly as the replay server and most providers count them. The system
prompt is constant, so its count is cached; message texts are cached too, which keeps a
count of a typical history well under a millisecond.

`estimate` mirrors how BAML lays out the request (leading system messages join the system
prompt; consecutive messages of one role are joined with a space) without building it; the
budget strategy uses it to choose what to show, `exact` to decide whether to compact.
"""

from __future__ import annotations

import threading
from typing import Any

from baml_py import ClientRegistry

from agent.accounting.tokenizer import REPLY_PRIMING_TOKENS, TOKENS_PER_MESSAGE, count_text
from agent.messages import Message, to_chat_list
from baml_client import b
from baml_client.types import ChatMessage

_CACHE_LIMIT = 50_000
# Only renders prompts: this address is never contacted.
_RENDER_ONLY_URL = "http://127.0.0.1:9/v1"


class PromptMeter:
    """Counts MathChat prompts; one per process is enough (see `meter()`)."""

    def __init__(self) -> None:
        registry = ClientRegistry()
        registry.add_llm_client(
            "MathAgentLLM", "openai-generic", {"base_url": _RENDER_ONLY_URL, "model": "count"}
        )
        registry.set_primary("MathAgentLLM")
        self._client = b.with_options(client_registry=registry)
        self._texts: dict[str, int] = {}
        self._lock = threading.Lock()
        system = self._messages([])[0]
        self.system_text: str = system["content"]
        self._system_content_tokens = count_text(self.system_text)
        self.system_tokens = (
            TOKENS_PER_MESSAGE
            + self.text("system")
            + self._system_content_tokens
            + REPLY_PRIMING_TOKENS
        )

    def _messages(self, chat: list[ChatMessage]) -> list[dict[str, Any]]:
        return self._client.request.MathChat(chat).body.json()["messages"]

    def text(self, text: str) -> int:
        """count_text with a cache (histories repeat the same texts on every call)."""
        found = self._texts.get(text)
        if found is None:
            found = count_text(text)
            with self._lock:
                if len(self._texts) > _CACHE_LIMIT:
                    self._texts.clear()
                self._texts[text] = found
        return found

    def _system_content(self, content: str) -> int:
        if content == self.system_text:
            return self._system_content_tokens
        if content.startswith(self.system_text):
            return self._system_content_tokens + self.text(content[len(self.system_text) :])
        return self.text(content)

    def exact(self, context: list[Message]) -> int:
        """Prompt tokens of the request BAML would send for `context`."""
        chat = to_chat_list(context)
        try:
            messages = self._messages(chat)
        except Exception:  # rendering cannot fail on valid messages; never break a turn
            return self.estimate(chat)
        total = REPLY_PRIMING_TOKENS
        for index, message in enumerate(messages):
            content = str(message.get("content") or "")
            role = str(message.get("role", ""))
            body = self._system_content(content) if index == 0 else self.text(content)
            total += TOKENS_PER_MESSAGE + self.text(role) + body
        return total

    def estimate(self, chat: list[ChatMessage]) -> int:
        """Like `exact`, without building the request (for choosing among candidates)."""
        total = self.system_tokens
        merged: list[tuple[str, list[str]]] = [("system", [])]
        for message in chat:
            content = message.content.strip()
            if not content:
                continue
            if merged[-1][0] == message.role:
                merged[-1][1].append(content)
            else:
                merged.append((message.role, [content]))
        _head_role, head = merged[0]
        if head:
            total += self.text(" " + " ".join(head))
        for role, parts in merged[1:]:
            total += TOKENS_PER_MESSAGE + self.text(role) + self.text(" ".join(parts))
        return total


_meter: PromptMeter | None = None
_meter_lock = threading.Lock()


def meter() -> PromptMeter:
    """The process-wide meter (building it renders the prompt once, ~2 ms)."""
    global _meter
    if _meter is None:
        with _meter_lock:
            if _meter is None:
                _meter = PromptMeter()
    return _meter
