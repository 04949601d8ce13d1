"""The tangent line to y = f(x) at a point, exactly.

Why a tool: "the tangent at x = 3" is derivative, evaluate twice and algebra; one call cannot
mix up the slope and the point. The slope is f'(x0); where f' has no finite value there, the
one-sided limits of the difference quotient decide: both infinite with one sign (or one side
infinite and f undefined on the other, ``sqrt(x)`` at 0) is a vertical tangent ``x = x0``;
different slopes (``|x|`` at 0) or a cusp mean no tangent line, said in one sentence.

``value`` is the right side of ``y = m*x + b`` as a SymPy expression in the variable; a
vertical tangent's value is ``Eq(x, x0)``.
"""

from __future__ import annotations

import re

import sympy as sp

from tools.calculus import NOT_SMOOTH
from tools.errors import ToolError
from tools.formatting import tidy, with_decimal
from tools.inputs import (
    as_real,
    in_sentence,
    one_point,
    read_point,
    read_univariate,
    short,
    to_value,
)
from tools.result import ToolResult
from tools.tokens import split_top_level

TOOL = "tangent"
_PAIR = re.compile(r"(?s)\s*\((?P<inner>.*)\)\s*")


def tangent(expression: str, at: object, variable: str | None = None) -> ToolResult:
    """The tangent line to ``expression`` where its variable is ``at``."""
    expr, var = read_univariate(expression, variable, TOOL, "take the tangent in")
    x0, y_given = _point(at, var)
    f, x = as_real(expr, var)
    y0 = _finite(f.subs(x, x0))
    shown = short(x0)
    summary = f"tangent to y = {sp.sstr(expr)} at {var} = {shown}"
    if y0 is None:
        raise ToolError(
            f"{short(expr)} is undefined at {var} = {shown}, so there is no tangent line there."
        )
    if y_given is not None and sp.simplify(y_given - y0) != 0:
        raise ToolError(
            f"The point ({shown}, {short(y_given)}) is not on the curve: at {var} = {shown} "
            f"the value is {in_sentence(y0)}."
        )
    slope = None if f.has(*NOT_SMOOTH) else _finite(sp.diff(f, x).subs(x, x0))
    if slope is None:
        slope = _one_sided_slope(f, x, x0, y0, var, expr)
        if slope is None:
            line = sp.Eq(var, x0)
            text = (
                f"vertical tangent at {var} = {shown}: the line {var} = {shown} (the slope is "
                f"infinite there)"
            )
            return ToolResult.success(TOOL, summary, line, text)
    line = sp.expand(slope * (var - x0) + y0)
    text = (
        f"tangent at {var} = {shown}: y = {sp.sstr(line)} (slope {with_decimal(slope)}, through "
        f"({shown}, {sp.sstr(y0)}))"
    )
    return ToolResult.success(TOOL, summary, line, text)


def _point(at: object, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr | None]:
    """``3``, ``"x = 3"``, or a point on the curve ``"(3, 9)"`` / ``(3, 9)``; a list of one
    (``[3]``) is that one."""
    at = one_point(at)
    pair: list[object] | None = None
    if isinstance(at, (list, tuple)):
        pair = list(at)
    elif isinstance(at, str):
        match = _PAIR.fullmatch(at)
        if match is not None and len(split_top_level(match.group("inner"))) == 2:
            pair = list(split_top_level(match.group("inner")))
    if pair is None:
        x0 = read_point(at, var, "The point")
        _check_real(x0, var)
        return x0, None
    if len(pair) != 2:
        raise ToolError("The point must be one number, or a pair such as '(3, 9)'.")
    x0 = read_point(pair[0], var, "The point")
    _check_real(x0, var)
    y0 = to_value(pair[1], "The point's y value")
    if y0.free_symbols - x0.free_symbols:
        raise ToolError("The point's y value must be a number.")
    return x0, y0


def _check_real(x0: sp.Expr, var: sp.Symbol) -> None:
    if x0.is_number and (x0.is_extended_real is False or not x0.is_finite):
        raise ToolError(f"The point must be a finite real {var} value, not {short(x0)}.")


def _finite(value: sp.Expr) -> sp.Expr | None:
    """``value`` tidied, or None when it is infinite, undefined or not real."""
    if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_finite is False:
        return None
    if value.is_number and value.is_extended_real is False:
        return None
    return tidy(value)


def _one_sided_slope(
    f: sp.Expr, x: sp.Symbol, x0: sp.Expr, y0: sp.Expr, var: sp.Symbol, expr: sp.Expr
) -> sp.Expr | None:
    """The slope from the difference quotient; None for a vertical tangent; else an error."""
    h = sp.Dummy("h", real=True)
    quotient = (f.subs(x, x0 + h) - y0) / h
    left, right = (_side_limit(quotient, h, side) for side in ("-", "+"))
    shown = short(x0)
    if left is not None and right is not None and left == right:
        return None if left in (sp.oo, -sp.oo) else left
    infinite = (sp.oo, -sp.oo)
    if (left in infinite and right is None) or (right in infinite and left is None):
        return None  # defined on one side only, vertical there (sqrt(x) at 0)
    if left is not None and right is not None:
        kind = "a cusp" if left in infinite and right in infinite else "a corner"
        raise ToolError(
            f"{short(expr)} is not differentiable at {var} = {shown} ({kind}: slope "
            f"{_slope_text(left)} from the left, {_slope_text(right)} from the right), so it "
            "has no tangent line there."
        )
    raise ToolError(f"Could not find the slope of {short(expr)} at {var} = {shown}.")


def _side_limit(quotient: sp.Expr, h: sp.Symbol, side: str) -> sp.Expr | None:
    try:
        value = sp.limit(quotient, h, 0, side)
    except Exception:
        return None
    if value in (sp.oo, -sp.oo):
        return value
    return _finite(value) if not value.has(sp.Limit, sp.AccumBounds) else None


def _slope_text(value: sp.Expr) -> str:
    return {sp.oo: "∞", -sp.oo: "-∞"}.get(value, with_decimal(value))
