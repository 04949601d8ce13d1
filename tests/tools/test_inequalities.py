"""solve on inequalities: exact sets, texts a person reads, the misplaced domain, refusals."""

from __future__ import annotations

import pytest
import sympy as sp

import tools
from tools.intervals import interval_text, is_interval_text
from tools.registry import compute

x, y = sp.symbols("x y")
n = sp.Symbol("n", integer=True)  # the integer of a periodic family, as the tool names it
oo = sp.oo


def solved(
    equation: str, variable: str | None = None, domain: str | None = None
) -> tools.ToolResult:
    """In this process (the worker's own entry point), so each case costs no round trip."""
    extra = {"domain": domain} if domain is not None else {}
    return compute("solve", {"equation": equation, "variable": variable, **extra})


@pytest.mark.parametrize(
    ("equation", "value", "text"),
    [
        (
            "x^2 - 4 > 0",
            sp.Union(sp.Interval.open(-oo, -2), sp.Interval.open(2, oo)),
            "x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))",
        ),
        (
            "x^2 - 4 >= 0",
            sp.Union(sp.Interval(-oo, -2), sp.Interval(2, oo)),
            "x <= -2 or x >= 2 (interval: (-oo, -2] ∪ [2, oo))",
        ),
        (
            "(x-1)/(x+2) >= 0",  # rational: the pole is never in the set
            sp.Union(sp.Interval.open(-oo, -2), sp.Interval(1, oo)),
            "x < -2 or x >= 1 (interval: (-oo, -2) ∪ [1, oo))",
        ),
        ("|x - 1| < 3", sp.Interval.open(-2, 4), "-2 < x < 4 (interval: (-2, 4))"),
        (
            "abs(2x + 1) >= 5",
            sp.Union(sp.Interval(-oo, -3), sp.Interval(2, oo)),
            "x <= -3 or x >= 2 (interval: (-oo, -3] ∪ [2, oo))",
        ),
        ("-1 < 2x + 3 <= 7", sp.Interval.Lopen(-2, 2), "-2 < x <= 2 (interval: (-2, 2])"),
        ("x ≤ 3", sp.Interval(-oo, 3), "x <= 3 (interval: (-oo, 3])"),
        ("x^2 + 1 > 0", sp.S.Reals, "all real x"),
        ("x^2 + 1 < 0", sp.S.EmptySet, "no real x"),
        ("(x - 1)^2 <= 0", sp.FiniteSet(1), "x = 1"),
        (
            "x^2 - 2x - 1 < 0",
            sp.Interval.open(1 - sp.sqrt(2), 1 + sp.sqrt(2)),
            "1 - sqrt(2) < x < 1 + sqrt(2) (interval: (1 - sqrt(2), 1 + sqrt(2)); "
            "1 - sqrt(2) ≈ -0.4142, 1 + sqrt(2) ≈ 2.414)",
        ),
        (
            "e^x > 2",
            sp.Interval.open(sp.log(2), oo),
            "x > log(2) (interval: (log(2), oo); log(2) ≈ 0.6931)",
        ),
        ("ln x < 1", sp.Interval.open(0, sp.E), "0 < x < E (interval: (0, E); E ≈ 2.718)"),
        ("sqrt(x) > 2", sp.Interval.open(4, oo), "x > 4 (interval: (4, oo))"),
        ("1/x > 1", sp.Interval.open(0, 1), "0 < x < 1 (interval: (0, 1))"),
        ("f(x) = x^3 < 8", sp.Interval.open(-oo, 2), "x < 2 (interval: (-oo, 2))"),
    ],
)
def test_each_kind_of_inequality_has_its_exact_set_and_a_plain_text(
    equation: str, value: sp.Set, text: str
) -> None:
    result = solved(equation)
    assert result.ok, result.text
    assert result.value == value
    assert result.text == text


def test_an_end_with_no_closed_form_is_written_as_its_decimal_and_kept_exact() -> None:
    result = solved("x^5 - x - 1 > 0")
    assert result.value == sp.Interval.open(sp.CRootOf(x**5 - x - 1, 0), oo)
    assert result.text == (
        "x > 1.167 (interval: (1.167, oo); 1.167 is a decimal of a root of x**5 - x - 1)"
    )


def test_the_summary_names_the_inequality_and_its_unknown() -> None:
    assert solved("t^2 ≥ 4").input == "t**2 >= 4 for t"
    assert solved("-1 < 2x + 3 <= 7").input == "-1 < 2*x + 3 <= 7 for x"


def test_through_the_worker_the_value_is_the_sympy_set() -> None:
    result = tools.solve("x^2 - 4 > 0")
    assert result.ok and result.value == sp.Union(
        sp.Interval.open(-oo, -2), sp.Interval.open(2, oo)
    )
    assert result.to_dict()["value"] == "Union(Interval.open(-oo, -2), Interval.open(2, oo))"


