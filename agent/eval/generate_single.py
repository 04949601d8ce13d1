"""The single-question generators of the eval set: one turn, one exact answer each.

Why a module of its own: each category (roots, derivatives, function values, integrals,
closed arithmetic, function notation) has its own random draws, worded from one part's family
(`agent.eval.wordings`); `single_set(seed, part)` makes that part. The draws here must keep
their order, or the committed `single-*.json` change.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import sympy as sp

from agent.eval.cases import EvalCase, EvalTurn, Expected
from agent.eval.generate_common import (
    LETTERS,
    Question,
    chat_text,
    coefficient,
    dataset_text,
    derive,
    from_roots,
    number_text,
    polynomial,
    real_roots,
    variable,
)
from agent.eval.wordings import Family, family

# Cases per category in one part: about 40 questions, playable by a small model in minutes.
PER_CATEGORY = {
    "roots-1": 3,
    "roots-2": 3,
    "roots-3": 3,
    "roots-4": 3,
    "derivative-1": 3,
    "derivative-2": 3,
    "derivative-3": 3,
    "function-value": 3,
    "integral-definite": 3,
    "integral-indefinite": 3,
    "closed": 4,
    "chained-equality": 3,
    "function-notation": 4,
}


def _equation(rng: random.Random, degree: int, v: sp.Symbol, wording: str) -> sp.Expr:
    """The polynomial side of an equation with exact real roots (irrational only for degree 2)."""
    if degree == 1:
        root = sp.Rational(coefficient(rng), rng.choice((1, 1, 1, 2, 3)))
        slope = coefficient(rng, -6, 6) * root.q
        return sp.expand(slope * (v - root))
    if degree == 2 and rng.random() < 0.2:
        while True:  # v^2 + p*v + q with a positive discriminant that is not a square
            p, q = rng.randint(-6, 6), coefficient(rng, -8, 8)
            disc = p * p - 4 * q
            if disc > 0 and sp.sqrt(disc).is_Integer is False:
                return v**2 + p * v + q
    span = {2: 7, 3: 5, 4: 4}[degree]
    roots: list[sp.Expr] = [sp.Integer(n) for n in rng.sample(range(-span, span + 1), degree)]
    lead: sp.Expr = sp.Integer(rng.choice((1, 1, -1, 2, -2, 3) if degree < 4 else (1, 1, -1)))
    if degree <= 3 and rng.random() < 0.2:  # one root a half: 2x - 1 as a factor
        roots[0] = sp.Rational(rng.choice((-5, -3, -1, 1, 3, 5)), 2)
        lead *= 2
    if wording == "dataset" and degree == 2 and rng.random() < 0.25:
        lead = sp.Rational(rng.choice((-1, 1)), 2)
    return from_roots(roots, lead, v)


def roots_question(rng: random.Random, degree: int, wording: str, words: Family) -> Question:
    v = variable(rng, wording)
    poly = _equation(rng, degree, v, wording)
    lhs, rhs = poly, sp.Integer(0)
    constant = poly.subs(v, 0)
    template = rng.choice(words[f"roots/{wording}"])
    if "{p}" not in template and degree == 1 and rng.random() < 0.5:
        shift = coefficient(rng, -12, 12)  # "-4*w - 3 = 5"
        lhs, rhs = poly + shift, sp.Integer(shift)
    elif "{p}" not in template and degree > 1 and constant != 0 and rng.random() < 0.3:
        lhs, rhs = poly - constant, -constant  # "x^2 + 5x = -6"
    if wording == "dataset":
        eq, eq0 = f"{dataset_text(lhs)} = {dataset_text(rhs)}", f"0 = {dataset_text(poly)}"
        p = dataset_text(poly)
    else:
        sup = degree >= 2 and rng.random() < 0.25
        eq, p = f"{chat_text(lhs, sup)} = {chat_text(rhs)}", chat_text(poly, sup)
        eq0 = eq
    roots = real_roots(lhs, rhs, v)
    text = template.format(eq=eq, eq0=eq0, p=p, v=v.name)
    return text, Expected("roots", tuple(sp.sstr(r) for r in roots), v.name)


def _several_variables(rng: random.Random, v: sp.Symbol, order: int) -> sp.Expr:
    """2 to 4 products of 2 or 3 letters (mathematics_dataset's multivariate derivatives)."""
    others = [sp.Symbol(c) for c in rng.sample([c for c in LETTERS if c != v.name], 2)]
    while True:
        expr = sp.Integer(0)
        for _ in range(rng.randint(2, 4)):
            term: sp.Expr = sp.Integer(coefficient(rng))
            term *= v ** rng.randint(0, order + 2)
            for other in others[: rng.randint(1, 2)]:
                term *= other ** rng.randint(0, 2)
            expr += term
        result = sp.diff(expr, v, order)
        if result != 0 and len(expr.free_symbols) >= 2 and len(expr.as_ordered_terms()) >= 2:
            return expr


def derivative_question(rng: random.Random, order: int, wording: str, words: Family) -> Question:
    several = rng.random() < (0.5 if wording == "dataset" else 0.35)
    key = f"derivative-{order}{'-several' if several and wording == 'chat' else ''}/{wording}"
    template = rng.choice(words[key])
    # "f(x) = ..., find f'''" names the variable in the question: it is x there.
    v = sp.Symbol("x") if "f(x)" in template else variable(rng, wording)
    if several:
        f = _several_variables(rng, v, order)
    else:
        f = polynomial(rng, v, rng.randint(max(order, 2), 5), fractions=wording == "dataset")
        if wording == "chat" and order < 3 and rng.random() < 0.3:
            f += coefficient(rng, -4, 4) * rng.choice((sp.sin, sp.cos, sp.exp))(v)
    if wording == "dataset":
        shown = dataset_text(f)
    else:
        shown = chat_text(f, superscripts=rng.random() < 0.15)
    result = derive(f, v, order)
    return template.format(f=shown, v=v.name), Expected("expression", (sp.sstr(result),), v.name)


def _render(wording: str) -> Callable[[sp.Expr], str]:
    return dataset_text if wording == "dataset" else chat_text


def _function_name(rng: random.Random, v: sp.Symbol) -> str:
    return rng.choice([c for c in "fghkpqruvw" if c != v.name])


def function_value_question(rng: random.Random, wording: str, words: Family) -> Question:
    v = variable(rng, wording)
    g = _function_name(rng, v)
    f = polynomial(rng, v, rng.randint(1, 3))
    point: sp.Expr = sp.Integer(rng.randint(-7, 7))
    if wording == "chat" and rng.random() < 0.2:
        point = sp.Rational(rng.choice((-3, -1, 1, 3)), 2)
    template = rng.choice(words[f"function-value/{wording}"])
    text = template.format(g=g, v=v.name, f=_render(wording)(f), a=number_text(point))
    return text, Expected("value", (sp.sstr(f.subs(v, point)),))


def _integrand(rng: random.Random, v: sp.Symbol, wording: str) -> sp.Expr:
    f = polynomial(rng, v, rng.randint(1, 3))
    if wording == "chat" and rng.random() < 0.25:
        f = rng.choice((sp.sin, sp.cos, sp.exp))(v) + coefficient(rng, -4, 4) * v
    return f


def integral_question(rng: random.Random, definite: bool, wording: str, words: Family) -> Question:
    v = variable(rng, wording)
    render = _render(wording)
    if not definite:
        f = _integrand(rng, v, wording)
        template = rng.choice(words[f"indefinite/{wording}"])
        return template.format(f=render(f), v=v.name), Expected(
            "antiderivative", (sp.sstr(f),), v.name
        )
    special = wording == "chat" and rng.random() < 0.25
    if special:
        f, a, b = rng.choice(
            ((sp.cos(v), 0, sp.pi / 2), (sp.sin(v), 0, sp.pi), (sp.exp(v), 0, 1), (2 * v, 0, 3))
        )
        a, b = sp.sympify(a), sp.sympify(b)
    else:
        f = polynomial(rng, v, rng.randint(1, 3))
        low, high = sorted(rng.sample(range(-3, 4), 2))
        a, b = sp.Integer(low), sp.Integer(high)
    template = rng.choice(words[f"definite/{wording}"])
    text = template.format(f=render(f), v=v.name, a=number_text(a), b=number_text(b))
    return text, Expected("value", (sp.sstr(sp.integrate(f, (v, a, b))),))


def _paren(value: sp.Expr) -> str:
    """A number as mathematics_dataset writes it inside an expression: `(-6)`, `3`."""
    return f"({value})" if value < 0 else str(value)


def _dataset_arithmetic(rng: random.Random, kind: int) -> tuple[str, sp.Expr]:
    """Closed expressions in mathematics_dataset's `- -3`, `(-6)` style, with their value."""
    a, b, c, d = (sp.Integer(rng.choice((-1, 1)) * rng.randint(2, 12)) for _ in range(4))
    if kind == 0:
        return f"{_paren(a)}**2 + {_paren(b)}**2", a**2 + b**2
    if kind == 1:  # subtracting a negative number is written "- -3", as the dataset does
        return f"{a} + ({b} - {abs(c)}) - {d}", a + (b - abs(c)) - d
    if kind == 2:
        return f"{a}/{_paren(b)}*{_paren(c)}/{abs(d)}", a / b * c / abs(d)
    if kind == 3:
        return f"({a}/{_paren(b)})/({c}/{_paren(d)})", (a / b) / (c / d)
    if kind == 4:
        return f"{a} - ({b} - {_paren(c)} - {_paren(d)})", a - (b - c - d)
    return f"({a} - {_paren(b)})*{_paren(c)} + {_paren(d)}", (a - b) * c + d


def _chat_arithmetic(rng: random.Random, kind: int) -> tuple[str, sp.Expr]:
    a, b, c = (rng.randint(2, 12) for _ in range(3))
    if kind == 0:
        p, q, r, s = (rng.randint(lo, 9) for lo in (1, 2, 1, 2))
        return f"({p}/{q}) * ({r}/{s})", sp.Rational(p, q) * sp.Rational(r, s)
    if kind == 1:
        n = rng.randint(2, 4)
        return f"{a}^{n} - {b}*{c}", sp.Integer(a) ** n - b * c
    if kind == 2:
        return f"{a} × {b} - {c}", sp.Integer(a * b - c)
    if kind == 3:
        return f"(-{a % 5 + 1})^3 + {b}", sp.Integer(-((a % 5 + 1) ** 3) + b)
    if kind == 4:
        return f"sqrt({a * a}) + {b}^2", sp.Integer(a + b * b)
    return f"{a} - {b} * ({c} - {a + 3})", sp.Integer(a - b * (c - a - 3))


def arithmetic(rng: random.Random, wording: str, kind: int) -> tuple[str, sp.Expr]:
    """A closed expression of form `kind` (0-5) in the wording's notation, and its value."""
    return (_dataset_arithmetic if wording == "dataset" else _chat_arithmetic)(rng, kind % 6)


def closed_question(rng: random.Random, wording: str, i: int, words: Family) -> Question:
    """The forms in turn (`i` is the case's place in its category), not random draws."""
    shown, value = arithmetic(rng, wording, i + rng.randrange(6))
    text = rng.choice(words[f"closed/{wording}"]).format(e=shown)
    return text, Expected("value", (sp.sstr(value),))


def chained_question(rng: random.Random, wording: str, words: Family) -> Question:
    """`h(t) = -5t^2 + 20t + 15 = 0, solve for t`: function notation and an equation at once."""
    v = variable(rng, wording)
    poly = _equation(rng, rng.choice((2, 2, 3)), v, wording)
    template = rng.choice(words[f"chained/{wording}"])
    text = template.format(g=_function_name(rng, v), v=v.name, p=_render(wording)(poly))
    roots = real_roots(poly, sp.Integer(0), v)
    return text, Expected("roots", tuple(sp.sstr(r) for r in roots), v.name)


def notation_question(rng: random.Random, wording: str, i: int, words: Family) -> Question:
    """A function defined by name, then asked about by that name: zeros, g', an integral."""
    v = variable(rng, wording)
    g = _function_name(rng, v)
    ask = ("zeros", "derivative", "integral")[i % 3]
    poly = (
        _equation(rng, rng.choice((2, 3)), v, wording)
        if ask == "zeros"
        else polynomial(rng, v, rng.randint(2, 4))
    )
    low, high = sorted(rng.sample(range(-3, 4), 2))
    template = rng.choice(words[f"notation-{ask}/{wording}"])
    text = template.format(g=g, v=v.name, p=_render(wording)(poly), a=low, b=high)
    if ask == "zeros":
        roots = real_roots(poly, sp.Integer(0), v)
        return text, Expected("roots", tuple(sp.sstr(r) for r in roots), v.name)
    if ask == "derivative":
        return text, Expected("expression", (sp.sstr(derive(poly, v)),), v.name)
    return text, Expected("value", (sp.sstr(sp.integrate(poly, (v, low, high))),))


# A builder takes (rng, wording, index in category, family).
Builder = Callable[[random.Random, str, int, Family], Question]


def _single_builders() -> list[tuple[str, Builder]]:
    return [
        *(
            (f"roots-{d}", lambda rng, w, i, f, d=d: roots_question(rng, d, w, f))
            for d in (1, 2, 3, 4)
        ),
        *(
            (f"derivative-{n}", lambda rng, w, i, f, n=n: derivative_question(rng, n, w, f))
            for n in (1, 2, 3)
        ),
        ("function-value", lambda rng, w, i, f: function_value_question(rng, w, f)),
        ("integral-definite", lambda rng, w, i, f: integral_question(rng, True, w, f)),
        ("integral-indefinite", lambda rng, w, i, f: integral_question(rng, False, w, f)),
        ("closed", closed_question),
        ("chained-equality", lambda rng, w, i, f: chained_question(rng, w, f)),
        ("function-notation", notation_question),
    ]


def single_set(seed: int, part: str) -> list[EvalCase]:
    """One part of `single` for one seed: every category, the two wordings alternating."""
    rng = random.Random(f"{seed}:single:{part}")
    words = family("single", part)
    cases: list[EvalCase] = []
    for category, build in _single_builders():
        start = rng.randrange(2)  # which wording the category starts with
        for i in range(PER_CATEGORY[category]):
            wording = ("dataset", "chat")[(start + i) % 2]
            text, expected = build(rng, wording, i, words)
            cases.append(
                EvalCase(
                    name=f"single-{part}-{seed}-{len(cases):03d}",
                    category=category,
                    wording=wording,
                    turns=(EvalTurn(text, expected),),
                )
            )
    return cases
