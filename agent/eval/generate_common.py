"""Shared pieces of the eval-set generator: rendering formulas and drawing random polynomials.

Why a module of its own: the single questions (`generate_single`), the multi-turn sessions
(`generate_sessions`) and the reference conversation (`generate`) all print formulas in the
same two wordings and draw coefficients, variables and polynomials the same way. Only
`random.Random` and SymPy are used here, never the project's `tools/` package.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import sympy as sp

from agent.eval.cases import Expected

# a..z without e and i: people and SymPy read those as Euler's number and the imaginary unit.
LETTERS = "abcdfghjklmnpqrstuvwxyz"
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

Question = tuple[str, Expected]


# --- rendering -------------------------------------------------------------------------------


def dataset_text(expr: sp.Expr) -> str:
    """SymPy's own printing, which is what mathematics_dataset questions look like."""
    return sp.sstr(expr)


def chat_text(expr: sp.Expr, superscripts: bool = False) -> str:
    """How a person types a formula: `3x^2 y - (1/2)x + 2sin(x)`, or `t³` with superscripts."""
    out = ""
    for i, term in enumerate(sp.expand(expr).as_ordered_terms()):
        coeff, rest = term.as_coeff_Mul()
        body = "" if rest == 1 else _chat_factors(rest, superscripts)
        size = abs(coeff)
        if not body:
            text = number_text(size)
        elif size == 1:
            text = body
        elif size.is_Integer:
            text = f"{size}{body}"
        else:
            text = f"({size}){body}"
        if i == 0:
            out = f"-{text}" if coeff < 0 else text
        else:
            out += f" - {text}" if coeff < 0 else f" + {text}"
    return out or "0"


def _chat_factors(product: sp.Expr, superscripts: bool) -> str:
    text = ""
    for factor in product.as_ordered_factors():
        if factor.is_Symbol:
            piece = factor.name
        elif factor.is_Pow and factor.base.is_Symbol and factor.exp.is_Integer:
            power = str(factor.exp)
            piece = factor.base.name + (
                power.translate(_SUPERSCRIPTS) if superscripts else f"^{power}"
            )
        elif isinstance(factor, sp.exp):
            piece = f"e^{factor.args[0]}"
        else:
            piece = sp.sstr(factor)
        # "3x*y", "x^2 y": a space after a power, where "x^2y" would read as x^(2y).
        joiner = "" if not text else ("*" if text[-1].isalpha() else " ")
        text += joiner + piece
    return text


def number_text(value: sp.Expr) -> str:
    return sp.sstr(value)


# --- random pieces ---------------------------------------------------------------------------


def coefficient(rng: random.Random, low: int = -9, high: int = 9) -> int:
    return rng.choice([n for n in range(low, high + 1) if n != 0])


def variable(rng: random.Random, wording: str) -> sp.Symbol:
    """People chatting mostly write x, y, z or t; mathematics_dataset uses any letter."""
    pool = "xyzt" if wording == "chat" and rng.random() < 0.5 else LETTERS
    return sp.Symbol(rng.choice(pool))


def polynomial(rng: random.Random, v: sp.Symbol, degree: int, fractions: bool = False) -> sp.Expr:
    """A polynomial of exactly `degree`, some middle terms missing, small integer coefficients."""
    expr = coefficient(rng) * v**degree
    for power in range(degree - 1, -1, -1):
        if rng.random() < 0.7:
            coeff: sp.Expr = sp.Integer(rng.randint(-9, 9))
            if fractions and rng.random() < 0.2:
                coeff = sp.Rational(coefficient(rng, -5, 5), rng.choice((2, 3)))
            expr += coeff * v**power
    return expr


def from_roots(roots: Sequence[sp.Expr], lead: sp.Expr, v: sp.Symbol) -> sp.Expr:
    return sp.expand(lead * sp.prod([v - r for r in roots]))


def derive(expr: sp.Expr, v: sp.Symbol, order: int = 1) -> sp.Expr:
    """The derivative, expanded (SymPy factors higher ones: `2*(3*k - 2)`)."""
    return sp.expand(sp.diff(expr, v, order))


def real_roots(lhs: sp.Expr, rhs: sp.Expr, v: sp.Symbol) -> list[sp.Expr]:
    roots = sp.solve(sp.Eq(lhs, rhs), v)
    if not roots or not all(r.is_real for r in roots):
        raise ValueError(f"{lhs} = {rhs} must have real roots only")
    return sorted(roots, key=lambda r: float(r))
