"""A function's domain, range and inverse over the reals, exactly or refused in a sentence;
an odd root of a negative number evaluated as the real root people mean."""

from __future__ import annotations

import pytest
import sympy as sp

import tools
from tools.function_facts import function_fact


@pytest.mark.parametrize(
    ("expression", "interval", "condition"),
    [
        ("sqrt(x - 4)/(x - 6)", "[4, 6) ∪ (6, oo)", "4 <= x < 6 or x > 6"),
        ("log(x^2 - 9)", "(-oo, -3) ∪ (3, oo)", "x < -3 or x > 3"),
        ("g(x) = sqrt(5 - x) + ln(x)", "(0, 5]", "0 < x <= 5"),
        ("1/(x^2 - 9)", "(-oo, -3) ∪ (-3, 3) ∪ (3, oo)", "x < -3 or -3 < x < 3 or x > 3"),
        ("h(t) = 4t - 7", "(-oo, oo)", "all real t"),
    ],
)
def test_the_domain_is_where_the_function_is_defined_and_real(
    expression: str, interval: str, condition: str
) -> None:
    result = function_fact(expression, "domain")
    assert result.ok
    assert result.text.endswith(f"is {interval} ({condition})")


@pytest.mark.parametrize(
    ("expression", "interval"),
    [
        ("x^2 + 2x", "[-1, oo)"),
        ("(2x + 3)/(x - 1)", "(-oo, 2) ∪ (2, oo)"),
        ("e^x", "(0, oo)"),
        ("sqrt(9 - x^2)", "[0, 3]"),
        ("sin(x)", "[-1, 1]"),
    ],
)
def test_the_range_is_the_set_of_values_taken_on_the_domain(expression: str, interval: str) -> None:
    result = function_fact(expression, "range")
    assert result.ok and result.text.endswith(f"is {interval}")
    assert isinstance(result.value, sp.Set)


@pytest.mark.parametrize(
    ("expression", "inverse", "defined"),
    [
        ("f(x) = 2x + 3", "x/2 - 3/2", "(-oo, oo)"),
        ("(2x + 3)/(x - 1)", "(x + 3)/(x - 2)", "(-oo, 2) ∪ (2, oo)"),
        ("e^x", "log(x)", "(0, oo)"),
        ("1/x", "1/x", "(-oo, 0) ∪ (0, oo)"),
    ],
)
def test_a_one_to_one_function_has_its_inverse_on_its_range(
    expression: str, inverse: str, defined: str
) -> None:
    result = function_fact(expression, "inverse")
    assert result.ok
    assert f"is {inverse}, defined for x in {defined}" in result.text
    assert sp.simplify(result.value - sp.sympify(inverse)) == 0  # the value: the inverse


def test_the_inverse_keeps_the_persons_variable() -> None:
    result = function_fact("h(t) = e^(2t) - 1", "inverse")
    assert result.text.startswith("the inverse of exp(2*t) - 1 is log(t + 1)/2")
    assert result.value.free_symbols == {sp.Symbol("t")}


@pytest.mark.parametrize(
    ("expression", "inverse"),
    [("x^3 + 1", "(x - 1)**(1/3)"), ("(x - 2)^3", "x**(1/3) + 2"), ("atan(x)", "tan(x)")],
)
def test_an_inverse_is_proved_by_undoing_f_or_by_f_being_monotone(
    expression: str, inverse: str
) -> None:
    result = function_fact(expression, "inverse")
    assert result.text.startswith(f"the inverse of {sp.sympify(expression.replace('^', '**'))}")
    assert f" is {inverse}" in result.text


def test_an_odd_root_in_an_inverse_is_said_to_be_the_real_one() -> None:
    result = function_fact("x^3 + 1", "inverse")
    assert "(x - 1)**(1/3)" in result.text and "real one" in result.text
    assert tools.evaluate("(x - 1)^(1/3)", "x = -7").value == -2


def test_a_function_far_from_the_probe_values_is_still_caught_taking_a_value_twice() -> None:
    text = function_fact("(x - 100)^2 + 1000", "inverse").text
    assert "it is 11000 at x = 0 and at x = 200" in text


@pytest.mark.parametrize(
    ("expression", "witness"),
    [
        ("x^2", "it is 1 at x = -1 and at x = 1"),
        ("x^3 - 3x", "it is 0 at x = -sqrt(3) and at x = 0"),
        ("sin(x)", "it is 0 at x = 0 and at x = pi"),
        ("|x|", "it is 1 at x = -1 and at x = 1"),
    ],
)
def test_a_function_that_takes_a_value_twice_has_no_inverse_and_the_answer_shows_where(
    expression: str, witness: str
) -> None:
    result = function_fact(expression, "inverse")
    assert result.ok and result.value is None
    assert "has no inverse on its whole domain" in result.text and witness in result.text


