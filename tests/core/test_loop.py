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
from agent.testing.replies import ask_back, derivative, done, evaluate, integral, solve, summary


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
    assert model.seen[1][-1].content.startswith("Tool result (solve):")
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


def test_an_answer_with_numbers_no_tool_computed_is_checked_once() -> None:
    model = InProcessModel(
        [
            done("The squares are 9 and 4, so 13."),
            evaluate("x^2", "-3", "-2"),
            done("The squares are 9 and 4."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("square -3 and -2")
    assert result.ok and result.reply.text == "The squares are 9 and 4."
    assert "No tool computed 9, 4, 13" in model.seen[1][-1].content
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    # Off (the default for hosted models): the first answer stands.
    quiet = InProcessModel([done("The squares are 9 and 4, so 13.")])
    assert make_agent(quiet).run_turn("square -3 and -2").reply.text.endswith("13.")


def _solved_quartic(model: InProcessModel, aids: SmallModelAids) -> Agent:
    """An agent whose chat holds a quartic with constant 24 and roots -4, -2, -1, 3."""
    agent = make_agent(model, aids=aids)
    result = agent.run_turn("solve x^4 + 4x^3 - 7x^2 - 34x - 24 = 0")
    assert result.ok
    return agent


def test_arithmetic_asked_and_answered_without_a_tool_is_computed_with_one() -> None:
    # 24 is in the chat (the constant), so it does not look made up; no tool ran, though.
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            done("Their product is 24."),
            evaluate("(-4)*(-2)*(-1)*3"),
            done("Their product is -24."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(verify_answers=True))
    result = agent.run_turn("and their product?")
    assert result.ok and result.reply.text == "Their product is -24."
    assert "No tool computed 24" in model.seen[-2][-1].content
    # A request with no arithmetic in its words is answered from the chat as it is.
    recalled = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            done("They were x = -4, x = -2, x = -1 and x = 3."),
        ]
    )
    agent = _solved_quartic(recalled, SmallModelAids(verify_answers=True))
    assert agent.run_turn("what were the roots again?").llm_calls == 1


def test_arithmetic_written_out_wrong_is_computed_with_a_tool() -> None:
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            evaluate("x^2", "-4", "-2", "-1", "3"),
            done("The sum of the squares is 16 + 4 + 1 + 9 = 24."),
            evaluate("16 + 4 + 1 + 9"),
            done("The sum of the squares is 30."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(verify_answers=True))
    result = agent.run_turn("what is the sum of their squares?")
    assert result.ok and result.reply.text == "The sum of the squares is 30."
    assert "No tool computed 24" in model.seen[-2][-1].content


def test_a_computation_answered_without_a_tool_is_computed_with_one() -> None:
    # The answer copies a tool record's form, and its numbers are all in the chat already.
    model = InProcessModel(
        [
            solve("w^3 - 7w - 6 = 0"),
            done("The roots are w = -2, w = -1 and w = 3."),
            done("It is 6*w. [derivative: d²/dw² (w**3 - 7*w - 6) = 6*w**2]"),
            derivative("w^3 - 7w - 6", order=2),
            done("The second derivative is 6*w."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("solve w^3 - 7w - 6 = 0").ok
    result = agent.run_turn("what's its second derivative?")
    assert result.ok and result.reply.text == "The second derivative is 6*w."
    assert "Call the derivative tool" in model.seen[-2][-1].content
    assert [call.tool for call, _ in result.tool_runs] == ["derivative"]
    # Asked once per turn: a second answer without a tool stands.
    stubborn = InProcessModel([done("It is 6*w."), done("It is 6*w, as I said.")])
    agent = make_agent(stubborn, aids=SmallModelAids(verify_answers=True))
    result = agent.run_turn("the second derivative of w^3 - 7w - 6")
    assert result.ok and result.reply.text == "It is 6*w, as I said."


def test_a_value_answered_by_hand_comes_back_with_the_call_that_computes_it() -> None:
    # Seen with `ledger`: "f(4) for the cubic from before" answered "80" twice, no tool run.
    call = '{"tool": "evaluate", "expression": "f(m) = m^3 + m^2 - 14m - 24", "at": ["4"]}'
    model = InProcessModel(
        [
            solve("m^3 + m^2 - 14m - 24 = 0"),
            done("The roots are m = -3, m = -2 and m = 4."),
            solve("n^2 - 5n + 6 = 0"),
            done("The roots are n = 2 and n = 3."),
            done("The value of the cubic when m = 4 is 80."),
            evaluate("f(m) = m^3 + m^2 - 14m - 24", "4"),
            done("f(4) = 0."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(verify_answers=True))
    assert agent.run_turn("solve m^3 + m^2 - 14m - 24 = 0").ok
    assert agent.run_turn("solve n^2 - 5n + 6 = 0").ok
    result = agent.run_turn("what's f(4) for the cubic from before?")
    assert result.ok and result.reply.text == "f(4) = 0."
    sent_back = model.seen[-2][-1].content
    assert "No tool computed 80" in sent_back and sent_back.endswith(f"Send this call: {call}")


def test_a_derivative_of_a_lower_order_than_asked_is_questioned_once() -> None:
    model = InProcessModel(
        [derivative("d/dp (p^2 - 2p - 3)"), derivative("p^2 - 2p - 3", order=2), done("It is 2.")]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("the second derivative of p^2 - 2p - 3")
    assert result.ok and [call.arguments["order"] for call, _ in result.tool_runs] == [2]
    assert "order 2" in model.seen[1][-1].content


def test_a_derivative_in_a_variable_its_math_lacks_is_questioned_once() -> None:
    model = InProcessModel(
        [
            derivative("q^3 + 9q^2 + 26q + 24", order=2, variable="t"),
            derivative("q^3 + 9q^2 + 26q + 24", order=2, variable="q"),
            done("The second derivative is 6q + 18."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("the second derivative of q^3 + 9q^2 + 26q + 24")
    assert result.ok and [c.arguments["variable"] for c, _ in result.tool_runs] == ["q"]
    assert "t does not appear" in model.seen[1][-1].content


def test_arithmetic_on_some_of_their_roots_is_questioned_once() -> None:
    model = InProcessModel(
        [
            solve("x^4 + 4x^3 - 7x^2 - 34x - 24 = 0"),
            done("The roots are x = -4, x = -2, x = -1 and x = 3."),
            evaluate("(-4)^2"),
            evaluate("(-4)^2, (-2)^2, (-1)^2, 3^2"),
            done("The squares are 16, 4, 1 and 9."),
        ]
    )
    agent = _solved_quartic(model, SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("what are their squares?")
    assert result.ok and result.reply.text == "The squares are 16, 4, 1 and 9."
    assert "leaves out -2, -1, 3" in model.seen[-2][-1].content
    assert len(result.tool_runs) == 1


def test_a_tool_the_request_never_asked_for_is_questioned_once() -> None:
    model = InProcessModel(
        [
            derivative("r^2", order=2),
            evaluate("1^2, 2^2, 3^2"),
            done("The squares are 1, 4 and 9."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("square each of them")
    assert result.ok and result.reply.text == "The squares are 1, 4 and 9."
    assert [call.tool for call, _ in result.tool_runs] == ["evaluate"]
    # The model saw its own call and the question; neither is kept in the history.
    assert model.seen[1][-2].content.startswith('{"tool": "derivative"')
    assert "nothing in the request asks for a derivative" in model.seen[1][-1].content
    assert [m.kind for m in agent.session.working] == [
        "user",
        "tool_call",
        "tool_result",
        "assistant",
    ]


def test_a_call_on_other_math_than_the_named_polynomial_is_questioned_once() -> None:
    model = InProcessModel(
        [
            solve("m^3 + m^2 - 14m - 24 = 0"),
            done("The roots are m = -3, m = -2 and m = 4."),
            solve("n^2 - 5n + 6 = 0"),
            done("The roots are n = 2 and n = 3."),
            # f(4) "for the cubic from before": first the latest quadratic by hand, then f(4)
            # with no definition (the tool's refusal is no help), then as the sentence says.
            evaluate("4^2 - 5*4 + 6"),
            evaluate("f(4)", "4"),
            evaluate("f(m) = m^3 + m^2 - 14m - 24", "4"),
            done("f(4) = 0."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    assert agent.run_turn("solve m^3 + m^2 - 14m - 24 = 0").ok
    assert agent.run_turn("solve n^2 - 5n + 6 = 0").ok
    result = agent.run_turn("what's f(4) for the cubic from before?")
    assert result.ok and result.reply.text == "f(4) = 0."
    assert [call.arguments["expression"] for call, _ in result.tool_runs] == [
        "f(m) = m^3 + m^2 - 14m - 24"
    ]
    sentence = '{"tool": "evaluate", "expression": "f(m) = m^3 + m^2 - 14m - 24", "at": ["4"]}'
    assert sentence in model.seen[-3][-1].content and sentence in model.seen[-2][-1].content


def test_an_answer_that_repeats_the_question_about_a_call_is_sent_back_once() -> None:
    model = InProcessModel(
        [
            derivative("r^2", order=2),  # questioned: nothing asks for a derivative
            done("Nothing in the request asks for a derivative, and this call computes one."),
            evaluate("1^2, 2^2, 3^2"),
            done("The squares are 1, 4 and 9."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("square each of them")
    assert result.ok and result.reply.text == "The squares are 1, 4 and 9."
    assert "repeats the note about your tool call" in model.seen[2][-1].content
    assert [call.tool for call, _ in result.tool_runs] == ["evaluate"]
    # Only after a question: "this call" in an answer of a turn with none stands.
    plain = InProcessModel([done("You can call this call a derivative.")])
    agent = make_agent(plain, aids=SmallModelAids(check_tool_fit=True))
    assert agent.run_turn("hello").reply.text == "You can call this call a derivative."


def test_a_questioned_call_sent_again_runs() -> None:
    model = InProcessModel([derivative("x^3"), derivative("x^3"), done("It is 3*x^2.")])
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    result = agent.run_turn("and how about x^3")
    assert result.ok and [call.tool for call, _ in result.tool_runs] == ["derivative"]
    assert result.llm_calls == 3
    # Off (the default for hosted models): the call runs at once.
    trusting = InProcessModel([derivative("x^3"), done("It is 3*x^2.")])
    assert make_agent(trusting).run_turn("and how about x^3").llm_calls == 2


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


def test_an_answer_to_a_question_keeps_the_words_of_the_request() -> None:
    model = InProcessModel(
        [
            ask_back("What should I integrate?"),
            integral("x^2", "0", "1"),
            done("It is 1/3."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(check_tool_fit=True))
    agent.run_turn("integrate this")
    result = agent.run_turn("x^2 from 0 to 1")
    # "integrate" came in the question's turn: the integral call runs without being questioned.
    assert result.ok and [call.tool for call, _ in result.tool_runs] == ["integral"]
    assert result.llm_calls == 2


def test_small_models_see_the_solved_equations_with_the_request_never_stored() -> None:
    model = InProcessModel(
        [
            solve("x^2 - 1 = 0"),
            done("The roots are x = -1 and x = 1."),
            derivative("x^3"),
            done("It is 3x^2."),
            evaluate("(-1) + 1"),
            done("Their sum is 0."),
        ]
    )
    agent = make_agent(model, aids=SmallModelAids(index_equations=True))
    agent.run_turn("solve x^2 - 1 = 0")
    agent.run_turn("differentiate x^3")
    # Nothing solved before the first turn; the second names no earlier task: shown as typed.
    assert model.seen[0][-1].content == "solve x^2 - 1 = 0"
    assert model.seen[2][-1].content == "differentiate x^3"
    agent.run_turn("add the roots of the very first one")
    shown = model.seen[4][-1].content
    assert shown.startswith(wire.EQUATION_INDEX_HEADER)
    assert "- first, the only one; quadratic in x: x^2 - 1 = 0 -> x = -1, x = 1" in shown
    assert shown.endswith(")\nadd the roots of the very first one")
    # Every call of the turn is shown the same request (one prompt prefix for the cache) ...
    assert model.seen[5][-3].content == shown
    # ... and the history keeps the request as the user typed it.
    stored = agent.session.working[8]
    assert isinstance(stored, UserMessage) and stored.text == "add the roots of the very first one"
    # Off (the default for hosted models): the request is shown as typed.
    plain = InProcessModel([solve("x^2 - 1 = 0"), done("x = ±1"), done("3x^2"), done("0")])
    quiet = make_agent(plain)
    for text in ("solve x^2 - 1 = 0", "differentiate x^3", "add the roots of the very first one"):
        quiet.run_turn(text)
    assert plain.seen[-1][-1].content == "add the roots of the very first one"


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
