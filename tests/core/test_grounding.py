"""Tool calls on math nobody wrote are not run; the model is told to ask instead."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.calls.grounding import ungrounded_reason
from agent.context.registry import make_strategy
from agent.context.strategies.none import NoCompaction
from agent.core.grounding import miscalculations, stated_numbers, unverified_numbers
from agent.core.loop import Agent
from agent.messages import (
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.testing.in_process import InProcessModel
from agent.testing.replies import as_step, ask_back, derivative, done, evaluate, solve


def test_invented_expression_is_refused() -> None:
    reason = ungrounded_reason(as_step(solve("x^2 + 1 = 0")), [UserMessage(text="integrate this")])
    assert reason is not None and "ask the user" in reason


def test_math_the_user_wrote_is_grounded() -> None:
    assert (
        ungrounded_reason(as_step(solve("x^2 - 4 = 0")), [UserMessage(text="solve x^2 - 4 = 0")])
        is None
    )


def test_expressions_built_from_earlier_results_are_grounded() -> None:
    summary = SummaryMessage(
        exchanges=(SummaryExchangeRecord(question="solve x^2+5x+6=0", answer="x = -3, x = -2"),),
        strategy="structural",
    )
    context = [summary, UserMessage(text="what is the square of the roots")]
    assert ungrounded_reason(as_step(evaluate("x^2", "-3", "-2")), context) is None


def test_numbers_the_user_gave_ground_a_new_expression() -> None:
    context = [UserMessage(text="which quadratic has the roots 2 and 3?")]
    assert ungrounded_reason(as_step(solve("(t - 2)(t - 3) = 0")), context) is None


def test_the_models_own_calls_do_not_count() -> None:
    invented = ToolCall(call_id="c", tool="solve", arguments={"equation": "x^2 = 1"})
    context = [UserMessage(text="integrate this"), invented]
    assert ungrounded_reason(as_step(derivative("x^2")), context) is not None


def test_the_error_that_quotes_a_refused_call_does_not_ground_it_again() -> None:
    refused = ToolResultMessage(
        call_id="c", tool="solve", ok=False, text="Not run: 'x^2 + 2x + 1 = 0' appears nowhere"
    )
    context = [UserMessage(text="I have 60 feet of fencing along a barn wall"), refused]
    again = as_step(solve("x^2 + 2x + 1 = 0"))
    assert ungrounded_reason(again, context) is not None


def test_the_loop_does_not_run_an_invented_call_and_the_model_asks() -> None:
    model = InProcessModel([solve("x^2 + 1 = 0"), ask_back("What should I integrate?")])
    agent = Agent(model, make_strategy("none"))
    result = agent.run_turn("integrate this")
    ((_, refused),) = result.tool_runs
    assert not refused.ok and refused.text.startswith("Not run:")
    assert result.reply.task_status == "PROCESSING"
    assert model.seen[1][-1].content.startswith("Tool error (solve): Not run:")


def test_grounded_calls_run() -> None:
    model = InProcessModel([solve("x^2 - 9 = 0"), done("x = -3, x = 3")])
    result = Agent(model, make_strategy("none")).run_turn("solve x^2 - 9 = 0")
    assert result.tool_runs[0][1].ok


class _ShowsOnlyTheRequest(NoCompaction):
    """A strategy that keeps everything but shows the model only the open request."""

    def view(self, working, incoming):  # type: ignore[no-untyped-def]
        return [m for m in working if m is incoming] or working[-1:]


def test_a_result_kept_out_of_the_prompt_still_grounds_a_call() -> None:
    """Grounding reads the whole conversation, not the strategy's view of it."""
    model = InProcessModel(
        [
            done("Noted: w(q) = q^3 - 7q."),
            evaluate("q^3 - 7*q", "2"),
            done("w(2) = -6"),
        ]
    )
    agent = Agent(model, _ShowsOnlyTheRequest())
    assert agent.run_turn("remember w(q) = q^3 - 7q").ok
    result = agent.run_turn("what is w at two?")  # shares no number or letter with the call
    ((_, tool_result),) = result.tool_runs
    assert tool_result.ok and tool_result.text == "q**3 - 7*q = -6 at q = 2"
    # The strategy showed only the request; the workspace still gives the model the function.
    assert "w(q) = q^3 - 7*q" in model.seen[-2][0].content


