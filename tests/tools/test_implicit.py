"""Implicit differentiation: dy/dx along a curve given as an equation, exact."""

from __future__ import annotations

import pytest
import sympy as sp

import tools

x, y = sp.symbols("x y")


@pytest.mark.parametrize(
    ("equation", "order", "slope"),
    [
        ("x^2 + y^2 = 25", 1, -x / y),
        ("x^3 + y^3 = 6xy", 1, (x**2 - 2 * y) / (2 * x - y**2)),
        ("x*y = 1", 1, -y / x),
        ("x^2 + y^2 = 25", 2, (-(x**2) - y**2) / y**3),
    ],
)
def test_the_slope_along_a_curve(equation: str, order: int, slope: sp.Expr) -> None:
    result = tools.derivative(equation, order=order)
    assert result.ok and sp.simplify(result.value - slope) == 0
    assert result.text.startswith("dy/dx along" if order == 1 else "d²y/dx² along")


def test_at_a_point_of_the_curve() -> None:
    assert tools.derivative("x^2 + y^2 = 25", at="x = 3, y = 4").value == sp.Rational(-3, 4)
    assert tools.derivative("x^3 + y^3 = 6xy", at=["x = 3", "y = 3"]).value == -1
    assert tools.derivative("x^2 + y^2 = 25", at="(0, 5)").value == 0


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: tools.derivative("x^2 + y^2 = 25", at="3"), "needs both coordinates"),
        (lambda: tools.derivative("x^2 + y^2 = 25", at="x = 1, y = 1"), "is not on"),
        (lambda: tools.derivative("x^2 + y^2 = 25", at="x = 5, y = 0"), "no finite value"),
        (lambda: tools.derivative("a x + b z = 1"), "which one is the function"),
    ],
)
def test_what_it_cannot_do_is_said(call, fragment: str) -> None:
    result = call()
    assert not result.ok and fragment in result.error


def test_an_explicit_function_and_a_one_letter_equation_are_read_as_before() -> None:
    assert tools.derivative("y = x^2").value == 2 * x
    assert "is an equation" in tools.derivative("x^2 - 4 = 0").error
    assert tools.derivative("f(x) = x^3").value == 3 * x**2
