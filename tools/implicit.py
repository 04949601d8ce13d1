"""Implicit differentiation: dy/dx along a curve given as an equation (``x^2 + y^2 = 25``).

Why the derivative tool reads an equation at all: "find dy/dx if x^2 + y^2 = 25" is a staple
of calculus homework, and the equation cannot always be solved for y (``x^3 + y^3 = 6xy``).
SymPy's ``idiff`` differentiates both sides with y a function of x. The independent letter is
the call's variable (``x`` when not given); the dependent one is the other letter of the
equation (``y`` when it has several). A point is both coordinates, ``x = 3, y = 4``.
"""

from __future__ import annotations

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.formatting import exact, order_mark, with_decimal
from tools.inputs import keep, names_of, one_point, read_variable
from tools.parsing import parse, parse_assignments
from tools.result import ToolResult

TOOL = "derivative"


def is_implicit(expression: object, variable: str | None) -> bool:
    """An equation with two letters or more whose left side is not one letter alone (``y =
    x^2`` is an explicit function, read as one by the derivative tool)."""
    if not isinstance(expression, str) or "=" not in expression:
        return False
    try:
        parsed = parse(expression, keep(variable))
    except ToolError:
        return False
    if parsed.rhs is None or parsed.definition is not None:
        return False
    lhs, rhs = parsed.lhs, parsed.rhs
    if isinstance(lhs, sp.Symbol) and lhs not in rhs.free_symbols:
        return False
    return len((lhs - rhs).free_symbols) >= 2


def implicit_derivative(
    equation: str, variable: str | None, order: int, at: object = None
) -> ToolResult:
    """d^n y/dx^n along the curve ``equation``; with a point (``x = 3, y = 4``), its value."""
    name = read_variable(variable)
    parsed = parse(equation, keep(name), "The equation")
    assert parsed.rhs is not None
    curve = parsed.lhs - parsed.rhs
    x = sp.Symbol(name or "x")
    if x not in curve.free_symbols:
        raise ParseError(
            f"The equation's letters are {names_of(curve.free_symbols)}: say which one "
            "the derivative is with respect to."
        )
    others = curve.free_symbols - {x}
    y = sp.Symbol("y") if sp.Symbol("y") in others else None
    if y is None and len(others) == 1:
        (y,) = others
    if y is None:
        raise ParseError(
            f"The equation has several other letters ({names_of(others)}): which one is "
            f"the function of {x}? Name it y, or solve for it first."
        )
    slope = sp.simplify(sp.idiff(curve, y, x, order))
    power = order_mark(order)
    label = f"d{power}{y}/d{x}{power}"
    summary = f"{label} along {exact(parsed.lhs)} = {exact(parsed.rhs)}"
    text = f"{summary}: {label} = {with_decimal(slope)}"
    if at == "" or one_point(at) is None:
        return ToolResult.success(TOOL, summary, slope, text)
    point = dict(_point(at, x, y))
    if curve.subs(point) != 0:
        raise ToolError(
            f"({point[x]}, {point[y]}) is not on {exact(parsed.lhs)} = {exact(parsed.rhs)}."
        )
    value = sp.simplify(slope.subs(point))
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise ToolError(f"{label} has no finite value at {x} = {point[x]}, {y} = {point[y]}.")
    where = f"{x} = {point[x]}, {y} = {point[y]}"
    return ToolResult.success(
        TOOL, f"{summary} at {where}", value, f"{text}; at {where} it is {with_decimal(value)}"
    )


def _point(at: object, x: sp.Symbol, y: sp.Symbol) -> list[tuple[sp.Symbol, sp.Expr]]:
    """``x = 3, y = 4``, ``["x = 3", "y = 4"]`` or ``(3, 4)``: both coordinates."""
    text = ", ".join(str(a) for a in at) if isinstance(at, (list, tuple)) else str(at)
    if "=" not in text:
        values = [parse(v.strip()).lhs for v in text.strip("() ").split(",") if v.strip()]
        if len(values) == 2:
            return [(x, values[0]), (y, values[1])]
    else:
        pairs = {sp.Symbol(n): v for n, v in parse_assignments(text, keep(x.name, y.name))}
        if set(pairs) == {x, y}:
            return [(x, pairs[x]), (y, pairs[y])]
    raise ParseError(f"A point on the curve needs both coordinates, as in '{x} = 3, {y} = 4'.")
