"""Each BAML tool class reaches the right SymPy tool; failures come back as results."""

from __future__ import annotations

import pytest

from agent.calls.pending import as_run, tool_arguments
from agent.core.tool_calls import run_tool
from agent.testing.replies import as_step, derivative, evaluate, solve, tool_call
from baml_client.types import IntegralSolver, QuadraticSolver


def test_solve() -> None:
    result = run_tool(as_step(solve("x^2 + 5x + 6 = 0")))
    assert result.ok and sorted(result.value) == [-3, -2]


def test_derivative_with_order() -> None:
    result = run_tool(as_step(derivative("x^3", order=2)))
    assert result.ok and str(result.value) == "6*x"


def test_derivative_at_a_point_is_its_value_there() -> None:
    result = run_tool(as_step(derivative("2q^2 + 8q + 687", variable="q", at=["q = 15"])))
    assert result.ok and result.value == 68
    assert result.text == "d/dq (2*q**2 + 8*q + 687) = 4*q + 8, which at q = 15 is 68"


def test_derivative_at_several_points_reports_each_with_the_derivative_once() -> None:
    result = run_tool(as_step(derivative("x^3", order=2, at=["-1", "2"])))
    assert result.ok and result.value == [-6, 12]
    assert result.text == "d²/dx² (x**3) = 6*x, which at x = -1 is -6, at x = 2 is 12"


def test_derivative_at_several_points_with_one_refused_reports_each_whole() -> None:
    result = run_tool(as_step(derivative("abs(x)", at=["1", "0"])))
    assert not result.ok
    assert result.text.startswith("d/dx (Abs(x)) = sign(x) (for real x), which at x = 1 is 1; ")
    assert "at 0: d/dx (Abs(x)) has no value at x = 0" in result.text


def test_derivative_with_no_points_is_the_derivative() -> None:
    result = run_tool(as_step(derivative("x^3", at=[])))
    assert result.ok and str(result.value) == "3*x**2"


def test_evaluate_one_point() -> None:
    result = run_tool(as_step(evaluate("x^2", "-3")))
    assert result.ok and result.value == 9


def test_evaluate_several_points_reports_each() -> None:
    result = run_tool(as_step(evaluate("x^2", "-3", "-2")))
    assert result.ok and result.value == [9, 4]
    assert result.text == "x**2 = 9 at x = -3; x**2 = 4 at x = -2"


def test_evaluate_without_points_is_a_clear_error() -> None:
    result = run_tool(as_step(evaluate("x^2")))
    assert not result.ok and "No value to substitute" in result.error and "for x" in result.error


@pytest.mark.parametrize(
    ("expression", "value"),
    [("(-3)^2 + (-2)^2", 13), ("(-3)^2", 9), ("2^10 - 24", 1000), ("sqrt(16) * 3", 12)],
)
def test_evaluate_computes_a_closed_expression_without_a_point(expression: str, value: int) -> None:
    """What small models send for "the square of the roots": the numbers, no point."""
    result = run_tool(as_step(evaluate(expression)))
    assert result.ok and result.value == value


def test_an_undefined_closed_expression_is_one_sentence() -> None:
    result = run_tool(as_step(evaluate("1/0")))
    assert not result.ok and result.error == "1/0 is undefined (a division by zero or the like)."


def test_evaluate_with_one_bad_point_is_not_ok() -> None:
    result = run_tool(as_step(evaluate("x^2", "2", "__import__('os')")))
    assert not result.ok and result.error


def test_definite_integral() -> None:
    step = IntegralSolver(tool="integral", expression="x^2", lower="0", upper="1")
    result = run_tool(step)
    assert result.ok and str(result.value) == "1/3"


def test_bad_math_never_raises() -> None:
    result = run_tool(as_step(solve("x^^2 = ((")))
    assert not result.ok and result.error


def test_arguments_drop_the_discriminator() -> None:
    arguments = tool_arguments(as_step(solve("x = 1")))
    assert arguments == {"equation": "x = 1", "variable": None, "domain": None}


