"""The benchmark's stand-in LLM: the one scripted model, answering from a scenario.

MathChat: the reply is looked up in the scenario's script by the latest user message and the
number of tool results after it, so it depends only on where the conversation is, never on
what a strategy kept of the past. SummarizeContext: a correct summary, built from the
messages it is given, pairing each user request (with its clarification) with its final
answer, as a good summarizer would. ExtractUserFacts: the scenario's replies per message.

`parse_position` is shared with the retention measure, which must locate each request the
same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agent import wire
from agent.bench.scenarios import Scenario
from agent.testing.replies import answer, user_facts
from agent.testing.scripted import ScriptedModel, ScriptedRequest

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
        if message.get("role") != wire.USER:
            continue
        content = str(message.get("content", ""))
        if wire.is_tool_outcome(content):
            tool_results += 1
            continue
        return Position(wire.request_of(content), tool_results, index)
    return None


def summarize_messages(messages: list[dict[str, Any]]) -> str:
    """A correct summary of the rendered history: one exchange per completed task."""
    exchanges: list[dict[str, str]] = []
    question: list[str] = []
    for message in messages[1:]:
        content = str(message.get("content", ""))
        role = message.get("role")
        if role == wire.USER and not wire.is_tool_outcome(content):
            text = content.removesuffix(wire.COMPACT_INSTRUCTION).strip()
            if text:
                question.append(text)
        elif role == wire.ASSISTANT and '"message_to_user"' in content:
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


class BenchResponder(ScriptedModel):
    """The scripted model configured by a scenario; `misses` counts script misses."""

    def __init__(self, scenario: Scenario, facts_by_message: dict[str, str] | None = None):
        self.script = scenario.script
        # ExtractUserFacts replies by user message (agent.bench.memory_scenarios).
        self.facts_by_message = facts_by_message or {}
        self.misses: list[str] = []
        super().__init__(chat=self._chat, summaries=self._summary, facts=self._facts)

    def _chat(self, request: ScriptedRequest) -> str:
        position = parse_position(request.messages)
        replies = self.script.get(position.text) if position is not None else None
        if position is None or replies is None or position.tool_results >= len(replies):
            self.misses.append(repr(position))
            return answer(f"(script miss at {position})")
        return replies[position.tool_results]

    def _summary(self, request: ScriptedRequest) -> str:
        return summarize_messages(request.messages)

    def _facts(self, request: ScriptedRequest) -> str:
        return self.facts_by_message.get(request.last.strip(), user_facts())
