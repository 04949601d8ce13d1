"""An inequality in the workspace: the person's is an item, its answer a solution set that is
never taken for roots (no sum, no point), and equations are captured and kept as before."""

from __future__ import annotations

import pytest
import sympy as sp

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve, tool_call
from agent.workspace.building import build
from agent.workspace.capture import Captured, capture
from agent.workspace.results import result_kind, result_values

x = sp.Symbol("x")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("solve x^2 - 4 > 0", [Captured("inequality", "x**2 - 4 > 0")]),
        ("Solve -1 < 2x + 3 <= 7.", [Captured("inequality", "-1 < 2*x + 3 <= 7")]),
        ("when is 3x + 2 ≥ 11?", [Captured("inequality", "3*x + 2 >= 11")]),
        (
            "f(x) = x^2 - 4 > 0",
            [Captured("function", "x**2 - 4", "f", ("x",)), Captured("inequality", "x**2 - 4 > 0")],
        ),
        # A condition on a letter says where it lives: no item (as before).
        (
            "h(t) = -5t^2 + 20t + 1 for t >= 0",
            [Captured("function", "-5*t**2 + 20*t + 1", "h", ("t",))],
        ),
        ("find the maximum on 0 <= x <= 5", []),
        ("if x > 2 then", []),
        ("limit of sin(x)/x as x -> 0", [Captured("expression", "sin(x)/x")]),
        # Equations are read as they were.
        ("solve x^2 + 5x + 6 = 0", [Captured("equation", "x**2 + 5*x + 6 = 0")]),
        ("solve 2(x+1) = 8", [Captured("equation", "2*x + 2 = 8")]),
    ],
)
def test_an_inequality_a_person_writes_is_captured_and_a_condition_is_not(
    text: str, expected: list[Captured]
) -> None:
    assert capture(text) == expected


@pytest.mark.parametrize(
    ("value", "texts"),
    [
        (
            sp.Union(sp.Interval.open(-sp.oo, -2), sp.Interval.open(2, sp.oo)),
            ("(-oo, -2) ∪ (2, oo)",),
        ),
        (sp.Interval.Lopen(-2, 2), ("(-2, 2]",)),
        (sp.S.Reals, ("(-oo, oo)",)),
        (sp.S.EmptySet, ("∅",)),
        (sp.S.Complexes, ("ℂ",)),  # an identity (`x = x`): every x, not a root called Complexes
    ],
)
def test_a_solution_set_is_one_text_in_interval_notation(value: sp.Set, texts: tuple) -> None:
    assert result_values(value) == texts
    assert result_kind("solve", {}, texts) == "solution set"


@pytest.mark.parametrize("values", [("-3", "-2"), ("(x + 1)*(x - 1)",), ("sqrt(2)/2",)])
def test_roots_stay_roots(values: tuple) -> None:
    assert result_kind("solve", {}, values) == "roots"


def make_agent(model: InProcessModel) -> Agent:
    return Agent(model=model, strategy=make_strategy("window"))


def test_an_inequality_by_id_is_solved_and_its_set_is_an_item_that_no_sum_or_point_uses() -> None:
    model = InProcessModel(
        [
            solve("#1"),
            done("x < -2 or x > 2 (#2)"),
            evaluate("sum(#2)"),
            evaluate("x^2", "#2"),
            evaluate("#2[1]"),
            derivative("#1"),
            done("That answer is a set of intervals."),
        ]
    )
    agent = make_agent(model)
    first = agent.run_turn("solve x^2 - 4 > 0")
    ((_call, result),) = first.tool_runs
    assert result.ok and result.item == "#2" and result.values == ("(-oo, -2) ∪ (2, oo)",)
    assert model.seen[0][-1].content.startswith("Workspace: #1 inequality (you): x^2 - 4 > 0\n")
    assert model.seen[1][-1].content == (
        "Tool result (solve) #2 solution set of #1: x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))"
    )
    workspace = build(agent.session.conversation())
    assert [item.line() for item in workspace.items] == [
        "#1 inequality (you): x^2 - 4 > 0",
        "#2 solution set of #1: x in (-oo, -2) ∪ (2, oo)",
    ]
    assert workspace.get(2).values == ()  # not roots: nothing to add, index or substitute
    second = agent.run_turn("add up the solutions, square them, take the first, differentiate")
    refused = [r.text for _call, r in second.tool_runs]
    solution_set = (
        "#2 is a solution set (x in (-oo, -2) ∪ (2, oo)), a part of the number line and not a "
        "list of values: it has no sum, mean, single value or point to compute with, so quote "
        "it as it is."
    )
    assert refused == [
        solution_set,
        solution_set,
        solution_set,
        '#1 is the inequality x^2 - 4 > 0, not an expression or values: solve it with "tool": '
        '"solve", "equation": "#1".',
    ]
    assert not any(r.ok for _call, r in second.tool_runs)


def test_the_inequality_a_small_model_puts_in_the_domain_is_solved_as_one() -> None:
    misplaced = tool_call("solve", equation="x^2 - 4 = 0", domain="x^2 - 4 > 0")
    agent = make_agent(InProcessModel([misplaced, done("x < -2 or x > 2")]))
    ((_call, result),) = agent.run_turn("solve x^2 - 4 > 0").tool_runs
    assert result.ok and result.text == "x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))"
    item = build(agent.session.conversation()).get(2)
    assert item is not None and item.kind == "solution set"
    assert item.shown == "x in (-oo, -2) ∪ (2, oo)"


def test_an_identity_is_a_solution_set_too_and_its_roots_are_never_summed() -> None:
    model = InProcessModel([solve("x = x"), done("every x"), evaluate("sum(#1)"), done("no")])
    agent = make_agent(model)
    agent.run_turn("is x = x always true?")
    workspace = build(agent.session.conversation())
    assert [item.line() for item in workspace.items] == ["#1 solution set of x = x: x in ℂ"]
    ((_call, refused),) = agent.run_turn("add its roots").tool_runs
    assert not refused.ok and refused.text.startswith("#1 is a solution set (x in ℂ)")


def test_an_equation_solved_by_id_is_still_roots() -> None:
    model = InProcessModel([solve("#1"), done("x = -2, x = 2"), evaluate("sum(#2)"), done("0")])
    agent = make_agent(model)
    agent.run_turn("solve x^2 - 4 = 0")
    ((_call, summed),) = agent.run_turn("add the roots").tool_runs
    assert summed.ok and summed.values == ("0",)
    assert build(agent.session.conversation()).get(2).line() == "#2 roots of #1: x = -2, x = 2"
