"""Questions of the `problems` set that ask for one of the newer tools by what it does.

Why a module of its own: factoring, expanding, simplifying, limits, tangent lines, extremes on
an interval, roots on a domain, systems and Taylor polynomials each need their own draws (a
polynomial that factors over the rationals, a system with one whole-number solution, a limit
that exists). The answers are computed here with SymPy. Formulas are written the way a person
types them (`x^2`, `5x`, `|x - 2|`, `e^(3x)`); the draws must keep their order, or the
committed files change.
"""

from __future__ import annotations

import random

import sympy as sp

from agent.eval.cases import Expected
from agent.eval.generate_common import chat_text, coefficient, from_roots, polynomial
from agent.eval.problem import Problem, call
from agent.eval.wordings import Deck

X = sp.Symbol("x")


def _letter(rng: random.Random) -> sp.Symbol:
    return sp.Symbol(rng.choice("xxxtz"))


def _expected(kind: str, value: sp.Expr, v: sp.Symbol) -> Expected:
    return Expected(kind, (sp.sstr(value),), v.name)  # type: ignore[arg-type]


# --- factor, expand, simplify ----------------------------------------------------------------


def _factorable(rng: random.Random, v: sp.Symbol) -> sp.Expr:
    """A polynomial that factors over the rationals into 2 or 3 factors."""
    form = rng.randrange(4)
    if form == 0:  # x^2 + bx + c
        roots = rng.sample(range(-9, 10), 2)
        return from_roots([sp.Integer(r) for r in roots], sp.Integer(rng.choice((1, 1, -1))), v)
    if form == 1:  # a common factor: 2x^3 - 8x
        roots = rng.sample([n for n in range(-6, 7) if n], 2)
        lead = sp.Integer(rng.choice((1, 2, 3, -1)))
        return from_roots([sp.Integer(0), *map(sp.Integer, roots)], lead, v)
    if form == 2:  # a difference of squares: 9x^2 - 4
        k, m = rng.choice(((1, 5), (2, 3), (3, 2), (3, 4), (2, 5), (1, 7), (4, 1)))
        return sp.expand((k * v) ** 2 - m**2)
    half = sp.Rational(rng.choice((-5, -3, -1, 1, 3, 5)), 2)  # (2x - 1)(x + 3)
    return from_roots([half, sp.Integer(rng.randint(-6, 6))], sp.Integer(2), v)


def factor_question(rng: random.Random, deck: Deck) -> Problem:
    v = _letter(rng)
    poly = _factorable(rng, v)
    shown = chat_text(poly, superscripts=rng.random() < 0.25)
    steps = (call("transform", expression=shown, how="factor"),)
    text = deck.word("factor", p=shown, v=v.name)
    return Problem("factor", text, _expected("factored", sp.factor(poly), v), steps)


def expand_question(rng: random.Random, deck: Deck) -> Problem:
    v = _letter(rng)
    a, b = rng.sample([n for n in range(-6, 7) if n], 2)
    form = rng.randrange(3)
    if form == 0:  # (x + a)(x - b)^2
        product = (v + a) * (v + b) ** 2
        shown = f"({chat_text(v + a)})({chat_text(v + b)})^2"
    elif form == 1:  # (kx + a)^3
        k = rng.choice((1, 2, 3))
        product = (k * v + a) ** 3
        shown = f"({chat_text(k * v + a)})^3"
    else:  # (x + a)(x^2 + bx + c)
        quadratic = v**2 + b * v + coefficient(rng, -9, 9)
        product = (v + a) * quadratic
        shown = f"({chat_text(v + a)})({chat_text(quadratic)})"
    steps = (call("transform", expression=shown, how="expand"),)
    text = deck.word("expand", p=shown, v=v.name)
    return Problem("expand", text, _expected("expanded", sp.expand(product), v), steps)


def simplify_question(rng: random.Random, deck: Deck) -> Problem:
    """A quotient whose common factor cancels, leaving a polynomial."""
    v = _letter(rng)
    a, b = rng.sample([n for n in range(-7, 8) if n], 2)
    form = rng.randrange(3)
    if form == 0:  # (x^2 - a^2)/(x - a)
        top, bottom = v**2 - a**2, v - a
    elif form == 1:  # (x + a)(x + b)/(x + a), multiplied out
        top, bottom = sp.expand((v + a) * (v + b)), v + a
    else:  # (x^3 - a^2 x)/(x^2 + a x)
        top, bottom = v**3 - a**2 * v, v**2 + a * v
    shown = f"({chat_text(top)})/({chat_text(bottom)})"
    steps = (call("transform", expression=shown, how="simplify"),)
    text = deck.word("simplify", p=shown, v=v.name)
    return Problem("simplify", text, _expected("simplified", sp.cancel(top / bottom), v), steps)


