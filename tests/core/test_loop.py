"""The agent loop with a scripted model: steps, caps, failures, cancellation, compaction."""

from __future__ import annotations

import pytest

from agent import wire
from agent.context.registry import make_strategy
from agent.context.tasks import unpaired_tool_messages
from agent.core.loop import Agent, CancelToken, SmallModelAids
from agent.core.transcript import CompactionRecord, ErrorRecord
from agent.errors import AgentError
from agent.messages import (
    AssistantMessage,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.testing.in_process import InProcessModel
from agent.testing.replies import ask_back, derivative, done, evaluate, solve, summary, tool_call


def make_agent(model: InProcessModel, strategy: str = "none", **kwargs) -> Agent:
    return Agent(model, make_strategy(strategy), **kwargs)


def test_tool_then_answer() -> None:
    model = InProcessModel([solve("x^2 + 5x + 6 = 0"), done("The roots are -3 and -2.")])
    agent = make_agent(model)
    result = agent.run_turn("solve x^2 + 5x + 6 = 0")
    assert result.ok and result.reply.text == "The roots are -3 and -2."
    assert [call.tool for call, _ in result.tool_runs] == ["solve"]
    _call, tool_result = result.tool_runs[0]
    assert tool_result.ok and "-3" in tool_result.text and "-2" in tool_result.text
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    # The second MathChat call saw the tool result as a user message.
    assert model.seen[1][-1].role == "user"
    assert model.seen[1][-1].content.startswith("Tool result (solve) #2 roots of #1")
    assert result.llm_calls == 2


def test_bad_math_is_a_tool_error_not_an_exception() -> None:
    model = InProcessModel([solve("x^2 +* = 0"), done("That equation could not be read.")])
    result = make_agent(model).run_turn("solve x^2 +* = 0")
    assert result.ok
    _, tool_result = result.tool_runs[0]
    assert not tool_result.ok
    assert model.seen[1][-1].content.startswith("Tool error (solve):")


def test_step_cap_stops_a_looping_model() -> None:
    model = InProcessModel([derivative(f"x^{n}") for n in range(2, 12)])
    agent = make_agent(model, max_tool_steps=3)
    result = agent.run_turn("differentiate x^2 forever")
    assert result.ok and result.reply.task_status == "PROCESSING"
    assert "stopped after 3 tool steps" in result.reply.text
    assert len(result.tool_runs) == 3
    assert unpaired_tool_messages(agent.session.working) == []


def test_a_repeated_call_is_not_run_again_and_the_answer_is_asked_for() -> None:
    model = InProcessModel([derivative("x^2"), derivative("x^2"), done("It is 2*x.")])
    agent = make_agent(model)
    result = agent.run_turn("differentiate x^2")
    assert result.ok and result.reply.text == "It is 2*x."
    assert len(result.tool_runs) == 1
    # The third call asked for the answer (a message not kept in the history).
    assert model.seen[2][-1].content.endswith(wire.ANSWER_NOW)
    assert all(wire.ANSWER_NOW not in m.to_chat().content for m in agent.session.working)


def test_a_model_that_keeps_repeating_a_call_is_stopped() -> None:
    model = InProcessModel([derivative("x^2")] * 10)
    result = make_agent(model).run_turn("differentiate x^2")
    assert result.ok and result.reply.task_status == "PROCESSING"
    assert "stopped after 1 tool steps" in result.reply.text
    assert result.llm_calls == 3


def test_latex_in_an_answer_is_written_plainly() -> None:
    model = InProcessModel([done(r"The roots are \(x = \frac{-5 \pm \sqrt{13}}{2}\).")])
    result = make_agent(model).run_turn("solve x^2 + 5x + 3 = 0")
    assert result.reply.text == "The roots are x = (-5 ± √13)/2."


def test_llm_failure_rolls_back_the_turn_and_keeps_the_transcript() -> None:
    model = InProcessModel(
        [
            solve("x^2 - 4 = 0"),
            done("x = -2 or x = 2"),
            solve("x^2 - 9 = 0"),
            AgentError("The model's reply was not a valid tool call or message."),
            derivative("x^3"),
            done("3*x^2"),
        ]
    )
    agent = make_agent(model)
    assert agent.run_turn("solve x^2 - 4 = 0").ok
    before = list(agent.session.working)
    failed = agent.run_turn("solve x^2 - 9 = 0")
    assert failed.error and "not a valid tool call" in failed.error
    assert agent.session.working == before
    kinds = [e.kind for e in agent.session.transcript.entries]
    assert kinds.count("tool_call") == 2 and kinds[-1] == "error"
    # The next turn works normally.
    assert agent.run_turn("differentiate x^3").reply.text == "3*x^2"


def test_cancel_before_the_call_rolls_back() -> None:
    model = InProcessModel([done("never shown")])
    agent = make_agent(model)
    token = CancelToken()
    token.cancel()
    result = agent.run_turn("solve x = 1", cancel=token)
    assert result.error and "Cancelled" in result.error
    assert agent.session.working == []
    assert isinstance(agent.session.transcript.entries[-1], ErrorRecord)


def test_summarize_replaces_finished_tasks_and_keeps_the_open_one() -> None:
    model = InProcessModel(
        [solve("x^2 + 5x + 6 = 0"), done("Roots: x = -3, x = -2"), ask_back("Definite or not?")],
        summaries=[summary(("solve x^2 + 5x + 6 = 0", "x = -3, x = -2"))],
    )
    agent = make_agent(model, "summarize")
    first = agent.run_turn("solve x^2 + 5x + 6 = 0")
    assert isinstance(first.compaction, CompactionRecord) and first.compaction.applied
    assert [m.kind for m in agent.session.working] == ["summary"]
    assert "x = -3, x = -2" in agent.session.working[0].text
    # The summarizer saw the finished task's tool call and result.
    assert any("Tool result (solve)" in m.content for m in model.summarized[0])
    second = agent.run_turn("integrate it")
    assert second.reply.task_status == "PROCESSING" and second.compaction is None
    assert [m.kind for m in agent.session.working] == ["summary", "user", "assistant"]
    # The full transcript still has everything.
    kinds = [e.kind for e in agent.session.transcript.entries]
    assert kinds.count("tool_call") == 1 and "summary" in kinds and "compaction" in kinds


def test_summaries_accumulate_without_resummarizing() -> None:
    model = InProcessModel(
        [done("A1"), done("A2")],
        summaries=[summary(("Q1", "A1")), summary(("Q2", "A2"))],
    )
    agent = make_agent(model, "summarize")
    agent.run_turn("Q1")
    agent.run_turn("Q2")
    (only,) = agent.session.working
    assert isinstance(only, SummaryMessage)
    assert [e.question for e in only.exchanges] == ["Q1", "Q2"]
    # The second summarizer call saw only the new task, not the old summary.
    assert all("Q1" not in m.content for m in model.summarized[1])


def test_summarizer_failure_keeps_history() -> None:
    model = InProcessModel([done("A1")], summaries=[AgentError("boom")])
    agent = make_agent(model, "summarize")
    result = agent.run_turn("Q1")
    assert result.compaction is not None and not result.compaction.applied
    assert "boom" in result.compaction.reason
    assert [m.kind for m in agent.session.working] == ["user", "assistant"]


def test_compaction_switched_off() -> None:
    model = InProcessModel([done("A1")])
    agent = make_agent(model, "summarize", compaction_enabled=False)
    agent.run_turn("Q1")
    assert [m.kind for m in agent.session.working] == ["user", "assistant"]
    assert model.summarized == []


def test_undo_compaction_restores_previous_context() -> None:
    model = InProcessModel([done("A1")], summaries=[summary(("Q1", "A1"))])
    agent = make_agent(model, "summarize")
    agent.run_turn("Q1")
    assert agent.session.undo_compaction()
    assert [type(m) for m in agent.session.working] == [UserMessage, AssistantMessage]
    assert not agent.session.undo_compaction()


def test_manual_compact_with_nothing_finished_says_why() -> None:
    model = InProcessModel([ask_back("Which function?")])
    agent = make_agent(model, "summarize")
    agent.run_turn("integrate this")
    record = agent.compact("manual")
    assert record is not None and not record.applied
    assert record.reason == "no finished task to compact"


@pytest.mark.parametrize("status", ["COMPLETED", "PROCESSING"])
def test_tool_messages_always_paired(status: str) -> None:
    reply = done("ok") if status == "COMPLETED" else ask_back("?")
    model = InProcessModel([solve("x = 1"), derivative("x^2"), reply])
    agent = make_agent(model)
    agent.run_turn("do two things")
    calls = [m for m in agent.session.working if isinstance(m, ToolCall)]
    results = [m for m in agent.session.working if isinstance(m, ToolResultMessage)]
    assert [c.call_id for c in calls] == [r.call_id for r in results]


def test_what_the_model_was_shown_never_changes_and_the_request_is_stored_as_typed() -> None:
    model = InProcessModel(
        [
            solve("x^2 - 1 = 0"),
            done("The roots are x = -1 and x = 1."),
            evaluate("sum(#2)"),
            done("Their sum is 0."),
        ]
    )
    agent = make_agent(model)
    agent.run_turn("solve x^2 - 1 = 0")
    agent.run_turn("add the roots of the very first one")
    shown = model.seen[2]
    assert shown[-1].content == "add the roots of the very first one"
    assert "Tool result (solve) #2 roots of #1 (equations[1]): x = -1, x = 1" in [
        m.content for m in shown
    ]
    # Every later call is shown what earlier calls were shown, then more (one prompt prefix
    # for the cache) ...
    for earlier, later in zip(model.seen, model.seen[1:], strict=False):
        assert later[: len(earlier)] == earlier
    # ... and the history keeps the request as the user typed it.
    stored = agent.session.working[4]
    assert isinstance(stored, UserMessage) and stored.text == "add the roots of the very first one"


def test_small_models_keep_the_latest_task_as_it_happened_when_ledger_folds() -> None:
    replies = [solve("x^2 - 1 = 0"), done("x = -1 and x = 1."), evaluate("(-1) + 1"), done("0")]
    kinds = {}
    for keep in (False, True):
        agent = make_agent(
            InProcessModel(list(replies)), "ledger", aids=SmallModelAids(keep_latest_task=keep)
        )
        agent.run_turn("solve x^2 - 1 = 0")
        agent.run_turn("add them up")
        kinds[keep] = [m.kind for m in agent.session.working]
    # Off: both tasks are ledger lines. On: the first is a line, the second stays raw.
    assert kinds[False] == ["summary"]
    assert kinds[True] == ["summary", "user", "tool_call", "tool_result", "assistant"]


def test_a_system_of_one_equation_with_a_condition_is_run_and_kept_as_a_solve() -> None:
    system = tool_call("solve_system", equations=["x^2 - x - 2 = 0", "x > 0"], variables=["x"])
    model = InProcessModel([system, done("x = 2 (#2).")])
    result = make_agent(model).run_turn("solve x^2 - x - 2 = 0 for x > 0")
    call, tool_result = result.tool_runs[0]
    assert call.tool == "solve" and call.arguments["domain"] == "x > 0"
    assert tool_result.ok and tool_result.values == ("2",)