def test_numbers_an_answer_computed_by_itself_are_unverified() -> None:
    asked = UserMessage(text="what is the square of the roots")
    result = ToolResultMessage(call_id="c1", tool="solve", ok=True, text="x = -3, x = -2")
    answer = "The squares are 9 and 4, so 13."
    assert unverified_numbers(answer, [asked, result]) == ["9", "4", "13"]


def test_restated_math_is_not_an_unverified_number() -> None:
    asked = UserMessage(text="for which t is 2t³ + 4t² - 38t = 40? and the roots of 5r - 35")
    call = ToolCall(call_id="c1", tool="solve", arguments={"equation": "5r - 35 = 0"})
    result = ToolResultMessage(call_id="c1", tool="solve", ok=True, text="r = 7")
    answer = "2t^3 + 4t^2 - 38t = 40 has t = 9; 5r - 35 = 0 has r = 7."
    # Only 9 came from nowhere: the exponents (typed as ³), the call's "= 0" and 7 did not.
    assert unverified_numbers(answer, [asked, call, result]) == ["9"]
    assert unverified_numbers("x**3 + x^2", [asked]) == []


@pytest.mark.parametrize(
    ("answer", "wrong"),
    [
        ("The product of the roots is (-4)*(-2)*(-1)*3 = 24.", ["24"]),
        ("The sum: 2 + 3 = 6, and 4*4 = 16", ["6"]),
        ("f(2) = 2^3 - 13*2 + 12 = -5", ["-5"]),
        ("The squares add up to (-3)**2 + (-2)**2 = 12.", ["12"]),
        ("1/3 = 0.4 roughly", ["0.4"]),
    ],
)
def test_arithmetic_written_out_wrong_is_caught(answer: str, wrong: list[str]) -> None:
    assert miscalculations(answer) == wrong


@pytest.mark.parametrize(
    "answer",
    [
        "The product of the roots is (-4)*(-2)*(-1)*3 = -24.",
        "f(1) = 0",  # a value in function notation, not arithmetic
        "The roots are x = -3 and x = -2.",
        "3x + 2*4 = 11",  # algebra: the 2*4 is part of an expression in x
        "x^2 + 3 = 11 at x = 2",
        "The integral is 4496/15 ≈ 299.7",
        "(-3)^2 + (-2)^2 = 13",
        "squares: (-3)^2 = 9, (-2)^2 = 4, (-1)^2 = 1",
        "1/3 = 0.33",  # rounded as written
        "then 1/0 = 5",  # not a number: left to the other checks
        "so 10 - 2 = 8x",
    ],
)
def test_right_arithmetic_and_algebra_pass(answer: str) -> None:
    assert miscalculations(answer) == []


@settings(max_examples=80, deadline=None)
@given(
    numbers=st.lists(st.integers(-12, 12), min_size=2, max_size=4),
    operator=st.sampled_from(["+", "-", "*"]),
    off=st.integers(-3, 3),
)
def test_a_product_or_sum_shown_is_judged_by_its_value(
    numbers: list[int], operator: str, off: int
) -> None:
    shown = f" {operator} ".join(f"({n})" for n in numbers)
    value = numbers[0]
    for n in numbers[1:]:
        value = value + n if operator == "+" else value - n if operator == "-" else value * n
    answer = f"The result is {shown} = {value + off}."
    assert miscalculations(answer) == ([] if off == 0 else [str(value + off)])


def test_stated_numbers_leave_out_what_the_request_wrote() -> None:
    assert stated_numbers("At x = 3 it is 22 and 9.", "evaluate it at x = 3") == ["22", "9"]
