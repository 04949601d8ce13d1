"""The person's math copied into a call with its brackets lost is the person's math."""

from __future__ import annotations

import pytest

from agent.messages import UserMessage
from agent.workspace.record import Workspace, build
from agent.workspace.said_once import said_once


@pytest.fixture(scope="module")
def written() -> Workspace:
    """#1 a fraction, #2 a product, #3 an equation, all the person's."""
    return build(
        [
            UserMessage(text="simplify (x^2 + 6x + 8)/(x + 4)"),
            UserMessage(text="expand (t + 1)(t - 2)^2"),
            UserMessage(text="solve (y - 1)/(y + 2) = 3"),
        ]
    )


@pytest.mark.parametrize(
    ("tool", "field", "copied", "meant"),
    [
        ("simplify", "expression", "x^2 + 6*x + 8/(x + 4)", "#1"),
        ("simplify", "expression", "x**2 + 6x + 8/x + 4", "#1"),
        ("expand", "expression", "t + 1*t - 2^2", "#2"),
        ("solve", "equation", "y - 1/(y + 2) = 3", "#3"),
    ],
)
def test_a_copy_that_lost_its_brackets_is_the_persons_item(
    written: Workspace, tool: str, field: str, copied: str, meant: str
) -> None:
    assert said_once(tool, {"tool": tool, field: copied}, written)[field] == meant


@pytest.mark.parametrize(
    ("tool", "field", "math"),
    [
        ("simplify", "expression", "(x^2 + 6x + 8)/(x + 4)"),  # the same math: left as written
        ("simplify", "expression", "x^2 + 6x + 9/(x + 4)"),  # other math: the model's own
        ("simplify", "expression", "#1"),
        ("factor", "expression", "x^2 + 6x + 8"),  # a part of #1, not #1
    ],
)
def test_other_math_is_left_as_written(
    written: Workspace, tool: str, field: str, math: str
) -> None:
    assert said_once(tool, {"tool": tool, field: math}, written)[field] == math


def test_two_items_written_alike_leave_the_call_alone() -> None:
    twice = build([UserMessage(text="simplify (x + 1)/2"), UserMessage(text="and x + 1/2 ?")])
    assert said_once("simplify", {"expression": "x + 1/2"}, twice)["expression"] == "x + 1/2"
