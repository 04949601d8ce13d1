"""The Taylor polynomial of one expression around a point.

Why the O() term is left out of the text: the LLM quotes the text and the parser reads it back,
and ``O(x**6)`` is not math a person types; the terms left out are stated in words instead. When
the expansion has negative or fractional powers (``1/x``, ``sqrt(x)``) it is called a series,
not a Taylor polynomial.

Why ``degree`` (the highest power kept) and not SymPy's ``n`` (the first power left out): people
ask "up to x^4", "degree 2", "up to the (x - 1)^2 term", and the model copies that number; read
as the first power left out it lost the last term. SymPy is called with ``n = degree + 1``, also
for a Laurent or Puiseux series, where ``n`` keeps SymPy's meaning.

``value`` is the polynomial (the series without its O() term) as a SymPy expression.
"""

from __future__ import annotations

import sympy as sp

from tools import limits
from tools.errors import ToolError
from tools.inputs import one_point, read_point, read_univariate, short, whole_number
from tools.result import ToolResult

TOOL = "series"


def series(
    expression: str, at: object = "0", degree: object = 5, variable: str | None = None
) -> ToolResult:
    """The expansion of ``expression`` around ``at`` up to and including power ``degree`` of
    (x - at): degree 2 keeps the terms in 1, (x - at) and (x - at)^2."""
    expr, var = read_univariate(expression, variable, TOOL, "expand in")
    degree_ = whole_number(degree, "The degree", 0, limits.MAX_SERIES_DEGREE)
    at = one_point(at)  # `[]` copied from evaluate's points: the default point
    point = read_point("0" if at is None else at, var, "The point")
    if point.free_symbols:
        raise ToolError("The point of a series must be a number.")
    expansion = sp.series(expr, var, point, degree_ + 1)
    if expansion.has(sp.Subs, sp.Derivative):
        raise ToolError(f"Could not expand {short(expr)} around {var} = {short(point)}.")
    polynomial = expansion.removeO()
    rest = expansion.getO()
    where = f"{var} = {sp.sstr(point)}" if point.is_finite else f"{var} → {sp.sstr(point)}"
    summary = f"series of {sp.sstr(expr)} around {where}"
    name = "Taylor polynomial" if _is_taylor(polynomial, var, point) else "series"
    if rest is None:
        note = f"exact: the expression equals its {name} around {where}"
    else:
        note = f"{name} around {where}; the terms left out are {sp.sstr(rest.expr)} and smaller"
    terms = sp.sstr(polynomial, order="rev-lex")  # ascending powers, as a series is read
    text = f"{sp.sstr(expr)} {'=' if rest is None else '≈'} {terms} ({note})"
    return ToolResult.success(TOOL, summary, polynomial, text)


def _is_taylor(polynomial: sp.Expr, var: sp.Symbol, point: sp.Expr) -> bool:
    """Only whole nonnegative powers of (var - point)."""
    if not point.is_finite:
        return False
    shift = sp.Dummy("u")
    return bool(sp.expand(polynomial.subs(var, shift + point)).is_polynomial(shift))
