"""A one-point field written as a list of points, the form of evaluate's `at` that a small
model copies into tangent, series, limit and extrema: its one entry is the point, `[]` none."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

import tools
from tools import ToolResult

x, t = sp.symbols("x t")


@pytest.mark.parametrize(
    ("call", "value"),
    [
        (lambda: tools.series("e^(2t)", "[]", 2), 1 + 2 * t + 2 * t**2),  # the default point
        (lambda: tools.series("sqrt(t)", "[t = 1]", 1), (t + 1) / 2),
        (lambda: tools.series("cos(x)", ["0"], 2), 1 - x**2 / 2),
        (lambda: tools.tangent("x^2", "[3]"), 6 * x - 9),
        (lambda: tools.tangent("x^2", ["x = 3"]), 6 * x - 9),
        (lambda: tools.limit("sin(x)/x", "[0]"), sp.Integer(1)),
        (lambda: tools.extrema("x^3 - 3x", None, "[-2]", "[2]", "max"), sp.Integer(2)),
    ],
)
def test_a_point_written_as_a_list_of_one_is_that_point(
    call: Callable[[], ToolResult], value: sp.Expr
) -> None:
    result = call()
    assert result.ok, result.error
    assert sp.simplify(sp.sympify(result.value) - value) == 0


def test_the_same_point_gives_the_same_text_either_way() -> None:
    assert tools.series("sqrt(t)", "[t = 1]", 2).text == tools.series("sqrt(t)", "t = 1", 2).text
    assert tools.tangent("x^3", "[2]").text == tools.tangent("x^3", 2).text


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: tools.tangent("x^2", "[]"), "The point is missing"),
        (lambda: tools.tangent("x^2", "[1, 2]"), "Could not read '[1, 2]'"),
        (lambda: tools.limit("1/x", "[]"), "The point is missing"),
    ],
)
def test_no_point_or_several_in_a_one_point_field_is_one_clear_sentence(
    call: Callable[[], ToolResult], fragment: str
) -> None:
    result = call()
    assert not result.ok and fragment in result.error
    assert "\n" not in result.error and len(result.error) < 300