# --- limits ----------------------------------------------------------------------------------


def limit_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "side" (one-sided, where the two sides differ), "infinity", or "point" (0/0)."""
    v = _letter(rng)
    a = coefficient(rng, -5, 5)
    at: str | int = a
    direction = None
    if ask == "side":
        direction = rng.choice(("+", "-"))
        if rng.random() < 0.5:
            f, shown = sp.Abs(v - a) / (v - a), f"|{chat_text(v - a)}|/({chat_text(v - a)})"
        else:
            f = (v**2 - a**2) / sp.Abs(v - a)
            shown = f"({chat_text(v**2 - a**2)})/|{chat_text(v - a)}|"
        key = "limit-right" if direction == "+" else "limit-left"
    elif ask == "infinity":
        at, key, k = "oo", "limit-infinity", coefficient(rng, -6, 6)
        form = rng.randrange(3)
        if form == 0:
            p, r, s = coefficient(rng, -7, 7), rng.randint(1, 7), coefficient(rng, -9, 9)
            f = (p * v**2 + k * v) / (r * v**2 + s)
            shown = f"({chat_text(p * v**2 + k * v)})/({chat_text(r * v**2 + s)})"
        elif form == 1:
            f, shown = (1 + sp.Integer(k) / v) ** v, f"(1 + {k}/{v})^{v}".replace("+ -", "- ")
        else:
            k = abs(k)
            f, shown = sp.sqrt(v**2 + k * v) - v, f"sqrt({chat_text(v**2 + k * v)}) - {v}"
    else:
        key, k = "limit-point", coefficient(rng, -6, 6)
        form = rng.randrange(3)
        if form == 0:
            f = (v**2 - a**2) / (v - a)
            shown = f"({chat_text(v**2 - a**2)})/({chat_text(v - a)})"
        elif form == 1:
            at, f, shown = 0, sp.sin(k * v) / v, f"sin({chat_text(k * v)})/{v}"
        else:
            at, f, shown = 0, (sp.exp(k * v) - 1) / v, f"(e^({chat_text(k * v)}) - 1)/{v}"
    point = sp.oo if at == "oo" else sp.Integer(at)
    value = sp.limit(f, v, point, direction or "+-") if point != sp.oo else sp.limit(f, v, sp.oo)
    steps = (call("limit", expression=shown, at=at, variable=v.name, direction=direction),)
    text = deck.word(key, f=shown, v=v.name, a=at)
    return Problem(key, text, Expected("value", (sp.sstr(value),)), steps)


# --- a tangent line, extremes on an interval ----------------------------------------------------


def tangent_question(rng: random.Random, deck: Deck) -> Problem:
    f = polynomial(rng, X, rng.choice((2, 3)))
    point = rng.randint(-3, 3)
    line = sp.expand(f.subs(X, point) + sp.diff(f, X).subs(X, point) * (X - point))
    shown = chat_text(f, superscripts=rng.random() < 0.25)
    steps = (call("tangent", expression=shown, at=point, variable="x"),)
    text = deck.word("tangent", f=shown, a=point, v="x")
    return Problem("tangent", text, _expected("line", line, X), steps)


def extrema_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "max" or "min" of a cubic with whole-number critical points, on an interval."""
    v = _letter(rng)
    low_point = rng.randint(-4, 2)
    high_point = low_point + 2 * rng.randint(1, 2)  # same parity: whole coefficients
    sign = rng.choice((1, -1))
    f = sign * (v**3 - sp.Rational(3, 2) * (low_point + high_point) * v**2)
    f += sign * 3 * low_point * high_point * v + rng.randint(-9, 9)
    lo, hi = low_point - rng.randint(0, 2), high_point + rng.randint(-1, 2)
    interval = sp.Interval(lo, hi)
    value = sp.maximum(f, v, interval) if ask == "max" else sp.minimum(f, v, interval)
    shown = chat_text(f, superscripts=rng.random() < 0.25)
    steps = (call("extrema", expression=shown, variable=v.name, lower=lo, upper=hi, kind=ask),)
    text = deck.word(f"extrema-{ask}", f=shown, v=v.name, lo=lo, hi=hi)
    return Problem(f"extrema-{ask}", text, Expected("value", (sp.sstr(value),)), steps)


