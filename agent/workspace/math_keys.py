"""Two pieces of math compared by value: what the record, the guards and the workspace's
links between items use to tell that one piece restates another.

Why by value at a few points, not by expanding: this runs in the agent's process, outside
the tools' time limit, and `(x + y + z + w + 1)^30` expanded takes half a minute.
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
    symbols = sorted(a.free_symbols, key=str)
    signs = {1, -1} if up_to_sign else {1}
    for shift, probe in enumerate(_PROBES):
        point = {s: probe + k for k, s in enumerate(symbols, start=shift)}
        try:
            va, vb = complex(a.evalf(30, subs=point)), complex(b.evalf(30, subs=point))
        except (TypeError, ValueError, ZeroDivisionError):
            return False
        scale = max(1.0, abs(va), abs(vb))
        signs = {s for s in signs if abs(va - s * vb) <= 1e-12 * scale}
        if not signs:
            return False
    return True
