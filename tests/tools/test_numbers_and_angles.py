"""Notation of arithmetic and angles read as people write it: percents, degrees,
remainders, choices, divisors."""

from __future__ import annotations

import pytest
import sympy as sp

import tools
from tools import LimitError, ParseError
from tools.parsing import parse_expression


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("15%", sp.Rational(3, 20)),
        ("15% * 240", 36),
        ("100 - 20%*100", 80),
        ("sin(30°)", sp.Rational(1, 2)),
        ("sin(30 °)", sp.Rational(1, 2)),
        ("cos(60 degrees)", sp.Rational(1, 2)),
        ("tan(45 deg)", 1),
        ("(45 degrees) * 2", sp.pi / 2),
        ("17 mod 5", 2),
        ("mod(-7, 3)", 2),
        ("2*17 mod 5", 4),  # between two factors, as * and / are
        ("17 % 5", 2),  # `%` before a number: a remainder, as code writes it
        ("x % 2", sp.Mod(sp.Symbol("x"), 2)),
        ("15% x", sp.Rational(3, 20) * sp.Symbol("x")),  # no number after it: a percent
        ("combinations(10, 3)", 120),
        ("permutations(5, 2)", 20),
        ("10 choose 3", 120),
        ("binomial(10, 3)", 120),
        ("nCr(10, 3)", 120),
        ("comb(10, 3)", 120),
        ("nPr(5, 2)", 20),
        ("gcd(84, 126)", 42),
        ("gcd(84, 36, 60)", 12),
        ("hcf(8, 12)", 4),
        ("lcm(4, 6)", 12),
    ],
)
def test_the_notation_reads_as_its_value(text: str, value: sp.Expr) -> None:
    assert sp.simplify(parse_expression(text) - value) == 0


def test_a_gcd_of_polynomials_is_their_common_factor() -> None:
    x = sp.Symbol("x")
    assert parse_expression("gcd(x^2 - 1, x - 1)") == x - 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("30°C", "is not an angle"),  # a temperature
    ],
)
def test_a_degree_sign_before_a_letter_is_refused_with_why(text: str, said: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_expression(text)
    assert said in str(refused.value)


def test_a_huge_choice_is_refused_before_it_is_built() -> None:
    with pytest.raises(LimitError):
        parse_expression("binomial(100000, 50000)")
    assert parse_expression("binomial(5000, 2)") == 12497500


def test_degrees_are_not_read_away_from_a_number() -> None:
    # a word of letters stays letters (e is Euler's number) when no number is before it
    assert parse_expression("x deg").free_symbols == set(sp.symbols("x d g"))


def test_the_tools_answer_in_these_notations() -> None:
    assert tools.evaluate("sin(30 degrees)", []).text == "1/2 ≈ 0.5"
    assert tools.evaluate("10 choose 3", []).text == "120"


@pytest.mark.parametrize(
    ("equation", "domain", "said"),
    [
        ("2sin(x) = 1", "[0, 360°]", "in degrees: x = 30°, x = 150°"),
        ("tan(x) = 1", "0 <= x < 360 degrees", "in degrees: x = 45°, x = 225°"),
        ("cos(x) = 0.3", "[0°, 180°]", "in degrees: x ≈ 72.54°"),
    ],
)
def test_a_domain_in_degrees_is_answered_in_degrees_too(
    equation: str, domain: str, said: str
) -> None:
    result = tools.solve(equation, domain=domain)
    assert result.ok and result.text.endswith(said)


def test_a_periodic_equation_with_no_real_solution_on_a_domain_says_so() -> None:
    result = tools.solve("sin(x) = 2", domain="[0, 2pi]")
    assert result.ok and result.value == []
    assert result.text == "no real solution for 0 <= x <= 2*pi"
