"""The judge accepts right answers however they are written, and rejects wrong ones.

A judge that is too strict reports a working agent as broken; one that is too lenient (a
reply that restates the question's numbers, or a derivative of the wrong order) hides real
failures. Both directions are pinned here, on the phrasings a small model actually produces.
"""

from __future__ import annotations

import re

import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from agent.eval.cases import Expected
from agent.eval.judge import Verdict, judge

ROOTS = Expected("roots", ("-3", "-2"), "x")
IRRATIONAL = Expected("roots", ("-5/2 - sqrt(13)/2", "-5/2 + sqrt(13)/2"), "x")
DERIVATIVE = Expected("expression", ("4*x + 4",), "x")
SECOND = Expected("expression", ("12*x**2 - 4",), "x")
SQUARES = Expected("values", ("9", "4"))
THIRD = Expected("value", ("1/3",))
ANTIDERIVATIVE = Expected("antiderivative", ("3*x**2 + 2*x",), "x")


def ok(reply: str, expected: Expected, asked_back: bool = False) -> bool:
    verdict = judge(reply, asked_back, expected)
    assert isinstance(verdict, Verdict) and verdict.why
    return verdict.ok


# --- accepted --------------------------------------------------------------------------------


def test_roots_in_many_phrasings() -> None:
    for reply in (
        "The roots of x^2 + 5x + 6 = 0 are x = -3 and x = -2.",
        "Done: x = -3, x = -2",
        "x = -3, -2",
        "The solutions are -3 and -2 (from (x + 3)(x + 2) = 0).",
        "Solving x² + 5x + 6 = 0 gives −3 and −2",
        "x₁ = −3, x₂ = −2",
        "x ∈ {-3, -2}",
        r"\( x = -3 \) and \( x = -2 \)",
        "-2 and -3",
        "x = -3.0 or x = -2.0",
        "x^2 + 5x + 6 = 0 → x = -3, x = -2",
        "The equation has roots -3 and -2.",
        "The roots are:\n- x = -3\n- x = -2",
        "**x = -3** and **x = -2**",
    ):
        assert ok(reply, ROOTS), reply


def test_irrational_roots_with_plus_minus_latex_and_decimals() -> None:
    for reply in (
        "x = -5/2 ± √13/2",
        "x = (-5 ± sqrt(13))/2",
        r"$x = \frac{-5 \pm \sqrt{13}}{2}$",
        "x = -5/2 + sqrt(13)/2 ≈ -0.6972 and x = -5/2 - sqrt(13)/2 ≈ -4.303",
        "x ≈ -0.697 or x ≈ -4.303",
    ):
        assert ok(reply, IRRATIONAL), reply


def test_expressions_in_many_notations() -> None:
    for reply in (
        "The derivative of 2x^2 + 4x - 6 is 4x + 4.",
        "Done: d/dx (2*x**2 + 4*x - 6) = 4*x + 4",
        "f'(x) = 4(x + 1)",
        "4·x + 4",
        r"\( \frac{d}{dx} = 4x + 4 \)",
    ):
        assert ok(reply, DERIVATIVE), reply
    assert ok("The second derivative is 12*x**2 - 4.", SECOND)
    assert ok("f''(x) = 12x^{2} - 4", SECOND)
    assert ok("d²/dx² = 12x² − 4", SECOND)
    assert ok("6·o − 48·o²", Expected("expression", ("6*o - 48*o**2",), "o"))
    assert ok("∂/∂x (x²y + y³) = 2xy", Expected("expression", ("2*x*y",), "x"))
    assert ok("The derivative is 3*exp(m) + 2m", Expected("expression", ("3*exp(m) + 2*m",), "m"))
    assert ok("The derivative is 3e^m + 2m", Expected("expression", ("3*exp(m) + 2*m",), "m"))


