"""Copied math read back as the id it restates: the call that ran keeps its arguments.

A scripted model proves the plumbing only; whether the embedded model then points more often
is measured by `math-agent eval`.
"""

from __future__ import annotations

from agent.calls.pointing import pointed_arguments
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, evaluate, solve
from agent.workspace.building import build


def _workspace(*texts: str, results: tuple[tuple[str, dict, tuple], ...] = ()):
    messages: list[Message] = [UserMessage(text=t) for t in texts]
    for number, (tool, arguments, values) in enumerate(results, start=len(messages) + 1):
        messages += [
            ToolCall(call_id=f"c{number}", tool=tool, arguments=arguments),
            ToolResultMessage(
                call_id=f"c{number}",
                tool=tool,
                ok=True,
                text=", ".join(values),
                item=f"#{number}",
                values=values,
            ),
        ]
    return build(messages)


def test_an_equation_written_another_way_points_at_the_persons_equation() -> None:
    workspace = _workspace("solve x^2 + 5x + 6 = 0", "and solve 2x - 8 = 0")
    assert pointed_arguments("solve", {"equation": "x**2 + 5*x = -6"}, workspace) == {
        "equation": "#1"
    }
    assert pointed_arguments("solve", {"equation": "8 = 2*x"}, workspace) == {"equation": "#2"}


def test_a_copied_result_points_at_the_newest_item_with_that_math() -> None:
    workspace = _workspace(
        "differentiate x^3 + x",
        results=(("derivative", {"expression": "#1"}, ("3*x**2 + 1",)),),
    )
    call = {"expression": "1 + 3x^2", "lower": "0", "upper": "1"}
    assert pointed_arguments("integral", call, workspace) == {**call, "expression": "#2"}


def test_a_functions_body_points_at_its_name() -> None:
    workspace = _workspace("let f(t) = t^2 - 4t")
    assert pointed_arguments("derivative", {"expression": "t^2 - 4*t"}, workspace) == {
        "expression": "f(t)"
    }
    assert pointed_arguments("solve", {"equation": "t**2 - 4*t = 0"}, workspace) == {
        "equation": "f(t) = 0"
    }


def test_points_that_are_a_roots_items_values_point_at_it() -> None:
    workspace = _workspace(
        "solve x^2 + 5x + 6 = 0",
        results=(("solve", {"equation": "#1"}, ("-3", "-2")),),
    )
    call = {"expression": "x^3", "at": ["x = -2", "-3"]}
    assert pointed_arguments("evaluate", call, workspace) == {**call, "at": ["#2"]}
    # one of the two roots, or another number, is a point of its own
    assert pointed_arguments("evaluate", {"expression": "x^3", "at": ["-2"]}, workspace) is None
    assert (
        pointed_arguments("evaluate", {"expression": "x^3", "at": ["-2", "5"]}, workspace) is None
    )


def test_nothing_is_pointed_when_the_call_points_or_restates_nothing() -> None:
    workspace = _workspace("solve x^2 = 4", results=(("solve", {"equation": "#1"}, ("-2", "2")),))
    assert pointed_arguments("solve", {"equation": "#1"}, workspace) is None
    assert pointed_arguments("derivative", {"expression": "x^3"}, workspace) is None
    # a bare number never points (it would match a value by coincidence)
    assert pointed_arguments("evaluate", {"expression": "2"}, workspace) is None
    # an expression field does not point at an equation, nor differ from it by a sign
    assert pointed_arguments("derivative", {"expression": "x^2 - 4"}, workspace) is None
    assert pointed_arguments("solve", {"equation": "not math ("}, workspace) is None


def test_a_system_points_equation_by_equation() -> None:
    workspace = _workspace("x + y = 3", "x - y = 1")
    call = {"equations": ["y + x = 3", "x - y = 1", "2x = y"]}
    assert pointed_arguments("solve_system", call, workspace) == {
        "equations": ["#1", "#2", "2x = y"]
    }


def test_the_model_reads_its_copied_call_as_the_id_and_the_call_ran_as_written() -> None:
    model = InProcessModel(
        [
            solve("x^2 + 5*x + 6 = 0"),
            done("x = -3, x = -2"),
            derivative("x^2 + 5x + 6"),
            evaluate("#3", "#2"),
            done("-1 and 1"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("none"))
    agent.run_turn("solve x^2 + 5x + 6 = 0")
    turn = agent.run_turn("differentiate the left side and evaluate it at the roots")
    # the second turn's first step reads the first turn's call pointed at #1
    shown = [m.content for m in model.seen[2] if m.role == "assistant"]
    assert shown[0] == '{"tool": "solve", "equation": "#1"}'
    conversation = agent.session.conversation()
    first = next(m for m in conversation if isinstance(m, ToolCall))
    assert first.arguments["equation"] == "x^2 + 5*x + 6 = 0"
    assert turn.ok and [r.values for _c, r in turn.tool_runs][-1] == ("-1", "1")


def test_a_pointed_function_equation_resolves_as_the_call_that_ran() -> None:
    """What the model reads back must be a call that would run the same."""
    model = InProcessModel([solve("f(t) = 0"), done("t = 0, t = 4")])
    agent = Agent(model=model, strategy=make_strategy("none"))
    turn = agent.run_turn("let f(t) = t^2 - 4t; where is it zero?")
    assert turn.ok and turn.tool_runs[0][1].values == ("0", "4")
