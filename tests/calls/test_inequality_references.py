"""Ids of an inequality and of its solution set in a call: solve gets the inequality as
written; any other use is one sentence, never a crash or a number made from interval text."""

from __future__ import annotations

import pytest

from agent.calls.resolve import ReferenceProblem, resolve_arguments
from agent.messages import ToolCall, ToolResultMessage, UserMessage
from agent.workspace.building import build
from agent.workspace.record import Workspace


@pytest.fixture(scope="module")
def workspace() -> Workspace:
    return build(
        [
            UserMessage(text="solve x^2 - 4 > 0"),
            ToolCall(call_id="a", tool="solve", arguments={"equation": "#1"}),
            ToolResultMessage(
                call_id="a",
                tool="solve",
                ok=True,
                text="x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))",
                item="#2",
                values=("(-oo, -2) ∪ (2, oo)",),
                subject="x**2 - 4 > 0 for x",
            ),
            UserMessage(text="and 2^x > 8, call it Q"),
        ]
    )


def test_the_items_read_as_an_inequality_and_a_solution_set(workspace: Workspace) -> None:
    assert [item.line() for item in workspace.items] == [
        "#1 inequality (you): x^2 - 4 > 0",
        "#2 solution set of #1: x in (-oo, -2) ∪ (2, oo)",
        "#3 inequality Q (you): 2^x > 8",
    ]


@pytest.mark.parametrize(
    ("equation", "expected"),
    [("#1", "x**2 - 4 > 0"), ("Q", "2**x > 8"), ("#3", "2**x > 8"), ("(#1)", None)],
)
def test_solve_gets_the_inequality_an_id_or_label_stands_for(
    workspace: Workspace, equation: str, expected: str | None
) -> None:
    if expected is None:  # not the id alone: math around an inequality is no math
        with pytest.raises(ReferenceProblem, match="is the inequality"):
            resolve_arguments("solve", {"equation": equation}, workspace)
        return
    assert resolve_arguments("solve", {"equation": equation}, workspace) == {"equation": expected}


@pytest.mark.parametrize(
    ("tool", "arguments", "starts"),
    [
        ("evaluate", {"expression": "sum(#2)", "at": []}, "#2 is a solution set"),
        ("evaluate", {"expression": "mean(#2)", "at": []}, "#2 is a solution set"),
        ("evaluate", {"expression": "(#2)^2", "at": []}, "#2 is a solution set"),
        ("evaluate", {"expression": "#2[1]", "at": []}, "#2 is a solution set"),
        ("evaluate", {"expression": "x^2", "at": ["#2"]}, "#2 is a solution set"),
        ("solve", {"equation": "#2"}, "#2 is a solution set"),
        ("derivative", {"expression": "#1"}, "#1 is the inequality x^2 - 4 > 0"),
        ("evaluate", {"expression": "Q", "at": ["x = 1"]}, "#3 is the inequality 2^x > 8"),
        ("evaluate", {"expression": "max(#1)", "at": []}, "#1 is the inequality"),
    ],
)
def test_any_other_use_is_refused_in_one_sentence(
    workspace: Workspace, tool: str, arguments: dict, starts: str
) -> None:
    with pytest.raises(ReferenceProblem) as refused:
        resolve_arguments(tool, arguments, workspace)
    assert refused.value.message.startswith(starts)
    assert refused.value.message.count(". ") == 0  # one sentence
