"""Building blocks of the tools' correctness cases: expression trees that render themselves as
text in one of three notations and evaluate themselves with mpmath (so the checks never trust
the parser), and the `Case` record with its decorations."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

mpmath.mp.dps = 30

STYLES = ("sympy", "caret", "human")
VARIABLES = ("x", "t", "a", "k", "z", "u", "y", "s", "w", "theta")
_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")

MP = Callable[[Any], Any]


# ---------------------------------------------------------------------------------------------
# Expression trees


class Node:
    """prec: 1 sum, 2 product/quotient, 3 power-like, 4 atom (never needs brackets)."""

    def prec(self, style: str) -> int:
        raise NotImplementedError

    def render(self, style: str, rng: random.Random) -> str:
        raise NotImplementedError

    def ev(self, t: Any) -> Any:
        raise NotImplementedError


def wrap(node: Node, style: str, rng: random.Random, needed: int) -> str:
    text = node.render(style, rng)
    return f"({text})" if node.prec(style) < needed else text


@dataclass
class Num(Node):
    value: Fraction

    def prec(self, style: str) -> int:
        return 4 if self.value.denominator == 1 and self.value >= 0 else 2

    def render(self, style: str, rng: random.Random) -> str:
        v = self.value
        text = str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
        return text

    def ev(self, t: Any) -> Any:
        return mpmath.mpf(self.value.numerator) / self.value.denominator


@dataclass
class Var(Node):
    name: str

    def prec(self, style: str) -> int:
        return 4

    def render(self, style: str, rng: random.Random) -> str:
        if style == "human" and self.name == "theta" and rng.random() < 0.5:
            return "θ"
        return self.name

    def ev(self, t: Any) -> Any:
        return t


@dataclass
class Sum(Node):
    terms: list[tuple[int, Node]]

    def prec(self, style: str) -> int:
        return 1

    def render(self, style: str, rng: random.Random) -> str:
        out = []
        for i, (sign, term) in enumerate(self.terms):
            body = wrap(term, style, rng, 2)
            minus = "−" if style == "human" and rng.random() < 0.5 else "-"
            if i == 0:
                out.append(f"{minus}{body}" if sign < 0 else body)
            else:
                out.append(f" {minus} {body}" if sign < 0 else f" + {body}")
        return "".join(out)

    def ev(self, t: Any) -> Any:
        return sum(sign * term.ev(t) for sign, term in self.terms)


@dataclass
class Prod(Node):
    factors: list[Node]

    def prec(self, style: str) -> int:
        return 2

    def render(self, style: str, rng: random.Random) -> str:
        if style != "human":
            return "*".join(wrap(f, style, rng, 3) for f in self.factors)
        parts: list[str] = []
        for i, factor in enumerate(self.factors):
            last = i == len(self.factors) - 1
            if isinstance(factor, Fn) and not last:
                text = factor.render_call(style, rng)
            elif factor.prec(style) < 3:
                text = f"({factor.render(style, rng)})"
            else:
                text = factor.render(style, rng)
            if i == 0:
                parts.append(text)
                continue
            previous = self.factors[i - 1]
            if isinstance(previous, Num) and previous.value.denominator == 1:
                joiner = ""
            elif isinstance(previous, Var) and isinstance(factor, Var):
                joiner = rng.choice([" ", "·", "×", "*"])
            else:
                joiner = rng.choice([" ", "·", "×", "*", ""])
            if joiner == "" and not (text.startswith("(") or text[0].isalpha() or text[0] in "√θ"):
                joiner = "·"
            if joiner == "" and parts[-1][-1].isalpha() and text[0].isalpha():
                joiner = " "
            if joiner == "" and parts[-1][-1].isdigit() and text[0].isdigit():
                joiner = "*"
            if isinstance(previous, Num) and previous.value.denominator != 1:
                parts[-1] = f"({parts[-1]})"
            parts.append(joiner + text)
        return "".join(parts)

    def ev(self, t: Any) -> Any:
        value = mpmath.mpf(1)
        for factor in self.factors:
            value *= factor.ev(t)
        return value


@dataclass
class Quot(Node):
    num: Node
    den: Node

    def prec(self, style: str) -> int:
        return 2

    def render(self, style: str, rng: random.Random) -> str:
        slash = "÷" if style == "human" and rng.random() < 0.3 else "/"
        return f"{wrap(self.num, style, rng, 2)}{slash}{wrap(self.den, style, rng, 4)}"

    def ev(self, t: Any) -> Any:
        return self.num.ev(t) / self.den.ev(t)


@dataclass
class Pw(Node):
    base: Node
    exp: int

    def prec(self, style: str) -> int:
        return 3

    def render(self, style: str, rng: random.Random) -> str:
        base = self.base.render_call(style, rng) if isinstance(self.base, Fn) else None
        if base is None or self.base.prec(style) < 4:
            base = wrap(self.base, style, rng, 4)
        if style == "sympy":
            return f"{base}**{self.exp}" if self.exp > 0 else f"{base}**({self.exp})"
        if style == "human" and rng.random() < 0.6:
            return f"{base}{str(self.exp).translate(_SUP)}"
        return f"{base}^{self.exp}" if self.exp > 0 else f"{base}^({self.exp})"

    def ev(self, t: Any) -> Any:
        return self.base.ev(t) ** self.exp


_MP_FUNCS: dict[str, Callable[[Any], Any]] = {
    "sin": mpmath.sin,
    "cos": mpmath.cos,
    "tan": mpmath.tan,
    "exp": mpmath.exp,
    "log": mpmath.log,
    "sqrt": mpmath.sqrt,
    "atan": mpmath.atan,
    "sinh": mpmath.sinh,
    "cosh": mpmath.cosh,
}


@dataclass
class Fn(Node):
    name: str
    arg: Node

    def prec(self, style: str) -> int:
        if style == "human" and self.name in ("exp", "sqrt"):
            return 3
        return 4

    def render_call(self, style: str, rng: random.Random) -> str:
        """Always with brackets (used when something follows or a power is applied)."""
        name = self.name
        if style == "human" and name == "log":
            name = "ln"
        return f"{name}({self.arg.render(style, rng)})"

    def render(self, style: str, rng: random.Random) -> str:
        arg = self.arg.render(style, rng)
        if style != "human":
            return f"{self.name}({arg})"
        simple = isinstance(self.arg, Var)
        if self.name == "exp":
            return f"e^{arg}" if simple else f"e^({arg})"
        if self.name == "sqrt":
            return f"√{arg}" if simple else f"√({arg})"
        name = "ln" if self.name == "log" and rng.random() < 0.7 else self.name
        if simple and rng.random() < 0.5:
            return f"{name} {arg}"
        return f"{name}({arg})"

    def ev(self, t: Any) -> Any:
        return _MP_FUNCS[self.name](self.arg.ev(t))


# ---------------------------------------------------------------------------------------------
# Random building blocks


def linear(rng: random.Random, v: Var, positive: bool = False) -> Node:
    """a*v + b with small integers (a > 0)."""
    a = rng.randint(1, 3)
    b = rng.randint(1, 4) if positive else rng.randint(-3, 3)
    inner: Node = v if a == 1 else Prod([Num(Fraction(a)), v])
    if b == 0:
        return inner
    return Sum([(1, inner), (1 if b > 0 else -1, Num(Fraction(abs(b))))])


def monomial(rng: random.Random, v: Var, max_power: int = 4) -> Node:
    k = rng.randint(1, max_power)
    c = rng.randint(1, 9)
    base: Node = v if k == 1 else Pw(v, k)
    return base if c == 1 else Prod([Num(Fraction(c)), base])


def smooth_term(rng: random.Random, v: Var) -> tuple[Node, bool]:
    """A term and whether it needs v > 0 (log, sqrt of v)."""
    kind = rng.choice(["mono", "mono", "sin", "cos", "exp", "log", "sqrt", "prod", "quot", "atan"])
    c = rng.randint(1, 5)

    def coef(node: Node) -> Node:
        return node if c == 1 else Prod([Num(Fraction(c)), node])

    if kind == "mono":
        return monomial(rng, v), False
    if kind in ("sin", "cos", "atan"):
        arg = v if rng.random() < 0.5 else linear(rng, v)
        return coef(Fn(kind, arg)), False
    if kind == "exp":
        a = rng.choice([1, 2, -1, 3])
        arg: Node = v if a == 1 else Prod([Num(Fraction(abs(a))), v])
        if a < 0:
            arg = Sum([(-1, arg)])
        return coef(Fn("exp", arg)), False
    if kind == "log":
        return coef(Fn("log", v if rng.random() < 0.5 else linear(rng, v, positive=True))), True
    if kind == "sqrt":
        return coef(Fn("sqrt", linear(rng, v, positive=True))), True
    if kind == "prod":
        left = monomial(rng, v, 2)
        right = Fn(rng.choice(["sin", "cos", "exp"]), v)
        return Prod([left, right]), False
    den = Sum([(1, Pw(v, 2)), (1, Num(Fraction(rng.randint(1, 4))))])
    return Quot(monomial(rng, v, 2), den), False


def smooth_expression(rng: random.Random, v: Var, terms: int | None = None) -> tuple[Node, bool]:
    count = terms or rng.randint(1, 3)
    parts, positive = [], False
    for i in range(count):
        term, needs = smooth_term(rng, v)
        positive |= needs
        parts.append((1 if i == 0 or rng.random() < 0.6 else -1, term))
    node = parts[0][1] if count == 1 else Sum(parts)
    return node, positive


# ---------------------------------------------------------------------------------------------
# Polynomials (for solve)


def poly_mul(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    """Coefficient lists, lowest degree first."""
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, a in enumerate(p):
        for j, b in enumerate(q):
            out[i + j] += a * b
    return out


def poly_node(coeffs: list[Fraction], v: Var, rng: random.Random, lead_zero: bool = False) -> Node:
    """Render a polynomial (highest power first), optionally with a '0x^n' leading term."""
    terms: list[tuple[int, Node]] = []
    top = len(coeffs) - 1
    if lead_zero:
        terms.append((1, Prod([Num(Fraction(0)), Pw(v, top + 1)])))
    for k in range(top, -1, -1):
        c = coeffs[k]
        if c == 0:
            continue
        mag = abs(c)
        base: Node | None = None if k == 0 else (v if k == 1 else Pw(v, k))
        if base is None:
            node: Node = Num(mag)
        elif mag == 1:
            node = base
        else:
            node = Prod([Num(mag), base])
        terms.append((1 if c > 0 else -1, node))
    if not terms:
        return Num(Fraction(0))
    return terms[0][1] if len(terms) == 1 and terms[0][0] > 0 else Sum(terms)


def poly_eval(coeffs: list[Fraction], t: Any) -> Any:
    value = mpmath.mpf(0)
    for c in reversed(coeffs):
        value = value * t + mpmath.mpf(c.numerator) / c.denominator
    return value


# -- cases ----------------------------------------------------------------------------------


@dataclass
class Case:
    """One tool call and how to check it independently."""

    id: str
    tool: str
    args: tuple[Any, ...]
    var: str
    check: str  # roots, general, identity, nosolution, derivative, value, antiderivative, definite
    f: MP | None = None  # residual (solve) or function (others)
    expected_roots: list[Any] = field(default_factory=list)
    points: list[Any] = field(default_factory=list)
    order: int = 1
    bounds: tuple[Any, Any] | None = None
    exact_value: Any = None
    text_has: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def decorate(text: str, style: str, rng: random.Random, var: str, prefix: bool = True) -> str:
    """Chat-like noise that must not change the meaning: spacing, and a leading f(x) =."""
    roll = rng.random()
    if style != "human" and roll < 0.2:
        text = text.replace(" ", "")
    elif style == "caret" and roll < 0.4:
        text = text.replace("^", " ^ ").replace("*", " * ")
    if prefix and rng.random() < 0.2:
        text = f"f({var}) = {text}" if rng.random() < 0.5 or var == "y" else f"y = {text}"
    return text


def _var(rng: random.Random) -> Var:
    return Var(rng.choice(VARIABLES))


def _style(rng: random.Random) -> str:
    return rng.choice(STYLES)


def _points(rng: random.Random, positive: bool, count: int = 3) -> list[Any]:
    low, high = (0.3, 2.5) if positive else (-2.0, 2.0)
    return [mpmath.mpf(round(rng.uniform(low, high), 3)) for _ in range(count)]
