"""The tools of issue 29 through the loop: each class runs its tool, its result gets an id and
a line that says what made it, ids and names work in its fields, bad values are tool errors.

A scripted model proves the plumbing only; whether a real model picks these tools is measured
by `math-agent eval` and the BAML test blocks.
"""

from __future__ import annotations

import pytest

from agent.context.registry import make_strategy
from agent.core.loop import Agent, TurnResult
from agent.messages import ToolResultMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve, tool_call
from agent.workspace.building import build


def run(message: str, *replies: str) -> tuple[Agent, TurnResult]:
    """One turn: the scripted calls, then an answer."""
    agent = Agent(model=InProcessModel([*replies, done("done")]), strategy=make_strategy("window"))
    return agent, agent.run_turn(message)


def only_result(turn: TurnResult) -> ToolResultMessage:
    (_call, result) = turn.tool_runs[-1]
    return result


@pytest.mark.parametrize(
    ("message", "reply", "said", "line", "kind"),
    [
        (
            "let h(t) = -5t^2 + 20t + 1. how high does it go?",
            tool_call("extrema", expression="h", kind="max"),
            "maximum 21 at t = 2",
            "#2 maximum of h: 21",
            "value",
        ),
        (
            "let f(x) = x^3 - 3x. smallest value on [0, 5]?",
            tool_call("extrema", expression="f", lower="0", upper="5", kind="min"),
            "on [0, 5]: minimum -2 at x = 1",
            "#2 minimum of f on [0, 5]: -2",
            "value",
        ),
        (  # `maximum` and `minimum` run, and are kept, as extrema of that kind
            "let h(t) = -5t^2 + 20t + 1. how high does it go?",
            tool_call("maximum", expression="h"),
            "maximum 21 at t = 2",
            "#2 maximum of h: 21",
            "value",
        ),
        (
            "let f(x) = x^3 - 3x. smallest value on [0, 5]?",
            tool_call("minimum", expression="f", lower="0", upper="5"),
            "on [0, 5]: minimum -2 at x = 1",
            "#2 minimum of f on [0, 5]: -2",
            "value",
        ),
        (
            "let f(x) = x^3 - 3x. where is it flat for x >= 0?",
            tool_call("extrema", expression="f", lower="0"),
            "critical point",
            "#2 critical points of f on [0, oo): 1",
            "values",
        ),
        (
            "let f(x) = x^2. tangent at 3",
            tool_call("tangent", expression="f", at="3"),
            "tangent at x = 3: y = 6*x - 9",
            "#2 tangent to f at 3: 6*x - 9",
            "expression",
        ),
        (  # a derivative at a point is one call: its value, named by what made it
            "C(q) = 2q^2 + 8q + 687 is a cost. the marginal cost at q = 15?",
            tool_call("derivative", expression="C", at=["15"]),
            "= 4*q + 8, which at q = 15 is 68",
            "#2 derivative of C at 15: 68",
            "value",
        ),
        (
            "let g(x) = sqrt(x). tangent at 0",
            tool_call("tangent", expression="g", at="0"),
            "vertical tangent at x = 0",
            "#2 tangent to g at 0: x = 0",
            "equation",
        ),
        (
            "factor x^2 - 1",
            tool_call("factor", expression="#1"),
            "(x - 1)*(x + 1)",
            "#2 factored #1: (x - 1)*(x + 1)",
            "expression",
        ),
        (  # the math copied, not pointed at: still named by the person's item
            "simplify (x^2 - 1)/(x - 1)",
            tool_call("simplify", expression="(x^2 - 1)/(x - 1)"),
            "= x + 1",
            "#2 simplified #1: x + 1",
            "expression",
        ),
        (
            "expand (x + 1)^2",
            tool_call("expand", expression="#1"),
            "x**2 + 2*x + 1",
            "#2 expanded #1: x^2 + 2*x + 1",
            "expression",
        ),
        (
            "limit of (2x + 1)/x as x goes to infinity",
            tool_call("limit", expression="#1", to="oo"),
            "= 2",
            "#2 limit of #1 as x -> oo: 2",
            "value",
        ),
        (
            "limit of 1/x as x -> 0 from the right",
            tool_call("limit", expression="#1", to="0", direction="right"),
            "= oo",
            "#2 limit of #1 as x -> 0+: oo",
            "value",
        ),
        (
            "limit of 1/x as x -> 0",
            tool_call("limit", expression="#1", to="0"),
            "does not exist",
            "#2 limits of #1 as x -> 0 from the left and the right: -oo, oo",
            "values",
        ),
        (
            "let f(x) = sin(x). its Taylor polynomial",
            tool_call("series", expression="f"),
            "x - x**3/6 + x**5/120",
            "#2 series of f at 0: x^5/120 - x^3/6 + x",
            "expression",
        ),
        (
            "let h(t) = t^2 - 3t - 4. when is it zero, for t >= 0?",
            tool_call("solve", equation="h = 0", domain="t >= 0"),
            "t = 4 (for t >= 0; t = -1 is outside it)",
            "#2 roots of h (t >= 0): t = 4",
            "roots",
        ),
        (
            "solve x + y = 3 and x - y = 1",
            tool_call("solve_system", equations=["#1", "#2"]),
            "x = 2, y = 1",
            "#3 solution of the system #1, #2: x = 2, y = 1",
            "solutions",
        ),
        (  # a domain is a part of the line, as a solution set is
            "what is the domain of sqrt(x - 4)/(x - 6)?",
            tool_call("domain", expression="#1"),
            "is [4, 6) ∪ (6, oo) (4 <= x < 6 or x > 6)",
            "#2 domain of #1: x in [4, 6) ∪ (6, oo)",
            "solution set",
        ),
        (
            "let f(x) = x^2 + 2x. its range?",
            tool_call("range", expression="f"),
            "is [-1, oo)",
            "#2 range of f: [-1, oo)",
            "solution set",
        ),
        (  # the inverse is an expression a later call can evaluate
            "let f(x) = (2x + 3)/(x - 1). find its inverse",
            tool_call("inverse", expression="f"),
            "is (x + 3)/(x - 2)",
            "#2 inverse of f: (x + 3)/(x - 2)",
            "expression",
        ),
        (  # the equations copied: each named by the person's item it restates
            "solve x^2 + y^2 = 25 and x - y = 1",
            tool_call("solve_system", equations=["x^2 + y^2 = 25", "x - y = 1"]),
            "2 solutions",
            "#3 solutions of the system #1, #2: x = -3, y = -4; x = 4, y = 3",
            "solutions",
        ),
    ],
)
def test_each_new_tool_runs_and_its_result_gets_a_readable_line(
    message: str, reply: str, said: str, line: str, kind: str
) -> None:
    agent, turn = run(message, reply)
    result = only_result(turn)
    assert turn.ok and result.ok, result.text
    assert said in result.text
    item = build(agent.session.conversation()).items[-1]
    assert (item.line(), item.kind) == (line, kind)


