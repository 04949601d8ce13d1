"""Questioning a tool call that the request's words never asked for (agent.core.tool_fit)."""

from __future__ import annotations

import pytest

from agent.core.tool_fit import (
    asked_order,
    asked_tool,
    asks_for_arithmetic,
    misfit_reason,
    order_reason,
    request_words,
    untooled_reason,
    variable_reason,
)
from agent.messages import AssistantMessage, UserMessage

ASKS_DERIVATIVE = [
    "Find the derivative of: 2*x^2 + 4*x - 6",
    "differentiate the polynomial of the equation before last",
    "What is the third derivative of -3*d**3*g - 2*d**2 wrt g?",
    "d/dx of x^3",
    "what's f'(x) for f(x) = x^2",
    "slope of x^3 at x = 2",
    "where does it reach its minimum?",
]
ASKS_INTEGRAL = [
    "integrate it from 0 to 1",
    "Calculate the antiderivative of sin(x)",
    "the area under x^2 between 0 and 2",
    "∫ x dx",
]
ASKS_NEITHER = [
    "square each of them",
    "add them up",
    "what's their product?",
    "solve x^2 + 5x + 6 = 0",
    "I'm Ana, by the way",
    "Let g(t) = t^2 - 3. Give g(-2).",
]


@pytest.mark.parametrize("request_text", ASKS_NEITHER + ASKS_INTEGRAL)
def test_a_derivative_call_nobody_asked_for_is_questioned(request_text: str) -> None:
    reason = misfit_reason("derivative", request_text, [])
    assert reason is not None and "asks for a derivative" in reason
    assert "evaluate with at []" in reason  # what arithmetic on results is


@pytest.mark.parametrize("request_text", ASKS_NEITHER + ASKS_DERIVATIVE)
def test_an_integral_call_nobody_asked_for_is_questioned(request_text: str) -> None:
    assert misfit_reason("integral", request_text, []) is not None


@pytest.mark.parametrize("request_text", ASKS_DERIVATIVE)
def test_a_derivative_request_takes_the_derivative_tool(request_text: str) -> None:
    assert misfit_reason("derivative", request_text, []) is None


@pytest.mark.parametrize("request_text", ASKS_INTEGRAL)
def test_an_integral_request_takes_the_integral_tool(request_text: str) -> None:
    assert misfit_reason("integral", request_text, []) is None


@pytest.mark.parametrize("tool", ["solve", "evaluate"])
@pytest.mark.parametrize("request_text", ASKS_NEITHER)
def test_solve_and_evaluate_fit_any_other_request(tool: str, request_text: str) -> None:
    assert misfit_reason(tool, request_text, []) is None


def test_evaluate_instead_of_an_asked_derivative_is_questioned_until_the_derivative_ran() -> None:
    text = "Find the second derivative of 3*d**2*f - 2*d wrt d."
    reason = misfit_reason("evaluate", text, [])
    assert reason is not None and "the derivative tool" in reason
    # After the derivative ran, evaluating its result fits.
    assert misfit_reason("evaluate", text, ["derivative"]) is None
    # A derivative at a point is a derivative and then a value.
    assert misfit_reason("evaluate", "the derivative of x^3 at x = 2", []) is None


def test_an_answer_to_a_question_borrows_the_words_of_the_request() -> None:
    asked = UserMessage(text="integrate this")
    question = AssistantMessage(text="What should I integrate?", task_status="PROCESSING")
    answer = UserMessage(text="x^2 + 1, from 0 to 1")
    words = request_words(answer, [asked, question, answer])
    assert misfit_reason("integral", words, []) is None
    # A fresh request (the last reply completed its task) stands on its own words.
    done = AssistantMessage(text="The integral is 4/3.", task_status="COMPLETED")
    plain = UserMessage(text="square 3")
    assert request_words(plain, [asked, done, plain]) == "square 3"


def test_the_same_for_borrows_the_previous_request() -> None:
    first = UserMessage(text="differentiate x^2 + 1")
    done = AssistantMessage(text="2x", task_status="COMPLETED")
    again = UserMessage(text="now the same for 3x^3")
    words = request_words(again, [first, done, again])
    assert misfit_reason("derivative", words, []) is None


@pytest.mark.parametrize(
    ("request_text", "order"),
    [
        ("and the second derivative of the first polynomial", 2),
        ("Differentiate x^3*y twice with respect to x.", 2),
        ("What is the third derivative of -3*d**3*g - 2*d**2 wrt g?", 3),
        ("Find the 2nd-order derivative of t^5", 2),
        ("differentiate 3v^4 three times", 3),
        ("what's f''(x) for f(x) = x^4", 2),
        ("d^2/dx^2 of x^4", 2),
        ("d²y/dx² for y = x^4", 2),
    ],
)
def test_the_order_asked_in_words(request_text: str, order: int) -> None:
    assert asked_order(request_text) == order


@pytest.mark.parametrize(
    "request_text",
    [
        "derivative of the second polynomial",  # the ordinal names the polynomial
        "solve the second equation",
        "what's f'(x) for f(x) = x^2",
        "differentiate twice wrt x and once wrt y",  # two orders: read as written
        "the second derivative, then the third derivative",
    ],
)
def test_no_single_higher_order_asked(request_text: str) -> None:
    assert asked_order(request_text) is None