@pytest.mark.parametrize(
    ("reply", "tool", "value"),
    [
        (solve("t^2 - 3t - 4 = 0", variable="t"), "solve", "[-1, 4]"),
        (tool_call("solve", equation="t^2 - 3t - 4 = 0", domain="t >= 0"), "solve", "[4]"),
        (tool_call("solve_system", equations=["x + y = 3", "x - y = 1"]), "solve_system", ""),
        (tool_call("extrema", expression="-5t^2 + 20t + 1", kind="max"), "extrema", "21"),
        (tool_call("extrema", expression="x^3 - 3x", lower="0", upper="5"), "extrema", "[1]"),
        (tool_call("tangent", expression="x^2", at="3"), "tangent", "6*x - 9"),
        (tool_call("simplify", expression="(x^2 - 1)/(x - 1)"), "transform", "x + 1"),
        (tool_call("factor", expression="x^2 - 1"), "transform", "(x - 1)*(x + 1)"),
        (tool_call("expand", expression="(x + 1)^2"), "transform", "x**2 + 2*x + 1"),
        (tool_call("limit", expression="1/x", to="0", direction="left"), "limit", "-oo"),
        (tool_call("limit", expression="(2x + 1)/x", to="oo"), "limit", "2"),
        (tool_call("series", expression="exp(x)", degree=2), "series", "x**2/2 + x + 1"),
        (tool_call("series", expression="x^2", at="1", degree=1), "series", "2*x - 1"),
        (tool_call("series", expression="cos(z)", degree=4), "series", "z**4/24 - z**2/2 + 1"),
        (tool_call("series", expression="sin(x)"), "series", "x**5/120 - x**3/6 + x"),
        (tool_call("series", expression="exp(x)", at="1", degree=0), "series", "E"),
    ],
)
def test_each_new_class_reaches_its_tool(reply: str, tool: str, value: str) -> None:
    result = run_tool(as_step(reply))
    assert result.ok and result.tool == tool, result.text
    assert str(result.value) == value or tool == "solve_system"
    if tool == "solve_system":
        assert [{str(k): v for k, v in s.items()} for s in result.value] == [{"x": 2, "y": 1}]


@pytest.mark.parametrize(
    "equations",
    [
        ["2*x^2 - 2*x - 4 = 0", "1 <= x <= 5"],
        "2*x^2 - 2*x - 4 = 0, 1 <= x <= 5",  # one text: the system tool reads it as two
    ],
)
def test_one_equation_with_conditions_runs_as_a_solve_on_that_domain(equations: object) -> None:
    step = as_step(tool_call("solve_system", equations=equations, variables=["x"]))
    call = as_run(step)
    assert isinstance(call, QuadraticSolver)
    assert (call.equation, call.variable, call.domain) == (
        "2*x^2 - 2*x - 4 = 0",
        "x",
        "1 <= x <= 5",
    )
    result = run_tool(call)
    assert result.ok and result.value == [2]  # -1 is outside [1, 5]


@pytest.mark.parametrize(
    "equations",
    [
        ["x + y = 3", "x - y = 1"],  # a real system
        ["x + y = 3", "x - y = 1", "x > 0"],  # a system with a condition
        ["x^2 = 4"],  # one equation, no condition: the system tool's own error
    ],
)
def test_other_systems_run_as_written(equations: list[str]) -> None:
    step = as_step(tool_call("solve_system", equations=equations))
    assert as_run(step) is step


def test_a_recall_runs_as_written() -> None:
    step = as_step(tool_call("recall", query="#3"))
    assert as_run(step) is step


def test_a_system_left_with_one_equation_runs_as_its_solve_only_when_asked() -> None:
    """`single`: a restated definition was dropped; a system the model wrote with one
    equation keeps the system tool's own error."""
    step = as_step(tool_call("solve_system", equations=["-5*t**2 + 20*t + 1 = 21"]))
    assert as_run(step) is step
    call = as_run(step, single=True)
    assert isinstance(call, QuadraticSolver) and call.domain is None
    assert run_tool(call).value == [2]