def test_letters_that_are_constants_in_sympy_stay_variables() -> None:
    assert ok("The derivative is 2*S + 3*N", Expected("expression", ("2*S + 3*N",), "S"))
    assert not ok("I^2 + Q", Expected("expression", ("Q - 1",), "Q"))  # I is no imaginary unit
    assert ok("g(O) = O^2 + 1", Expected("expression", ("O**2 + 1",), "O"))


def test_values_exact_decimal_and_latex() -> None:
    assert ok("The squares of the roots are 9 and 4.", SQUARES)
    assert ok("Done: at -3: 9; at -2: 4", SQUARES)
    assert ok("(-3)² = 9 and (-2)² = 4", SQUARES)
    assert ok("g(-2) = 18", Expected("value", ("18",)))
    for reply in (
        "∫₀¹ x² dx = 1/3 ≈ 0.333",
        "The integral is 0.333",
        "= 1/3 ≈ 0.33",
        r"\int_0^1 x^2 \, dx = \frac{1}{3}",
        "Done: ∫ from 0 to 1 of x**2 dx = 1/3 ≈ 0.3333",
        "one third, i.e. 0.3333",
    ):
        assert ok(reply, THIRD), reply
    assert ok("The integral is e - 1 ≈ 1.718", Expected("value", ("-1 + E",)))
    assert ok("-1 + E ≈ 1.718", Expected("value", ("-1 + E",)))
    assert ok("12^4 - 9*12 = 20,628", Expected("value", ("20628",)))
    assert ok("h(4) = 4² − 3·4 = 4", Expected("value", ("4",)))
    assert ok(
        "The integral of x^2 - x - 12 from 0 to 1 is -73/6 ≈ -12", Expected("value", ("-73/6",))
    )


def test_antiderivatives_with_or_without_constant() -> None:
    for reply in (
        "The antiderivative is x³ + x² + C",
        "∫ (3x^2 + 2x) dx = x^3 + x^2 + C",
        "x^3 + x^2 + constant",
        r"\( x^{3} + x^{2} + C \)",
        "An antiderivative: x**3 + x**2 + 7",
    ):
        assert ok(reply, ANTIDERIVATIVE), reply
    assert ok("∫ e^x dx = e^x + C", Expected("antiderivative", ("exp(x)",), "x"))


def test_asks_back() -> None:
    assert ok("What should I integrate, and over which interval?", Expected("asks"), True)


# --- rejected --------------------------------------------------------------------------------


def test_wrong_missing_and_extra_roots_are_rejected() -> None:
    for reply in (
        "x = -3 and x = 2",  # a wrong root
        "x = -3",  # a missing root
        "x = -3, x = -2, x = 1",  # an extra wrong root
        "x = -3 or x = -2 or x = 2i",  # a complex one
        "The roots are 3 and 2.",
        "I could not solve it.",
    ):
        assert not ok(reply, ROOTS), reply


def test_restating_the_equation_with_wrong_roots_is_rejected() -> None:
    verdict = judge("The roots of x^2 + 5x + 6 = 0 are x = 3 and x = 2.", False, ROOTS)
    assert not verdict.ok and "-3" in verdict.why
    assert not ok("Solving x^2 + 5x + 6 = 0 gives x = -3 and x = 0", ROOTS)
    assert not ok("x = -5/2 ± √12/2", IRRATIONAL)
    assert not ok("x ≈ -0.7 or x ≈ -4.3", IRRATIONAL)  # too few digits to state a root


def test_wrong_expressions_are_rejected() -> None:
    assert not ok("The derivative is 4x + 3.", DERIVATIVE)
    assert not ok("The derivative of 4x + 4 is 4", DERIVATIVE)  # differentiated its own result
    assert not ok("The first derivative is 4x^3 - 4x", SECOND)  # wrong order
    assert not ok("The third derivative is 24x", SECOND)
    assert not ok("4x + 4 + C", DERIVATIVE)
    error = "The expression also contains d, f, g: give a value for each too"
    assert not ok(error, Expected("expression", ("-12*b*d - 36*d*h",), "d"))
    assert not ok(error, Expected("expression", ("d",), "d"))


