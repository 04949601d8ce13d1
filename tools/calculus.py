"""Derivatives and integrals (indefinite, definite, improper) of one expression.

Why no heavy simplification: ``simplify`` often costs 100 ms or more and rarely makes a
derivative shorter, so results are SymPy's own forms. Definite integrals that SymPy cannot do
in closed form fall back to a labelled numerical value; divergence is said plainly; a result
valid only under a condition (``∫_0^oo e^(-a x) dx = 1/a`` when ``a > 0``) states it.

Variables are complex by default (as SymPy's are); when that leaves ``|x|`` or ``sign(x)``
underived or unintegrated, the tool retries with the variable declared real and says
"(for real x)". The integral tool also accepts ``∫ x^2 dx`` and ``x^2 dx``: the trailing
differential names the variable instead of reading as ``d*x``; bounds written on the sign
(``∫_0^1``, ``\\int_{0}^{1}``, ``int_0^1``) make it definite. A definition (``g(t) = ...``,
"Let g(t) = ... .") is read by ``tools.function_notation`` and its variable is the default one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from tools import limits
from tools.errors import ParseError, ToolError
from tools.formatting import decimal, exact, order_mark, tidy, with_decimal
from tools.implicit import implicit_derivative, is_implicit
from tools.inputs import (
    as_real,
    one_point,
    read_point,
    read_univariate,
    read_variable,
    short,
    to_value,
    whole_number,
)
from tools.operators import Stripped, strip_derivative, strip_integral
from tools.result import ToolResult
from tools.vocabulary import GREEK_LETTERS, GREEK_NAMES

_DIFFERENTIAL = re.compile(
    r"(?s)(?P<body>.*?\S)(?P<joint>\s+|\s*\*\s*|(?<=\))|(?<=\d))"
    r"d(?P<var>[A-Za-z]\w*|[^\x00-\x7f])"
)
# Functions with corners or jumps: where SymPy's derivative has a value that is no slope
# (d|x|/dx = sign(x) is 0 at 0). The tangent tool reads the same list.
NOT_SMOOTH = (sp.Abs, sp.sign, sp.floor, sp.ceiling, sp.Heaviside, sp.Piecewise, sp.Min, sp.Max)
#: How the derivative's text joins its value at a point: "d/dx (f) = 2*x, which at x = 3 is 6".
AT_A_POINT = ", which "
# A "d" standing alone as a letter: then "3dx" may be 3*d*x.
_LETTER_D = re.compile(r"(?<![A-Za-z])d(?![A-Za-z])")


# A leading integral sign with bounds, as models write one: ∫_0^1, \int_{0}^{1}, int_0^1.
_BOUND = r"\{[^{}]*\}|[-+]?[\w.]+"
_INTEGRAL_SIGN = re.compile(
    rf"\s*(?:∫|\\int|int(?=\s*_))\s*(?:_\s*(?P<lower>{_BOUND})\s*\^\s*(?P<upper>{_BOUND}))?"
)

_LATEX_SPACE = re.compile(r"\\[,;:! ]")
_COMPARISON = re.compile(r"[<>!≤≥]")


def _split_integral_sign(text: object) -> tuple[object, str | None, str | None]:
    """``∫_0^1 (4x + 4) dx`` -> ``(4x + 4) dx`` and its bounds "0" and "1" (None without).

    Without this, ``int_0^1 (4x+4) dx`` read as a product with a symbol named int_0.
    """
    if not isinstance(text, str):
        return text, None, None
    match = _INTEGRAL_SIGN.match(text)
    if match is None:
        return text, None, None
    if match.group("lower") is None and match.group().strip().startswith("int"):
        return text, None, None  # "int" is a sign only with bounds: int_0 may be a name
    lower, upper = (match.group(k) for k in ("lower", "upper"))
    body = _LATEX_SPACE.sub(" ", text[match.end() :]).strip()  # \int x \, dx
    return body, *(b.strip("{}").strip() if b else None for b in (lower, upper))


def split_differential(text: object, name: str | None) -> tuple[object, str | None]:
    """``x^2 dx``: drop the trailing ``dx``, which names the variable (the integral sign
    before it is `_split_integral_sign`'s).

    Without this, ``x^2 dx`` would silently read as ``x^2*d*x``. Glued to a number
    (``-7j - 3dj``, as the model wrote it) it is a differential only when no other ``d`` is a
    letter of the expression.
    """
    if not isinstance(text, str):
        return text, name
    body = text.strip()
    match = _DIFFERENTIAL.fullmatch(body)
    glued = match is not None and not match.group("joint")
    if match and not (glued and _LETTER_D.search(match.group("body"))):
        raw = match.group("var")
        var_name = GREEK_LETTERS.get(raw, raw)
        if (len(var_name) == 1 or var_name in GREEK_NAMES) and name in (None, var_name):
            return match.group("body"), var_name
    return body, name


def _order(raw: object) -> int:
    """The derivative order as a whole number in 1..MAX_DERIVATIVE_ORDER."""
    return whole_number(raw, "The derivative order", 1, limits.MAX_DERIVATIVE_ORDER)


@dataclass(frozen=True)
class CalculusInput:
    """What a derivative or integral call works on, read as the tool reads it (the agent's
    checks compare it with what the request names)."""

    expr: sp.Expr
    var: sp.Symbol
    order: int = 1
    lower: object = None
    upper: object = None


def read_derivative(
    expression: str, variable: str | None = None, order: object = 1
) -> CalculusInput:
    """The expression, variable and order of a derivative call; ``d/dx (E)`` around the
    expression is taken off (`tools.operators`)."""
    name = read_variable(variable)
    n = _order(order)
    operator = strip_derivative(expression)
    if operator is not None:
        expression = operator.body
        if n == 1:  # "d/dx (d/dx E)" with no order given: the operators count
            n = _order(operator.order)
        if name is None and operator.variable is not None:
            name = _operator_variable(operator.variable, expression)
    expr, var = read_univariate(expression, name, "derivative", "differentiate with respect to")
    return CalculusInput(expr, var, n)


def derivative(
    expression: str, variable: str | None = None, order: object = 1, at: object = None
) -> ToolResult:
    """d^n/dvar^n of ``expression``; with a point ``at`` (``3``, ``"x = 3"``, ``[3]``), its
    value there: "the marginal cost at q = 15" is one call, so the point cannot be lost
    between a derivative and an evaluation. An equation of a curve (``x^2 + y^2 = 25``) is
    differentiated implicitly (`tools.implicit`)."""
    try:
        read = read_derivative(expression, variable, order)
    except ParseError:  # not one expression, nor a function's definition
        if not is_implicit(expression, read_variable(variable)):
            raise
        return implicit_derivative(str(expression), read_variable(variable), _order(order), at)
    expr, var, n = read.expr, read.var, read.order
    result = sp.diff(expr, var, n)
    note = ""
    if result.has(sp.Derivative):
        real_expr, real = as_real(expr, var)
        result = sp.diff(real_expr, real, n).xreplace({real: var})
        note = f" (for real {var})"
    if result.has(sp.Derivative):
        raise ToolError(f"Could not differentiate {exact(expr)} with respect to {var}.")
    power = order_mark(n)
    label = f"d{power}/d{var}{power}"
    summary = f"{label} ({exact(expr)})"
    text = f"{summary} = {with_decimal(result)}{note}"
    if one_point(at) is None:
        return ToolResult.success("derivative", summary, result, text)
    x0 = read_point(at, var, "The point")
    value = _value_at(result, var, x0, summary, smooth=not expr.has(*NOT_SMOOTH))
    where = f"{var} = {short(x0)}"
    return ToolResult.success(
        "derivative",
        f"{summary} at {where}",
        value,
        f"{text}{AT_A_POINT}at {where} is {with_decimal(value)}",
    )


def _value_at(result: sp.Expr, var: sp.Symbol, x0: sp.Expr, summary: str, smooth: bool) -> sp.Expr:
    """The derivative's value at ``x0`` (a point with letters, ``a``, gives the value in
    them), or an error where it has no finite value; where the function is not ``smooth``
    the one-sided values must agree."""
    if x0.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ToolError("The point must be a finite number.")
    value = result.subs(var, x0)
    if value.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or value.is_finite is False:
        raise ToolError(f"{summary} has no finite value at {var} = {short(x0)}.")
    if not smooth and x0.is_number:
        left, right = (sp.limit(result, var, x0, side) for side in ("-", "+"))
        if left != right:
            raise ToolError(
                f"{summary} has no value at {var} = {short(x0)}: it is {short(left)} from the "
                f"left and {short(right)} from the right."
            )
    return tidy(value)


def read_integral(
    expression: str,
    variable: str | None = None,
    lower: object = None,
    upper: object = None,
) -> CalculusInput:
    """The integrand, variable and bounds of an integral call; ``integrate E from a to b``,
    ``∫_0^1 E dx`` and a trailing ``dx`` are taken off."""
    words = strip_integral(expression)
    if words is not None:
        expression = words.body
        given = read_variable(variable)
        if words.variable is not None and given not in (None, words.variable):
            raise ToolError(
                f"The expression integrates in {words.variable} but the variable says "
                f"{given}: give the variable once."
            )
        if variable is None and words.variable is not None:
            variable = words.variable
        lower, upper = _same_bounds(words, lower, upper)
    expression, sign_lower, sign_upper = _split_integral_sign(expression)
    if sign_lower is not None:
        if lower is None and upper is None:
            lower, upper = sign_lower, sign_upper
        elif (str(lower).strip(), str(upper).strip()) != (sign_lower, sign_upper):
            raise ToolError(
                f"The integral sign says from {sign_lower} to {sign_upper} but the bounds say "
                f"from {lower} to {upper}: give the bounds once."
            )
    expression, differential = split_differential(expression, read_variable(variable))
    name = differential
    if (lower is None) != (upper is None):
        raise ToolError(
            "Give both bounds for a definite integral, or neither for an antiderivative."
        )
    expr, var = read_univariate(expression, name, "integral", "integrate with respect to")
    return CalculusInput(expr, var, 0, lower, upper)


def integral(
    expression: str,
    variable: str | None = None,
    lower: object = None,
    upper: object = None,
) -> ToolResult:
    """Antiderivative (``+ C``) or definite integral from ``lower`` to ``upper``."""
    read = read_integral(expression, variable, lower, upper)
    expr, var, lower, upper = read.expr, read.var, read.lower, read.upper
    if lower is None:
        return _indefinite(expr, var)
    a = _bound(lower, var, "The lower bound")
    b = _bound(upper, var, "The upper bound")
    if var in a.free_symbols or var in b.free_symbols:
        return _accumulated(expr, var, a, b)
    return _definite(expr, var, a, b)


def _accumulated(expr: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr) -> ToolResult:
    """An integral up to its own letter, as people write an accumulation ("the position as
    the integral of v from 0 to t"): the integrand runs in another letter, the result is a
    function of the bound's."""
    taken = expr.free_symbols | a.free_symbols | b.free_symbols
    free = (sp.Symbol(n) for n in ("u", "s", "w", "tau", "xi") if sp.Symbol(n) not in taken)
    dummy = next(free, sp.Dummy("u"))
    inner = expr.xreplace({var: dummy})
    summary = f"∫ from {exact(a)} to {exact(b)} of {exact(inner)} d{dummy}"
    result = sp.integrate(inner, (dummy, a, b))
    if result.has(sp.Integral):
        raise ToolError(f"Could not find a closed form for {summary}.")
    result = sp.expand(result) if result.is_polynomial(var) else sp.simplify(result)
    return ToolResult.success("integral", summary, result, f"{summary} = {exact(result)}")


def _bound(raw: object, var: sp.Symbol, what: str) -> sp.Expr:
    """A bound as a value; ``t = 3`` (the variable named, as people write "from t = 0 to
    t = 3") is 3 when ``t`` is the integral's variable."""
    if isinstance(raw, str) and raw.count("=") == 1 and not _COMPARISON.search(raw):
        name, _, value = raw.partition("=")
        if read_variable(name.strip()) != var.name:
            raise ToolError(
                f"{what} '{raw.strip()}' is for {name.strip()}, but the integral is in {var}."
            )
        raw = value
    return to_value(raw, what, {var.name})


def _operator_variable(name: str, expression: str) -> str | None:
    """The operator's variable, unless the math has no such letter ("d/dx (q^2 + 6q)" is
    about q: the variable is then left to `choose_variable`)."""
    return name if re.search(rf"(?<![A-Za-z]){name}(?![A-Za-z])", expression) else None


def _same_bounds(words: Stripped, lower: object, upper: object) -> tuple[object, object]:
    """The bounds written in the expression, where the call gave none; an error when the
    call gives others."""
    if words.lower is None:
        return lower, upper
    if lower is None and upper is None:
        return words.lower, words.upper
    given = (str(lower).replace(" ", ""), str(upper).replace(" ", ""))
    if given != (words.lower, words.upper):
        raise ToolError(
            f"The expression says from {words.lower} to {words.upper} but the bounds say from "
            f"{lower} to {upper}: give the bounds once."
        )
    return lower, upper


def _indefinite(expr: sp.Expr, var: sp.Symbol) -> ToolResult:
    summary = f"∫ {exact(expr)} d{var}"
    result = sp.integrate(expr, var)
    note = ""
    if result.has(sp.Integral) and expr.has(sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min):
        real_expr, real = as_real(expr, var)
        result = sp.integrate(real_expr, real).xreplace({real: var})
        note = f" (for real {var})"
    if result.has(sp.Integral):
        raise ToolError(f"Could not find an antiderivative of {exact(expr)} in closed form.")
    text = f"{summary} = {exact(result)} + C{note}"
    return ToolResult.success("integral", summary, result, text)


def _definite(expr: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr) -> ToolResult:
    summary = f"∫ from {exact(a)} to {exact(b)} of {exact(expr)} d{var}"
    result = sp.integrate(expr, (var, a, b))
    if _diverges(result):
        return ToolResult.success("integral", summary, result, f"{summary}: {_divergence(result)}")
    if isinstance(result, sp.Piecewise) and not result.args[0].expr.has(sp.Integral):
        first = result.args[0]
        text = (
            f"{summary} = {with_decimal(first.expr)} when {exact(first.cond)} (otherwise the "
            "integral does not converge or has no closed form)"
        )
        return ToolResult.success("integral", summary, result, text)
    if result.has(sp.Integral):
        return _numeric(expr, var, a, b, summary)
    return ToolResult.success("integral", summary, result, f"{summary} = {with_decimal(result)}")


def _diverges(result: sp.Expr) -> bool:
    return result in (sp.oo, -sp.oo, sp.zoo, sp.nan) or isinstance(result, sp.AccumBounds)


def _divergence(result: sp.Expr) -> str:
    if result == sp.oo:
        return "the integral diverges (to +oo)"
    if result == -sp.oo:
        return "the integral diverges (to -oo)"
    if isinstance(result, sp.AccumBounds):
        return "the integral diverges (it oscillates without settling)"
    return "the integral diverges"


def _numeric(expr: sp.Expr, var: sp.Symbol, a: sp.Expr, b: sp.Expr, summary: str) -> ToolResult:
    """No closed form: a numerical value when everything is a number, else an error."""
    if (expr.free_symbols - {var}) or not a.is_number or not b.is_number:
        raise ToolError(f"Could not find a closed form for {summary}.")
    value = sp.Integral(expr, (var, a, b)).evalf(15)
    if not value.is_number or value.has(sp.Integral, sp.nan, sp.zoo):
        raise ToolError(f"Could not find a closed form for {summary}, nor a numerical value.")
    approx = decimal(value)
    return ToolResult.success(
        "integral", summary, value, f"{summary} ≈ {approx} (numerical; no closed form found)"
    )
