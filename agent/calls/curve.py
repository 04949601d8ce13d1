"""A derivative the person wrote as `dy/dx` of a curve's equation is taken along the curve.

Why: for "find dy/dx if x^2 + xy + y^2 = 7" a small model calls the derivative of
`x^2 + xy + y^2` in x, dropping `= 7`: the tool holds y constant and answers `2*x + y`, where
the person asked for `-(2x + y)/(x + 2y)`. Leibniz's `dy/dx` in the person's message says y
depends on x; a derivative in x of math holding y that is one side of an equation the person
wrote (or the equation as `lhs - rhs`) is that equation's implicit derivative. Only notation
is read: the person's `dy/dx`, the call's math and the workspace's equations.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from agent.workspace.math_values import same_math
from agent.workspace.record import Workspace
from tools.errors import ToolError
from tools.parsing import parse, parse_expression

# `dy/dx`, `dy / dx`: the derivative of one letter with respect to another.
_LEIBNIZ = re.compile(r"(?<![A-Za-z0-9_])d([A-Za-z])\s*/\s*d([A-Za-z])(?![A-Za-z0-9_])")


def along_the_curve(
    tool: str, arguments: dict[str, Any], message: str, workspace: Workspace
) -> dict[str, Any] | None:
    """The derivative call on the person's curve it stands for; None when it stands."""
    expression = arguments.get("expression")
    if tool != "derivative" or not isinstance(expression, str) or "=" in expression:
        return None
    pairs = {(y, x) for y, x in _LEIBNIZ.findall(message) if y != x}
    try:
        math = parse_expression(expression)
    except ToolError:
        return None
    for y, x in pairs:
        wanted = arguments.get("variable")
        if wanted not in (None, x) or not {sp.Symbol(x), sp.Symbol(y)} <= math.free_symbols:
            continue
        for item in reversed(workspace.items):
            if item.kind == "equation" and _one_side_of(math, item.body):
                return {**arguments, "expression": item.body, "variable": x}
    return None


def _one_side_of(math: sp.Expr, equation: str) -> bool:
    try:
        parsed = parse(equation)
    except ToolError:
        return False
    if parsed.rhs is None:
        return False
    sides = (parsed.lhs, parsed.rhs, parsed.lhs - parsed.rhs)
    return any(same_math(math, side) for side in sides)
