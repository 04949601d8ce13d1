"""Seeded generator of tool cases whose answers are checked without trusting the tools' parser.

Each generated expression is a small tree that renders itself as text in one of three
notations (SymPy's ``3*x**2``, caret ``3*x^2``, and chat ``3x² − sin x``) and evaluates itself
with mpmath. The tools read the text; the checks use the mpmath evaluation, so a parsing
mistake shows up as a numerical mismatch.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import mpmath

from tests.tools.case_building import (
    MP,
    Case,
    Fn,
    Node,
    Num,
    Prod,
    Pw,
    Quot,
    Sum,
    Var,
    _points,
    _style,
    _var,
    decorate,
    monomial,
    poly_eval,
    poly_mul,
    poly_node,
    smooth_expression,
)

# ---------------------------------------------------------------------------------------------
# Cases


def _poly_case(rng: random.Random, index: int, kind: str) -> Case:
    v, style = _var(rng), _style(rng)
    factors: list[list[Fraction]] = []
    roots: list[Any] = []
    double = False
    if kind == "int_quadratic":
        r1, r2 = rng.sample(range(-9, 10), 2)
        roots = [r1, r2]
        factors = [[Fraction(-r1), Fraction(1)], [Fraction(-r2), Fraction(1)]]
        lead = Fraction(rng.choice([1, 1, 2, 3, -1]))
    elif kind == "random_quadratic":
        a = rng.choice([1, 2, 3, 5, -1, -2])
        b, c = rng.randint(-12, 12), rng.randint(-12, 12)
        factors = [[Fraction(c), Fraction(b), Fraction(a)]]
        lead = Fraction(1)
    elif kind == "double":
        r = rng.randint(-6, 6)
        factors = [[Fraction(-r), Fraction(1)], [Fraction(-r), Fraction(1)]]
        if rng.random() < 0.5:
            s = r + rng.choice([-3, -2, 2, 3])
            factors.append([Fraction(-s), Fraction(1)])
        lead = Fraction(rng.choice([1, 2]))
        double = True
    elif kind == "rational_roots":
        p, q = rng.choice([1, 2, 3, 5]), rng.choice([2, 3, 4])
        s = rng.randint(-5, 5)
        factors = [[Fraction(-p), Fraction(q)], [Fraction(-s), Fraction(1)]]
        lead = Fraction(1)
    elif kind == "cubic":
        rs = rng.sample(range(-5, 6), 3)
        factors = [[Fraction(-r), Fraction(1)] for r in rs]
        if rng.random() < 0.5:
            factors[-1] = [Fraction(rng.randint(1, 5)), Fraction(0), Fraction(1)]  # x^2 + c
        lead = Fraction(1)
    elif kind == "quartic":
        rs = rng.sample(range(-4, 5), 2)
        factors = [[Fraction(-r), Fraction(1)] for r in rs]
        factors.append([Fraction(rng.randint(-5, 5)), Fraction(rng.randint(-3, 3)), Fraction(1)])
        lead = Fraction(1)
    elif kind == "irreducible_cubic":
        factors = [
            [
                Fraction(rng.choice([-1, 1, 3])),
                Fraction(rng.choice([-3, -2, 2])),
                Fraction(0),
                Fraction(1),
            ]
        ]
        lead = Fraction(1)
    else:  # linear
        a, b = rng.choice([2, 3, -4, 5]), rng.randint(-9, 9)
        factors = [[Fraction(b), Fraction(a)]]
        lead = Fraction(1)
    coeffs = [lead]
    for factor in factors:
        coeffs = poly_mul(coeffs, factor)
    roots = [
        complex(r)
        for r in mpmath.polyroots(
            [mpmath.mpf(c.numerator) / c.denominator for c in reversed(coeffs)],
            maxsteps=400,
            extraprec=200,
        )
    ]
    lead_zero = kind == "linear" and rng.random() < 0.6
    # Sometimes move part of the polynomial to the right-hand side: p(x) = q(x).
    move = rng.random() < 0.4 and len([c for c in coeffs if c]) > 1
    if move:
        k = max(i for i, c in enumerate(coeffs) if c)
        left = [c if i == k else Fraction(0) for i, c in enumerate(coeffs)]
        right = [Fraction(0) if i == k else -c for i, c in enumerate(coeffs)]
        lhs, rhs = poly_node(left, v, rng, lead_zero), poly_node(right, v, rng)
        text = f"{lhs.render(style, rng)} = {rhs.render(style, rng)}"
    else:
        node = poly_node(coeffs, v, rng, lead_zero)
        text = decorate(node.render(style, rng), style, rng, v.name, prefix=False)
        if rng.random() < 0.5:
            text += " = 0"
    given = v.name if rng.random() < 0.4 else None
    return Case(
        id=f"solve-{kind}-{index}",
        tool="solve",
        args=(text, given),
        var=v.name,
        check="roots",
        f=lambda t, cs=coeffs: poly_eval(cs, t),
        expected_roots=roots,
        text_has="double root" if double else None,
    )


def solve_cases(rng: random.Random) -> list[Case]:
    plan = [
        ("int_quadratic", 30),
        ("random_quadratic", 25),
        ("double", 10),
        ("rational_roots", 10),
        ("cubic", 12),
        ("quartic", 8),
        ("irreducible_cubic", 5),
        ("linear", 10),
    ]
    cases: list[Case] = []
    for kind, count in plan:
        cases.extend(_poly_case(rng, i, kind) for i in range(count))
    cases.extend(_rational_equations(rng, 10))
    cases.extend(_transcendental(rng))
    cases.extend(_identities())
    return cases


def _rational_equations(rng: random.Random, count: int) -> list[Case]:
    out = []
    for i in range(count):
        v, style = _var(rng), _style(rng)
        a, b = rng.randint(-5, 5), rng.randint(-5, 5)
        while a == b:
            b = rng.randint(-5, 5)
        c = rng.choice([2, 3, -1, -2, 5])
        num = Sum([(1, v), (1 if a >= 0 else -1, Num(Fraction(abs(a))))]) if a else v
        den = Sum([(1, v), (1 if b >= 0 else -1, Num(Fraction(abs(b))))]) if b else v
        text = f"{Quot(num, den).render(style, rng)} = {c}"
        root = Fraction(c * b - a, 1 - c)
        out.append(
            Case(
                id=f"solve-rational-{i}",
                tool="solve",
                args=(text, None),
                var=v.name,
                check="roots",
                f=lambda t, a=a, b=b, c=c: (t + a) / (t + b) - c,
                expected_roots=[complex(float(root))],
            )
        )
    return out


def _transcendental(rng: random.Random) -> list[Case]:
    e = mpmath.e
    specs: list[tuple[str, MP, list[Any], str]] = [
        ("e^(2x) = 5", lambda t: mpmath.exp(2 * t) - 5, [complex(mpmath.log(5) / 2)], "roots"),
        ("exp(x) = 3", lambda t: mpmath.exp(t) - 3, [complex(mpmath.log(3))], "roots"),
        ("ln(x) = 2", lambda t: mpmath.log(t) - 2, [complex(e**2)], "roots"),
        ("log(x) = -1", lambda t: mpmath.log(t) + 1, [complex(1 / e)], "roots"),
        ("2^x = 32", lambda t: 2**t - 32, [5], "roots"),
        ("3^(x+1) = 27", lambda t: 3 ** (t + 1) - 27, [2], "roots"),
        ("|x − 3| = 2", lambda t: abs(t - 3) - 2, [1, 5], "roots"),
        ("abs(2x+1) = 5", lambda t: abs(2 * t + 1) - 5, [-3, 2], "roots"),
        ("√(x + 4) = 3", lambda t: mpmath.sqrt(t + 4) - 3, [5], "roots"),
        ("sqrt(2*x - 1) = x - 2", lambda t: mpmath.sqrt(2 * t - 1) - (t - 2), [5], "roots"),
        ("x e^x = 1", lambda t: t * mpmath.exp(t) - 1, [complex(mpmath.lambertw(1))], "roots"),
        ("sin(x) = 0", lambda t: mpmath.sin(t), [], "general"),
        ("cos x = 1/2", lambda t: mpmath.cos(t) - 0.5, [], "general"),
        ("tan(x) = 1", lambda t: mpmath.tan(t) - 1, [], "general"),
        ("sin(2x) = 1", lambda t: mpmath.sin(2 * t) - 1, [], "general"),
        ("2sin(t) − 1 = 0", lambda t: 2 * mpmath.sin(t) - 1, [], "general"),
        (
            "cos(x) = x",
            lambda t: mpmath.cos(t) - t,
            [complex(mpmath.findroot(lambda s: mpmath.cos(s) - s, 0.7))],
            "roots",
        ),
        (
            "1/x + 1/(x+2) = 1",
            lambda t: 1 / t + 1 / (t + 2) - 1,
            [complex(mpmath.sqrt(2)), complex(-mpmath.sqrt(2))],
            "roots",
        ),
        ("x^2/(x-1) = 4", lambda t: t**2 / (t - 1) - 4, [2], "roots"),
        ("(x^2 - 4)/(x - 2) = 0", lambda t: (t**2 - 4) / (t - 2), [-2], "roots"),
    ]
    out = []
    for i, (text, f, roots, check) in enumerate(specs):
        var = "t" if "t)" in text else "x"
        out.append(
            Case(
                id=f"solve-special-{i}",
                tool="solve",
                args=(text, None),
                var=var,
                check=check,
                f=f,
                expected_roots=[complex(r) for r in roots],
            )
        )
    return out


def _identities() -> list[Case]:
    specs = [
        ("x = x", "identity"),
        ("2(x+1) = 2x + 2", "identity"),
        ("(x+1)² = x² + 2x + 1", "identity"),
        ("0 = 0", "identity"),
        ("x + 1 = x + 2", "nosolution"),
        ("1 = 2", "nosolution"),
        ("3t − t = 2t + 1", "nosolution"),
    ]
    return [
        Case(id=f"solve-identity-{i}", tool="solve", args=(text, None), var="x", check=check)
        for i, (text, check) in enumerate(specs)
    ]


def derivative_cases(rng: random.Random, count: int = 80) -> list[Case]:
    out = []
    for i in range(count):
        v, style = _var(rng), _style(rng)
        node, positive = smooth_expression(rng, v)
        order = rng.choice([1, 1, 1, 2, 2, 3])
        text = decorate(node.render(style, rng), style, rng, v.name, prefix=i % 5 != 0)
        given: str | None = v.name if rng.random() < 0.5 else None
        extra: dict[str, Any] = {}
        if i % 5 == 0:
            # Multivariate: multiply by another variable; the tool must be told which one.
            other = "q" if v.name != "q" else "p"
            text = f"{other}*({text})" if style != "human" else f"{other}({text})"
            given = v.name
            extra["other"] = other
        out.append(
            Case(
                id=f"derivative-{style}-{i}",
                tool="derivative",
                args=(text, given, order),
                var=v.name,
                check="derivative",
                f=node.ev,
                points=_points(rng, positive),
                order=order,
                extra=extra,
            )
        )
    return out


def evaluate_cases(rng: random.Random, count: int = 45) -> list[Case]:
    out = []
    for i in range(count):
        v, style = _var(rng), _style(rng)
        node, positive = smooth_expression(rng, v, rng.randint(1, 2))
        text = decorate(node.render(style, rng), style, rng, v.name)
        choices = (
            ["1/2", "3", "2", "1", "pi/4", "pi/6", "5/3", "1/3"]
            if positive
            else [
                "-1/2",
                "3",
                "-2",
                "0",
                "pi",
                "pi/3",
                "7/4",
                "-5/3",
            ]
        )
        raw = rng.choice(choices)
        frac = Fraction(raw.replace("pi", "1"))
        point = mpmath.mpf(frac.numerator) / frac.denominator
        if "pi" in raw:
            point *= mpmath.pi
        form = rng.choice(["plain", "assign", "mapping", "number"])
        if form == "assign":
            at: Any = f"{v.name}={raw}"
        elif form == "mapping":
            at = {v.name: raw}
        elif form == "number" and "pi" not in raw and "/" not in raw:
            at = int(raw)
        else:
            at = raw
        given = v.name if rng.random() < 0.3 else None
        out.append(
            Case(
                id=f"evaluate-{style}-{i}",
                tool="evaluate",
                args=(text, at, given),
                var=v.name,
                check="value",
                f=node.ev,
                points=[point],
            )
        )
    # A few with two variables.
    for i in range(5):
        a, b = rng.randint(-4, 4), rng.randint(1, 5)
        text = rng.choice(
            ["x^2 y + 3x − y", "x·y + x²", "2x y² − 1", "(x + y)/(y² + 1)", "sin(x) + y³"]
        )
        funcs = {
            "x^2 y + 3x − y": lambda x, y: x**2 * y + 3 * x - y,
            "x·y + x²": lambda x, y: x * y + x**2,
            "2x y² − 1": lambda x, y: 2 * x * y**2 - 1,
            "(x + y)/(y² + 1)": lambda x, y: (x + y) / (y**2 + 1),
            "sin(x) + y³": lambda x, y: mpmath.sin(x) + y**3,
        }
        f2 = funcs[text]
        out.append(
            Case(
                id=f"evaluate-2var-{i}",
                tool="evaluate",
                args=(text, f"x={a}, y={b}" if i % 2 else {"x": a, "y": str(b)}, None),
                var="x",
                check="value",
                f=lambda _t, f2=f2, a=a, b=b: f2(mpmath.mpf(a), mpmath.mpf(b)),
                points=[mpmath.mpf(0)],
            )
        )
    return out


def _integrable_term(rng: random.Random, v: Var) -> tuple[Node, bool]:
    """Terms SymPy integrates quickly: polynomials, sin/cos/exp of linear, 1/(x^2+c), x*e^x."""
    kind = rng.choice(["mono", "mono", "trig", "exp", "inv", "xexp", "xtrig", "sqrt", "recip"])
    c = rng.randint(1, 6)

    def coef(node: Node) -> Node:
        return node if c == 1 else Prod([Num(Fraction(c)), node])

    if kind == "mono":
        return monomial(rng, v, 5), False
    if kind == "trig":
        a = rng.randint(1, 3)
        arg: Node = v if a == 1 else Prod([Num(Fraction(a)), v])
        return coef(Fn(rng.choice(["sin", "cos"]), arg)), False
    if kind == "exp":
        a = rng.choice([1, 2, 3])
        arg = v if a == 1 else Prod([Num(Fraction(a)), v])
        return coef(Fn("exp", arg)), False
    if kind == "inv":
        return coef(
            Quot(Num(Fraction(1)), Sum([(1, Pw(v, 2)), (1, Num(Fraction(rng.randint(1, 4))))]))
        ), False
    if kind == "xexp":
        return Prod([v, Fn("exp", v)]), False
    if kind == "xtrig":
        return Prod([v, Fn(rng.choice(["sin", "cos"]), v)]), False
    if kind == "sqrt":
        return coef(Fn("sqrt", v)), True
    return coef(Quot(Num(Fraction(1)), v)), True


def integral_cases(rng: random.Random, indefinite: int = 40, definite: int = 30) -> list[Case]:
    out = []
    for i in range(indefinite):
        v, style = _var(rng), _style(rng)
        terms = [_integrable_term(rng, v) for _ in range(rng.randint(1, 2))]
        node = terms[0][0] if len(terms) == 1 else Sum([(1, terms[0][0]), (-1, terms[1][0])])
        positive = any(p for _, p in terms)
        out.append(
            Case(
                id=f"integral-indef-{style}-{i}",
                tool="integral",
                args=(
                    decorate(node.render(style, rng), style, rng, v.name),
                    v.name if rng.random() < 0.4 else None,
                ),
                var=v.name,
                check="antiderivative",
                f=node.ev,
                points=_points(rng, positive),
                text_has="+ C",
            )
        )
    for i in range(definite):
        v, style = _var(rng), _style(rng)
        node, positive = _integrable_term(rng, v)
        low = rng.choice([0, 1]) if positive else rng.choice([-2, -1, 0])
        if positive and low == 0:
            low = 1
        high = low + rng.choice([1, 2, 3])
        out.append(
            Case(
                id=f"integral-def-{style}-{i}",
                tool="integral",
                args=(decorate(node.render(style, rng), style, rng, v.name), None, str(low), high),
                var=v.name,
                check="definite",
                f=node.ev,
                bounds=(mpmath.mpf(low), mpmath.mpf(high)),
            )
        )
    pi = mpmath.pi
    improper: list[tuple[str, Any, Any, Any]] = [
        ("e^(-x)", "0", "oo", 1),
        ("1/(1 + x²)", "-inf", "infinity", pi),
        ("exp(-x^2)", "-∞", "∞", mpmath.sqrt(pi)),
        ("1/x^2", 1, "oo", 1),
        ("x e^(−x)", 0, "inf", 1),
        ("e^(-2t)", "0", "oo", mpmath.mpf(1) / 2),
        ("sin(x)/x", "0", "oo", pi / 2),
        ("1/sqrt(x)", 0, 1, 2),
        ("1/(x² + 4)", "0", "oo", pi / 4),
        ("1/x", 1, "oo", None),
        ("x", 0, "oo", None),
        ("1/x^2", -1, 1, None),
        ("e^x", "0", "∞", None),
    ]
    for i, (text, low, high, expected) in enumerate(improper):
        var = "t" if "t)" in text else "x"
        out.append(
            Case(
                id=f"integral-improper-{i}",
                tool="integral",
                args=(text, None, low, high),
                var=var,
                check="definite" if expected is not None else "diverges",
                bounds=(_mp_bound(low), _mp_bound(high)),
                exact_value=expected,
            )
        )
    return out


def _mp_bound(raw: Any) -> Any:
    text = str(raw)
    if text in ("oo", "inf", "infinity", "∞"):
        return mpmath.inf
    if text in ("-oo", "-inf", "-∞"):
        return -mpmath.inf
    return mpmath.mpf(text)


def all_cases(seed: int = 20240531) -> list[Case]:
    rng = random.Random(seed)
    return solve_cases(rng) + derivative_cases(rng) + evaluate_cases(rng) + integral_cases(rng)
