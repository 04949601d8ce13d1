"""Whether a value a reply states is the expected one, as a reader would count it.

Why apart from the reading (`agent.eval.reply_math`): comparing is its own question, exact
first, then numeric at a few points for expressions (`4(x + 1)` is `4x + 4`), and a decimal is
as good as its digits (0.333 states 1/3, 0.33 does not where three digits are asked).
"""

from __future__ import annotations

import math
import random
import re

import sympy as sp

from agent.eval.reply_math import Span

_DECIMAL = re.compile(r"[-+]?\d*\.(\d+)")


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal as expressions: exactly after expansion, or numerically at a few points."""
    try:
        difference = a - b
        if difference == 0 or sp.expand(difference) == 0:
            return True
        symbols = sorted(difference.free_symbols, key=lambda s: s.name)
        rng = random.Random(0)
        checked = 0
        for _ in range(5):
            point = {s: sp.Float(rng.uniform(-2.5, 2.5)) for s in symbols}
            try:
                gap = complex(difference.evalf(30, subs=point))
                scale = complex(b.evalf(30, subs=point))
            except (TypeError, ValueError):  # a pole or a symbol left over
                continue
            if not (math.isfinite(abs(gap)) and math.isfinite(abs(scale))):
                continue
            if abs(gap) > 1e-9 * max(1.0, abs(scale)):
                return False
            checked += 1
        return checked >= 2 or (not symbols and checked == 1)
    except Exception:
        return False


def close(text: str, target: sp.Expr, strict: bool = True) -> bool:
    """A decimal as good as its digits: 0.333 states 1/3; strict wants 3 significant digits."""
    decimal = _DECIMAL.fullmatch(text.replace(" ", ""))
    if decimal is None or not target.is_number:
        return False
    try:
        shown, exact = float(text.replace(" ", "")), float(target.evalf(30))
    except (TypeError, ValueError):
        return False
    if abs(shown - exact) <= 1e-6 * max(1.0, abs(exact)):
        return True
    places = len(decimal.group(1))
    if strict and len(decimal.group().lstrip("+-").replace(".", "").lstrip("0")) < 3:
        return False
    unit = 10.0**-places
    truncated = math.trunc(exact / unit) * unit
    return abs(shown - exact) <= unit / 2 + 1e-12 or abs(shown - truncated) <= 1e-12


def states(found: list[Span], target: sp.Expr, strict: bool = True) -> Span | None:
    """The first span equal to `target`, exactly or as a good enough decimal."""
    for span in found:
        if same(span.value, target) or close(span.text, target, strict):
            return span
    return None