def test_wrong_values_are_rejected() -> None:
    assert not ok("g(-2) = 19", Expected("value", ("18",)))
    assert not ok("g(-2) = 17", Expected("value", ("18",)))
    assert not ok("(-3)^2 + (-2)^2 = 12", Expected("value", ("13",)))  # the question restated
    assert not ok("Done: ∫ from 0 to 1 of x**2 dx = 1/3", Expected("value", ("1",)))  # a bound
    assert not ok("h(4) = 4² − 3·4 = 5", Expected("value", ("4",)))  # working is not the answer
    assert not ok("The integral is 0.33", THIRD)
    assert not ok("Evaluating 2x + 5 at x = 3 gives 11", Expected("value", ("3",)))  # the point
    assert not ok("The integral is 0.334", THIRD)
    assert not ok("The squares are 9 and 5.", SQUARES)
    assert not ok("The square of -3 is 9.", SQUARES)


def test_the_integrand_is_not_its_own_antiderivative() -> None:
    assert not ok("The antiderivative of 3x^2 + 2x is 3x^2 + 2x + C", ANTIDERIVATIVE)
    assert not ok("The antiderivative is 6x + 2", ANTIDERIVATIVE)
    assert not ok("x^3 + x^2 + C", Expected("antiderivative", ("3*t**2 + 2*t",), "t"))


def test_asking_and_answering_are_not_interchangeable() -> None:
    assert not ok("∫ x dx = x²/2 + C", Expected("asks"))
    assert not ok("What should I integrate?", Expected("value", ("6",)), True)
    assert not ok("", Expected("asks"), True)
    assert not ok("   ", Expected("value", ("6",)))


def test_malformed_replies_never_raise() -> None:
    for reply in (
        "((((",
        "x = = = ",
        "9^9^9^9^9 = 6",
        "((((2^60)^60)^60)^60) is 6",
        "__import__('os').system('true')",
        "1" * 5000,
        "\\frac{\\frac{",
        "x = 1/0",
    ):
        for expected in (ROOTS, DERIVATIVE, THIRD, ANTIDERIVATIVE, SQUARES):
            assert isinstance(judge(reply, False, expected), Verdict)
    assert not judge("6", False, Expected("value", ("not an answer(",))).ok


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=120))
def test_any_text_gives_a_verdict(reply: str) -> None:
    assert isinstance(judge(reply, False, ROOTS), Verdict)
    assert isinstance(judge(reply, False, DERIVATIVE), Verdict)


# --- properties ------------------------------------------------------------------------------

FORMATS = (
    lambda v, rs: ", ".join(f"{v} = {r}" for r in rs),
    lambda v, rs: "The roots are " + " and ".join(map(str, rs)) + ".",
    lambda v, rs: " or ".join(f"{v} = {r}" for r in rs).replace("-", "−"),
    lambda v, rs: f"{v} ∈ {{{', '.join(map(str, rs))}}}",
    lambda v, rs: " and ".join(rf"\( {v} = {r} \)" for r in rs),
    lambda v, rs: "Done: " + ", ".join(f"{v} = {float(r)}" for r in rs),
)


def _restated(v: str, roots: list[int]) -> str:
    poly = sp.expand(sp.prod([sp.Symbol(v) - r for r in roots]))
    return f"The roots of {sp.sstr(poly).replace('**', '^')} = 0: "


@settings(max_examples=80, deadline=None)
@given(
    roots=st.lists(st.integers(-30, 30), min_size=1, max_size=4, unique=True),
    style=st.integers(0, len(FORMATS) - 1),
    variable=st.sampled_from("xtqkzS"),
    restate=st.booleans(),
    shift=st.integers(-5, 5).filter(bool),
    which=st.integers(0, 3),
)
def test_integer_roots_in_any_format(
    roots: list[int], style: int, variable: str, restate: bool, shift: int, which: int
) -> None:
    """Right roots are accepted in every format; moving one root by a nonzero step is not."""
    expected = Expected("roots", tuple(str(r) for r in sorted(roots)), variable)
    prefix = _restated(variable, roots) if restate else ""
    assert ok(prefix + FORMATS[style](variable, roots), expected)
    moved = list(roots)
    moved[which % len(roots)] += shift
    if sorted(set(moved)) != sorted(roots):
        assert not ok(prefix + FORMATS[style](variable, moved), expected)