@pytest.mark.parametrize(
    ("expression", "pieces"),
    [
        ("x^2", "on (-oo, 0], -sqrt(x); on [0, oo), sqrt(x)"),
        ("x^2 + 2x", "on (-oo, -1], -sqrt(x + 1) - 1; on [-1, oo), sqrt(x + 1) - 1"),
        ("sin(x)", "on [-pi/2, pi/2], asin(x); on [pi/2, 3*pi/2], pi - asin(x)"),
        ("sqrt(9 - x^2)", "on [-3, 0], -sqrt(9 - x**2); on [0, 3], sqrt(9 - x**2)"),
    ],
)
def test_the_inverse_on_each_piece_where_the_function_is_one_to_one_is_named(
    expression: str, pieces: str
) -> None:
    text = function_fact(expression, "inverse").text
    assert text.endswith(f"Its inverse on one piece of the domain: {pieces}")


def test_a_root_is_undone_on_the_range_where_its_values_live() -> None:
    """sqrt(y**2) is y only for y >= 0: the range of sqrt(x - 2) says so."""
    result = function_fact("sqrt(x - 2)", "inverse")
    assert result.text == "the inverse of sqrt(x - 2) is x**2 + 2, defined for x in [0, oo)"


@pytest.mark.parametrize(
    ("expression", "what", "error"),
    [
        ("5", "domain", "is a number, not a function of a variable"),
        ("x + y", "range", "several variables (x, y)"),
        ("tan(x)", "domain", "not a finite union of intervals"),
        ("sqrt(x - 4)/(x - 6)", "inverse", "Could not find the inverse"),
        ("x^2", "period", "ask for the domain, range or inverse"),
    ],
)
def test_what_cannot_be_said_exactly_is_refused_in_one_sentence(
    expression: str, what: str, error: str
) -> None:
    result = tools.function_fact(expression, what)
    assert not result.ok and error in result.text


@pytest.mark.parametrize(
    ("expression", "at", "value"),
    [
        ("cbrt(-8)", None, -2),
        ("(-27)^(1/3)", None, -3),
        ("x^(2/3)", "x = -8", 4),
        ("(x - 1)^(1/3)", "x = 9", 2),
    ],
)
def test_an_odd_root_of_a_negative_number_is_the_real_root(
    expression: str, at: str | None, value: int
) -> None:
    assert tools.evaluate(expression, at).value == value


def test_an_even_root_of_a_negative_number_stays_imaginary() -> None:
    assert tools.evaluate("sqrt(x)", "x = -4").value == 2 * sp.I


@pytest.mark.parametrize(
    ("expression", "what", "said"),
    [
        ("x^2 + 1, x >= 0", "inverse", "on [0, oo) is sqrt(x - 1), defined for x in [1, oo)"),
        ("(x - 2)^2, x >= 2", "inverse", "on [2, oo) is sqrt(x) + 2, defined for x in [0, oo)"),
        ("x^2 - 4x, x <= 2", "inverse", "on (-oo, 2] is 2 - sqrt(x + 4)"),
        ("cos(x), [0, pi]", "inverse", "on [0, pi] is acos(x), defined for x in [-1, 1]"),
        ("1/x, x > 0", "inverse", "on (0, oo) is 1/x, defined for x in (0, oo)"),
        ("x^2, [-1, 3]", "range", "the range of x**2 on [-1, 3] is [0, 9]"),
        ("x^2, x > 0 and x < 5", "range", "the range of x**2 on (0, 5) is (0, 25)"),
        ("sqrt(x), x >= 4", "range", "on [4, oo) is [2, oo)"),
        ("1/x, [-1, 1]", "domain", "on [-1, 1] is [-1, 0) ∪ (0, 1]"),
        ("x^2 + 1 for x >= 0", "inverse", "on [0, oo) is sqrt(x - 1)"),  # a word, not a comma
        ("sin(x) on [0, pi/2]", "range", "on [0, pi/2] is [0, 1]"),
    ],
)
def test_a_function_kept_to_part_of_the_line_is_answered_there(
    expression: str, what: str, said: str
) -> None:
    """What follows a comma is the part of the line the person kept the function to."""
    result = function_fact(expression, what)
    assert result.ok, result.text
    assert said in result.text


def test_a_kept_function_that_is_still_not_one_to_one_shows_each_piece_within_it() -> None:
    result = function_fact("x^2, [-1, 3]", "inverse")
    assert result.ok and result.value is None
    assert "no inverse on [-1, 3]: it is 1 at x = -1 and at x = 1" in result.text
    assert result.text.endswith("on [-1, 0], -sqrt(x); on [0, 3], sqrt(x)")


@pytest.mark.parametrize(
    ("expression", "said"),
    [
        ("sqrt(x - 4), x <= 2", "sqrt(x - 4) is defined nowhere in (-oo, 2]."),
        ("x^2, t >= 0", "is about t, but the call is in x"),
        ("x^2, x >= banana", "must be real numbers, not 'banana'"),
    ],
)
def test_a_part_of_the_line_that_cannot_hold_is_refused_in_a_sentence(
    expression: str, said: str
) -> None:
    result = tools.function_fact(expression, "range")
    assert not result.ok and said in result.text
