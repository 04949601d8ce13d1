"""Rewrite one expression exactly: simplify, factor or expand.

Why one tool with ``how`` rather than three: every tool is a schema the LLM reads on each
turn, and these three share their argument and their answer's shape. ``factor`` works over the
rationals (``x^2 - 2`` does not factor there, and the text says so); a whole number is split
into primes. A slow ``simplify`` or a huge ``expand`` is stopped by the worker's time limit.

``value`` is the rewritten SymPy expression. A whole number under ``factor`` keeps its value
(SymPy multiplies an unevaluated ``2**2*3`` back to 12 when it crosses the worker's pipe); its
prime factorization is in the text.
"""

from __future__ import annotations

import sympy as sp

from tools.errors import ToolError
from tools.formatting import exact
from tools.inputs import quoted, read_one
from tools.result import ToolResult

TOOL = "transform"
_HOW = {
    "simplify": "simplify",
    "simplified": "simplify",
    "factor": "factor",
    "factorise": "factor",
    "factorize": "factor",
    "factored": "factor",
    "expand": "expand",
    "expanded": "expand",
}


def transform(expression: str, how: str) -> ToolResult:
    """``expression`` simplified, factored (over the rationals) or expanded."""
    action = _how(how)
    expr, _ = read_one(expression, None, TOOL)
    summary = f"{action} {exact(expr)}"
    if action == "factor" and expr.is_Integer:
        return _factor_integer(expr, summary)
    if action == "factor":
        result = sp.factor(expr)
        if _irreducible(expr, result):
            text = (
                f"{exact(expr)} does not factor over the rationals (its roots are irrational or "
                "complex; the solve tool gives them)"
            )
            return ToolResult.success(TOOL, summary, result, text)
    elif action == "expand":
        result = sp.expand(expr)
    else:
        result = _simplified(expr)
    text = f"{exact(expr)} = {exact(result)}"
    if result == expr and (written := _worked_out_when_read(expression, expr)) is not None:
        text = f"{written} = {exact(result)}"
    elif result == expr:
        done = "simplified" if action == "simplify" else action + "ed"
        text += f" (already {done}{_other_forms(expr, action)})"
    return ToolResult.success(TOOL, summary, result, text)


def _worked_out_when_read(written: str, expr: sp.Expr) -> str | None:
    """The number as the person wrote it, where reading it already did the work (`sqrt(72)`
    is read as 6*sqrt(2), `0.375` as 3/8, `12/18` as 2/3): "already simplified" would tell
    them their own form was the simplest. None for anything else."""
    if expr.free_symbols or not isinstance(written, str) or any(c in written for c in "\\{}#"):
        return None  # LaTeX and ids are shown as read
    shown = " ".join(written.split())
    same = shown.replace(" ", "") == exact(expr).replace(" ", "")
    return None if same else shown


def _other_forms(expr: sp.Expr, action: str) -> str:
    """`; factored: (x - 1)*(x + 3)`: the other rewrites of a polynomial that did not change
    under the one asked for, so a request for one form answered by the neighbouring tool
    still holds the form the person asked for."""
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    if not symbols or not expr.is_polynomial(*symbols):
        return ""
    forms = {"factor": sp.factor(expr), "expand": sp.expand(expr)}
    return "".join(
        f"; {how}ed: {exact(form)}" for how, form in forms.items() if how != action and form != expr
    )


def _simplified(expr: sp.Expr) -> sp.Expr:
    """SymPy's simplest form; a polynomial as its terms collected (x^3 - 10x^2 + 15x + 36, as
    a course writes it; SymPy may give -(x - 4)*(-x^2 + 6x + 9))."""
    result = sp.simplify(expr)
    if result.free_symbols and result.is_polynomial(*result.free_symbols):
        return sp.expand(result)
    return result


def _how(raw: object) -> str:
    if isinstance(raw, str) and raw.strip().lower() in _HOW:
        return _HOW[raw.strip().lower()]
    raise ToolError(f"how must be 'simplify', 'factor' or 'expand', not {quoted(raw)}.")


def _irreducible(expr: sp.Expr, result: sp.Expr) -> bool:
    """A polynomial of degree 2 or more that ``factor`` gives back whole."""
    symbols = sorted(expr.free_symbols, key=lambda s: s.name)
    if not symbols or not expr.is_polynomial(*symbols):
        return False
    poly = sp.Poly(expr, *symbols)
    if poly.total_degree() < 2:
        return False
    _, factors = sp.factor_list(poly)
    return len(factors) == 1 and factors[0][1] == 1 and sp.expand(result - expr) == 0


def _factor_integer(number: sp.Integer, summary: str) -> ToolResult:
    if abs(number) < 2:
        raise ToolError(f"{number} has no prime factors.")
    primes = sp.factorint(abs(number))
    product = sp.Mul(
        *[sp.Pow(p, e, evaluate=False) if e > 1 else p for p, e in sorted(primes.items())],
        evaluate=False,
    )
    if number < 0:
        product = sp.Mul(-1, product, evaluate=False)
    if len(primes) == 1 and next(iter(primes.values())) == 1:
        text = f"{number} is prime" if number > 0 else f"{number} = -1 * {abs(number)} (a prime)"
        return ToolResult.success(TOOL, summary, number, text)
    return ToolResult.success(TOOL, summary, number, f"{number} = {exact(product)}")
