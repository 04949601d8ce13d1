"""Where a list is meant (`mean(#1)`, `#1[2]`, `at: ["#1"]`), solved math stands for its
roots; `len`/`length` count; `max` of a function names both readings."""

from __future__ import annotations

import pytest

import tools
from agent.calls.resolve import ReferenceProblem, resolve_arguments
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.building import build
from agent.workspace.record import Workspace


def _ran(
    tool: str, arguments: dict, item: str, values: tuple[str, ...], subject: str
) -> list[Message]:
    """A call and its result numbered `item` (a solve's text lists its roots in x)."""
    text = ", ".join(f"x = {v}" for v in values) if tool == "solve" else values[0]
    return [
        ToolCall(call_id=item, tool=tool, arguments=arguments),
        ToolResultMessage(
            call_id=item, tool=tool, ok=True, text=text, item=item, values=values, subject=subject
        ),
    ]


@pytest.fixture(scope="module")
def solved() -> Workspace:
    """#1 an equation and #2 its roots; #3 a function q, #4 its roots; #5 an equation never
    solved; #6 a derivative (a tool result) and #7 its roots."""
    return build(
        [
            UserMessage(text="solve x^2 - 5x + 6 = 0"),
            *_ran("solve", {"equation": "#1"}, "#2", ("2", "3"), "x**2 - 5*x + 6 = 0 for x"),
            UserMessage(text="Let q(x) = x^2 - 1. Where is it zero?"),
            *_ran("solve", {"equation": "q(x) = 0"}, "#4", ("-1", "1"), "x**2 - 1 = 0 for x"),
            UserMessage(text="and x^3 = 8 ?"),
            *_ran("derivative", {"expression": "x^3 - 3x"}, "#6", ("3*x**2 - 3",), "x**3 - 3*x"),
            *_ran("solve", {"equation": "#6 = 0"}, "#7", ("-1", "1"), "3*x**2 - 3 = 0 for x"),
        ]
    )


def _evaluated(expression: str, workspace: Workspace) -> list[str]:
    resolved = resolve_arguments("evaluate", {"expression": expression, "at": []}, workspace)
    result = tools.evaluate(resolved["expression"], None)
    assert result.ok, result
    return [str(v) for v in result.value]


def test_a_solved_equation_or_function_stands_for_its_roots_where_a_list_is_meant(
    solved: Workspace,
) -> None:
    assert solved.roots_of(solved.get(1)).id == "#2"
    assert solved.roots_of(solved.get(3)).id == "#4"
    assert solved.roots_of(solved.get(6)).id == "#7"  # roots of a result, by their origin
    assert solved.roots_of(solved.get(5)) is None
    assert _evaluated("mean(#1), product(#1), #1[2], max(#1)", solved) == ["5/2", "6", "3", "3"]
    assert _evaluated("sum(#3), mean(#6)", solved) == ["0", "0"]
    points = resolve_arguments("evaluate", {"expression": "x^3", "at": ["#1"]}, solved)["at"]
    assert points == ["2", "3"]


def test_a_combination_over_several_items_takes_their_values_together(solved: Workspace) -> None:
    """ "add up all four roots": the values of both items at once; an equation named beside
    its own roots counts them once."""
    together = "sum(#2, #4), product(#1, #2, #3, #4), max(#2, #7), count(#1, #4)"
    assert _evaluated(together, solved) == ["5", "-6", "3", "4"]


def test_a_list_counted_the_way_code_spells_it(solved: Workspace) -> None:
    assert _evaluated("len(#2), length(#2), count(#1), sum(#2)/length(#2)", solved) == [
        "2",
        "2",
        "2",
        "5/2",
    ]


def test_the_largest_of_a_function_names_both_readings(solved: Workspace) -> None:
    with pytest.raises(ReferenceProblem) as refused:
        resolve_arguments("evaluate", {"expression": "max(#3)", "at": []}, solved)
    assert "max(#4)" in refused.value.message and "extrema" in refused.value.message


def test_math_never_solved_is_not_a_list_and_says_what_to_do(solved: Workspace) -> None:
    with pytest.raises(ReferenceProblem) as refused:
        resolve_arguments("evaluate", {"expression": "mean(#5)", "at": []}, solved)
    assert "not a list of values: solve it first" in refused.value.message
