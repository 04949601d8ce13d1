"""Calculus written around the math (``d/dx (E)``, ``integrate E from a to b``) is taken off,
and a ``d/dx`` left anywhere else is refused, never read as a product."""

from __future__ import annotations

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.calculus import derivative, integral
from tools.errors import ToolError
from tools.evaluation import evaluate
from tools.operators import expand_listing, strip_derivative, strip_integral
from tools.parsing import parse
from tools.solving import solve_equation as solve


@pytest.mark.parametrize(
    ("expression", "variable", "order", "value"),
    [
        # seen from the embedded model: the operator repeats what the call says
        ("d/dx (q^2 + 6q + 8)", "q", 2, "2"),
        ("d/dt (t^4 - 10t^3 + 35t^2 - 50t + 24)", "t", 2, "12*t**2 - 60*t + 70"),
        ("d/dx (r^3 + 9r^2 + 26r + 24)", "r", None, "3*r**2 + 18*r + 26"),
        # nested operators count as the order when the call gives none
        ("d/dx (d/dr (p^2 - 2p - 3))", "p", None, "2"),
        ("d²/dx² (x^4)", None, None, "12*x**2"),
        ("d^3/dy^3 y^5", None, None, "60*y**2"),
        ("derivative of x^3 + x", None, None, "3*x**2 + 1"),
        ("d/dz z^2 + 3z", None, None, "2*z + 3"),
    ],
)
def test_a_derivative_operator_around_the_math_is_taken_off(
    expression: str, variable: str | None, order: int | None, value: str
) -> None:
    result = derivative(expression, variable, order if order is not None else 1)
    assert result.ok
    assert sp.simplify(result.value - sp.sympify(value)) == 0


@pytest.mark.parametrize(
    ("expression", "lower", "upper", "value"),
    [
        ("integrate (z^2 + 5z + 4) from -1 to 1", "-1", "1", "26/3"),
        ("integrate p^2 - 2p - 3 from 0 to 2", None, None, "-22/3"),
        ("the integral of x^2 between 0 and 3", None, None, "9"),
        ("x^2 from 0 to 1/2", None, None, "1/24"),
        # The variable named in the bounds, as the request wrote them.
        ("integrate w^3 + 8w^2 + 19w + 12 from w = 1 to 3", "1", "3", "568/3"),
        ("integrate w^3 + 8w^2 + 19w + 12 from w=1 to w=3", None, None, "568/3"),
        ("the integral of x^2 between x = 0 and x = 3", None, None, "9"),
        ("integrate a*x^2 from x = 0 to 3", None, None, "9*a"),
        ("integrate(s^3 - 3s^2 - 10s + 24, s, lower=0, upper=1)", None, None, "73/4"),
        ("integrate(x^2, x, 0, 3)", None, None, "9"),
        ("integrate(x^2, (x, 0, 3))", None, None, "9"),
        ("sin(x) from 0 to 2*pi", None, None, "0"),
        ("1/x between 1 and sqrt(2)", None, None, "log(2)/2"),
        # the bounds in their fields, with the variable named as people write them
        ("3t^2 + 2t", "t=0", "t = 3", "36"),
    ],
)
def test_integral_words_and_bounds_written_in_the_expression_are_read(
    expression: str, lower: str | None, upper: str | None, value: str
) -> None:
    result = integral(expression, None, lower, upper)
    assert result.ok, result.text
    assert sp.simplify(result.value - sp.sympify(value)) == 0


def test_an_indefinite_integral_in_words() -> None:
    result = integral("integrate 3x^2", None)
    assert result.ok and result.text.endswith("= x**3 + C")


def test_bounds_said_twice_must_agree() -> None:
    with pytest.raises(ToolError, match="says from 0 to 3 but the bounds say from 0 to 2"):
        integral("x^2 from 0 to 3", None, "0", "2")
    with pytest.raises(ToolError, match="integrates in w but the variable says x"):
        integral("w^2 + x from w = 0 to 3", "x")
    assert integral("w^2 from w = 0 to 3", "w").value == 9


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: integral("integrate d/dr (r^3 + 9r^2) from 0 to 2", "r", "0", "2"), 44),
        (lambda: evaluate("d/dx (x^3 - 3x^2 - 6x + 8)", "1"), -9),
        (lambda: evaluate("d²/dt² (t^4) + 1", "t=1"), 13),
        # the operator's letter is not in the math: it is about the math's one letter
        (lambda: evaluate("d/dt (q^3 + 9q^2)", "-2"), -24),
        (lambda: evaluate("2 d/dx x^2 + 3x", "1"), 10),  # no brackets: the rest of the sum
    ],
)
def test_an_operator_inside_the_math_is_the_derivative_not_a_product(call, expected) -> None:  # type: ignore[no-untyped-def]
    result = call()
    assert result.ok, result.text
    assert result.value == expected


