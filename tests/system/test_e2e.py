"""End to end: the real agent loop and generated BAML client against a local scripted server."""

from __future__ import annotations

import json

from agent import wire
from agent.context.tasks import unpaired_tool_messages
from agent.messages import SummaryMessage
from agent.testing.replies import answer, summary, tool_call
from agent.testing.scripted import ScriptedModel, scripted_agent


def test_solve_task() -> None:
    queue = ScriptedModel(
        [
            tool_call("solve", equation="x^2 + 5x + 6 = 0"),
            answer("The roots are x = -3 and x = -2."),
        ]
    )
    with scripted_agent(queue) as (agent, server):
        result = agent.run_turn("solve x^2 + 5x + 6 = 0")
    assert result.ok and result.reply.text == "The roots are x = -3 and x = -2."
    ((call, tool_result),) = result.tool_runs
    assert call.tool == "solve" and tool_result.ok
    assert "-3" in tool_result.text and "-2" in tool_result.text
    # The second prompt carried the tool result with real chat roles.
    roles = [m["role"] for m in queue.chat_prompts[1]]
    assert roles == ["system", "user", "assistant", "user"]
    assert queue.chat_prompts[1][-1]["content"].startswith("Tool result (solve) #2 roots of #1")
    # Tokens are the server's counts, read through the Collector.
    reported = [server.usage(body, "") for body in server.requests]
    assert result.input_tokens == sum(u["prompt_tokens"] for u in reported) > 0
    assert result.output_tokens > 0 and result.llm_calls == 2


def test_multi_step_solve_then_derivative() -> None:
    queue = ScriptedModel(
        [
            tool_call("solve", equation="x^2 - 4 = 0"),
            tool_call("derivative", expression="x^2 - 4"),
            answer("Roots x = -2 and x = 2; the derivative is 2*x."),
        ]
    )
    with scripted_agent(queue) as (agent, _):
        result = agent.run_turn("solve x^2 - 4 = 0, then differentiate it")
    assert [c.tool for c, _ in result.tool_runs] == ["solve", "derivative"]
    assert result.tool_runs[1][1].text.replace(" ", "").endswith("=2*x")
    assert result.reply.task_status == "COMPLETED"
    assert unpaired_tool_messages(agent.session.working) == []


def test_clarification_round_before_an_integral() -> None:
    queue = ScriptedModel(
        [
            answer("Which function should I integrate, and over which interval?", "PROCESSING"),
            tool_call("integral", expression="x^2", variable="x", lower="0", upper="1"),
            answer("The integral of x^2 from 0 to 1 is 1/3."),
        ]
    )
    with scripted_agent(queue, "summarize") as (agent, _):
        first = agent.run_turn("integrate this")
        assert first.reply.task_status == "PROCESSING"
        assert first.compaction is None  # never compact mid-task
        second = agent.run_turn("x^2 from 0 to 1")
    assert "1/3" in second.tool_runs[0][1].text
    # The clarification question was in the context of the second turn.
    assert any("Which function" in m["content"] for m in queue.chat_prompts[1])


def test_back_reference_after_compaction() -> None:
    queue = ScriptedModel(
        chat=[
            tool_call("solve", equation="x^2 + 5*x + 6 = 0"),
            answer("The roots are x = -3 and x = -2."),
            tool_call("derivative", expression="2*x^2 + 4*x - 6"),
            answer("The derivative is 4*x + 4."),
            tool_call("evaluate", expression="x^2", at=["-3", "-2"]),
            answer("The squares of the roots are 9 and 4."),
        ],
        summaries=[
            summary(("solve x^2 + 5*x + 6 = 0", "x = -3, x = -2")),
            summary(("derivative of 2*x^2 + 4*x - 6", "4*x + 4")),
            summary(("what is the square of the roots", "9 and 4")),
        ],
    )
    with scripted_agent(queue, "summarize") as (agent, _):
        agent.run_turn("solve x^2 + 5*x + 6 = 0")
        agent.run_turn("derivative of 2*x^2 + 4*x - 6")
        result = agent.run_turn("what is the square of the roots")
    # After compaction the third question's prompt holds the roots in the summary (BAML
    # merges the summary's system block into the system message that precedes it).
    first_prompt = queue.chat_prompts[4]
    assert [m["role"] for m in first_prompt] == ["system", "user"]
    assert "Summary of earlier tasks" in first_prompt[0]["content"]
    assert "x = -3, x = -2" in first_prompt[0]["content"]
    assert "4*x + 4" in first_prompt[0]["content"]
    evaluated = result.tool_runs[0][1].text
    assert "9" in evaluated and "4" in evaluated
    # Both summarizer calls were accounted for.
    assert agent.model.ledger.count("SummarizeContext") == 3
    assert agent.model.ledger.totals("SummarizeContext")[0] > 0
    working = agent.session.working
    assert isinstance(working[0], SummaryMessage) and len(working[0].exchanges) == 3


