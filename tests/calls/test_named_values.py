"""An earlier result the person names by its values is what the call points at.

A scripted model proves the plumbing only (which item the call ends up on); whether it
helps the embedded model is measured by `math-agent eval`.
"""

from __future__ import annotations

from agent.calls.named_values import named_by_values, persons_numbers
from agent.context.registry import make_strategy
from agent.core.loop import Agent, TurnResult
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve, tool_call
from agent.workspace.building import build


def _chat(*turns: tuple[str, list[str]]) -> tuple[Agent, list[TurnResult]]:
    """Turns of (message, scripted calls), each ended by an answer."""
    replies = [r for _message, calls in turns for r in [*calls, done("done")]]
    agent = Agent(model=InProcessModel(replies), strategy=make_strategy("window"))
    return agent, [agent.run_turn(message) for message, _calls in turns]


# Two equations solved (roots #2 and #4), then a function (#5) solved too (roots #6).
_SETUP = (
    ("solve t^2 - 3t - 4 = 0", [solve("#1")]),
    ("solve k^2 - 9k + 14 = 0", [solve("#3")]),
    ("let g(x) = x^2 - 5x + 6; where is g zero?", [solve("g = 0", "x")]),
)


def _last_call(turn: TurnResult) -> tuple[dict[str, object], str]:
    call, result = turn.tool_runs[-1]
    return call.arguments, result.text


def test_roots_named_by_their_values_replace_the_newest_roots() -> None:
    _agent, turns = _chat(
        *_SETUP, ("the product of the roots that were -1 and 4?", [evaluate("product(#6)")])
    )
    arguments, text = _last_call(turns[-1])
    assert arguments["expression"] == "product(#2)" and text == "-4"


def test_math_named_by_its_roots_replaces_the_function_the_call_took() -> None:
    _agent, turns = _chat(
        *_SETUP, ("differentiate the one with solutions 2 and 7", [derivative("g(x)", "x")])
    )
    arguments, text = _last_call(turns[-1])
    assert arguments["expression"] == "#3"  # the equation whose roots are 2 and 7
    assert text.endswith("= 2*k - 9")  # run in the equation's own letter


def test_a_call_already_on_the_named_item_or_its_math_is_left_alone() -> None:
    for call in (evaluate("sum(#4)"), derivative("#3", "k"), evaluate("sum(equations[2])")):
        _agent, turns = _chat(*_SETUP, ("and for the one where you got 2 and 7?", [call]))
        arguments, _text = _last_call(turns[-1])
        assert "#4" in str(arguments) or "#3" in str(arguments) or "equations[2]" in str(arguments)


def test_a_function_used_at_other_math_is_not_the_item_itself() -> None:
    # `g(g(x))` is g composed with itself, read as `resolve` reads it: nothing to re-point
    _agent, turns = _chat(
        *_SETUP, ("differentiate the one with solutions 2 and 7", [derivative("g(g(x))", "x")])
    )
    assert _last_call(turns[-1])[0]["expression"] == "g(g(x))"


def test_numbers_said_as_points_bounds_or_new_math_name_nothing() -> None:
    # the values are the call's points: "evaluate g at 2 and 7"
    _agent, turns = _chat(*_SETUP, ("evaluate g at 2 and 7", [evaluate("g", "2", "7")]))
    assert _last_call(turns[-1])[0]["expression"] == "g"
    # ... or its bounds
    turn = _chat(
        *_SETUP,
        (
            "integrate g from -1 to 4",
            [tool_call("integral", expression="g", lower="-1", upper="4")],
        ),
    )[1][-1]
    assert _last_call(turn)[0]["expression"] == "g"
    # a message with new math: the call on it stays, whatever numbers it holds
    turn = _chat(*_SETUP, ("solve x^2 - 6x + 8 = 0, roots 2 and 4?", [solve("#8")]))[1][-1]
    assert _last_call(turn)[0]["equation"] == "#8"


def test_the_items_named_by_values() -> None:
    agent, _turns = _chat(*_SETUP)
    workspace = build(agent.session.conversation())
    assert [str(n) for n in persons_numbers("x = -1, 4 and 1/2 but not 5x or x^2")] == [
        "-1",
        "4",
        "1/2",
    ]
    assert named_by_values("the one with -1 and 4", workspace).id == "#2"  # type: ignore[union-attr]
    assert named_by_values("the one with 4 and -1", workspace).id == "#2"  # type: ignore[union-attr]
    assert named_by_values("the one with 4", workspace) is None  # one value names nothing
    assert named_by_values("the one with 2 and 5", workspace) is None  # no such roots
    assert named_by_values("where you got 2 and 3", workspace).id == "#6"  # type: ignore[union-attr]