def test_a_derivative_call_below_the_order_asked_is_questioned() -> None:
    request = "and the second derivative of the first polynomial"
    reason = order_reason({"expression": "d/dp (p^2 - 2p - 3)", "variable": "p"}, request, [])
    assert reason is not None and "order 2" in reason and "order 1" in reason
    # The order given, or written as nested operators, fits.
    assert order_reason({"expression": "p^2 - 2p", "order": 2}, request, []) is None
    assert order_reason({"expression": "d/dp (d/dp (p^2))"}, request, []) is None
    # A derivative already ran this turn: a second call of order 1 makes order 2.
    assert order_reason({"expression": "2p - 2"}, request, ["derivative"]) is None
    assert order_reason({"expression": "p^2"}, "the derivative of p^2", []) is None


@pytest.mark.parametrize(
    ("request_text", "arithmetic"),
    [
        ("and their product?", True),
        ("what are their squares?", True),
        ("add them up", True),
        ("plug the largest root into the last polynomial", True),
        ("what were the roots again?", False),
        ("solve x^2 - 4 = 0", False),
        ("integrate it from 0 to 1", False),
    ],
)
def test_requests_for_arithmetic(request_text: str, arithmetic: bool) -> None:
    assert asks_for_arithmetic(request_text) is arithmetic


@pytest.mark.parametrize(
    ("request_text", "tool"),
    [
        ("what are the roots of s^4 - 8s^3 + 17s^2 + 2s - 24?", "solve"),
        ("q^2 + 6q + 8 = 0, solve for q", "solve"),
        ("what's its second derivative?", "derivative"),
        ("and the second derivative of the first polynomial", "derivative"),
        ("now integrate the polynomial itself from s = 0 to 1", "integral"),
        ("plug the largest root of the first equation into the last polynomial", "evaluate"),
        ("what's f(4) for the cubic from before?", "evaluate"),
        ("what are their squares?", "evaluate"),
        # Reminders of an earlier result are answered from the chat.
        ("what were the roots again?", None),
        ("which roots did you find?", None),
        ("remind me: the roots of the first equation?", None),
        # Math named in words only, or no computation: answered in words.
        ("what is a derivative?", None),
        ("how do integrals relate to areas", None),
        ("I'm Ana, by the way", None),
        ("thanks!", None),
    ],
)
def test_the_tool_a_request_asks_to_compute_with(request_text: str, tool: str | None) -> None:
    assert asked_tool(request_text) == tool


def test_an_answer_computed_without_a_tool_is_sent_back() -> None:
    reason = untooled_reason("It is 24*s^2.", "what's its second derivative?")
    assert reason is not None and "derivative tool" in reason
    # A tool's record copied into the answer names the tool, whatever the request says.
    copied = "The value is -27. [evaluate: (w**3 - 7*w - 6) at w = 3 = -27]"
    reason = untooled_reason(copied, "and the last one?")
    assert reason is not None and "evaluate tool" in reason
    assert untooled_reason("They were q = -4 and q = -2.", "what were the roots again?") is None


def test_a_calculus_call_on_a_variable_its_math_lacks_is_questioned() -> None:
    request = "and the second derivative of the first polynomial"
    wrong = {"expression": "d/dt (q**3 + 9*q**2 + 26*q + 24)", "variable": "t", "order": 2}
    reason = variable_reason("derivative", wrong, request)
    assert reason is not None and "t does not appear" in reason and "variables: q" in reason
    assert reason.endswith(
        'Send this call instead: {"tool": "derivative", "expression": '
        '"q**3 + 9*q**2 + 26*q + 24", "variable": "q", "order": 2}'
    )
    # The operator's order and the bounds written in the expression are kept as fields.
    integral = {"expression": "integrate r^2 from 0 to 1", "variable": "s"}
    reason = variable_reason("integral", integral, request)
    assert reason is not None and reason.endswith(
        '{"tool": "integral", "expression": "r^2", "variable": "r", "lower": "0", "upper": "1"}'
    )
    # The operator's letter counts as the call's variable when the field is empty.
    assert variable_reason("derivative", {"expression": "d/dr (p^2 - 2p - 3)"}, request)
    integral = {"expression": "integrate w^3 - 7w from 0 to 1", "variable": "s"}
    assert variable_reason("integral", integral, "integrate it from 0 to 1") is not None
    # Right variable, a letter the request writes, math with no letters, other tools: fine.
    right = {"expression": "q^3 + 9q^2", "variable": "q"}
    assert variable_reason("derivative", right, request) is None
    asked = {"expression": "x^2", "variable": "y"}
    assert variable_reason("derivative", asked, "differentiate x^2 with respect to y") is None
    assert variable_reason("derivative", {"expression": "5", "variable": "x"}, request) is None
    assert variable_reason("evaluate", {"expression": "q^2", "variable": "t"}, request) is None
    assert variable_reason("derivative", {"expression": "e^x", "variable": "x"}, request) is None
