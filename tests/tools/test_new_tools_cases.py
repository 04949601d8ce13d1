"""Known answers for the tools of issue 29, written by hand (held-out style, like tools_cases).

Each case is a call through the public API (parser, precheck, worker) and the exact value
and a fragment of the text the LLM reads. Values are compared exactly (``sp.simplify(a - b)
== 0``), never numerically.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
import sympy as sp

import tools
from tools import ToolResult

x, y, z, t, n = sp.symbols("x y z t n")


@dataclass(frozen=True)
class Known:
    id: str
    call: Callable[[], ToolResult]
    value: Any
    text_has: tuple[str, ...] = ()


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, dict):
        return (
            isinstance(got, dict)
            and got.keys() == want.keys()
            and all(_same(got[k], want[k]) for k in want)
        )
    if isinstance(want, (sp.Eq, sp.AccumBounds, sp.Set)) or want in (sp.oo, -sp.oo):
        return got == want
    return sp.simplify(sp.sympify(got) - sp.sympify(want)) == 0


KNOWN = [
    # -- solve on a domain ------------------------------------------------------------------
    Known(
        "domain-t>=0",
        lambda: tools.solve("t^2 - 3t - 4 = 0", domain="t >= 0"),
        [4],
        ("t = 4 (for t >= 0", "t = -1 is outside it"),
    ),
    Known(
        "domain-none-left",
        lambda: tools.solve("t^2 + 5t + 4", domain="t >= 0"),
        [],
        ("no solution for t >= 0", "t = -4, t = -1 are outside it"),
    ),
    Known(
        "domain-positive",
        lambda: tools.solve("x^2 = 2", domain="positive"),
        [sp.sqrt(2)],
        ("for x > 0",),
    ),
    Known(
        "domain-nonnegative",
        lambda: tools.solve("x^3 - x", domain="nonnegative"),
        [0, 1],
        ("for x >= 0",),
    ),
    Known(
        "domain-interval", lambda: tools.solve("x^2 - 4", domain="[0, 5]"), [2], ("0 <= x <= 5",)
    ),
    Known(
        "domain-open-interval",
        lambda: tools.solve("x^2 - 4", domain="(2, oo)"),
        [],
        ("no solution for x > 2",),
    ),
    Known(
        "domain-conditions-with-a-comma",
        lambda: tools.solve("x^2 - 4", domain="x > -5, x < 0"),
        [-2],
        ("-5 < x < 0",),
    ),
    Known(
        "domain-one-variable-spelled-two-ways",
        lambda: tools.solve("theta^2 - 1", domain="theta > 0, θ < 5"),
        [1],
        ("0 < theta < 5",),
    ),
    Known(
        "domain-chain",
        lambda: tools.solve("x^2 - 4", domain="-5 < x <= -2"),
        [-2],
        ("-5 < x <= -2",),
    ),
    Known(
        "domain-real-drops-complex",
        lambda: tools.solve("x^3 = 1", domain="real"),
        [1],
        ("for real x", "not real"),
    ),
    Known(
        "domain-trig-bounded",
        lambda: tools.solve("sin(x) = 1/2", domain="[0, 2pi]"),
        [sp.pi / 6, 5 * sp.pi / 6],
        ("0 <= x <= 2*pi",),
    ),
    Known(
        "domain-trig-half-line",
        lambda: tools.solve("sin(x) = 0", domain="x >= 0"),
        [
            2 * sp.pi * sp.Symbol("n", integer=True, nonnegative=True),
            2 * sp.pi * sp.Symbol("n", integer=True, nonnegative=True) + sp.pi,
        ],
        ("n = 0, 1, 2, ...",),
    ),
    Known(
        "domain-names-the-unknown",
        lambda: tools.solve("x t^2 = 9x", domain="t > 0"),
        [3],
        ("t = 3 (for t > 0", "t = -3 is outside it"),
    ),
    Known(
        "domain-default-unchanged",
        lambda: tools.solve("x^2 + 1"),
        [-sp.I, sp.I],
        ("complex roots",),
    ),
    Known(
        "domain-in-words",
        lambda: tools.solve("x^2 = 2", domain="positive real numbers"),
        [sp.sqrt(2)],
        ("x > 0",),
    ),
    Known(
        "domain-hyphenated-word",
        lambda: tools.solve("x^3 - x", domain="non-negative"),
        [0, 1],
        ("x >= 0",),
    ),
    Known(
        "domain-all-reals",
        lambda: tools.solve("x^3 = 8", domain="all real numbers"),
        [2],
        ("real x",),
    ),
    Known("domain-set-symbol", lambda: tools.solve("x^3 = 8", domain="ℝ"), [2], ("real x",)),
    Known(
        "domain-positive-set-symbol",
        lambda: tools.solve("t^2 - 9", domain="ℝ+"),
        [3],
        ("t > 0",),
    ),
    Known(
        "domain-member-of-the-reals",
        lambda: tools.solve("x^4 = 1", domain="x ∈ R"),
        [-1, 1],
        ("real x",),
    ),
    # -- solve_system -----------------------------------------------------------------------
    Known(
        "system-2x2",
        lambda: tools.solve_system("x + y = 3, x - y = 1"),
        [{x: 2, y: 1}],
        ("x = 2, y = 1",),
    ),
    Known(
        "system-list",
        lambda: tools.solve_system(["2x + 3y = 12", "x - y = 1"]),
        [{x: 3, y: 2}],
        ("x = 3, y = 2",),
    ),
    Known(
        "system-3x3",
        lambda: tools.solve_system("x + y + z = 6; x - y = -1; x + z = 4"),
        [{x: 1, y: 2, z: 3}],
        ("x = 1, y = 2, z = 3",),
    ),
    Known(
        "system-none", lambda: tools.solve_system("x + y = 3 and x + y = 4"), [], ("no solution",)
    ),
    Known(
        "system-infinite",
        lambda: tools.solve_system("x + y = 3, 2x + 2y = 6"),
        [{x: 3 - y, y: y}],
        ("infinitely many solutions", "y any number"),
    ),
    Known(
        "system-circle-line",
        lambda: tools.solve_system("x^2 + y^2 = 25, x + y = 7"),
        [{x: 3, y: 4}, {x: 4, y: 3}],
        ("2 solutions",),
    ),
    Known(
        "system-complex",
        lambda: tools.solve_system("x^2 + y^2 = -1, x = 0"),
        [{x: 0, y: -sp.I}, {x: 0, y: sp.I}],
        ("no real solutions",),
    ),
    Known(
        "system-condition-keeps-the-positive-solution",
        lambda: tools.solve_system(["x^2 = y", "x + y = 2", "x > 0"]),
        [{x: 1, y: 1}],
        ("with x > 0", "left out: x = -2, y = 4"),
    ),
    Known(
        "system-conditions-between-unknowns",
        lambda: tools.solve_system("x + y = 10, x y = 21, x > y"),
        [{x: 7, y: 3}],
        ("x = 7, y = 3",),
    ),
    Known(
        "system-condition-chain",
        lambda: tools.solve_system("x^2 + y^2 = 2; x = y; 0 < x <= 1"),
        [{x: 1, y: 1}],
        ("with 0 < x <= 1",),
    ),
    Known(
        "system-condition-none-left",
        lambda: tools.solve_system(["x^2 + y^2 = 1", "x = y", "x > 5"]),
        [],
        ("no solution meets the conditions", "left out"),
    ),
    Known(
        "system-condition-keeps-a-free-unknown",
        lambda: tools.solve_system("x + y = z, x - y = 1, x > 0", "x, y"),
        [{x: z / 2 + sp.Rational(1, 2), y: z / 2 - sp.Rational(1, 2)}],
    ),
    Known(
        "system-parameter",
        lambda: tools.solve_system("a x + y = 1, x - y = 2", "x, y"),
        [{x: 3 / (sp.Symbol("a") + 1), y: (1 - 2 * sp.Symbol("a")) / (sp.Symbol("a") + 1)}],
    ),
    # -- extrema ----------------------------------------------------------------------------
    Known(
        "extrema-projectile",
        lambda: tools.extrema("-5t^2 + 20t + 1", kind="max"),
        21,
        ("maximum 21 at t = 2",),
    ),
    Known(
        "extrema-projectile-all",
        lambda: tools.extrema("h(t) = -5t^2 + 20t + 1"),
        [2],
        ("t = 2 (local maximum, value 21)", "global maximum 21 at t = 2"),
    ),
    Known(
        "extrema-cubic",
        lambda: tools.extrema("x^3 - 3x"),
        [-1, 1],
        (
            "x = -1 (local maximum, value 2)",
            "x = 1 (local minimum, value -2)",
            "no global maximum: f → ∞ as x → ∞",
        ),
    ),
    Known(
        "extrema-interval",
        lambda: tools.extrema("x^3 - 3x", None, -3, 3, "min"),
        -18,
        ("minimum -18 at x = -3", "[-3, 3]"),
    ),
    Known(
        "extrema-interval-both",
        lambda: tools.extrema("x^2 - 4x", None, 0, 5),
        [2],
        ("absolute maximum 5 at x = 5", "absolute minimum -4 at x = 2"),
    ),
    Known("extrema-inflection", lambda: tools.extrema("x^3"), [0], ("x = 0 (neither",)),
    Known("extrema-flat-minimum", lambda: tools.extrema("x^4"), [0], ("local minimum",)),
    Known("extrema-abs", lambda: tools.extrema("|x - 1|", kind="min"), 0, ("minimum 0 at x = 1",)),
    Known(
        "extrema-unbounded",
        lambda: tools.extrema("x^3", kind="max"),
        sp.oo,
        ("no maximum: f → ∞ as x → ∞",),
    ),
    Known(
        "extrema-unbounded-with-a-local-one",
        lambda: tools.extrema("x^3 - 3x", kind="max"),
        sp.oo,
        ("no maximum: f → ∞ as x → ∞; local maximum: 2 at x = -1",),
    ),
    Known(
        "extrema-not-attained",
        lambda: tools.extrema("e^(-x^2)", kind="min"),
        0,
        ("no minimum", "without reaching it"),
    ),
    Known(
        "extrema-pole", lambda: tools.extrema("1/x", kind="max"), sp.oo, ("x → 0 from the right",)
    ),
    Known(
        "extrema-periodic",
        lambda: tools.extrema("sin(x)", kind="max"),
        1,
        ("maximum 1 at x = 2*pi*n + pi/2 (n any integer)",),
    ),
    Known(
        "extrema-log",
        lambda: tools.extrema("x ln(x)", kind="min"),
        -sp.exp(-1),
        ("at x = exp(-1)",),
    ),
    Known("extrema-constant", lambda: tools.extrema("7", kind="max"), 7, ("constant",)),
    Known(
        "extrema-endpoint-tie",
        lambda: tools.extrema("x^3 - 3x + 1", None, -2, 2, "max"),
        3,
        ("at x = -1 and x = 2",),
    ),
    Known(
        "extrema-oscillating-ends",
        lambda: tools.extrema("sin(x) + cos(x)", kind="max"),
        sp.sqrt(2),
        ("at x = 2*pi*n + pi/4 (n any integer)",),
    ),
    Known(
        "extrema-half-line",
        lambda: tools.extrema("x^2 e^(-x)", lower=0),
        [2],
        ("absolute maximum 4*exp(-2)", "absolute minimum 0 at x = 0"),
    ),
    # -- tangent ----------------------------------------------------------------------------
    Known(
        "tangent-parabola", lambda: tools.tangent("x^2", 3), 6 * x - 9, ("y = 6*x - 9", "slope 6")
    ),
    Known("tangent-named-point", lambda: tools.tangent("x^2", "x = 3"), 6 * x - 9),
    Known("tangent-pair", lambda: tools.tangent("x^2", "(3, 9)"), 6 * x - 9),
    Known("tangent-sin", lambda: tools.tangent("sin x", "pi"), sp.pi - x, ("slope -1",)),
    Known("tangent-ln", lambda: tools.tangent("ln(x)", "1"), x - 1, ("y = x - 1",)),
    Known(
        "tangent-vertical",
        lambda: tools.tangent("sqrt(x)", 0),
        sp.Eq(x, 0),
        ("vertical tangent", "x = 0"),
    ),
    Known(
        "tangent-other-variable",
        lambda: tools.tangent("f(t) = t^3", 1),
        3 * t - 2,
        ("y = 3*t - 2",),
    ),
    # -- transform --------------------------------------------------------------------------
    Known(
        "factor-quadratic",
        lambda: tools.transform("x^2 + 5x + 6", "factor"),
        (x + 2) * (x + 3),
        ("(x + 2)*(x + 3)",),
    ),
    Known(
        "factor-irreducible",
        lambda: tools.transform("x^2 - 2", "factor"),
        x**2 - 2,
        ("does not factor over the rationals",),
    ),
    Known(
        "factor-two-variables",
        lambda: tools.transform("x^2 y - y", "factor"),
        y * (x - 1) * (x + 1),
    ),
    Known("factor-integer", lambda: tools.transform("360", "factor"), 360, ("360 = 2**3*3**2*5",)),
    Known(
        "expand-cube",
        lambda: tools.transform("(x+1)^3", "expand"),
        x**3 + 3 * x**2 + 3 * x + 1,
        ("x**3 + 3*x**2 + 3*x + 1",),
    ),
    Known("simplify-pythagoras", lambda: tools.transform("sin(x)^2 + cos(x)^2", "simplify"), 1),
    Known("simplify-rational", lambda: tools.transform("(x^2 - 1)/(x - 1)", "Simplify"), x + 1),
    Known(
        "simplify-polynomial-collected",
        lambda: tools.transform("(x - 4)(x^2 - 6x - 9)", "simplify"),
        x**3 - 10 * x**2 + 15 * x + 36,
        ("= x**3 - 10*x**2 + 15*x + 36",),
    ),
    # -- limit ------------------------------------------------------------------------------
    Known("limit-sinc", lambda: tools.limit("sin(x)/x", 0), 1, ("= 1",)),
    Known(
        "limit-two-sided-differs",
        lambda: tools.limit("1/x", 0),
        [-sp.oo, sp.oo],
        ("does not exist", "-oo from the left", "oo from the right"),
    ),
    Known("limit-right", lambda: tools.limit("1/x", 0, None, "+"), sp.oo),
    Known("limit-left-on-point", lambda: tools.limit("1/x", "0-"), -sp.oo),
    Known("limit-both-infinite", lambda: tools.limit("1/x^2", 0), sp.oo),
    Known("limit-e", lambda: tools.limit("(1 + 1/n)^n", "infinity"), sp.E),
    Known("limit-minus-infinity", lambda: tools.limit("e^x", "-oo"), 0),
    Known("limit-hole", lambda: tools.limit("(x^2 - 4)/(x - 2)", "x -> 2"), 4),
    Known("limit-sign", lambda: tools.limit("|x|/x", 0), [-1, 1], ("does not exist",)),
    Known(
        "limit-oscillates",
        lambda: tools.limit("sin(1/x)", 0),
        sp.AccumBounds(-1, 1),
        ("oscillates between -1 and 1",),
    ),
    Known(
        "limit-parameter", lambda: tools.limit("(x^2 - a^2)/(x - a)", "a", "x"), 2 * sp.Symbol("a")
    ),
    # -- series -----------------------------------------------------------------------------
    Known(
        "series-sin",
        lambda: tools.series("sin x"),
        x - x**3 / 6 + x**5 / 120,
        ("x - x**3/6 + x**5/120", "Taylor polynomial", "x**6"),
    ),
    Known(
        "series-exp-at-1",
        lambda: tools.series("e^x", 1, 2),
        sp.E + sp.E * (x - 1) + sp.E * (x - 1) ** 2 / 2,
        ("Taylor polynomial", "(x - 1)**3"),
    ),
    # `degree` is the highest power kept: "up to z^4" is degree 4, with the z^4 term.
    Known(
        "series-cos-degree-4",
        lambda: tools.series("cos z", 0, 4),
        1 - z**2 / 2 + z**4 / 24,
        ("1 - z**2/2 + z**4/24", "z**5"),
    ),
    Known(
        "series-degree-0", lambda: tools.series("e^x", 1, 0), sp.E, ("exp(x) ≈ E (", "x - 1 and")
    ),
    Known("series-geometric", lambda: tools.series("1/(1 - x)", "0", "3"), 1 + x + x**2 + x**3),
    Known(
        "series-degree-20", lambda: tools.series("1/(1 - x)", 0, 20), sum(x**k for k in range(21))
    ),
]


@pytest.mark.parametrize("case", KNOWN, ids=[c.id for c in KNOWN])
def test_known_answer(case: Known) -> None:
    result = case.call()
    assert result.ok, result.error
    assert _same(result.value, case.value), f"{result.value!r} != {case.value!r}"
    for fragment in case.text_has:
        assert fragment in result.text, result.text


def test_known_answers_are_many() -> None:
    assert len(KNOWN) >= 60


# ---------------------------------------------------------------------------------------------
# Clear refusals (one sentence each)

REFUSED = [
    (lambda: tools.solve("x^2 - 4", domain="t >= 0"), "is about t"),
    (lambda: tools.solve("-y - 2 = 5", "y", domain="t >= 0"), "is about t, but the call is in y"),
    (lambda: tools.solve("y^2 = 4", "y", domain="0 <= t <= 5"), "is about t, but the call is in y"),
    (lambda: tools.solve("x^2 - 4", domain="x >= a"), "must be real numbers"),
    (lambda: tools.solve("x + y = 9", "y", domain="x >= 0, y >= 0"), "call solve_system"),
    (lambda: tools.solve("y^2 = 4", "y", domain="0 <= 5 >= y"), "like 'a <= y <= b'"),
    (lambda: tools.solve("x^2 - 4", domain="5 < x < 1"), "is empty"),
    (lambda: tools.solve("x^2 - 4", domain="somewhere"), "Could not read the domain"),
    (lambda: tools.solve_system("x + y = 1, x - y = 2, x + 2y = 3, x = 4"), "at most 3"),
    (lambda: tools.solve_system("a + b + c + d = 1, a - b = 2"), "4 unknowns"),
    (lambda: tools.solve_system("x + y = 3"), "use the solve tool"),
    (lambda: tools.solve_system("sin(x) + y = 1, x - y = 0"), "linear and polynomial"),
    (lambda: tools.solve_system("x + y = 3, x - y = 1", "x, z"), "do not contain z"),
    (lambda: tools.extrema("x^2", kind="median"), "kind must be"),
    (lambda: tools.extrema("x^2 + a x", "x"), "also contains a"),
    (lambda: tools.extrema("x^2", None, 3, 1), "must be smaller"),
    (lambda: tools.extrema("tan(x)"), "give an interval"),
    (lambda: tools.tangent("|x|", 0), "not differentiable"),
    (lambda: tools.tangent("1/x", 0), "undefined at x = 0"),
    (lambda: tools.tangent("x^2", "(3, 10)"), "not on the curve"),
    (lambda: tools.tangent("x^2", "oo"), "finite real"),
    (lambda: tools.transform("x^2", "integrate"), "how must be"),
    (lambda: tools.transform("x^2 - 1 = 0", "factor"), "is an equation"),
    (lambda: tools.limit("x", 0, None, "sideways"), "direction must be"),
    (lambda: tools.limit("1/x", "0+", None, "-"), "disagree"),
    (lambda: tools.series("cos x", 0, 50), "The degree must be between 0 and 20, not 50."),
    (lambda: tools.series("cos x", 0, 21), "The degree must be between 0 and 20, not 21."),
    (lambda: tools.series("cos x", 0, -1), "The degree must be between 0 and 20, not -1."),
    (lambda: tools.series("cos x", 0, True), "The degree must be a whole number"),
    (lambda: tools.series("cos x", 0, "6; import os"), "The degree must be a whole number"),
]


@pytest.mark.parametrize("call, fragment", REFUSED, ids=[f for _, f in REFUSED])
def test_clear_refusal(call: Callable[[], ToolResult], fragment: str) -> None:
    result = call()
    assert not result.ok and result.text == result.error
    assert fragment in result.error, result.error
    assert "\n" not in result.error and len(result.error) < 300


def test_new_tools_keep_the_result_metadata() -> None:
    result = tools.solve_system("x + y = 3, x - y = 1")
    assert result.tool == "solve_system"
    assert result.input == "x + y = 3; x - y = 1 for x, y"
    assert result.to_dict()["value"] == ["{x: 2, y: 1}"]
    assert tools.extrema("x^2").tool == "extrema"
    assert tools.limit("x", 1).input == "limit of x as x → 1"
