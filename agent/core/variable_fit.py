"""A calculus call in a letter its math lacks runs in the math's one letter.

Why: a small model carries the letter of an earlier task into a new call (the derivative of
`q^3 + 9q^2` sent with variable t), and the tool then treats the whole expression as a
constant and answers 0, a wrong answer with no error. Only math is read: the call's
expression, its variable, and whether the person's message writes that letter at all.
"""

from __future__ import annotations

import re
from typing import Any

from tools.calculus import read_derivative, read_integral
from tools.errors import ToolError
from tools.operators import strip_derivative, strip_integral

# A letter standing alone in math ("q" in "9q^2 + q"); e, E and I are constants.
_LETTER = re.compile(r"(?<![A-Za-z_])([A-Za-z])(?![A-Za-z_])")
_CONSTANTS = frozenset({"e", "E", "I"})


def fitted_variable(tool: str, arguments: dict[str, Any], message: str) -> dict[str, Any] | None:
    """The call's arguments in its math's one letter, when it names a variable that math
    lacks and the person's message never writes; None when the call stands as it is."""
    if tool not in ("derivative", "integral"):
        return None
    expression = str(arguments.get("expression") or "")
    stripped = strip_derivative(expression) if tool == "derivative" else strip_integral(expression)
    body = stripped.body if stripped is not None else expression
    variable = str(arguments.get("variable") or "").strip() or (
        stripped.variable if stripped is not None else None
    )
    letters = set(_LETTER.findall(body)) - _CONSTANTS
    if not variable or len(letters) != 1 or variable in letters:
        return None
    if variable in _LETTER.findall(message):  # "with respect to y": taken at its word
        return None
    fixed = {**arguments, "variable": next(iter(letters))}
    if stripped is not None:  # the operator's letter is the wrong one: its math, as fields
        fixed["expression"] = stripped.body
        if tool == "derivative" and stripped.order > 1 and not arguments.get("order"):
            fixed["order"] = stripped.order
        if tool == "integral" and stripped.lower is not None and not arguments.get("lower"):
            fixed["lower"], fixed["upper"] = stripped.lower, stripped.upper
    return fixed if _readable(tool, fixed) else None


def _readable(tool: str, arguments: dict[str, Any]) -> bool:
    """Whether the calculus tool reads this call (an integral whose bounds name another
    letter than its variable does not)."""
    expression, variable = str(arguments.get("expression")), str(arguments.get("variable"))
    try:
        if tool == "derivative":
            read_derivative(expression, variable, arguments.get("order") or 1)
        else:
            read_integral(expression, variable, arguments.get("lower"), arguments.get("upper"))
    except (ToolError, ValueError, TypeError, RecursionError):
        return False
    return True
