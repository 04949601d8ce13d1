"""The four public tools: results, texts and errors as the agent and the LLM see them."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
import sympy as sp

import tools
from tools import ToolResult

x, y = sp.symbols("x y")


def test_result_is_frozen_and_carries_metadata() -> None:
    result = tools.solve("x^2 + 5x + 6 = 0")
    assert isinstance(result, ToolResult)
    assert result.ok and result.error is None
    assert result.tool == "solve"
    assert result.input == "x**2 + 5*x + 6 = 0 for x"
    with pytest.raises(AttributeError):
        result.ok = False  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(result)) == result
    assert result.to_dict()["value"] == ["-3", "-2"]


def test_failure_helper() -> None:
    failed = ToolResult.failure("solve", "x^", "Could not read 'x^'.")
    assert not failed.ok and failed.value is None and failed.text == failed.error


def test_quadratic_text() -> None:
    assert tools.solve("x^2 + 5x + 6 = 0").text == "x = -3, x = -2"
    result = tools.solve("x^2 + 2x - 1")
    assert result.text == "x = -sqrt(2) - 1 ≈ -2.414, x = -1 + sqrt(2) ≈ 0.4142"
    assert result.value == [-sp.sqrt(2) - 1, -1 + sp.sqrt(2)]


def test_complex_roots() -> None:
    result = tools.solve("x^2 + 2x + 5 = 0")
    assert result.text == "no real roots; complex roots: x = -1 - 2*I, x = -1 + 2*I"


def test_double_root_and_linear_case() -> None:
    assert tools.solve("x² − 4x + 4").text == "x = 2 (double root)"
    assert tools.solve("0x^2 + 2x - 4 = 0").text == "x = 2"


def test_identity_and_contradiction() -> None:
    assert tools.solve("x = x").text == "true for every x"
    assert tools.solve("0 = 0").ok
    result = tools.solve("1 = 2")
    assert result.ok and result.value == [] and "no solution" in result.text


def test_terms_on_both_sides_and_other_variables() -> None:
    assert tools.solve("x^2 = 5x - 6").value == [2, 3]
    assert tools.solve("t² − 5t + 6").text == "t = 2, t = 3"
    assert tools.solve("theta^2 = 9", "theta").value == [-3, 3]


def test_several_variables_need_a_choice() -> None:
    result = tools.solve("x^2 + y^2 = 1")
    assert not result.ok
    assert result.error == (
        "The equation has several variables (x, y): say which one to solve for."
    )
    assert result.text == result.error
    assert tools.solve("x^2 + y^2 = 1", "y").ok


def test_named_variable_missing() -> None:
    result = tools.solve("x^2 = 4", "t")
    assert not result.ok and "does not contain t" in result.error


def test_y_equals_reads_as_roots() -> None:
    assert tools.solve("y = x^2 - 4").value == [-2, 2]
    assert tools.solve("f(x) = x^2 - 9").value == [-3, 3]


def test_periodic_general_solution() -> None:
    result = tools.solve("sin(x) = 0")
    assert result.text.startswith("general solution:") and "n any integer" in result.text


def test_rational_equation_excludes_poles() -> None:
    result = tools.solve("(x^2 - 1)/(x - 1) = 0")
    assert result.value == [-1] and "excluded" in result.text


def test_no_closed_form_falls_back_to_numbers() -> None:
    result = tools.solve("cos(x) = x")
    assert result.ok and "numerical" in result.text
    assert abs(float(result.value[0]) - 0.7390851332) < 1e-9


def test_quintic_uses_exact_rootof() -> None:
    result = tools.solve("x^5 - x - 1")
    assert result.ok and len(result.value) == 5
    assert all(isinstance(r, sp.CRootOf) for r in result.value)


def test_casus_irreducibilis_is_written_without_i() -> None:
    result = tools.solve("x^3 - 3x + 1 = 0")
    assert result.ok and "I" not in result.text


def test_derivatives() -> None:
    result = tools.derivative("x^2 sin x")
    assert result.value == x**2 * sp.cos(x) + 2 * x * sp.sin(x)
    assert result.text.startswith("d/dx (x**2*sin(x)) = ")
    second = tools.derivative("x^4", order=2)
    assert second.value == 12 * x**2 and second.text.startswith("d²/dx²")
    assert tools.derivative("x^2 y + y^3", "y").value == x**2 + 3 * y**2
    assert tools.derivative("f(t) = t^3", None, "2").value == 6 * sp.Symbol("t")


def test_derivative_errors() -> None:
    assert "several variables" in tools.derivative("x y").error
    assert "order" in tools.derivative("x^2", order=0).error
    assert "order" in tools.derivative("x^2", order="two").error
    assert "equation" in tools.derivative("x^2 - 1 = 0", "x").error
    assert tools.derivative("x^2 + y^2 = 1", "x").text.endswith("dy/dx = -x/y")  # implicit


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("3", 10),
        (3, 10),
        (0.5, sp.Rational(5, 4)),
        (Fraction(1, 2), sp.Rational(5, 4)),
        ("-1/2", sp.Rational(5, 4)),
        ("x=3", 10),
        ({"x": "3"}, 10),
        ({"x": 3}, 10),
    ],
)
def test_evaluate_point_forms(at: object, expected: object) -> None:
    result = tools.evaluate("x^2 + 1", at)
    assert result.ok and result.value == expected


def test_evaluate_exact_and_decimal() -> None:
    result = tools.evaluate("sin x", "pi/4")
    assert result.value == sp.sqrt(2) / 2
    assert result.text == "sin(x) = sqrt(2)/2 ≈ 0.7071 at x = pi/4"
    assert tools.evaluate("x y", "x=1, y=2").value == 2
    assert tools.evaluate("ln(x)", "e").value == 1


def test_evaluate_errors() -> None:
    assert "undefined at x = 0" in tools.evaluate("1/x", 0).error
    assert "limit there is 1" in tools.evaluate("sin(x)/x", "0").error
    assert "several variables" in tools.evaluate("x + y", 2).error
    assert "also contains y" in tools.evaluate("x + y", "x=1").error
    assert not tools.evaluate("x", [1, 2]).ok


def test_a_long_limit_in_an_error_sentence_is_stated_as_its_decimal() -> None:
    long_constant = " + ".join(f"sqrt({k})" for k in range(2, 30))
    error = tools.evaluate(f"({long_constant}) * sin(x - 1)/(x - 1)", "1").error
    assert "limit there is ≈ " in error
    assert "sqrt(29)" not in error and len(error) < 160


def test_indefinite_integrals() -> None:
    result = tools.integral("x^2")
    assert result.text == "∫ x**2 dx = x**3/3 + C"
    assert result.value == x**3 / 3
    assert tools.integral("e^(-x^2)").value == sp.sqrt(sp.pi) * sp.erf(x) / 2
    assert tools.integral("sin(x)/x").value == sp.Si(x)


def test_definite_and_improper_integrals() -> None:
    assert tools.integral("x^2", None, 0, 1).text == "∫ from 0 to 1 of x**2 dx = 1/3 ≈ 0.3333"
    assert tools.integral("e^(-x^2)", None, "-oo", "oo").value == sp.sqrt(sp.pi)
    assert tools.integral("1/(1+x^2)", None, "-inf", "infinity").value == sp.pi
    assert tools.integral("e^-x", None, "0", "∞").value == 1


def test_divergent_integrals_are_said_plainly() -> None:
    for args in [("1/x", None, 1, "oo"), ("1/x^2", None, -1, 1), ("sin x", None, 0, "oo")]:
        result = tools.integral(*args)
        assert result.ok and "the integral diverges" in result.text, result


def test_integral_without_closed_form() -> None:
    definite = tools.integral("x^x", None, 0, 1)
    assert definite.ok and "numerical" in definite.text
    assert abs(float(definite.value) - 0.7834305107) < 1e-9
    assert "closed form" in tools.integral("x^x").error


def test_integral_bound_errors() -> None:
    assert "both bounds" in tools.integral("x", None, 0).error


@pytest.mark.parametrize(
    ("expression", "variable", "lower", "upper", "text"),
    [
        ("4t^3 - 2t", "t", "0", "t", "∫ from 0 to t of 4*u**3 - 2*u du = t**4 - t**2"),
        ("cos(x)", None, 0, "x", "∫ from 0 to x of cos(u) du = sin(x)"),
        ("u + t", "t", "1", "t", "∫ from 1 to t of s + u ds = t**2/2 + t*u - u - 1/2"),
    ],
)
def test_an_integral_up_to_its_own_letter_is_an_accumulation(
    expression: str, variable: str | None, lower: object, upper: object, text: str
) -> None:
    """The position as the integral of a velocity from 0 to t: a function of t, the
    integrand in a letter the math does not use."""
    result = tools.integral(expression, variable, lower, upper)
    assert result.ok and result.text == text


@pytest.mark.parametrize(
    "call",
    [
        lambda: tools.solve(None),  # type: ignore[arg-type]
        lambda: tools.solve(123),  # type: ignore[arg-type]
        lambda: tools.solve(object()),  # type: ignore[arg-type]
        lambda: tools.solve("x", variable=5),  # type: ignore[arg-type]
        lambda: tools.derivative(b"x^2"),  # type: ignore[arg-type]
        lambda: tools.evaluate("x", object()),
        lambda: tools.evaluate("x", float("nan")),
        lambda: tools.integral("x", None, [0], [1]),
        lambda: tools.solve("x", timeout=-1),
    ],
)
def test_wrong_types_never_raise(call) -> None:
    result = call()
    assert isinstance(result, ToolResult) and not result.ok and result.error


def test_results_cross_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    equations = [f"x^2 - {n * n} = 0" for n in range(1, 13)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(tools.solve, equations))
    for n, result in enumerate(results, start=1):
        assert result.value == [-n, n]


def test_integral_differential_notation() -> None:
    assert tools.integral("∫ x dx").value == x**2 / 2
    assert tools.integral("t^2 dt").value == sp.Symbol("t") ** 3 / 3
    assert tools.integral("e^(-t) dt", None, 0, "oo").value == 1


@pytest.mark.parametrize("variable", ["j", None])
def test_a_differential_glued_to_the_constant_term_is_a_differential(variable: str | None) -> None:
    # The model wrote "... - 3dj" for "integrate -3j^3 + 8j^2 - 7j - 3 dj": once read 3*d*j.
    j = sp.Symbol("j")
    result = tools.integral("-3j^3 + 8j^2 - 7j - 3dj", variable)
    assert result.value == sp.integrate(-3 * j**3 + 8 * j**2 - 7 * j - 3, j)
    assert tools.integral("x^2dx").value == x**3 / 3


def test_a_glued_d_stays_a_letter_when_d_is_a_variable() -> None:
    d = sp.Symbol("d")
    assert tools.integral("2d^2 + 3dx", "x").value == sp.integrate(2 * d**2 + 3 * d * x, x)


@pytest.mark.parametrize(
    "written",
    [
        "int_0^1 (4x+4) dx",
        "∫_0^1 (4x + 4) dx",
        r"\int_{0}^{1} 4x + 4 \, dx",
        "int_{0}^{1}(4*x+4)dx",
    ],
)
def test_an_integral_sign_with_bounds_is_a_definite_integral(written: str) -> None:
    # A model's way of writing it; int_0 once read as a symbol: "6*int_0".
    assert tools.integral(written).value == 6
    assert tools.integral(written, None, "0", "1").value == 6
    disagreeing = tools.integral(written, None, "0", "2")
    assert not disagreeing.ok and "give the bounds once" in disagreeing.text


def test_int_without_bounds_stays_a_name() -> None:
    assert "int_0" in tools.integral("int_0 * x").text


def test_real_variable_retry() -> None:
    result = tools.derivative("|x|")
    assert result.ok and result.value == sp.sign(x) and "(for real x)" in result.text
    assert tools.integral("|x|").ok


def test_conditional_definite_integral() -> None:
    result = tools.integral("e^(-a x)", "x", 0, "oo")
    assert result.ok and "1/a when" in result.text


def test_huge_results_are_described_not_printed() -> None:
    result = tools.evaluate("2^x", "10^5")
    assert result.ok and "30,104 digits" in result.text and len(result.text) < 100
    assert result.value == sp.Integer(2) ** 100000


def test_numerical_roots_are_labelled() -> None:
    result = tools.solve("tan(x) = x")
    assert result.ok and "numerical" in result.text and "there may be others" in result.text
    assert any(abs(float(v)) < 1e-12 for v in result.value)
