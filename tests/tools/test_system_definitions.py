"""A system that defines a function and uses it: the definition is applied, not solved.

`["h(t) = 150", "h(t) = -5t^2 + 25t + 120"]` is what a small model sends for "when does the
height h(t) = ... reach 150?": one equation on h and h's definition beside it."""

from __future__ import annotations

import pytest
import sympy as sp

import tools


@pytest.mark.parametrize(
    ("equations", "expected"),
    [
        (["h(t) = 150", "h(t) = -5t^2 + 25t + 120"], [{"t": 2}, {"t": 3}]),
        (["h(t) = -5t^2 + 25t + 120", "h(t) = 150"], [{"t": 2}, {"t": 3}]),
        (["C(q) = 2q^2 + 5q", "C(q) = 3"], [{"q": -3}, {"q": "1/2"}]),
        (["f(x) = x + y", "f(x) = 5", "x - y = 1"], [{"x": 3, "y": 2}]),
        (["g(s) = s^2", "g(s) + g(2) = 13"], [{"s": -3}, {"s": 3}]),
        (["P(a, b) = a*b", "P(a, b) = 6", "a + b = 5"], [{"a": 2, "b": 3}, {"a": 3, "b": 2}]),
        (["v'(t) = 2t - 4", "v'(t) = 0"], [{"t": 2}]),
    ],
)
def test_a_definition_beside_an_equation_that_uses_it_is_applied(
    equations: list[str], expected: list[dict[str, object]]
) -> None:
    result = tools.solve_system(equations)
    assert result.ok, result.text
    wanted = [{sp.Symbol(k): sp.sympify(v) for k, v in s.items()} for s in expected]
    assert result.value == wanted
    name = equations[0].split("(")[0].replace("'", "_prime")
    assert f"({name} as defined)" in result.input


def test_the_values_solve_the_equations_with_the_definition_applied() -> None:
    result = tools.solve_system(["v(t) = 3t^2 - 12", "v(t) = 0", "t >= 0"])
    assert result.ok
    assert result.value == [{sp.Symbol("t"): 2}]


@pytest.mark.parametrize(
    "equations",
    [
        ["x + y = 3", "x - y = 1"],  # no definition: the usual reading
        ["f(x) = x^2", "f(x) = 2x"],  # two definitions, nothing uses either
    ],
)
def test_without_a_used_definition_the_system_is_read_as_before(equations: list[str]) -> None:
    assert tools.solve_system(equations).text == tools.solve_system(list(equations)).text


def test_a_definition_too_large_to_apply_is_refused_quickly() -> None:
    result = tools.solve_system(["h(t) = (t + 1)^100000", "h(t) = 2"])
    assert not result.ok and result.text.endswith(".")
