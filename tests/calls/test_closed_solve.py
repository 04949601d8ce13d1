"""A solve of math with no unknown, id or relation runs as `evaluate`."""

from __future__ import annotations

import pytest

from agent.calls.closed_solve import closed_evaluation
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


def test_only_solve_is_recast() -> None:
    assert closed_evaluation("derivative", {"equation": "42"}) is None
