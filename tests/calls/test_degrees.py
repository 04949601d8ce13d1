"""A trigonometric function of an angle the person wrote in degrees takes it in degrees."""

from __future__ import annotations

import pytest

from agent.calls.degrees import in_degrees
from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.messages import Message, UserMessage
from agent.testing.replies import as_step, tool_call
from tests.calls.test_desk import _facts


@pytest.mark.parametrize(
    ("asked", "expression", "value"),
    [
        ("sin of 30 degrees?", "sin(30)", "1/2"),
        ("what is cos 60°?", "cos(60)", "1/2"),
        ("a ramp at 30 deg rises how much over 4 m?", "4*sin(30)", "2"),
    ],
)
def test_the_persons_degrees_reach_the_tool(asked: str, expression: str, value: str) -> None:
    conversation: list[Message] = [UserMessage(text=asked)]
    call = PendingCall(as_step(tool_call("evaluate", expression=expression, at=[])))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.values == (value,)
    assert "°" in stored.arguments["expression"]  # stored as it ran


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"expression": "sin(30)"}, "sin of 30"),  # no unit: radians, as written
        ({"expression": "sin(2)"}, "sin of 30 degrees and of 2"),  # 2 had no unit
        ({"expression": "sin(30°)"}, "sin of 30 degrees"),  # already in degrees
        ({"expression": "sin(30*x)"}, "30 degrees"),  # not a bare number
        ({"expression": "30"}, "30 degrees"),  # no trigonometric function
    ],
)
def test_any_other_call_stands(fields: dict[str, str], said: str) -> None:
    assert in_degrees(fields, said) is None


def test_every_math_field_is_read() -> None:
    marked = in_degrees({"equation": "tan(x) = tan(45)", "variable": "x"}, "tan 45°?")
    assert marked == {"equation": "tan(x) = tan(45°)", "variable": "x"}


def test_a_domain_the_person_bounded_in_degrees_is_solved_and_answered_in_degrees() -> None:
    asked = "solve 2 sin x = 1 for x between 0 and 360 degrees"
    call = PendingCall(as_step(tool_call("solve", equation="2sin(x) = 1", domain="[0, 360]")))
    stored, ran = settle(call, _facts([UserMessage(text=asked)]), guards(fit_variable=True))
    assert stored.arguments["domain"] == "[0, 360°]"
    assert ran.ok and ran.values == ("pi/6", "5*pi/6")
    assert ran.text.endswith("in degrees: x = 30°, x = 150°")
