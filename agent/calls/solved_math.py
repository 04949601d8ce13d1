"""An id of roots given whole where a tool needs math with a variable: the math they solve.

Why: "differentiate the equation that had solutions -1 and 2" names the equation by its
roots, and a small model writes the roots' id (`derivative #5`). A derivative, integral,
tangent, limit, series or rewrite of a list of numbers means nothing, so the only reading
is the math those roots solve (the id their line says they came from). Stored so, the
result's line says what ran. `evaluate` and `extrema` keep such an id: there it means each
value (`(#5)^2`, the largest of them).
"""

from __future__ import annotations

from typing import Any

from agent.calls.resolve import MATH_FIELDS
from agent.workspace.record import Workspace

# Tools whose main field is math in a variable, where a list of values has no meaning.
NEEDS_MATH = (
    "solve",
    "derivative",
    "integral",
    "tangent",
    "simplify",
    "factor",
    "expand",
    "domain",
    "range",
    "inverse",
    "limit",
    "series",
)


def solved_math(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The arguments with a whole-field id of several roots replaced by the id of the math
    they solve (an equal dict when there is none)."""
    if tool not in NEEDS_MATH:
        return arguments
    field = MATH_FIELDS[tool][0]
    value = arguments.get(field)
    item = workspace.cited_alone(value) if isinstance(value, str) else None
    if item is None or item.kind != "roots" or len(item.values) < 2:
        return arguments
    solved = item.of or item.source
    if solved is None or workspace.get(solved) is None:
        return arguments
    return {**arguments, field: f"#{solved}"}
