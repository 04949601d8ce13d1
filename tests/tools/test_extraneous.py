"""Candidates a solver returns that are not real solutions are dropped and named."""

from __future__ import annotations

import pytest
import sympy as sp

import tools
from tools.extraneous import extraneous_reason

x = sp.Symbol("x")


@pytest.mark.parametrize(
    ("equation", "roots", "named"),
    [
        # logarithms combined before solving bring in the roots of the combined argument
        ("log(x) + log(x + 3) = log(10)", [2], "x = -5 is not a solution (log(-5)"),
        ("ln(x) + ln(x - 2) = ln(3)", [3], "x = -1 is not a solution (log(-1)"),
        ("log(x) + log(x - 3) = 1", [sp.Rational(3, 2) + sp.sqrt(9 + 4 * sp.E) / 2], "-0.729"),
        # an even root of a negative number
        ("sqrt(x)*sqrt(x - 1) = 0", [1], "x = 0 is not a solution (sqrt(-1)"),
        # an inverse function outside its range
        ("asin(x) = 2", [], "x = sin(2)"),
    ],
)
def test_an_extraneous_root_is_dropped_and_named(
    equation: str, roots: list[sp.Expr], named: str
) -> None:
    result = tools.solve(equation)
    assert result.ok
    assert result.value == roots
    assert named in result.text
    assert "is not a solution" in result.text


@pytest.mark.parametrize(
    ("equation", "roots"),
    [
        ("cbrt(x) = -2", [-8]),  # an odd root of a negative number is real
        ("x^(2/3) = 4", [-8, 8]),
        ("log(x^2) = 2", [-sp.E, sp.E]),
        ("log(-x) = 1", [-sp.E]),
        ("sqrt(x^2 - 4) = 0", [-2, 2]),
        ("sqrt(x + 5) = x - 1", [4]),
        ("x^x = 4", [2]),
    ],
)
def test_real_solutions_are_kept(equation: str, roots: list[sp.Expr]) -> None:
    result = tools.solve(equation)
    assert result.ok
    assert result.value == roots
    assert "not a solution" not in result.text


def test_a_root_with_parameters_is_not_judged() -> None:
    a = sp.Symbol("a")
    assert extraneous_reason(a * x - 1, x, 1 / a) is None


def test_a_value_sympy_cannot_evaluate_keeps_the_root() -> None:
    f = sp.Function("f")
    assert extraneous_reason(f(x) - 1, x, sp.Integer(2)) is None
