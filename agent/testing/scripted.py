"""The deterministic stand-in LLM the benchmark talks to over HTTP.

MathChat: the reply is looked up in the scenario's script by the latest user message and the
number of tool results after it, so it depends only on where the conversation is, never on
what a strategy kept of the past. SummarizeContext: a correct summary, built from the
messages it is given, pairing each user request (with its clarification) with its final
answer, as a good summarizer would.

Both are told apart by the system prompt. `parse_position` is shared with the retention
measure, which must locate each request the same way.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from agent import wire
from agent.bench.scenarios import Scenario, answer

QUESTION_JOIN = " / "


@dataclass(frozen=True)
class Position:
    """Where a MathChat request is: the latest user message and tool results since."""

    text: str
    tool_results: int
    index: int  # of that user message in the request's messages


def is_math_chat(messages: list[dict[str, Any]]) -> bool:
    return wire.function_of(messages) == "MathChat"


def parse_position(messages: list[dict[str, Any]]) -> Position | None:
    tool_results = 0
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.get("role") != "user":
            continue
        content = str(message.get("content", ""))
        if wire.is_tool_outcome(content):
            tool_results += 1
            continue
        return Position(content, tool_results, index)
    return None


def summarize_messages(messages: list[dict[str, Any]]) -> str:
    """A correct summary of the rendered history: one exchange per completed task."""
    exchanges: list[dict[str, str]] = []
    question: list[str] = []
    for message in messages[1:]:
        content = str(message.get("content", ""))
        role = message.get("role")
        if role == "user" and not wire.is_tool_outcome(content):
            text = content.removesuffix(wire.COMPACT_INSTRUCTION).strip()
            if text:
                question.append(text)
        elif role == "assistant" and '"message_to_user"' in content:
            try:
                reply = json.loads(content)
            except json.JSONDecodeError:
                continue
            if reply.get("task_status") == "COMPLETED" and question:
                exchanges.append(
                    {"question": QUESTION_JOIN.join(question), "answer": reply["response"]}
                )
                question = []
    return json.dumps({"exchanges": exchanges})


class BenchResponder:
    """`fn(messages) -> content` for `agent.llm.replay.ScriptedResponder`; counts script misses."""

    def __init__(self, scenario: Scenario, user_facts: dict[str, str] | None = None) -> None:
        self.script = scenario.script
        # ExtractUserFacts replies by user message (agent.bench.memory_scenarios); none: no changes.
        self.user_facts = user_facts or {}
        self.misses: list[str] = []
        self._lock = threading.Lock()

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        function = wire.function_of(messages)
        if function == "SummarizeContext":
            return summarize_messages(messages)
        if function == "ExtractUserFacts":
            text = str(messages[-1].get("content", "")).strip()
            return self.user_facts.get(text, '{"operations": []}')
        position = parse_position(messages)
        replies = self.script.get(position.text) if position is not None else None
        if position is None or replies is None or position.tool_results >= len(replies):
            with self._lock:
                self.misses.append(repr(position))
            return answer(f"(script miss at {position})")
        return replies[position.tool_results]
