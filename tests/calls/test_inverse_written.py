"""A function's inverse written as notation (`f^-1(x)`) is an `inverse` call on it.

A scripted model proves the plumbing only; the embedded model's calls are read in
docs/experiments.md.
"""

from __future__ import annotations

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.messages import ToolCall, ToolResultMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve, tool_call
from agent.workspace.building import build


def _run(message: str, reply: str) -> tuple[Agent, ToolCall, ToolResultMessage]:
    agent = Agent(model=InProcessModel([reply, done("done")]), strategy=make_strategy("window"))
    turn = agent.run_turn(message)
    call, result = turn.tool_runs[-1]
    return agent, call, result


def test_a_solve_of_the_definition_runs_as_the_inverse_written() -> None:
    agent, call, result = _run(
        "if k(x) = (x - 4)/(2x + 1), what is k^-1(x)?", solve("k(x) = (x - 4)/(2*x + 1)", "x")
    )
    assert (call.tool, call.arguments) == ("inverse", {"expression": "k"})
    assert result.ok and "is (-x - 4)/(2*x - 1)" in result.text
    # `k^-1(x)` is no math of its own: the workspace holds k and its inverse only
    assert [i.kind for i in build(agent.session.conversation()).items] == ["function", "expression"]


def test_the_part_of_the_line_the_person_kept_follows_the_inverse() -> None:
    _agent, call, result = _run("f(x) = x^2 + 1 for x >= 0. find f⁻¹(x)", solve("f(x) = y", "x"))
    assert (call.tool, call.arguments) == ("inverse", {"expression": "f, x >= 0"})
    assert result.ok and "is sqrt(x - 1)" in result.text


def test_an_inverse_at_a_number_or_a_call_on_other_math_is_left_alone() -> None:
    # f^-1(5) solved as f(x) = 5 is the preimage: the call's own way stays
    _agent, call, _result = _run("f(x) = x^2 + 1. what is f^-1(5)?", solve("f(x) = 5", "x"))
    assert call.tool == "solve"
    # the call is on h, not on the function written inverse
    _agent, call, _result = _run(
        "let g(x) = 2x + 1 and h(x) = x^2. g^-1(x) and h(3)?", evaluate("h", "3")
    )
    assert call.tool == "evaluate"
    # a name the text seems to define but the workspace does not hold: nothing to invert
    _agent, call, _result = _run("what is f^-1(x) if f(x) = ?", solve("x^2 = 4", "x"))
    assert call.tool == "solve"
    # no notation: a solve of a definition is the person's
    _agent, call, _result = _run("let f(x) = 2x + 1. solve f(x) = 7", solve("f(x) = 7", "x"))
    assert call.tool == "solve"


def test_an_operation_on_the_inverse_is_refused_with_its_two_steps() -> None:
    # a derivative of k^-1(x) sent on k: recast to `inverse` it would drop the derivative,
    # run as it is it would differentiate k; refused, the model takes the two steps it names
    model = InProcessModel(
        [
            derivative("k", variable="x"),
            tool_call("inverse", expression="k"),
            derivative("#2", variable="x"),
            done("done"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("window"))
    turn = agent.run_turn("let k(x) = 2x + 6. differentiate k^-1(x)")
    (refused_call, refused), (_call, inverse), (last_call, last) = turn.tool_runs
    assert refused_call.tool == "derivative" and not refused.ok
    assert "call `inverse` on k first, then `derivative` on that result's id" in refused.text
    assert inverse.ok and "x/2 - 3" in inverse.text
    assert last_call.tool == "derivative" and last.ok and "= 1/2" in last.text


def test_a_call_on_f_the_person_also_names_apart_from_its_inverse_runs_as_sent() -> None:
    # "differentiate f" is f itself: only a call the message can mean of f^-1 is changed
    model = InProcessModel([derivative("f", variable="x"), done("done")])
    agent = Agent(model=model, strategy=make_strategy("window"))
    turn = agent.run_turn("let f(x) = x^3 + 1. differentiate f, and what is f^-1(x)?")
    ((call, result),) = turn.tool_runs
    assert call.tool == "derivative" and result.ok and "= 3*x**2" in result.text
