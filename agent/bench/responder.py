"""The benchmark's stand-in LLM: the one scripted model, answering from a scenario.

MathChat: the reply is looked up in the scenario's script by the latest user message and the
number of tool results after it. A request that refers back (the turn has a `Reference`) is
answered the way a model that points does, from what its prompt shows: the call with the
ids of what it means when it finds them (`agent.bench.pointing`), the math restated when
the math is in view without an id, else a `recall` first and the call with what the recall
brought back. A model that cannot find what it needs even then restates the math it was
scripted with, so the session goes on (the reference counts as lost). SummarizeContext: a correct summary, built from the
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
from agent.bench.pointing import find_id, in_view, pointed_call, recall_results
from agent.bench.references import Reference
from agent.bench.scenarios import Scenario
from agent.testing.replies import answer, recall, user_facts
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
        self.references = scenario.references
        # ExtractUserFacts replies by user message (agent.bench.memory_scenarios).
        self.facts_by_message = facts_by_message or {}
        self.misses: list[str] = []
        super().__init__(chat=self._chat, summaries=self._summary, facts=self._facts)

    def _chat(self, request: ScriptedRequest) -> str:
        position = parse_position(request.messages)
        replies = self.script.get(position.text) if position is not None else None
        recalled = recall_results(request.messages, position.index) if position else []
        step = position.tool_results - len(recalled) if position is not None else 0
        if position is None or replies is None or not 0 <= step < len(replies):
            self.misses.append(repr(position))
            return answer(f"(script miss at {position})")
        reference = self.references.get(position.text)
        if reference is not None and step == 0:
            return self._refer(request.messages, position, reference, replies[0], recalled)
        return replies[step]

    def _refer(
        self,
        messages: list[dict[str, Any]],
        position: Position,
        reference: Reference,
        restated: str,
        recalled: list[str],
    ) -> str:
        """The first step of a request that points back (see the module docstring)."""
        shown = [m for i, m in enumerate(messages) if i != position.index]
        by_task = reference.by_task
        ids = [find_id(shown, pointer, by_task) for pointer in reference.pointers]
        if all(ids):
            return pointed_call(reference.call, [str(i) for i in ids])
        if all(in_view(shown, pointer, by_task) for pointer in reference.pointers) or recalled:
            return restated
        return recall(reference.query)

    def _summary(self, request: ScriptedRequest) -> str:
        return summarize_messages(request.messages)

    def _facts(self, request: ScriptedRequest) -> str:
        return self.facts_by_message.get(request.last.strip(), user_facts())
