"""Word problems of the `problems` set: a situation in words, a number in the person's unit.

Why a module of its own: each situation (a thrown ball, a fence, a moving car, a business,
tickets) has its own draws, chosen so that the numbers look like a textbook's, and its own
answer computed here with SymPy. The answer is always the bare number in the unit the
question states (seconds, metres, square metres, dollars, units): the judge's `quantity` kind
does not ask for the unit. The draws must keep their order, or the committed files change.
"""

from __future__ import annotations

import random

import sympy as sp

from agent.eval.cases import Expected
from agent.eval.generate_common import chat_text
from agent.eval.problem import Problem, call
from agent.eval.wordings import Deck

T, Q, X = sp.symbols("t q x")


def _shown(rng: random.Random, expr: sp.Expr) -> str:
    return chat_text(expr, superscripts=rng.random() < 0.25)


def _quantity(*values: sp.Expr, variable: str | None = None) -> Expected:
    return Expected("quantity", tuple(sp.sstr(v) for v in values), variable)


# --- a thrown ball: h(t) = -a t^2 + b t + c metres ---------------------------------------------


def _throw(rng: random.Random, exact: bool) -> tuple[int, int, int]:
    """(a, b, c) of h(t) = -a t^2 + b t + c, c > 0; `exact`: whole-second roots."""
    a = rng.choice((5, 5, 5, 4))
    if not exact:
        return a, rng.randint(8, 30), rng.randint(5, 60)
    while True:
        before, after = rng.randint(-3, -1), rng.randint(2, 8)  # h(t) = -a(t - before)(t - after)
        if before + after >= 1:
            return a, a * (before + after), -a * before * after


def projectile_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "landing" (the root t >= 0), "peak" (the maximum), "reach" (first time at H)."""
    a, b, c = _throw(rng, exact=ask == "reach" or rng.random() < 0.7)
    if ask == "reach":
        while b <= 2 * a:  # the top must come after t = 1
            a, b, c = _throw(rng, exact=True)
    h = -a * T**2 + b * T + c
    f = _shown(rng, h)
    slots = {"f": f, "a": a, "b": b, "c": c}
    key = f"projectile-{ask}"
    if ask == "landing":
        landing = max(r for r in sp.solve(h, T) if r.is_real)
        text = deck.word(key, **slots)
        steps = (call("solve", equation=f"{f} = 0", variable="t", domain="t >= 0"),)
        return Problem(key, text, _quantity(landing, variable="t"), steps, "largest")
    if ask == "peak":
        top = h.subs(T, sp.Rational(b, 2 * a))
        text = deck.word(key, **slots)
        steps = (call("extrema", expression=f, variable="t", kind="max"),)
        return Problem(key, text, _quantity(top, variable="t"), steps)
    first = rng.randint(1, max(1, (b - 1) // (2 * a)))  # before the top, b / 2a
    height = h.subs(T, first)
    text = deck.word(key, H=height, **slots)
    steps = (call("solve", equation=f"{f} = {height}", variable="t", domain="t >= 0"),)
    return Problem(key, text, _quantity(first, variable="t"), steps, "smallest")


# --- areas and perimeters --------------------------------------------------------------------


def area_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "max" (a rectangle of fixed perimeter), "side" (a side from the area), "circle"."""
    key = f"area-{ask}"
    if ask == "max":
        perimeter = 4 * rng.randint(5, 50)
        area = X * (sp.Rational(perimeter, 2) - X)
        best = area.subs(X, sp.Rational(perimeter, 4))
        steps = (
            call(
                "extrema",
                expression=f"x*({perimeter}/2 - x)",
                variable="x",
                lower=0,
                upper=perimeter // 2,
                kind="max",
            ),
        )
        return Problem(key, deck.word(key, P=perimeter), _quantity(best), steps)
    if ask == "side":
        width, more = rng.randint(3, 15), rng.randint(2, 10)
        area = width * (width + more)
        w = sp.Symbol("w")
        (positive,) = [r for r in sp.solve(w * (w + more) - area, w) if r > 0]
        steps = (call("solve", equation=f"w*(w + {more}) = {area}", variable="w", domain="w > 0"),)
        text = deck.word(key, A=area, d=more)
        return Problem(key, text, _quantity(positive), steps)
    radius = rng.randint(2, 12)
    r = sp.Symbol("r")
    exact = (sp.pi * r**2).subs(r, radius)
    steps = (call("evaluate", expression="pi*r^2", at=radius, variable="r"),)
    return Problem(key, deck.word(key, r=radius), _quantity(exact), steps)


# --- rates: a derivative at a point ------------------------------------------------------------