@pytest.mark.parametrize(
    ("equation", "value", "text"),
    [
        (
            "sin x > 1/2",
            sp.Interval.open(2 * sp.pi * n + sp.pi / 6, 2 * sp.pi * n + 5 * sp.pi / 6),
            "general solution: 2*pi*n + pi/6 < x < 2*pi*n + 5*pi/6 (n any integer; the pattern "
            "repeats every 2*pi)",
        ),
        (  # the pieces at both ends of a period are one interval around 0
            "cos(x) > 0",
            sp.Interval.open(2 * sp.pi * n - sp.pi / 2, 2 * sp.pi * n + sp.pi / 2),
            "general solution: 2*pi*n - pi/2 < x < 2*pi*n + pi/2 (n any integer; the pattern "
            "repeats every 2*pi)",
        ),
    ],
)
def test_a_periodic_inequality_is_a_family_in_n(equation: str, value: sp.Set, text: str) -> None:
    result = solved(equation)
    assert result.ok and result.text == text and result.value == value


def test_a_periodic_inequality_on_a_bounded_domain_is_listed() -> None:
    result = solved("sin x > 0", domain="[0, 4pi]")
    assert result.value == sp.Union(
        sp.Interval.open(0, sp.pi), sp.Interval.open(2 * sp.pi, 3 * sp.pi)
    )
    assert result.text.startswith("0 < x < pi or 2*pi < x < 3*pi (for 0 <= x <= 4*pi; ")
    assert solved("sin x > 0", domain="x > 0").text == (
        "sin(x) > 0 for x holds on infinitely many intervals for x > 0: give a bounded domain "
        "such as [0, 2*pi]."
    )
    assert solved("sin x > 0", domain="[0, 1000]").text == (
        "sin(x) > 0 for x holds on more than 50 intervals for 0 <= x <= 1000: use a smaller domain."
    )


@pytest.mark.parametrize(
    ("equation", "domain", "value", "text"),
    [
        ("x^2 - 4 > 0", "x > 0", sp.Interval.open(2, oo), "x > 2 (for x > 0; interval: (2, oo))"),
        (
            "x^2 - 4 > 0",
            "positive",
            sp.Interval.open(2, oo),
            "x > 2 (for x > 0; interval: (2, oo))",
        ),
        (
            "x^2 > 4",
            "[0, 5]",
            sp.Interval.Lopen(2, 5),
            "2 < x <= 5 (for 0 <= x <= 5; interval: (2, 5])",
        ),
        ("x^2 + 1 > 0", "x > 0", sp.Interval.open(0, oo), "true for every x > 0"),
        ("x^2 + 1 < 0", "x > 0", sp.S.EmptySet, "no real x (for x > 0)"),
        (
            "x^2 - 4 > 0",
            "real",
            sp.Union(sp.Interval.open(-oo, -2), sp.Interval.open(2, oo)),
            "x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))",
        ),
        (  # a domain that is an inequality of its own: both hold
            "x^2 < 9",
            "x^2 > 1",
            sp.Union(sp.Interval.open(-3, -1), sp.Interval.open(1, 3)),
            "-3 < x < -1 or 1 < x < 3 (for x with x**2 > 1; interval: (-3, -1) ∪ (1, 3))",
        ),
    ],
)
def test_a_domain_cuts_the_set(equation: str, domain: str, value: sp.Set, text: str) -> None:
    result = solved(equation, domain=domain)
    assert result.ok and result.value == value and result.text == text


FOUR = sp.Union(sp.Interval.open(-oo, -2), sp.Interval.open(2, oo))


@pytest.mark.parametrize(
    ("equation", "domain"),
    [
        ("x^2 - 4 = 0", "x^2 - 4 > 0"),  # what a small model sent for "solve x^2 - 4 > 0"
        ("x^2 - 4", "x^2 - 4 > 0"),
        ("0 = x^2 - 4", "x^2 - 4 > 0"),
        ("x^2 = 4", "x^2 > 4"),
        ("x^2 - 4 = 0", "x^2 > 4"),
    ],
)
def test_an_inequality_put_in_the_domain_beside_its_own_math_is_solved(
    equation: str, domain: str
) -> None:
    result = solved(equation, domain=domain)
    assert result.ok and result.value == FOUR
    assert result.text == "x < -2 or x > 2 (interval: (-oo, -2) ∪ (2, oo))"
    assert tools.solve(equation, domain=domain).value == FOUR