@settings(max_examples=60, deadline=None)
@given(numerator=st.integers(-999, 999), denominator=st.integers(1, 99), digits=st.integers(3, 6))
def test_values_as_fractions_or_decimals(numerator: int, denominator: int, digits: int) -> None:
    value = sp.Rational(numerator, denominator)
    expected = Expected("value", (sp.sstr(value),))
    assert ok(f"The value is {value}.", expected)
    decimal = format(float(value), f"#.{digits}g")  # "#": keeps trailing zeros, 3.10
    if re.fullmatch(r"-?\d*\.\d+", decimal):
        assert ok(f"It comes to {decimal}", expected)
        assert ok(f"{value} ≈ {decimal}", expected)
    assert not ok(f"The value is {value + 1}.", expected)


# --- workspace ids -----------------------------------------------------------------------------


def test_workspace_ids_are_labels_not_answers() -> None:
    for reply in (
        "The roots (#2) are x = -3 and x = -2",
        "#2: x = -3, x = -2",
        "The roots of #12 are -3 and -2.",
        "#2's roots are -3 and -2",
        "#13[1] = -3, #13[2] = -2",
        "Roots of #12: -3 and -2 (#13[1] = -3, #13[2] = -2)",
        "x = -3 and x = -2 (saved as #4)",
    ):
        assert ok(reply, ROOTS), reply
    assert ok("#4 = 4x + 4, the derivative of #1", DERIVATIVE)
    assert ok("The squares of #2[1] and #2[2] are 9 and 4.", SQUARES)
    assert ok("#3 = 4x + 4, so #3 from 0 to 1 gives 6", Expected("value", ("6",)))


def test_a_workspace_id_never_states_its_number() -> None:
    assert not ok("The roots are x = -3 and x = 12", ROOTS)
    assert not ok("x = -3 (#2)", ROOTS)  # -2 is only an id
    assert not ok("The result is stored as #6.", Expected("value", ("6",)))
    assert not ok("That is #9 and #4.", SQUARES)


def test_a_value_picked_by_assignment_or_a_result_verb_is_stated() -> None:
    smallest = Expected("value", ("-3",))
    assert ok("The smallest root is s = -3 (#2).", smallest)
    assert ok("The roots are s = -3 and s = 4. The smallest one is s = -3.", smallest)
    assert ok("When n = 3, the function g evaluates to 0 (#10).", Expected("value", ("0",)))
    assert ok("The roots add up to -4.", Expected("value", ("-4",)))


def test_a_list_of_roots_does_not_pick_one_and_a_point_is_no_answer() -> None:
    assert not ok("The roots are k = -4, k = -3 and k = -1.", Expected("value", ("-4",)))
    assert not ok("At x = 3 the value is 12.", Expected("value", ("3",)))
    assert not ok("For x = 2, f is 7.", Expected("value", ("2",)))
    assert not ok("Integrating from 0 to 1 gives 5.", Expected("value", ("1",)))


# --- problems: units, forms, lines, systems, roots on a domain --------------------------------

LANDING = Expected("quantity", ("5",), "t")
CIRCLE = Expected("quantity", ("25*pi",))
PRICES = Expected("quantity", ("12", "7"))