# --- roots on a domain -----------------------------------------------------------------------


def domain_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "positive", "nonnegative" (`t >= 0`) or "interval" (`[lo, hi]`): some roots
    inside, at least one outside."""
    v = sp.Symbol("t") if ask == "nonnegative" and rng.random() < 0.6 else _letter(rng)
    lo, hi = rng.randint(0, 2), rng.randint(4, 7)
    inside = {
        "positive": lambda r: r > 0,
        "nonnegative": lambda r: r >= 0,
        "interval": lambda r: lo <= r <= hi,
    }[ask]
    while True:
        roots = [sp.Integer(r) for r in rng.sample(range(-6, 9), rng.choice((2, 3, 3)))]
        if ask == "positive" and 0 in roots:
            continue
        kept = sorted(r for r in roots if inside(r))
        if kept and len(kept) < len(roots):
            break
    poly = from_roots(roots, sp.Integer(rng.choice((1, 1, -1, 2))), v)
    equation = f"{chat_text(poly, superscripts=rng.random() < 0.25)} = 0"
    domain = {"positive": f"{v} > 0", "nonnegative": f"{v} >= 0", "interval": f"[{lo}, {hi}]"}
    steps = (call("solve", equation=equation, variable=v.name, domain=domain[ask]),)
    text = deck.word(f"domain-{ask}", eq=equation, v=v.name, lo=lo, hi=hi)
    expected = Expected("roots", tuple(sp.sstr(r) for r in kept), v.name)
    return Problem(f"domain-{ask}", text, expected, steps)


# --- systems ---------------------------------------------------------------------------------


def system_question(rng: random.Random, size: int, deck: Deck) -> Problem:
    """2 or 3 linear equations with one whole-number solution."""
    letters = sp.symbols(rng.choice(("x y", "x y", "a b", "p q")) if size == 2 else "x y z")
    while True:
        solution = [rng.randint(-6, 6) for _ in letters]
        rows = [[rng.randint(-4, 4) for _ in letters] for _ in letters]
        if sp.Matrix(rows).det() != 0 and all(sum(1 for c in row if c) >= 2 for row in rows):
            break
    equations = []
    for row in rows:
        left = sum((c * s for c, s in zip(row, letters, strict=True)), sp.Integer(0))
        right = sum(c * value for c, value in zip(row, solution, strict=True))
        equations.append(f"{chat_text(left)} = {right}")
    names = ",".join(s.name for s in letters)
    steps = (call("solve_system", equations=", ".join(equations), variables=names),)
    slots = {f"e{i + 1}": e for i, e in enumerate(equations)}
    key = f"system-{size}"
    text = deck.word(key, **slots)
    return Problem(key, text, Expected("assignments", tuple(map(str, solution)), names), steps)


# --- Taylor polynomials ----------------------------------------------------------------------


def series_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "maclaurin" (around 0) or "taylor" (around another point), up to x^n."""
    v = _letter(rng)
    k = rng.choice((1, 2, 3, -1, -2))
    kv = chat_text(k * v)
    if ask == "maclaurin":
        at = 0
        f, shown = rng.choice(
            (
                (sp.exp(k * v), f"e^({kv})" if k != 1 else f"e^{v}"),
                (sp.sin(k * v), f"sin({kv})"),
                (sp.cos(abs(k) * v), f"cos({chat_text(abs(k) * v)})"),
                (sp.log(1 + v), f"ln(1 + {v})"),
                (1 / (1 - k * v), f"1/(1 - {kv})".replace("- -", "+ ")),
            )
        )
    else:
        at, f, shown = rng.choice(
            (
                (1, sp.log(v), f"ln({v})"),
                (rng.choice((1, 2)), sp.exp(v), f"e^{v}"),
                (rng.choice((1, 2)), 1 / v, f"1/{v}"),
                (rng.choice((1, 4, 9)), sp.sqrt(v), f"sqrt({v})"),
            )
        )
    top = rng.choice((2, 3)) if ask == "taylor" else rng.choice((3, 4))
    polynomial_ = sp.series(f, v, at, top + 1).removeO()
    steps = (call("series", expression=shown, at=at, degree=top, variable=v.name),)
    text = deck.word(f"series-{ask}", f=shown, v=v.name, a=at, n=top)
    return Problem(f"series-{ask}", text, _expected("expression", polynomial_, v), steps)
