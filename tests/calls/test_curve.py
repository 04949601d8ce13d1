"""A derivative the person wrote as dy/dx of one side of their curve is taken along it."""

from __future__ import annotations

import pytest
import sympy as sp

from agent.calls.curve import along_the_curve
from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.messages import UserMessage
from agent.testing.replies import as_step, tool_call
from agent.workspace.building import build
from tests.calls.test_desk import _facts

ASKED = "find dy/dx if x^2 + xy + y^2 = 7"


@pytest.mark.parametrize(
    "fields",
    [
        {"expression": "x^2 + xy + y^2", "variable": "x"},  # `= 7` dropped
        {"expression": "x^2 + x*y + y^2 - 7"},  # the equation as lhs - rhs
    ],
)
def test_one_side_of_the_curve_is_differentiated_along_it(fields: dict[str, str]) -> None:
    call = PendingCall(as_step(tool_call("derivative", **fields)))
    stored, ran = settle(call, _facts([UserMessage(text=ASKED)]), guards(fit_variable=True))
    x, y = sp.symbols("x y")
    (value,) = ran.values
    assert ran.ok and sp.simplify(sp.sympify(value) + (2 * x + y) / (x + 2 * y)) == 0
    assert stored.arguments["expression"] == "x**2 + x*y + y**2 = 7"  # stored as it ran


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        ("differentiate x^2 + xy + y^2 = 7", {"expression": "x^2 + xy + y^2"}),  # no dy/dx
        (ASKED, {"expression": "x^2 + xy"}),  # not a side of the curve
        (ASKED, {"expression": "x^2 + xy + y^2", "variable": "y"}),  # another variable
        ("find dy/dx if y = x^2 + 3x", {"expression": "x^2 + 3x"}),  # no y: explicit
    ],
)
def test_any_other_derivative_stands(message: str, fields: dict[str, str]) -> None:
    workspace = build([UserMessage(text=message)])
    assert along_the_curve("derivative", fields, message, workspace) is None
