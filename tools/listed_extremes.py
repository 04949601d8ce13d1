"""The largest and smallest of listed numbers: the extrema of a finite set.

Why in the extrema tool: "which root is the largest?" points the extrema tool at a list of
values as often as at a function (an id of roots resolves to the roots, comma-separated).
The maximum of a finite set is plain, exact math, so the tool answers it instead of refusing
a "function" with no variable. Bounds keep the values in [lower, upper].
"""

from __future__ import annotations

import sympy as sp

from tools.critical_points import read_bound, region_text
from tools.errors import ToolError
from tools.formatting import with_decimal
from tools.inputs import short
from tools.parsing import parse_expression
from tools.result import ToolResult
from tools.tokens import split_top_level

TOOL = "extrema"
# The words a result of listed values starts its input with (the workspace labels it so).
LARGEST, SMALLEST, BOTH = "largest of", "smallest of", "smallest and largest of"
MAX_LISTED = 50


def listed_numbers(expression: str) -> list[sp.Expr] | None:
    """Two or more real numbers written as a list (`-3, -2, 4`, brackets allowed), or None
    when the expression is anything else (a function: the calculus reading applies)."""
    text = expression.strip()
    if text[:1] in "[{" and text[-1:] in "]}":
        text = text[1:-1]
    parts = [p for p in split_top_level(text) if p.strip()]
    if not 2 <= len(parts) <= MAX_LISTED:
        return None
    try:
        values = [parse_expression(p) for p in parts]
    except ToolError:
        return None
    if any(v.free_symbols or v.has(sp.zoo, sp.nan) for v in values):
        return None
    if not all(v.is_extended_real for v in values):
        raise ToolError(
            "Only real numbers have a largest and a smallest; these values are not all real."
        )
    return values


def listed_extremes(
    values: list[sp.Expr], lower: object, upper: object, want: str | None
) -> ToolResult:
    """The largest (`want="max"`), the smallest (`"min"`) or both of `values` in the bounds."""
    low = read_bound(lower, None, "The lower bound", -sp.oo)
    high = read_bound(upper, None, "The upper bound", sp.oo)
    if not bool(low < high):
        raise ToolError(
            f"The lower bound {short(low)} must be smaller than the upper bound {short(high)}."
        )
    listed = ", ".join(sp.sstr(v) for v in values)
    kept = [v for v in values if bool(low <= v) and bool(v <= high)]
    region = sp.Interval(low, high)
    where = "" if region == sp.S.Reals else f" in {region_text([region])}"
    if not kept:
        raise ToolError(f"None of {listed} lies{where}: leave lower and upper out for all of them.")
    largest, smallest = max(kept, key=_key), min(kept, key=_key)
    if want == "max":
        text = f"the largest of {listed}{where} is {with_decimal(largest)}"
        return ToolResult.success(TOOL, f"{LARGEST} {listed}{where}", largest, text)
    if want == "min":
        text = f"the smallest of {listed}{where} is {with_decimal(smallest)}"
        return ToolResult.success(TOOL, f"{SMALLEST} {listed}{where}", smallest, text)
    text = (
        f"of {listed}{where}: the smallest is {with_decimal(smallest)}, "
        f"the largest {with_decimal(largest)}"
    )
    return ToolResult.success(TOOL, f"{BOTH} {listed}{where}", [smallest, largest], text)


def _key(value: sp.Expr) -> sp.Expr:
    """A value's place in the order (50 digits: 10^400 stays comparable, unlike a float)."""
    return sp.N(value, 50)
