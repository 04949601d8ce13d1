"""The single-question generators of the eval set: one turn, one exact answer each.

Why a module of its own: each category (roots, derivatives, function values, integrals,
closed arithmetic) has its own wordings and random draws, and `single_set` turns them into
the "single" set. `agent.eval.generate` assembles the files; the draws here must keep their
order, or the committed `single.json` changes.
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

PER_CATEGORY = 16


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


ROOTS_DATASET = (
    "Solve {eq} for {v}.",
    "Let {eq}. What is {v}?",
    "Find {v} such that {eq}.",
    "Suppose {eq}. What is {v}?",
    "Determine {v} so that {eq}.",
    "Solve {eq0} for {v}.",
)
ROOTS_CHAT = (
    "solve {eq}",
    "what are the roots of {p}",
    "find the zeros of {p}",
    "{eq}, what's {v}?",
    "solve for {v}: {eq}",
    "for which {v} is {eq}?",
)


def roots_question(rng: random.Random, degree: int, wording: str) -> Question:
    v = variable(rng, wording)
    poly = _equation(rng, degree, v, wording)
    lhs, rhs = poly, sp.Integer(0)
    constant = poly.subs(v, 0)
    templates = ROOTS_DATASET if wording == "dataset" else ROOTS_CHAT
    template = rng.choice(templates)
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


DERIVATIVE_DATASET = {
    1: (
        "Differentiate {f} with respect to {v}.",
        "What is the derivative of {f} wrt {v}?",
        "Find the first derivative of {f} wrt {v}.",
        "Differentiate {f} wrt {v}.",
    ),
    2: (
        "Find the second derivative of {f} wrt {v}.",
        "What is the second derivative of {f} wrt {v}?",
        "Differentiate {f} twice with respect to {v}.",
    ),
    3: (
        "What is the third derivative of {f} wrt {v}?",
        "Find the third derivative of {f} wrt {v}.",
        "Differentiate {f} three times with respect to {v}.",
    ),
}
DERIVATIVE_CHAT_ONE = {
    1: ("differentiate {f}", "derivative of {f}", "what's the derivative of {f}?"),
    2: ("second derivative of {f}", "what's the 2nd derivative of {f}", "differentiate {f} twice"),
    3: ("third derivative of {f}", "differentiate {f} three times", "f(x) = {f}, find f'''"),
}
DERIVATIVE_CHAT_SEVERAL = {
    1: ("d/d{v} of {f}", "partial derivative of {f} with respect to {v}"),
    2: ("second derivative of {f} with respect to {v}", "differentiate {f} twice wrt {v}"),
    3: (
        "third derivative of {f} with respect to {v}",
        "what is the 3rd derivative of {f} wrt {v}?",
    ),
}


def derivative_question(rng: random.Random, order: int, wording: str) -> Question:
    several = rng.random() < (0.5 if wording == "dataset" else 0.35)
    if wording == "dataset":
        template = rng.choice(DERIVATIVE_DATASET[order])
    else:
        template = rng.choice((DERIVATIVE_CHAT_SEVERAL if several else DERIVATIVE_CHAT_ONE)[order])
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


VALUE_DATASET = (
    "Let {g}({v}) = {f}. Give {g}({a}).",
    "Let {g}({v}) = {f}. What is {g}({a})?",
    "Let {g}({v}) = {f}. Calculate {g}({a}).",
    "Let {g}({v}) = {f}. Determine {g}({a}).",
    "Suppose {g}({v}) = {f}. What is {g}({a})?",
)
VALUE_CHAT = (
    "if {g}({v}) = {f}, what is {g}({a})?",
    "{g}({v}) = {f}. {g}({a}) = ?",
    "let {g}({v}) = {f}; find {g}({a})",
    "what's {g}({a}) when {g}({v}) = {f}?",
    "evaluate {g}({v}) = {f} at {v} = {a}",
)


def function_value_question(rng: random.Random, wording: str) -> Question:
    v = variable(rng, wording)
    g = rng.choice([c for c in "fghkpqruvw" if c != v.name])
    f = polynomial(rng, v, rng.randint(1, 3))
    point: sp.Expr = sp.Integer(rng.randint(-7, 7))
    if wording == "chat" and rng.random() < 0.2:
        point = sp.Rational(rng.choice((-3, -1, 1, 3)), 2)
    templates, render = (
        (VALUE_DATASET, dataset_text) if wording == "dataset" else (VALUE_CHAT, chat_text)
    )
    text = rng.choice(templates).format(g=g, v=v.name, f=render(f), a=number_text(point))
    return text, Expected("value", (sp.sstr(f.subs(v, point)),))


DEFINITE_DATASET = (
    "Calculate the definite integral of {f} from {a} to {b} with respect to {v}.",
    "What is the integral of {f} wrt {v} from {a} to {b}?",
)
DEFINITE_CHAT = (
    "integrate {f} from {a} to {b}",
    "∫ ({f}) d{v} from {a} to {b}",
    "definite integral of {f} from {v} = {a} to {v} = {b}",
    "what's the integral of {f} d{v} between {a} and {b}?",
    "compute the integral from {a} to {b} of {f} d{v}",
)
INDEFINITE_DATASET = (
    "Find the indefinite integral of {f} with respect to {v}.",
    "What is an antiderivative of {f} wrt {v}?",
)
INDEFINITE_CHAT = (
    "what's the antiderivative of {f}",
    "integrate {f} d{v}",
    "indefinite integral of {f}",
    "find an antiderivative of {f} with respect to {v}",
    "∫ ({f}) d{v}",
)


def _integrand(rng: random.Random, v: sp.Symbol, wording: str) -> sp.Expr:
    f = polynomial(rng, v, rng.randint(1, 3))
    if wording == "chat" and rng.random() < 0.25:
        f = rng.choice((sp.sin, sp.cos, sp.exp))(v) + coefficient(rng, -4, 4) * v
    return f


def integral_question(rng: random.Random, definite: bool, wording: str) -> Question:
    v = variable(rng, wording)
    render = dataset_text if wording == "dataset" else chat_text
    if not definite:
        f = _integrand(rng, v, wording)
        template = rng.choice(INDEFINITE_DATASET if wording == "dataset" else INDEFINITE_CHAT)
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
    template = rng.choice(DEFINITE_DATASET if wording == "dataset" else DEFINITE_CHAT)
    text = template.format(f=render(f), v=v.name, a=number_text(a), b=number_text(b))
    return text, Expected("value", (sp.sstr(sp.integrate(f, (v, a, b))),))


def _paren(value: sp.Expr) -> str:
    """A number as mathematics_dataset writes it inside an expression: `(-6)`, `3`."""
    return f"({value})" if value < 0 else str(value)


def _dataset_arithmetic(rng: random.Random, kind: int) -> tuple[str, sp.Expr]:
    """Closed expressions in mathematics_dataset's `- -3`, `(-6)` style, with their value."""
    a, b, c, d = (sp.Integer(rng.choice((-1, 1)) * rng.randint(2, 12)) for _ in range(4))
    if kind == 0:
        return f"What is {_paren(a)}**2 + {_paren(b)}**2?", a**2 + b**2
    if kind == 1:  # subtracting a negative number is written "- -3", as the dataset does
        return f"Calculate {a} + ({b} - {abs(c)}) - {d}.", a + (b - abs(c)) - d
    if kind == 2:
        return f"Evaluate {a}/{_paren(b)}*{_paren(c)}/{abs(d)}.", a / b * c / abs(d)
    if kind == 3:
        return (
            f"What is the value of ({a}/{_paren(b)})/({c}/{_paren(d)})?",
            (a / b) / (c / d),
        )
    if kind == 4:
        return f"What is {a} - ({b} - {_paren(c)} - {_paren(d)})?", a - (b - c - d)
    return f"Calculate ({a} - {_paren(b)})*{_paren(c)} + {_paren(d)}.", (a - b) * c + d


