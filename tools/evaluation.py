"""Substitute values into an expression and give the exact number.

``at`` is a number, a text value (``"3"``, ``"-1/2"``, ``"pi"``), several assignments
(``"x=1, y=2"``) or a mapping ``{"x": 1}``. Values stay exact (``0.1`` is ``1/10``). Where the
expression is undefined (``1/x`` at 0) the error says so and, when it exists, gives the limit.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp

from tools.errors import ToolError
from tools.formatting import exact, with_decimal
from tools.inputs import choose_variable, keep, names_of, read_function, read_variable, to_value
from tools.parsing import parse_assignments, parse_name
from tools.result import ToolResult

TOOL = "evaluate"


def evaluate(expression: str, at: object, variable: str | None = None) -> ToolResult:
    """The exact value of ``expression`` at ``at``."""
    name = read_variable(variable)
    if _no_point(at):
        return _closed_value(expression, name)
    named = _read_assignments(at, name)
    keys = [k for k, _ in named] if named is not None else []
    expr, _ = read_function(expression, TOOL, name, keys)
    if named is None:
        value = to_value(at, "The value", keep(name))
        var = choose_variable(
            expr.free_symbols, name, "use the value for", "expression"
        ) or sp.Symbol(name or "x")
        named = [(var.name, value)]
    mapping = {sp.Symbol(k): v for k, v in named}
    shown = ", ".join(f"{k} = {exact(v)}" for k, v in named)
    summary = f"{exact(expr)} at {shown}"
    missing = expr.free_symbols - set(mapping)
    if missing:
        raise ToolError(
            f"The expression also contains {names_of(missing)}: give a value for "
            f"{'it' if len(missing) == 1 else 'each'} too, e.g. "
            f"'{', '.join(f'{s}=1' for s in sorted(mapping | dict.fromkeys(missing), key=str))}'."
        )
    result = expr.subs(mapping, simultaneous=True)
    if result in (sp.oo, -sp.oo):
        raise ToolError(f"The expression is infinite ({result}) at {shown}.")
    if result.has(sp.nan, sp.zoo) or (result.is_number and result.is_finite is False):
        raise ToolError(_undefined(expr, mapping, shown))
    result = _tidy(result)
    if result.free_symbols:
        raise ToolError(f"After substituting {shown} the result still contains variables.")
    return ToolResult.success(TOOL, summary, result, with_decimal(result))


def _no_point(at: object) -> bool:
    return at is None or (
        isinstance(at, (str, list, tuple, set, Mapping))
        and not (at.strip() if isinstance(at, str) else at)
    )


def _closed_value(expression: str, name: str | None) -> ToolResult:
    """No point given: an expression without variables ("(-3)^2 + (-2)^2") is just computed;
    one with variables needs a point, and the error says which."""
    expr, _ = read_function(expression, TOOL, name, [])
    if expr.free_symbols:
        raise ToolError(
            f"No value to substitute was given for {names_of(expr.free_symbols)}: say where "
            "to evaluate."
        )
    result = _tidy(expr)
    if result.has(sp.nan, sp.zoo) or (result.is_number and result.is_finite is False):
        raise ToolError(f"{expression.strip()} is undefined (a division by zero or the like).")
    return ToolResult.success(TOOL, exact(expr), result, with_decimal(result))


def _read_assignments(at: object, name: str | None) -> list[tuple[str, sp.Expr]] | None:
    """Named values from a mapping or ``"x=1, y=2"``; None for a single bare value."""
    if isinstance(at, Mapping):
        if not at:
            raise ToolError("No value to substitute was given: say where to evaluate.")
        pairs = []
        for key, raw in at.items():
            key_name = parse_name(key.name if isinstance(key, sp.Symbol) else key)  # type: ignore[arg-type]
            pairs.append((key_name, to_value(raw, f"The value of {key_name}", keep(key_name))))
        return pairs
    if isinstance(at, (list, tuple, set)):
        raise ToolError("Give one point at a time, e.g. '3' or 'x=1, y=2'.")
    if isinstance(at, str) and "=" in at:
        names = [part.split("=")[0].strip() for part in at.split(",") if "=" in part]
        return parse_assignments(at, keep(name, *names))
    if isinstance(at, str) and not at.strip():
        raise ToolError("No value to substitute was given: say where to evaluate.")
    return None


def _tidy(value: sp.Expr) -> sp.Expr:
    """A shorter exact form when a cheap simplification finds one."""
    if value.is_Rational or not value.is_number or sp.count_ops(value) > 40:
        return value
    try:
        simpler = sp.simplify(value)
    except Exception:
        return value
    return simpler if sp.count_ops(simpler) < sp.count_ops(value) else value


def _undefined(expr: sp.Expr, mapping: dict[sp.Symbol, sp.Expr], shown: str) -> str:
    """Why there is no value, with the limit when one variable approaches a finite point."""
    message = f"The expression is undefined at {shown}"
    if len(mapping) == 1:
        ((var, point),) = mapping.items()
        try:
            limit = sp.limit(expr, var, point)
        except Exception:
            limit = None
        if limit is not None and limit.is_finite and not limit.has(sp.Limit):
            return f"{message}; its limit there is {with_decimal(limit)}."
    return f"{message} (division by zero or similar)."