def test_a_malformed_reply_goes_back_to_the_model_once() -> None:
    queue = ScriptedModel(
        [
            "message_to_user, the roots are coming",
            tool_call("solve", equation="2x = 10"),
            answer("x = 5"),
        ]
    )
    with scripted_agent(queue) as (agent, server):
        repaired = agent.run_turn("solve 2x = 10")
        assert repaired.ok and repaired.reply.text == "x = 5", repaired.error
        # The repair request quoted the bad reply; neither is kept in the history.
        (_, repair, *_) = [r["messages"] for r in server.requests]
        assert repair[-2] == {
            "role": "assistant",
            "content": "message_to_user, the roots are coming",
        }
        assert repair[-1]["content"] == wire.REPAIR_REQUEST
        assert all("coming" not in m.to_chat().content for m in agent.session.transcript.entries
                   if hasattr(m, "to_chat"))  # fmt: skip
        assert repaired.llm_calls == 3


def test_malformed_twice_leaves_the_conversation_intact() -> None:
    queue = ScriptedModel(
        [
            "I think the answer is probably five.",
            "Still five, I think.",
            tool_call("solve", equation="2x = 10"),
            answer("x = 5"),
        ]
    )
    with scripted_agent(queue) as (agent, _):
        failed = agent.run_turn("solve 2x = 10")
        assert failed.error is not None
        assert "not a valid tool call or message" in failed.error
        assert agent.session.working == []
        retried = agent.run_turn("solve 2x = 10")
    assert retried.ok and retried.reply.text == "x = 5"
    assert "x = 5" in retried.tool_runs[0][1].text.replace(" ", " ")


def test_savings_against_none_are_estimated_per_call() -> None:
    def queue() -> ScriptedModel:
        return ScriptedModel(
            [
                tool_call("solve", equation="x^2 - 1 = 0"),
                answer("x = -1, x = 1"),
                tool_call("derivative", expression="x^3"),
                answer("3*x**2"),
            ]
        )

    totals = {}
    for strategy in ("none", "structural"):
        with scripted_agent(queue(), strategy) as (agent, _):
            agent.run_turn("solve x^2 - 1 = 0")
            agent.run_turn("differentiate x^3")
        ledger = agent.model.ledger
        totals[strategy] = (ledger.totals("MathChat")[0], ledger.history_tokens_saved)
    none_input, none_saved = totals["none"]
    structural_input, structural_saved = totals["structural"]
    assert none_saved == 0
    assert structural_saved > 0
    # The estimate of what `none` would have sent is close to what `none` really sent (BAML
    # merges the summary into the system message, which changes the framing by a few tokens).
    assert abs(structural_input + structural_saved - none_input) <= 0.03 * none_input


def test_a_bad_reply_that_names_a_math_tool_is_repaired_held_to_a_tool_call() -> None:
    """The embedded model wrote its own answer labelled as a tool; the repair round is
    decoded under the tool calls' schema (the local endpoint takes one)."""
    from agent.context.registry import make_strategy
    from agent.core.loop import Agent
    from agent.llm.model import BamlMathModel
    from agent.llm.providers import Provider
    from agent.testing.scripted import scripted_server

    labelled = '{"response": "The tangent is y = 10.", "tool": "tangent", "a'
    queue = ScriptedModel([labelled, tool_call("tangent", expression="x^2", at="1"), answer("ok")])
    with scripted_server(queue) as server:
        local = Provider("local", server.base_url, "m", None, "test", retries=False)
        agent = Agent(BamlMathModel.for_provider(local), make_strategy("none"))
        assert agent.run_turn("tangent to x^2 at x = 1").ok
        first, repair, after = server.requests
        for free in (first, after):
            assert "response_format" not in free and "grammar" not in free
        # llama.cpp grammar text when xllamacpp is installed (the `local` extra), else the schema
        held = repair.get("grammar") or json.dumps(repair["response_format"]["json_schema"])
        assert "message_to_user" not in held and '"tangent"' in held
