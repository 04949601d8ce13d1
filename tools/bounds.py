"""Size checks made before SymPy evaluates a power: a huge one is refused, not computed.

Called by the parser while it builds an expression (see `tools.limits` for the numbers).
"""

from __future__ import annotations

import sympy as sp

from tools import limits
from tools.tokens import _too_big


def check_power(base: sp.Expr, exponent: sp.Expr, text: str = "") -> None:
    """Raise LimitError when ``base**exponent`` would be a huge number or a huge polynomial."""
    if not exponent.is_Rational:
        return
    if not base.is_number:
        if (
            abs(exponent.p) > limits.MAX_SYMBOLIC_EXPONENT
            or exponent.q > limits.MAX_SYMBOLIC_EXPONENT
        ):
            raise _too_big(
                text,
                f"exponents of variables are limited to ±{limits.MAX_SYMBOLIC_EXPONENT} "
                f"(got {_short(exponent)})",
            )
        return
    bits = _bits(base)
    if bits is not None and bits * abs(exponent) > limits.MAX_RESULT_BITS:
        raise _too_big(
            text,
            f"the power {_short(base)}^{_short(exponent)} is too large to compute (results are "
            f"limited to about {limits.MAX_RESULT_BITS * 3 // 10:,} digits)",
        )


def _bits(base: sp.Expr) -> float | None:
    """Bits SymPy would spend per unit of exponent when it expands ``base**n``.

    Rationals, ``I`` and products/powers of them are expanded eagerly by SymPy; anything else
    (``pi``, ``E``, sums) stays an unevaluated power, which costs nothing, so None.
    """
    if base in (sp.S.Zero, sp.S.One, sp.S.NegativeOne) or base == sp.I or base == -sp.I:
        return 0.0
    if base.is_Rational:
        return float(abs(base.p).bit_length() + base.q.bit_length())
    if base.is_Pow:
        inner = _bits(base.base)
        if inner is None or not base.exp.is_Rational:
            return None
        return inner * float(abs(base.exp))
    if base.is_Mul:
        total = 0.0
        for factor in base.args:
            bits = _bits(factor)
            if bits is None:
                return None
            total += bits
        return total
    return None


def _short(value: sp.Expr) -> str:
    text = sp.sstr(value)
    return text if len(text) <= 20 else text[:17] + "..."