@pytest.mark.parametrize(
    ("equation", "domain"),
    [
        ("x^2 - 4 = 5", "x^2 - 4 > 0"),  # another equation: the domain is wrong, not misplaced
        ("x^2 - 9", "x^2 - 4 > 0"),
        ("x^2 - 4 = 0", "x^2 - 4 > 0 and x > 0"),
    ],
)
def test_a_domain_inequality_about_other_math_keeps_the_domain_error(
    equation: str, domain: str
) -> None:
    result = solved(equation, domain=domain)
    assert not result.ok
    assert result.text == (
        f"The domain '{domain}' should have the variable alone on one side, as in 't >= 0'."
    )


@pytest.mark.parametrize(
    ("equation", "variable", "ok", "text"),
    [
        (
            "x + y > 2",
            None,
            False,
            "The inequality has several variables (x, y): say which one to solve for.",
        ),
        ("x + y > 2", "x", True, "x > 2 - y (interval: (2 - y, oo))"),
        ("-x + y > 2", "x", True, "x < y - 2 (interval: (-oo, y - 2))"),
        (
            "a x > 2",
            "x",
            False,
            "Could not solve a*x > 2 for x: with the parameters a solve reads only a linear "
            "inequality with a number before x.",
        ),
        ("x^2 > 4", "t", False, "The inequality does not contain t; its variables are x."),
        ("3 > 2", None, True, "true for every value (the inequality has no unknown)"),
        ("2 > 3", None, True, "no solution (the inequality is never true)"),
        ("x - x > -1", "x", True, "true for every x"),
    ],
)
def test_letters_and_no_unknown(equation: str, variable: str | None, ok: bool, text: str) -> None:
    result = solved(equation, variable)
    assert result.ok is ok and result.text == text


@pytest.mark.parametrize(
    ("equation", "text"),
    [
        (
            "2^x > x^2",
            "Could not solve 2**x > x**2 for x exactly (solve handles polynomial, rational, "
            "absolute value, exponential, logarithmic and periodic inequalities).",
        ),
        (
            "x < 2 < 3 < 4",
            "Could not read 'x < 2 < 3 < 4': solve reads one inequality or a chain of two, as "
            "in '-1 < 2x + 3 <= 7'.",
        ),
        (
            "> 2",
            "Could not read '> 2': each relation needs math on both sides, as in 'x^2 - 4 > 0'.",
        ),
        ("I x > 0", "I*x > 0 for x compares values that are not real."),
        (
            "x^2 - 4 > 0, x > 0",
            "Could not read 'x^2 - 4 > 0, x > 0': solve reads one inequality (or a chain such "
            "as '-1 < 2x + 3 <= 7'); put a condition on the unknown in domain, as in 'x > 0'.",
        ),
        (
            "x ≠ 2",
            "Could not read 'x ≠ 2': unexpected '≠' at position 2 ('≠' is not read; solve the "
            "equation with '=' and leave its roots out).",
        ),
    ],
)
def test_what_is_refused_says_why_in_one_sentence(equation: str, text: str) -> None:
    result = solved(equation)
    assert not result.ok and result.text == text


def test_other_tools_say_that_only_solve_reads_inequalities() -> None:
    assert tools.derivative("x^2 > 4").text == (
        "Could not read 'x^2 > 4': unexpected '>' at position 4 (only solve reads inequalities)."
    )


@pytest.mark.parametrize(
    ("equation", "domain", "text"),
    [
        ("x^2 + 5x + 6 = 0", None, "x = -3, x = -2"),
        ("x^2 - 4 = 0", "x > 0", "x = 2 (for x > 0; x = -2 is outside it)"),
        ("x = x", "x > 0", "true for every x > 0"),
        ("x^2 - 4", "t >= 0", None),
    ],
)
def test_equations_answer_as_before(equation: str, domain: str | None, text: str | None) -> None:
    result = solved(equation, domain=domain)
    if text is None:
        assert result.text == (
            "The domain 't >= 0' is about t, but the equation's variables are x: write the "
            "domain for the unknown."
        )
    else:
        assert result.ok and result.text == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (sp.Union(sp.Interval.open(-oo, -2), sp.Interval.open(2, oo)), "(-oo, -2) ∪ (2, oo)"),
        (sp.Interval(1, 10), "[1, 10]"),
        (sp.FiniteSet(1), "{1}"),
        (sp.Union(sp.Interval.Ropen(1, 2), sp.FiniteSet(3)), "[1, 2) ∪ {3}"),
        (sp.S.Reals, "(-oo, oo)"),
        (sp.S.EmptySet, "∅"),
        (sp.S.Complexes, "ℂ"),
    ],
)
def test_interval_notation_is_written_and_recognised(value: sp.Set, text: str) -> None:
    assert interval_text(value) == text
    assert is_interval_text(text)


@pytest.mark.parametrize("root", ["-3", "sqrt(2)/2", "(x + 1)*(x - 1)", "(-1)**(1/3)", "x = 2"])
def test_a_roots_text_is_never_taken_for_a_set(root: str) -> None:
    assert not is_interval_text(root)
