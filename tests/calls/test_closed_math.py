"""A solve of math with no unknown, id or relation runs as `evaluate`."""

from __future__ import annotations

import pytest

from agent.calls.closed_math import closed_evaluation
from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.messages import Message, UserMessage
from agent.testing.replies import as_step, tool_call
from tests.calls.test_desk import _facts


@pytest.mark.parametrize(
    ("asked", "equation", "value"),
    [
        ("what is the gcd of 84 and 126?", "gcd(84, 126)", "42"),
        ("what is 17 mod 5?", "17 mod 5", "2"),
        ("how many ways to choose 3 of 10?", "binomial(10, 3)", "120"),
        ("sin of 30 degrees?", "sin(30 degrees)", "1/2"),
    ],
)
def test_a_solve_of_closed_math_runs_as_its_value(asked: str, equation: str, value: str) -> None:
    conversation: list[Message] = [UserMessage(text=asked)]
    call = PendingCall(as_step(tool_call("solve", equation=equation)))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.values == (value,)
    assert stored.tool == "evaluate"  # stored as it ran: the model reads back an evaluation
    assert stored.arguments["expression"] == equation


@pytest.mark.parametrize(
    "fields",
    [
        {"equation": "x^2 - 4"},  # a letter: its zeros
        {"equation": "#2"},  # an id: the item's own math
        {"equation": "2 + 3 = 5"},  # an equation: true or not
        {"equation": "3 > 2"},  # a relation
        {"equation": "42", "domain": "positive"},  # a domain asks for roots
        {"equation": "arrangements(10, 3)"},  # unreadable: the tool says why
    ],
)
def test_any_other_solve_stands(fields: dict[str, str]) -> None:
    assert closed_evaluation("solve", fields) is None


@pytest.mark.parametrize(
    ("tool", "fields"),
    [
        ("extrema", {"expression": "binomial(6, 2)", "variable": "n"}),
        ("limit", {"expression": "lcm(12, 18, 30)", "to": "oo"}),
    ],
)
def test_an_extremum_or_limit_of_closed_math_is_its_value(tool: str, fields: dict) -> None:
    recast = closed_evaluation(tool, fields)
    assert recast is not None and recast.expression == fields["expression"]


@pytest.mark.parametrize(
    ("tool", "fields"),
    [
        ("derivative", {"expression": "42"}),  # the derivative of a constant is 0
        ("integral", {"expression": "3", "lower": "0", "upper": "2"}),  # an area
        ("extrema", {"expression": "5", "lower": "0", "upper": "1"}),
        ("limit", {"expression": "1/x", "to": "0"}),
    ],
)
def test_tools_that_mean_something_on_a_constant_are_not_recast(tool: str, fields: dict) -> None:
    assert closed_evaluation(tool, fields) is None