def test_a_quantity_is_read_with_or_without_its_unit() -> None:
    for reply in (
        "The ball lands after 5 seconds.",
        "t = 5 s",
        "It hits the ground at t = 5.0 s.",
        "-5t² + 20t + 25 = 0 → t = -1 or t = 5; it lands at t = 5 s.",
        "It hits the ground at t = 5 (t = -1 is not physical).",
        "Landing time: **5 s**",
    ):
        assert ok(reply, LANDING), reply
    for reply in ("The area is 25π m².", "A = 25π ≈ 78.54 m^2", "about 78.54 square metres"):
        assert ok(reply, CIRCLE), reply
    for reply in (
        "Adult tickets cost $12 and child tickets cost $7.",
        "a = 12, c = 7",
        "adult: 12 dollars, child: 7 dollars",
    ):
        assert ok(reply, PRICES), reply
    assert ok("The maximum height is 36.25 m at t = 1.5 s.", Expected("quantity", ("145/4",), "t"))
    assert ok("maximum 45 at t = 2", Expected("quantity", ("45",), "t"))


def test_a_wrong_quantity_or_the_problems_own_letter_is_no_answer() -> None:
    assert not ok("t = 4 s", LANDING)
    assert not ok("The ball lands after 20t seconds", Expected("quantity", ("20",), "t"))
    assert not ok("The area is 10π m²", CIRCLE)
    assert not ok("The area is 78 m²", CIRCLE)  # too few digits for 25π
    assert not ok("Adult tickets cost $12.", PRICES)


FACTORED = Expected("factored", ("(x + 2)*(x + 3)",), "x")
COMMON = Expected("factored", ("2*x*(x - 2)*(x + 2)",), "x")


def test_a_factorisation_must_be_written_factored() -> None:
    for reply in (
        "x^2 + 5x + 6 = (x + 2)(x + 3)",
        "(x+3)(x+2)",
        "The factored form is (x + 2)·(x + 3).",
        "x² + 5x + 6 = (x+2)(x+3)",
        r"\( (x + 2)(x + 3) \)",
    ):
        assert ok(reply, FACTORED), reply
    for reply in ("2x(x - 2)(x + 2)", "2x³ − 8x = 2·x·(x−2)·(x+2)", "-2x(2 - x)(x + 2)"):
        assert ok(reply, COMMON), reply
    assert ok("(2x - 3)(2x + 3)", Expected("factored", ("(2*x - 3)*(2*x + 3)",), "x"))
    for reply in ("x^2 + 5x + 6", "The answer is x² + 5x + 6", "(x+2)(x+4)", "x(x + 5) + 6"):
        assert not ok(reply, FACTORED), reply
    for reply in ("2x(x^2 - 4)", "2x^3 - 8x", "(2x^2 - 4x)(x + 2)"):
        assert not ok(reply, COMMON), reply


def test_an_expansion_and_a_simplification_are_judged_by_their_form() -> None:
    cube = Expected("expanded", ("x**3 + 6*x**2 + 12*x + 8",), "x")
    for reply in ("(x+2)^3 = x^3 + 6x^2 + 12x + 8", "x³ + 6x² + 12x + 8", "8 + 12·x + 6x^2 + x^3"):
        assert ok(reply, cube), reply
    for reply in ("The expansion is (x+2)^3", "x^3 + 6x^2 + 12x + 9", "x^2(x + 6) + 12x + 8"):
        assert not ok(reply, cube), reply
    assert ok("(4/3)x³ + 2x² + 1", Expected("expanded", ("4*x**3/3 + 2*x**2 + 1",), "x"))
    simpler = Expected("simplified", ("x + 3",), "x")
    for reply in ("(x^2 - 9)/(x - 3) = x + 3", "It simplifies to x + 3 (for x ≠ 3).", "3 + x"):
        assert ok(reply, simpler), reply
    for reply in ("The answer is (x^2-9)/(x-3)", "x + 4", "(x + 3)(x - 3)/(x - 3)"):
        assert not ok(reply, simpler), reply


LINE = Expected("line", ("10*x - 16",), "x")


