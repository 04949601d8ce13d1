"""SymPy tools the math agent calls: solve (an equation or an inequality, optionally on a
domain), derivative, evaluate, integral, solve_system, extrema, tangent, transform
(simplify/factor/expand), function_fact (a function's domain, range or inverse), limit,
series.

Every call returns a :class:`ToolResult` and never raises for bad math: the text is parsed by
a whitelisting parser (no ``eval``, see ``tools.parsing``) and the SymPy work runs in a worker
process under a wall-clock limit (see ``tools.worker`` and ``tools.limits``).
"""

from tools.api import (
    derivative,
    evaluate,
    extrema,
    function_fact,
    integral,
    limit,
    series,
    solve,
    solve_system,
    tangent,
    transform,
)
from tools.errors import LimitError, ParseError, ToolError, ToolTimeout
from tools.limits import set_timeout
from tools.result import ToolResult
from tools.worker import shutdown, warm_up

__all__ = [
    "LimitError",
    "ParseError",
    "ToolError",
    "ToolResult",
    "ToolTimeout",
    "derivative",
    "evaluate",
    "extrema",
    "function_fact",
    "integral",
    "limit",
    "series",
    "set_timeout",
    "shutdown",
    "solve",
    "solve_system",
    "tangent",
    "transform",
    "warm_up",
]