def test_a_maximum_is_kept_as_the_extrema_call_that_ran() -> None:
    """The schema offers `maximum` and `minimum` as the person says them; the history (and
    the model reading it back) holds the one `extrema` call of that kind."""
    _agent, turn = run("let h(t) = 4 - t^2. its peak?", tool_call("maximum", expression="h"))
    (call, result) = turn.tool_runs[-1]
    assert result.ok and "maximum 4 at t = 0" in result.text
    assert (call.tool, call.arguments.get("kind")) == ("extrema", "max")


def test_an_oscillating_limit_is_said_but_makes_no_item() -> None:
    """`AccumBounds(-1, 1)` is no value a later call could read back."""
    _agent, turn = run("limit of sin(1/x) at 0", tool_call("limit", expression="#1", to="0"))
    result = only_result(turn)
    assert result.ok and "oscillates between -1 and 1" in result.text and result.item is None


def test_ids_and_names_work_in_every_new_field() -> None:
    model = InProcessModel(
        [
            solve("h = 0"),
            done("t = 1, t = 3 (#2)"),
            tool_call("extrema", expression="h", lower="#2[1]", upper="#2[2]", kind="min"),
            tool_call("tangent", expression="h", at="#2[2]"),
            tool_call("limit", expression="h'", to="#2[2]"),
            tool_call("series", expression="h", at="#2[1]", degree=1),
            tool_call("factor", expression="h"),
            tool_call("solve_system", equations=["y = h(x)", "y = 0"], variables=["x", "y"]),
            done("done"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("window"))
    agent.run_turn("let h(t) = t^2 - 4t + 3. when is it zero?")
    turn = agent.run_turn("lowest value between the roots, tangent, slope, series, factors, system")
    texts = [r.text for _c, r in turn.tool_runs]
    assert all(r.ok for _c, r in turn.tool_runs), texts
    extreme, tangent, slope, series, factors, system = texts
    assert extreme == "on [1, 3]: minimum -1 at t = 2"
    assert tangent.startswith("tangent at t = 3: y = 2*t - 6")
    assert slope.endswith("= 2")
    assert series.startswith("t**2 - 4*t + 3 ≈ -2*t + 2") or "around t = 1" in series
    assert factors.endswith("= (t - 3)*(t - 1)")
    assert system == "2 solutions: (1) x = 1, y = 0; (2) x = 3, y = 0"
    lines = [i.line() for i in build(agent.session.conversation()).items[2:]]
    assert lines[0] == "#3 minimum of h on [#2[1], #2[2]]: -1"
    assert lines[1] == "#4 tangent to h at #2[2]: 2*t - 6"
    assert lines[-1] == "#8 solutions of the system y = h(x), y = 0: x = 1, y = 0; x = 3, y = 0"


def test_a_system_nobody_wrote_is_not_run() -> None:
    """The grounding check reads a system's equations like any call's math."""
    invented = tool_call("solve_system", equations=["p + q = 7", "p - q = 5"])
    _agent, turn = run("solve the system", invented)
    assert only_result(turn).text.startswith("Not run: 'p + q = 7, p - q = 5' appears nowhere")


def test_a_systems_solution_is_a_point_not_a_value() -> None:
    model = InProcessModel(
        [
            tool_call("solve_system", equations=["#1", "#2"]),
            evaluate("x*y + 1", "#3"),
            evaluate("(#3)^2"),
            done("done"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("window"))
    turn = agent.run_turn("solve x + y = 3 and x - y = 1, then the product plus one there")
    (_s, system), (_e, at_point), (_bad, refused) = turn.tool_runs
    assert system.values == ("x = 2, y = 1",)
    assert at_point.ok and at_point.values == ("3",)
    assert not refused.ok and refused.text == (
        "#3 holds the solutions of a system (x = 2, y = 1), which are points: use it as the "
        'point of an evaluate call, "at": ["#3"].'
    )


@pytest.mark.parametrize(
    ("message", "reply", "error"),
    [
        (
            "limit of 1/x at 0",
            tool_call("limit", expression="#1", to="__import__('os')"),
            "'import' is a word, not math",
        ),
        ("limit of 1/x at 0", tool_call("limit", expression="#1", to="oo)("), "Could not read"),
        (
            "let f(x) = x^2. tangent",
            tool_call("tangent", expression="f", at="#9"),
            "There is no #9",
        ),
        (
            "let f(x) = x^2. tangent at the vertex",
            tool_call("tangent", expression="f", at="the vertex"),
            "'vertex' is a word, not math",
        ),
        ("series of sin(x)", tool_call("series", expression="#1", degree=-1), "between 0 and 20"),
        ("series of sin(x)", tool_call("series", expression="#1", degree=21), "between 0 and 20"),
        (
            "series of sin(x)",
            tool_call("series", expression="#1", degree=10**6),
            "between 0 and 20",
        ),
        ("solve x^2 = 4", tool_call("solve", equation="#1", domain="x in {{1}}"), ""),
        ("solve x^2 = 4", tool_call("solve", equation="#1", domain="x >= 0 >= 5 >= y"), ""),
        (
            "solve a + b = 1, a - b = 2, c = 3, d = 4",
            tool_call("solve_system", equations=["a + b = 1", "a - b = 2", "c = 3", "d = 4"]),
            "at most 3 equations",
        ),
        ("solve x + y = 3", tool_call("solve_system", equations=[]), ""),
        (
            "solve x + y = 3 and x - y = 1",
            tool_call("solve_system", equations=["#1", "the second equation"]),
            "is a word, not math",
        ),
        (
            "f(x) = x^2: its min?",
            tool_call("extrema", expression="f", lower="x^^2"),
            "Could not read",
        ),
        ("let f(x) = x^2", tool_call("extrema", expression="f", upper="#2[7]"), ""),
        ("factor x^2 - 1", tool_call("expand", expression="(" * 300 + "x"), ""),
        (
            "factor x^2 - 1",
            tool_call("factor", expression="x^2 - 1" + " + x" * 600),
            "characters long",
        ),
        ("limit of 1/x", tool_call("limit", expression="#1", to="oo", variable="__class__"), ""),
    ],
)
def test_a_bad_value_in_a_new_field_is_a_one_sentence_tool_error(
    message: str, reply: str, error: str
) -> None:
    _agent, turn = run(message, reply)
    result = only_result(turn)
    assert turn.ok and turn.error is None  # the turn goes on to the model's answer
    assert not result.ok and error in result.text
    assert "\n" not in result.text and result.text.endswith(".") and len(result.text) < 400


@pytest.mark.parametrize(
    ("kind", "said", "line"),
    [
        ("max", "the largest of -3, -2 is -2", "#3 largest of #2: -2"),
        ("min", "the smallest of -3, -2 is -3", "#3 smallest of #2: -3"),
        (None, "the smallest is -3, the largest -2", "#3 smallest and largest of #2: -3, -2"),
    ],
)
def test_the_extremes_of_an_id_of_roots_are_the_largest_and_smallest_root(
    kind: str | None, said: str, line: str
) -> None:
    """An id of several values in extrema is the list of them (a finite set's largest)."""
    agent = Agent(
        model=InProcessModel(
            [
                solve("#1"),
                done("x = -3, x = -2"),
                tool_call("extrema", expression="#2", kind=kind),
                done("ok"),
            ]
        ),
        strategy=make_strategy("window"),
    )
    agent.run_turn("solve x^2 + 5x + 6 = 0")
    turn = agent.run_turn("which root is the largest?")
    result = only_result(turn)
    assert result.ok and said in result.text
    assert build(agent.session.conversation()).items[-1].line() == line


def test_a_derivative_at_an_id_of_roots_is_its_value_at_each_root() -> None:
    model = InProcessModel(
        [
            solve("f = 0"),
            done("x = -2, x = 2 (#2)"),
            tool_call("derivative", expression="f", at=["#2"]),
            done("done"),
        ]
    )
    agent = Agent(model=model, strategy=make_strategy("window"))
    agent.run_turn("let f(x) = x^3 - 4x. its zeros?")
    turn = agent.run_turn("the slope of f at each of them")
    result = only_result(turn)
    assert result.ok, result.text
    assert result.values == ("8", "-4", "8") and ", at x = 0 is -4, " in result.text
    item = build(agent.session.conversation()).items[-1]
    assert (item.line(), item.kind) == ("#3 derivative of f at #2: 8, -4, 8", "values")


def test_a_function_with_no_inverse_says_where_it_repeats_and_makes_no_item() -> None:
    _agent, turn = run("let f(x) = x^2. invert it", tool_call("inverse", expression="f"))
    result = only_result(turn)
    assert result.ok and "it is 1 at x = -1 and at x = 1" in result.text
    assert result.item is None


def test_a_function_of_a_functions_value_runs_through_the_loop() -> None:
    model = InProcessModel([tool_call("evaluate", expression="f(g(3))", at=[]), done("35")])
    agent = Agent(model=model, strategy=make_strategy("window"))
    turn = agent.run_turn("let f(x) = x^2 - 1 and g(x) = 2x. now f(g(3))")
    assert only_result(turn).text == "35"  # g's value goes into f, not the letter g