def _chat_arithmetic(rng: random.Random, kind: int) -> tuple[str, sp.Expr]:
    a, b, c = (rng.randint(2, 12) for _ in range(3))
    if kind == 0:
        p, q, r, s = (rng.randint(lo, 9) for lo in (1, 2, 1, 2))
        return f"compute ({p}/{q}) * ({r}/{s})", sp.Rational(p, q) * sp.Rational(r, s)
    if kind == 1:
        n = rng.randint(2, 4)
        return f"what's {a}^{n} - {b}*{c}", sp.Integer(a) ** n - b * c
    if kind == 2:
        return f"how much is {a} × {b} - {c}?", sp.Integer(a * b - c)
    if kind == 3:
        return f"(-{a % 5 + 1})^3 + {b} = ?", sp.Integer(-((a % 5 + 1) ** 3) + b)
    if kind == 4:
        return f"what is sqrt({a * a}) + {b}^2?", sp.Integer(a + b * b)
    return f"calculate {a} - {b} * ({c} - {a + 3})", sp.Integer(a - b * (c - a - 3))


def closed_question(rng: random.Random, wording: str, i: int) -> Question:
    """Every form in turn (`i` is the case's place in its category), not six random draws."""
    make = _dataset_arithmetic if wording == "dataset" else _chat_arithmetic
    text, value = make(rng, (i // 2) % 6)
    return text, Expected("value", (sp.sstr(value),))


Builder = Callable[[random.Random, str, int], Question]


def _single_builders() -> list[tuple[str, Builder, float]]:
    """(category, builder taking (rng, wording, index in category), share of dataset wording)."""
    return [
        *(
            (f"roots-{d}", lambda rng, w, i, d=d: roots_question(rng, d, w), 0.5)
            for d in (1, 2, 3, 4)
        ),
        *(
            (f"derivative-{n}", lambda rng, w, i, n=n: derivative_question(rng, n, w), 0.5)
            for n in (1, 2, 3)
        ),
        ("function-value", lambda rng, w, i: function_value_question(rng, w), 0.5),
        ("integral-definite", lambda rng, w, i: integral_question(rng, True, w), 0.25),
        ("integral-indefinite", lambda rng, w, i: integral_question(rng, False, w), 0.25),
        ("closed", closed_question, 0.5),
    ]


def single_set(seed: int) -> list[EvalCase]:
    rng = random.Random(f"{seed}:single")
    cases: list[EvalCase] = []
    for category, build, dataset_share in _single_builders():
        every = round(1 / dataset_share)
        for i in range(PER_CATEGORY):
            wording = "dataset" if i % every == 0 else "chat"
            text, expected = build(rng, wording, i)
            cases.append(
                EvalCase(
                    name=f"single-{len(cases):03d}",
                    category=category,
                    wording=wording,
                    turns=(EvalTurn(text, expected),),
                )
            )
    return cases
