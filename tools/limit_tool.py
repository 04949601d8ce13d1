"""Limits of one expression, one-sided or two-sided, at a number or at ±∞.

Why its own module (named so because ``tools.limits`` holds the time and size limits): a
two-sided limit exists only when both one-sided limits agree, and SymPy's default is the
right-hand limit, so ``1/x`` at 0 would silently read as ``oo``. Here a two-sided request
computes both sides and, when they differ, says so and gives both.

``value``: the limit (exact; ``oo`` / ``-oo`` allowed). When the one-sided limits differ, the
list ``[left, right]``; when the expression oscillates (``sin(1/x)`` at 0), SymPy's
``AccumBounds(low, high)`` and the text says the limit does not exist.
"""

from __future__ import annotations

import re

import sympy as sp

from tools.errors import ToolError
from tools.formatting import with_decimal
from tools.inputs import as_real, quoted, read_point, read_univariate, short
from tools.result import ToolResult

TOOL = "limit"
_SIDES = {
    "": None,
    "both": None,
    "two-sided": None,
    "two sided": None,
    "+-": None,
    "±": None,
    "+": "+",
    "right": "+",
    "from the right": "+",
    "above": "+",
    "from above": "+",
    "-": "-",
    "left": "-",
    "from the left": "-",
    "below": "-",
    "from below": "-",
}
# "0+", "0^+", "0⁺": a side written on the point.
_SIDE_ON_POINT = re.compile(r"(?s)(?P<point>.*\S)\s*\^?\s*(?P<side>[+\-−⁺⁻])\s*")


def limit(
    expression: str, at: object, variable: str | None = None, direction: str | None = None
) -> ToolResult:
    """The limit of ``expression`` as its variable tends to ``at`` (from ``direction``)."""
    expr, var = read_univariate(expression, variable, TOOL, "take the limit in")
    side = _direction(direction)
    at, side = _side_on_point(at, side)
    point = read_point(at, var, "The point")
    f, x = as_real(expr, var)
    if point in (sp.oo, -sp.oo):
        side = None  # there is one way to approach an infinity: a direction adds nothing
    approach = f"{var} → {sp.sstr(point)}{_mark(side)}"
    summary = f"limit of {sp.sstr(expr)} as {approach}"
    if point.is_finite is not False and side is None:
        left, right = _one_side(f, x, point, "-", expr), _one_side(f, x, point, "+", expr)
        if left != right:
            text = (
                f"the two-sided limit of {sp.sstr(expr)} as {approach} does not exist: "
                f"{_shown(left)} from the left, {_shown(right)} from the right"
            )
            return ToolResult.success(TOOL, summary, [left, right], text)
        value = right
    else:
        value = _one_side(f, x, point, side, expr)
    value = value.xreplace({x: var})
    if isinstance(value, sp.AccumBounds):
        text = (
            f"the limit of {sp.sstr(expr)} as {approach} does not exist: it oscillates between "
            f"{_shown(value.min)} and {_shown(value.max)}"
        )
        return ToolResult.success(TOOL, summary, value, text)
    return ToolResult.success(TOOL, summary, value, f"{summary} = {_shown(value)}")


def _direction(raw: object) -> str | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        key = " ".join(raw.strip().lower().split()).replace("−", "-")
        if key in _SIDES:
            return _SIDES[key]
    raise ToolError(
        f"direction must be '+' (from the right), '-' (from the left) or left out (both sides), "
        f"not {quoted(raw)}."
    )


def _side_on_point(at: object, side: str | None) -> tuple[object, str | None]:
    """``at="0+"`` means 0 from the right; it must agree with ``direction``."""
    if not isinstance(at, str):
        return at, side
    match = _SIDE_ON_POINT.fullmatch(at)
    if match is None:
        return at, side
    written = "+" if match.group("side") in "+⁺" else "-"
    if side is not None and side != written:
        raise ToolError(
            f"The point '{short(at)}' and the direction '{side}' disagree: give the side once."
        )
    return match.group("point"), written


def _one_side(f: sp.Expr, x: sp.Symbol, point: sp.Expr, side: str | None, expr: sp.Expr) -> sp.Expr:
    try:
        value = sp.limit(f, x, point, side) if side else sp.limit(f, x, point)
    except Exception as exc:
        detail = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise ToolError(f"Could not find the limit of {short(expr)} ({detail}).") from None
    if value.has(sp.Limit) or value.has(sp.nan):
        raise ToolError(f"Could not find the limit of {short(expr)} exactly.")
    if value.has(sp.AccumBounds) and not isinstance(value, sp.AccumBounds):
        raise ToolError(f"The limit of {short(expr)} does not exist (it oscillates).")
    return value


def _mark(side: str | None) -> str:
    return {"+": "⁺", "-": "⁻"}.get(side or "", "")


def _shown(value: sp.Expr) -> str:
    return with_decimal(value)
