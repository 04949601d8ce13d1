"""Strategies through the real generated BAML client, against a local scripted server.

The summarizer's failures here are real ones: a reply BAML cannot parse, an HTTP error, a
summary that drops a root. The history must survive each, and the reason must be recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import count_messages
from agent.context.common import history_texts
from agent.context.math_facts import missing_facts
from agent.context.tasks import unpaired_tool_messages
from agent.core.loop import Agent
from agent.core.transcript import CompactionRecord
from agent.llm.replay import Fault
from agent.messages import SummaryMessage, ToolCall, UserMessage
from agent.testing.replies import answer, summary, tool_call
from agent.testing.scripted import ScriptedModel, ScriptedRequest, scripted_agent
from agent.workspace.building import build

pytestmark = pytest.mark.timeout(120)

CHAT = {
    "solve x^2 + 5*x + 6 = 0": [
        tool_call("solve", equation="x^2 + 5*x + 6 = 0"),
        answer("The roots are x = -3 and x = -2."),
    ],
}


def chat_reply(request: ScriptedRequest) -> str:
    """Reply by the latest user message and the tool results after it."""
    assert request.question is not None, "no user message"
    return CHAT[request.question][request.tool_outcomes]


@contextmanager
def agent_with(strategy: str, summarizer: Callable[[], str | Fault]) -> Iterator[tuple[Agent, Any]]:
    model = ScriptedModel(chat=chat_reply, summaries=lambda _request: summarizer())
    with scripted_agent(model, strategy) as (agent, server):
        yield agent, server


def test_a_good_summary_replaces_the_task() -> None:
    good = summary(("solve x^2 + 5*x + 6 = 0", "x = -3, x = -2"))
    with agent_with("summarize", lambda: good) as (agent, server):
        result = agent.run_turn("solve x^2 + 5*x + 6 = 0")
    assert result.compaction is not None and result.compaction.applied
    assert result.compaction.reason == "summarized 1 task(s)"
    assert agent.model.ledger.count("SummarizeContext") == 1
    # Every call, the summarizer's included, went through the Collector into the ledger.
    assert agent.model.ledger.totals()[0] == sum(
        count_messages(r["messages"]) for r in server.requests
    )


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("I am sorry, I cannot summarize this conversation.", "could not be parsed"),
        (json.dumps({"exchanges": []}), "no exchanges"),
        (summary(("solve x^2 + 5*x + 6 = 0", "x = -3")), "dropped 1 fact(s)"),
        (summary(("solve x^2 + 5*x + 6 = 0", "roots x = -3, x = -2. " * 40)), "not shorter"),
    ],
)
def test_a_rejected_summary_falls_back_to_structural(reply: str, why: str) -> None:
    with agent_with("summarize", lambda: reply) as (agent, _):
        result = agent.run_turn("solve x^2 + 5*x + 6 = 0")
    record = result.compaction
    assert result.ok and record is not None and record.applied
    assert why in record.reason and "folded structurally" in record.reason
    (summary,) = agent.session.working
    assert isinstance(summary, SummaryMessage)
    assert missing_facts(["-3", "-2"], history_texts(agent.session.working)) == []
    assert "sorry" not in summary.text and "rejected" not in summary.text
    assert agent.model.ledger.count("SummarizeContext") == 1


def test_a_summarizer_http_error_keeps_the_history() -> None:
    with agent_with("summarize", lambda: Fault(status=500)) as (agent, _):
        result = agent.run_turn("solve x^2 + 5*x + 6 = 0")
    record = result.compaction
    assert result.ok and record is not None and not record.applied
    assert "summarizer failed, history kept" in record.reason and "HTTP 500" in record.reason
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    assert unpaired_tool_messages(agent.session.working) == []
    assert isinstance(agent.session.transcript.entries[-1], CompactionRecord)


def test_structural_and_budget_make_no_llm_call_to_compact() -> None:
    for name in ("structural", "budget"):
        with agent_with(name, lambda: pytest.fail("no summarizer call expected")) as (agent, _):
            agent.run_turn("solve x^2 + 5*x + 6 = 0")
        assert agent.model.ledger.count("SummarizeContext") == 0
        assert agent.model.ledger.count("MathChat") == 2


def test_prompt_meter_matches_what_the_server_received() -> None:
    with agent_with("none", lambda: summary(("q", "a"))) as (agent, server):
        agent.run_turn("solve x^2 + 5*x + 6 = 0")
        working = [m for m in agent.session.working if not isinstance(m, ToolCall)][:1]
    first = server.requests[0]["messages"]
    # The open request was shown after the workspace line of its new equation.
    line = build(working).line_of(build(working).items[0], build(working).positions(False))
    shown = [UserMessage(text=f"{wire.ANNOUNCED}{line}\n{wire.REQUEST_LABEL}{working[0].text}")]
    assert meter().exact(shown) == count_messages(first)
