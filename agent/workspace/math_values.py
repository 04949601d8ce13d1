"""Math compared by value: one expression per piece of math, and equality at a few points.

The record and the resolver compare a call's math with every item of a chat (is this the
person's equation, written another way?). Expanding would be exact and could take seconds
(`(x + y + z + w + 1)^30`); values at a few rational points are cheap for any size, and each
expression's values are computed once.
"""

from __future__ import annotations

from functools import lru_cache

import sympy as sp

from tools.parsing import parse


@lru_cache(maxsize=4096)
def math_key(text: str) -> sp.Expr:
    """A piece of math as one expression: an equation `lhs = rhs` is `lhs - rhs`. Raises
    ToolError when it does not parse. Not expanded: `(x + y + z + w + 1)^30` would take
    half a minute, and this runs in the agent, outside the tools' time limit."""
    parsed = parse(text)
    return parsed.lhs - parsed.rhs if parsed.rhs is not None else parsed.lhs


# Points at which two pieces of math are compared (rational, away from common poles).
_PROBES = (sp.Rational(7, 3), sp.Rational(-5, 11), sp.Rational(13, 17))


def same_math(a: sp.Expr, b: sp.Expr, up_to_sign: bool = True) -> bool:
    """Equal by value at a few points (cheap for any size, where expanding is not); with
    `up_to_sign`, also the negative (equations: `x^2 = 4` is `4 = x^2`)."""
    if a.free_symbols != b.free_symbols:
        return False
    if a == b or (up_to_sign and a == -b):
        return True
    values_a, values_b = _probe_values(a), _probe_values(b)
    if values_a is None or values_b is None:
        return False
    signs = {1, -1} if up_to_sign else {1}
    for va, vb in zip(values_a, values_b, strict=True):
        scale = max(1.0, abs(va), abs(vb))
        signs = {s for s in signs if abs(va - s * vb) <= 1e-12 * scale}
        if not signs:
            return False
    return True


@lru_cache(maxsize=8192)
def _probe_values(expr: sp.Expr) -> tuple[complex, ...] | None:
    """An expression's values at the probe points (None where one is undefined): computed
    once per expression, since a call's math is compared with every item of a long chat."""
    symbols = sorted(expr.free_symbols, key=str)
    values = []
    for shift, probe in enumerate(_PROBES):
        point = {s: probe + k for k, s in enumerate(symbols, start=shift)}
        try:
            values.append(complex(expr.evalf(30, subs=point)))
        except (TypeError, ValueError, ZeroDivisionError):
            return None
    return tuple(values)