def test_a_tangent_line_in_any_form_of_its_equation() -> None:
    for reply in (
        "tangent at x = 2: y = 10*x - 16 (slope 10, through (2, 4))",
        "y - 4 = 10(x - 2)",
        "The tangent line is y = 10x − 16.",
        "10x - y - 16 = 0",
        "y = 10.0x - 16.0",
    ):
        assert ok(reply, LINE), reply
    for reply in ("y = 10x + 16", "y - 4 = 10(x + 2)", "The slope is 10.", "y = x^3 - 2x"):
        assert not ok(reply, LINE), reply


SYSTEM = Expected("assignments", ("2", "1"), "x,y")


def test_a_system_gives_each_letter_its_value() -> None:
    for reply in (
        "x = 2, y = 1",
        "The solution is x = 2 and y = 1.",
        "(x, y) = (2, 1)",
        "x=2\ny=1",
        "Adding the equations: 2x = 4, so x = 2; then y = 3 - x = 1.",
    ):
        assert ok(reply, SYSTEM), reply
    three = Expected("assignments", ("-1/2", "3", "0"), "x,y,z")
    assert ok("x = -1/2, y = 3, z = 0", three)
    assert ok("x = -0.5, y = 3, z = 0", three)
    for reply in ("x = 1, y = 2", "x = 2", "(x, y) = (1, 2)", "x = 2, y = 1 or x = 3", "2 and 1"):
        assert not ok(reply, SYSTEM), reply


def test_roots_on_a_domain_may_name_the_roots_left_out() -> None:
    inside = Expected("roots", ("1", "3"), "x")
    for reply in (
        "x = 1, x = 3 (for 0 <= x <= 5; x = -2 is outside it)",
        "The solutions in [0, 5] are x = 1 and x = 3.",
        "x = 1 and x = 3; we discard x = -2.",
        "Discarding x = -2, the roots are 1 and 3",
        "x = 1, x = 3 (for x > 0; x = -6, x = -2 are outside it)",
    ):
        assert ok(reply, inside), reply
    for reply in ("x = -2, x = 1, x = 3", "x = 1", "The roots in [0, 5] are 1, 3 and 5."):
        assert not ok(reply, inside), reply


def test_a_series_with_its_remainder_or_after_an_approximation_sign() -> None:
    series = Expected("expression", ("4*x**3/3 + 2*x**2 + 2*x + 1",), "x")
    for reply in (
        "e^(2x) ≈ 1 + 2x + 2x² + (4/3)x³ + O(x⁴)",
        "1 + 2x + 2x^2 + 4x^3/3 + ...",
        "exp(2*x) ≈ 1 + 2*x + 2*x**2 + 4*x**3/3 (Taylor polynomial around x = 0)",
    ):
        assert ok(reply, series), reply
    assert not ok("1 + 2x + 2x^2 + O(x^3)", series)


def test_numbers_copied_from_the_request_are_the_question_not_an_answer() -> None:
    request = "what's the product of the roots of the equation that had solutions 1 and 4?"
    product = Expected("value", ("4",))
    wrong = "The product of the roots of the equation that had solutions 1 and 4 is -9/4."
    assert ok(wrong, product)  # without the request the 4 it restates looks stated
    assert not judge(wrong, False, product, request).ok
    right = "The product of the roots of the equation that had solutions 1 and 4 is 4."
    assert judge(right, False, product, request).ok
    assert judge("It is 4 (#3).", False, product, request).ok
    # A number of the request stated after other words is an answer ("is -1" was not asked).
    largest = Expected("value", ("-1",))
    request = "what's the largest root of the polynomial with zeros -4 and -1?"
    assert judge(
        "The largest root of the polynomial with zeros -4 and -1 is -1.", False, largest, request
    ).ok
    assert not judge(
        "The polynomial with zeros -4 and -1 has 3 as its root.", False, largest, request
    ).ok
    # Roots restated from the request are not offered roots either.
    request = "which equation had roots 2 and 5? solve it again"
    assert judge("The equation with roots 2 and 5: x = -3, x = -2.", False, ROOTS, request).ok
