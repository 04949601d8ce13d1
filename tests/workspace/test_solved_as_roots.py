"""Where the only values a solved item has are its roots, its id means its roots: an
equation alone in extrema, a solved item inside evaluate's math with no point."""

from __future__ import annotations

import pytest

import tools
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.record import Workspace, build
from agent.workspace.resolve import resolve_arguments


def _ran(
    tool: str, arguments: dict, item: str, values: tuple[str, ...], subject: str
) -> list[Message]:
    text = ", ".join(f"x = {v}" for v in values) if tool == "solve" else values[0]
    return [
        ToolCall(call_id=item, tool=tool, arguments=arguments),
        ToolResultMessage(
            call_id=item, tool=tool, ok=True, text=text, item=item, values=values, subject=subject
        ),
    ]


@pytest.fixture(scope="module")
def solved() -> Workspace:
    """#1 an equation, #2 its roots; #3 a function q, #4 its roots; #5 an equation not solved."""
    return build(
        [
            UserMessage(text="solve x^2 + 5x + 6 = 0"),
            *_ran("solve", {"equation": "#1"}, "#2", ("-3", "-2"), "x**2 + 5*x + 6 = 0 for x"),
            UserMessage(text="Let q(x) = x^2 - 4. Where is it zero?"),
            *_ran("solve", {"equation": "q(x) = 0"}, "#4", ("-2", "2"), "x**2 - 4 = 0 for x"),
            UserMessage(text="and x^3 = 8 ?"),
        ]
    )


def _evaluated(expression: str, workspace: Workspace, at: object = None) -> list[str]:
    arguments = {"expression": expression} | ({} if at is None else {"at": at})
    resolved = resolve_arguments("evaluate", arguments, workspace)
    point = (resolved.get("at") or [None])[0]  # the loop evaluates at each point in turn
    result = tools.evaluate(resolved["expression"], point)
    assert result.ok, result
    values = result.value if isinstance(result.value, list) else [result.value]
    return [str(v) for v in values]


@pytest.mark.parametrize("at", [None, [], [""]])
def test_a_solved_id_inside_math_with_no_point_is_each_root(solved: Workspace, at: object) -> None:
    assert _evaluated("(#1)^2", solved, at) == ["9", "4"]
    assert _evaluated("2*#3 + 1", solved, at) == ["-3", "5"]


def test_aggregates_indexes_and_points_keep_their_own_reading(solved: Workspace) -> None:
    assert _evaluated("max(#1)^2", solved) == ["4"]
    assert _evaluated("(#1[1])^2", solved) == ["9"]
    # with a point, the id is the math it holds, evaluated there
    assert _evaluated("#3 + 1", solved, ["x = 3"]) == ["6"]
    resolved = resolve_arguments("evaluate", {"expression": "#1", "at": []}, solved)
    assert "#" not in resolved["expression"] and "x" in resolved["expression"]


def test_an_unsolved_id_is_left_as_it_was(solved: Workspace) -> None:
    resolved = resolve_arguments("evaluate", {"expression": "(#5)^2", "at": []}, solved)
    assert "x" in resolved["expression"]


def test_an_equation_alone_in_extrema_is_its_roots(solved: Workspace) -> None:
    resolved = resolve_arguments("extrema", {"expression": "#1", "kind": "max"}, solved)
    result = tools.extrema(resolved["expression"], None, None, None, "max")
    assert result.ok and result.value == -2
    # a function's id alone keeps its own reading: the extremes of q itself
    resolved = resolve_arguments("extrema", {"expression": "#3", "kind": "min"}, solved)
    assert tools.extrema(resolved["expression"], None, None, None, "min").value == -4
