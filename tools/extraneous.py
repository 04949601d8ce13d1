"""Extraneous roots: candidates a solver returns that are not solutions over the reals.

Why a module of its own: SymPy's ``solveset`` and ``solve`` combine logarithms and invert
functions before they solve, so ``log(x) + log(x + 3) = log(10)`` comes back as ``{-5, 2}`` and
``asin(x) = 2`` as ``{sin(2)}``; a person checking by hand drops ``-5`` (``log(-5)`` is not a
real number) and ``sin(2)`` (``asin`` never reaches 2). Every real candidate is checked the
way that person would: each function and even root in the equation must be a real number
there, and the two sides must agree. An odd root of a negative number is the real root
(``cbrt(-8) = -2``), as the parser reads it. A candidate the check cannot decide is kept.
Whether a value is real (`is_real_number`) is decided here for every tool.
"""

from __future__ import annotations

import sympy as sp

from tools.formatting import approximate, with_decimal

# Relative size under which a difference counts as zero, at the working precision below.
_ZERO = 1e-20
_DIGITS = 40
# A number longer than this (in SymPy's text) is named by its decimal in a reason.
_LONG = 20


def extraneous_reason(expr: sp.Expr, var: sp.Symbol, root: sp.Expr) -> str | None:
    """Why ``root`` does not solve ``expr = 0`` over the reals, or None when it does (or the
    check cannot tell: a root with parameters, a value SymPy cannot evaluate)."""
    if not root.is_number or root.free_symbols:
        return None
    real = with_real_odd_roots(expr)
    try:
        for part in sp.preorder_traversal(real):
            if part is real or not part.has(var) or not _may_leave_the_reals(part):
                continue
            if not is_real_number(part.xreplace({var: root})):
                return f"{sp.sstr(_at(part, var, root))} is not a real number"
        difference = real.xreplace({var: root})
        if not _zero(difference, real, var, root):
            return "it does not satisfy the equation"
    except (TypeError, ValueError, ArithmeticError):
        return None
    return None


def split_extraneous(
    expr: sp.Expr, var: sp.Symbol, roots: list[sp.Expr]
) -> tuple[list[sp.Expr], list[str]]:
    """The roots that solve ``expr = 0`` over the reals, and a phrase for each one dropped."""
    kept: list[sp.Expr] = []
    dropped: list[str] = []
    for root in roots:
        reason = extraneous_reason(expr, var, root)
        if reason is None:
            kept.append(root)
        else:
            dropped.append(f"{var} = {with_decimal(root)} is not a solution ({reason})")
    return kept, dropped


def _may_leave_the_reals(part: sp.Basic) -> bool:
    """A function application or a power that can be non-real at a real point."""
    if isinstance(part, sp.Pow):
        return not part.exp.is_integer
    return isinstance(part, sp.Function)


def is_odd_root(power: sp.Basic) -> bool:
    """``b**(p/q)`` with ``q`` odd: a root that has a real value at a negative ``b``."""
    if not isinstance(power, sp.Pow):
        return False
    exponent = power.exp
    return isinstance(exponent, sp.Rational) and not exponent.is_integer and exponent.q % 2 == 1


def with_real_odd_roots(expr: sp.Expr) -> sp.Expr:
    """``b**(p/q)`` with ``q`` odd as the real root (``sign(b)**p * |b|**(p/q)``)."""

    def real_root(power: sp.Pow) -> sp.Expr:
        base, exponent = power.args
        return sp.sign(base) ** exponent.p * sp.Abs(base) ** exponent

    return expr.replace(is_odd_root, real_root)


def is_real_number(value: sp.Expr) -> bool:
    """Real by SymPy's assumptions, else by its value (an imaginary part within rounding)."""
    if value.is_real is not None:
        return bool(value.is_real)
    approx = complex(approximate(value, _DIGITS))
    return abs(approx.imag) <= _ZERO * max(1.0, abs(approx.real))


def _zero(difference: sp.Expr, expr: sp.Expr, var: sp.Symbol, root: sp.Expr) -> bool:
    if difference.is_zero is not None:
        return bool(difference.is_zero)
    approx = abs(complex(approximate(difference, _DIGITS)))
    # Scaled by the size of the terms, so that large values that cancel still count as zero.
    terms = sp.Add.make_args(expr)
    scale = max(
        (abs(complex(approximate(t.xreplace({var: root}), _DIGITS))) for t in terms), default=1.0
    )
    return approx <= _ZERO * max(1.0, scale)


def _at(part: sp.Expr, var: sp.Symbol, root: sp.Expr) -> sp.Expr:
    """``log(-5)``, not SymPy's ``log(5) + I*pi``: the function at the point, unevaluated."""
    args = [arg.xreplace({var: root}) for arg in part.args]
    short = [sp.Float(approximate(a), 4) if len(sp.sstr(a)) > _LONG else a for a in args]
    return part.func(*short, evaluate=False)
