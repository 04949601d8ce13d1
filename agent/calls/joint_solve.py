"""Equations of one request solved together.

Why: a model given a problem in two unknowns ("two numbers add up to 97, one is 77 more")
often sends its equations to `solve` one at a time. The first result is then in terms of the
other unknown (`y = 97 - x`), and the numbers the person asked for never appear in any
result. When a later `solve` of the same request shares an unknown with such a result, the
equations are also solved together (the solve_system tool), and a determined solution is
added to that result, so the answer can quote it. Math only: which equations share unknowns,
never the request's words.
"""

from __future__ import annotations

import sympy as sp

from agent.messages import ToolResultMessage
from agent.workspace.math_values import math_key
from baml_client.types import SystemSolver
from tools import ToolResult
from tools.errors import ToolError
from tools.parsing import parse_expression

MAX_JOINT_EQUATIONS = 3


def joint_system(
    earlier: list[ToolResultMessage], current: ToolResultMessage
) -> SystemSolver | None:
    """The system of `current` (a successful solve) and the request's earlier solves whose
    results still depend on another unknown, when it has as many equations as unknowns."""
    if current.tool != "solve" or not current.ok:
        return None
    equation = _equation(current)
    open_ = [e for m in earlier if m.tool == "solve" and m.ok and (e := _open_equation(m))]
    if equation is None or not open_:
        return None
    equations = list(dict.fromkeys([*open_, equation]))
    if len(equations) < 2 or len(equations) > MAX_JOINT_EQUATIONS:
        return None
    unknowns = [_symbols(e) for e in equations]
    shared = set().union(*unknowns[:-1]) & unknowns[-1]
    if not shared or len(set().union(*unknowns)) != len(equations):
        return None
    return SystemSolver(tool="solve_system", equations=equations, variables=None)


def joint_note(system: SystemSolver, solved: ToolResult) -> str | None:
    """What the result adds, when the equations together fix every unknown to numbers."""
    solutions = solved.value if solved.ok else None
    if not solutions or not isinstance(solutions, list):
        return None
    for solution in solutions:
        if not isinstance(solution, dict) or any(
            getattr(v, "free_symbols", True) for v in solution.values()
        ):
            return None
    return f"solved together with {'; '.join(system.equations[:-1])}: {solved.text}"


def _equation(message: ToolResultMessage) -> str | None:
    """The equation a solve read, without its `for x`."""
    equation, found, _variable = message.subject.rpartition(" for ")
    return (equation if found else message.subject).strip() or None


def _open_equation(message: ToolResultMessage) -> str | None:
    """The equation of a solve whose result is in terms of another unknown (`y = 97 - x`)."""
    if not message.values or (equation := _equation(message)) is None:
        return None
    try:
        if any(parse_expression(value).free_symbols for value in message.values):
            return equation
    except (ToolError, ValueError, TypeError):
        return None
    return None


def _symbols(equation: str) -> set[sp.Symbol]:
    try:
        return set(math_key(equation).free_symbols)
    except (ToolError, ValueError, TypeError):
        return set()
