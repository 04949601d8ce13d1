"""A scripted LLM for end-to-end tests: canned replies served over HTTP by agent.llm.replay.

MathChat and SummarizeContext requests are told apart by their system prompt and answered
from separate queues, so a test lists exactly what the "model" says, in order, while the real
BAML client builds the prompts and parses the replies.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import ScriptedResponder, serve

SUMMARIZER_MARK = "You compact the history of a math chat"


def tool(name: str, **fields: Any) -> str:
    return json.dumps({"tool": name, **fields})


def answer(text: str, status: str = "COMPLETED") -> str:
    return json.dumps({"tool": "message_to_user", "response": text, "task_status": status})


def summary(*pairs: tuple[str, str]) -> str:
    return json.dumps({"exchanges": [{"question": q, "answer": a} for q, a in pairs]})


class ReplyQueue:
    """Pops the next canned reply; keeps every prompt it was sent."""

    def __init__(self, chat: list[str], summaries: list[str] | None = None) -> None:
        self.chat = list(chat)
        self.summaries = list(summaries or [])
        self.chat_prompts: list[list[dict[str, Any]]] = []
        self.summary_prompts: list[list[dict[str, Any]]] = []

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        if SUMMARIZER_MARK in str(messages[0].get("content", "")):
            self.summary_prompts.append(messages)
            return self.summaries.pop(0)
        self.chat_prompts.append(messages)
        return self.chat.pop(0)


@contextmanager
def scripted_agent(queue: ReplyQueue, strategy: str = "none") -> Iterator[tuple[Agent, Any]]:
    """The real agent loop and BAML client, talking to a local scripted server."""
    with serve(ScriptedResponder(queue)) as server:
        provider = Provider("scripted", server.base_url, "scripted", None, "test", retries=False)
        model = BamlMathModel(provider.client_registry(), provider.base_url)
        yield Agent(model, make_strategy(strategy)), server
