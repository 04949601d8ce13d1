"""SymPy tools the math agent calls: solve, derivative, evaluate, integral.

Every call returns a :class:`ToolResult` and never raises for bad math: the text is parsed by
a whitelisting parser (no ``eval``, see ``tools.parsing``) and the SymPy work runs in a worker
process under a wall-clock limit (see ``tools.worker`` and ``tools.limits``).
"""

from tools.api import derivative, evaluate, integral, solve
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
    "integral",
    "set_timeout",
    "shutdown",
    "solve",
    "warm_up",
]
