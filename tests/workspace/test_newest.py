"""`ans` in a call: the newest item of the kind its place takes, stored as that id.

The unit tests build a workspace from a real conversation; the loop tests use a scripted
model, which proves the plumbing only (how often the embedded model writes `ans` where it
should is measured by `math-agent eval`).
"""

from __future__ import annotations

import pytest

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.messages import ToolCall
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, integral, solve
from agent.workspace.newest import newest_of, with_ans_replaced
from agent.workspace.record import Workspace, build
from agent.workspace.resolve import ReferenceProblem


def chat(*turns: tuple[str, list[str]]) -> Agent:
    """An agent that has played each (request, scripted replies) turn."""
    model = InProcessModel([reply for _request, replies in turns for reply in replies])
    agent = Agent(model=model, strategy=make_strategy("window"))
    for request, _replies in turns:
        agent.run_turn(request)
    return agent


def workspace_after_two_solves() -> Workspace:
    """#1 g (a function), #2 its roots, #3 an equation in m, #4 its roots."""
    agent = chat(
        ("g(x) = x^2 - 5x + 6; where is g zero?", [solve("g = 0"), done("x = 2, x = 3")]),
        ("solve -m^2 + m + 2 = 0", [solve("#3"), done("m = -1, m = 2")]),
    )
    workspace = build(agent.session.conversation())
    assert [i.kind for i in workspace.items] == ["function", "roots", "equation", "roots"]
    return workspace


def test_values_places_take_the_newest_roots_not_the_first() -> None:
    workspace = workspace_after_two_solves()
    replaced, fields = with_ans_replaced(
        "evaluate", {"expression": "sum(ans) + (ans)^2", "at": []}, workspace
    )
    assert replaced["expression"] == "sum(#4) + (#4)^2" and fields == {"expression"}


def test_math_places_skip_roots_and_take_the_math_they_solve() -> None:
    workspace = workspace_after_two_solves()
    replaced, _ = with_ans_replaced("derivative", {"expression": "ans", "order": 2}, workspace)
    assert replaced["expression"] == "#3"
    # with points an evaluation works on math; the points themselves are values
    replaced, fields = with_ans_replaced(
        "evaluate", {"expression": "ans", "at": ["m = ans[1]"]}, workspace
    )
    assert replaced == {"expression": "#3", "at": ["m = #4[1]"]} and fields == {"expression", "at"}


def test_a_function_is_written_by_its_name_so_its_value_and_primes_read() -> None:
    agent = chat(("let g(x) = x^3 - x", [evaluate("g(2)"), done("6")]))
    workspace = build(agent.session.conversation())
    replaced, _ = with_ans_replaced("evaluate", {"expression": "ans'(1)", "at": []}, workspace)
    assert replaced["expression"] == "g'(1)"  # #2, the value 6, is no math to differentiate
    replaced, _ = with_ans_replaced("integral", {"expression": "ans"}, workspace)
    assert replaced["expression"] == "g"


def test_a_word_containing_ans_is_not_ans() -> None:
    workspace = workspace_after_two_solves()
    arguments = {"expression": "tans + answer", "at": []}
    assert with_ans_replaced("evaluate", arguments, workspace) == (arguments, set())


def test_nothing_of_the_kind_is_an_error_that_says_what_exists() -> None:
    with pytest.raises(ReferenceProblem, match=r"ans is the newest result.*nothing yet"):
        newest_of(("roots", "values", "value"), Workspace())


def test_the_loop_runs_ans_as_the_newest_roots_and_stores_the_id() -> None:
    model = InProcessModel(
        [
            solve("g = 0"),
            done("x = 2, x = 3"),
            solve("#3"),
            done("m = -1, m = 2"),
            evaluate("sum(ans)"),
            done("1"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("window"))
    agent.run_turn("g(x) = x^2 - 5x + 6; where is g zero?")
    agent.run_turn("solve -m^2 + m + 2 = 0")
    turn = agent.run_turn("what's their sum?")
    ((call, result),) = turn.tool_runs
    assert result.ok and result.values == ("1",)
    assert call.arguments["expression"] == "sum(#4)"
    # what the model reads back is the call as it wrote it
    assert '"sum(ans)"' in call.to_chat().content


def test_the_loop_takes_the_newest_math_for_a_derivative_after_a_solve() -> None:
    agent = chat(
        ("let h(t) = t^3 - 4t", [evaluate("h(1)"), done("-3")]),
        ("solve n^2 - 9 = 0", [solve("#3"), done("n = -3, n = 3")]),
        ("differentiate it", [derivative("ans"), done("2*n")]),
        ("integrate that from 0 to 1", [integral("ans", lower="0", upper="1"), done("1")]),
    )
    calls = [m for m in agent.session.conversation() if isinstance(m, ToolCall)]
    assert [c.arguments["expression"] for c in calls[2:]] == ["#3", "#5"]


def test_ans_with_nothing_computed_is_a_tool_error_and_the_model_can_fix_it() -> None:
    model = InProcessModel([evaluate("sum(ans)"), evaluate("2 + 3"), done("5")])
    agent = Agent(model=model, strategy=make_strategy("window"))
    turn = agent.run_turn("what is 2 + 3?")
    (_bad, error), (_good, result) = turn.tool_runs
    assert not error.ok and error.text.startswith("ans is the newest result")
    assert result.ok and result.values == ("5",)