@pytest.mark.parametrize(
    "text",
    ["d^100/dx^100 (x^1000 sin(x) e^x cos(x) tan(x))", "d^99/dx^99 (sin(x)^50 cos(x)^50)"],
)
def test_an_operator_whose_steps_grow_too_large_is_refused_quickly(text: str) -> None:
    # the parser runs in the agent's own process too (the record reads what a person writes)
    with pytest.raises(ToolError, match="grows too large"):
        parse(text)


def test_an_equation_with_an_operator_solves_the_derivative() -> None:
    assert solve("d/dx (x^3 - 3x) = 0").value == [-1, 1]


@pytest.mark.parametrize(
    "text",
    ["d/dx", "d/dx () + 1", "d^2/dx^3 (x^4)", "d/dx (y z)", "d^999/dx^999 (x)"],
)
def test_an_operator_that_cannot_be_read_is_one_clear_sentence(text: str) -> None:
    with pytest.raises(ToolError, match=r"^Could not read '.*': [^\n]+\.$"):
        evaluate(text, "1")


def test_text_without_operators_is_left_alone() -> None:
    assert strip_derivative("x^2 + 1") is None
    assert strip_derivative("d*x + 1") is None  # d is a letter here, not an operator
    assert strip_integral("x^2 + 1") is None
    assert derivative("d^2 + 3d", "d").value == 2 * sp.Symbol("d") + 3
    assert evaluate("d/(2d) + d*x", "d=1, x=2").value == sp.Rational(5, 2)


def test_lists_of_values_add_and_multiply() -> None:
    assert evaluate("sum(-4, -3, 1, 2)", "").value == -4
    assert evaluate("product(-4, -3, -2)", "").value == -24


_x = sp.Symbol("x")
_POLYNOMIALS = st.lists(st.integers(-9, 9), min_size=1, max_size=5).map(
    lambda cs: sum(c * _x**i for i, c in enumerate(cs))
)


@settings(max_examples=40, deadline=None)
@given(poly=_POLYNOMIALS, order=st.integers(1, 3), letter=st.sampled_from("xtqrs"))
def test_the_operator_changes_nothing_but_the_reading(
    poly: sp.Expr, order: int, letter: str
) -> None:
    var = sp.Symbol(letter)
    text = str(poly.subs(_x, var)).replace("**", "^")
    mark = "" if order == 1 else f"^{order}"
    wrapped = derivative(f"d{mark}/d{letter}{mark} ({text})", None, 1)
    plain = derivative(text, letter, order)
    assert wrapped.ok and plain.ok
    assert sp.expand(wrapped.value - plain.value) == 0
    # the same operator inside other math, evaluated at a point, is the same derivative
    inside = evaluate(f"d{mark}/d{letter}{mark} ({text}) + 1", f"{letter}=2")
    assert inside.ok, inside.text
    assert inside.value == plain.value.subs(var, 2) + 1


@settings(max_examples=40, deadline=None)
@given(poly=_POLYNOMIALS, lower=st.integers(-5, 5), width=st.integers(1, 5))
def test_bounds_in_words_give_the_same_integral(poly: sp.Expr, lower: int, width: int) -> None:
    text = str(poly).replace("**", "^")
    upper = lower + width
    wrapped = integral(f"integrate {text} from {lower} to {upper}", None)
    plain = integral(text, "x", str(lower), str(upper))
    assert wrapped.ok and plain.ok and wrapped.value == plain.value


@pytest.mark.parametrize(
    ("expression", "values"),
    [
        # seen from the embedded model for "what are their squares?" and "what's their sum?"
        ("[(x**2) for x in [-4, -3, 1, 2]]", [16, 9, 1, 4]),
        ("[x^2 for x in (-3, 2, 4)]", [9, 4, 16]),
        ("x**3 for x in [-1, 2]", [-1, 8]),
        ("sum(x for x in [-4, -3, 1, 2])", [-4]),
        ("sum([-4, -3, 1, 2])", [-4]),
        ("product(r for r in [-4, -2, -1, 3])", [-24]),
        ("sum(t^2 for t in [1, 2, 3])", [14]),
    ],
)
def test_a_list_written_as_code_is_read_as_its_values(expression: str, values: list[int]) -> None:
    result = evaluate(expression, "")
    assert result.ok, result.text
    shown = [int(part.rsplit("=", 1)[-1]) for part in result.text.split(";")]
    assert shown == values


def test_what_is_not_a_listing_is_left_to_the_parser() -> None:
    assert expand_listing("x^2 + 1") is None
    assert expand_listing("for x in") is None
    with pytest.raises(ToolError, match="looks like program code"):
        evaluate("x for x in []", "")


def test_a_bound_for_another_variable_is_one_clear_sentence() -> None:
    with pytest.raises(ToolError) as caught:
        integral("3t^2 + 2t", None, "x = 0", "3")
    assert caught.value.message == "The lower bound 'x = 0' is for x, but the integral is in t."
