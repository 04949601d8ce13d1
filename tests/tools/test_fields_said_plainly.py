"""Fields that say something plain in another field's words are read for what they mean.

Seen refused on the embedded model's dev runs: an extremum's bounds written as the kind asked
for (`lower="min"`, `upper="max"`), and a limit at infinity given a direction.
"""

from __future__ import annotations

import pytest
import sympy as sp

import tools


@pytest.mark.parametrize(("lower", "upper"), [("min", "max"), ("minimum", None), (None, "Max")])
def test_a_bound_written_as_a_kind_names_no_place(lower: str | None, upper: str | None) -> None:
    result = tools.extrema("-(x - 2)^2 + 7", None, lower, upper, "max")
    assert result.ok, result.text
    assert result.value == 7
    assert "maximum 7 at x = 2" in result.text


def test_a_list_of_values_with_kinds_for_bounds_gives_its_extreme() -> None:
    result = tools.extrema("-3, -2, -1, 4", None, "min", "max", "min")
    assert result.ok, result.text
    assert result.value == -3


def test_a_real_bound_beside_a_kind_still_bounds() -> None:
    result = tools.extrema("x^2", None, "1", "max", "min")
    assert result.ok, result.text
    assert result.value == 1  # the minimum on [1, oo) is at the bound, not at x = 0


@pytest.mark.parametrize(
    ("expression", "to", "variable", "direction", "expected"),
    [
        ("(1 + 3/z)^z", "oo", "z", "+", sp.E**3),
        ("(1 + 3/z)^z", "oo", "z", "right", sp.E**3),
        ("(1 + 3/z)^z", "oo", "z", "-", sp.E**3),
        ("e^x", "-oo", None, "left", 0),
    ],
)
def test_a_direction_at_an_infinity_changes_nothing(
    expression: str, to: str, variable: str | None, direction: str, expected: sp.Expr
) -> None:
    result = tools.limit(expression, to, variable, direction)
    assert result.ok, result.text
    assert result.value == expected
    assert result.value == tools.limit(expression, to, variable).value