def rate_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "position" (s(t) metres, the speed at t = k) or "cost" (C(q), the marginal cost)."""
    key = f"rate-{ask}"
    if ask == "position":
        v, point = T, rng.randint(2, 6)
        f: sp.Expr = rng.randint(1, 3) * T**3 * rng.choice((0, 1)) + rng.randint(1, 9) * T**2
        f += rng.randint(0, 12) * T + rng.randint(0, 20)
    else:
        v, point = Q, rng.randint(5, 40)
        f = rng.randint(100, 900) + rng.randint(2, 30) * Q + rng.choice((1, 2, 3)) * Q**2
    shown = _shown(rng, f)
    rate = sp.diff(f, v).subs(v, point)
    steps = (
        call("derivative", expression=shown, variable=v.name),
        call("evaluate", expression="{previous}", at=point, variable=v.name),
    )
    text = deck.word(key, f=shown, k=point)
    return Problem(key, text, _quantity(rate, variable=v.name), steps)


# --- costs: break-even, the cheapest average, the largest profit --------------------------------


def cost_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "break-even" (revenue = cost), "average" (least average cost on an interval),
    "profit" (largest profit on [0, hi], at the top or at the end of the interval)."""
    key = f"cost-{ask}"
    if ask == "break-even":
        price = rng.randint(15, 60)
        unit = rng.randint(3, price - 5)
        units = rng.randint(4, 100) * 5
        fixed = units * (price - unit)
        (even,) = sp.solve(sp.Eq(price * Q, fixed + unit * Q), Q)
        steps = (call("solve", equation=f"{price}q = {fixed} + {unit}q", variable="q"),)
        text = deck.word(key, p=price, u=unit, F=fixed)
        return Problem(key, text, _quantity(even, variable="q"), steps)
    if ask == "average":
        best, steep = rng.randint(5, 30), rng.randint(1, 5)
        cost = steep * best**2 + rng.randint(2, 20) * Q + steep * Q**2
        high = best * rng.choice((2, 3)) + rng.randint(0, 9)
        lowest = sp.minimum(cost / Q, Q, sp.Interval(1, high))
        shown = _shown(rng, cost)
        steps = (
            call(
                "extrema",
                expression=f"({shown})/q",
                variable="q",
                lower=1,
                upper=high,
                kind="min",
            ),
        )
        text = deck.word(key, f=shown, hi=high)
        return Problem(key, text, _quantity(lowest, variable="q"), steps)
    top, steep = rng.randint(10, 60), rng.choice((1, 2, 3))
    profit = -steep * Q**2 + 2 * steep * top * Q - rng.randint(50, 500)
    high = top + rng.randint(5, 20) if rng.random() < 0.5 else top - rng.randint(3, top // 2)
    largest = sp.maximum(profit, Q, sp.Interval(0, high))
    shown = _shown(rng, profit)
    steps = (call("extrema", expression=shown, variable="q", lower=0, upper=high, kind="max"),)
    text = deck.word(key, f=shown, hi=high)
    return Problem(key, text, _quantity(largest, variable="q"), steps)


# --- two unknowns in words ---------------------------------------------------------------------


def linear_words_question(rng: random.Random, ask: str, deck: Deck) -> Problem:
    """`ask`: "tickets" (two prices from two days' sales) or "numbers" (a sum, a difference).
    Both values are asked for; the answer gives them in the question's order."""
    key = f"system-{ask}"
    if ask == "numbers":
        larger = rng.randint(12, 90)
        smaller = rng.randint(1, larger - 2)
        total, gap = larger + smaller, larger - smaller
        x, y = sp.symbols("x y")
        solved = sp.solve([x + y - total, x - y - gap], [x, y])
        steps = (
            call("solve_system", equations=f"x + y = {total}, x - y = {gap}", variables="x, y"),
        )
        text = deck.word(key, s=total, d=gap)
        return Problem(key, text, _quantity(solved[x], solved[y]), steps)
    adult = rng.randint(8, 25)
    child = rng.randint(3, adult - 2)
    while True:
        a1, c1, a2, c2 = (rng.randint(5, 60) for _ in range(4))
        if a1 * c2 != a2 * c1:
            break
    r1, r2 = a1 * adult + c1 * child, a2 * adult + c2 * child
    a, c = sp.symbols("a c")
    solved = sp.solve([a1 * a + c1 * c - r1, a2 * a + c2 * c - r2], [a, c])
    equations = f"{a1}a + {c1}c = {r1}, {a2}a + {c2}c = {r2}"
    steps = (call("solve_system", equations=equations, variables="a, c"),)
    text = deck.word(key, a1=a1, c1=c1, r1=r1, a2=a2, c2=c2, r2=r2)
    return Problem(key, text, _quantity(solved[a], solved[c]), steps)
