"""A tool that works on a variable, given math with none, is asked for that math's value.

Why: a small model sends "what is the gcd of 84 and 126?" or "17 mod 5" to `solve` as
`gcd(84, 126)`; the tool reads it as `42 = 0` and answers "no solution (the equation is never
true)", and the model tells the person the gcd is not defined. "How many ways to pick 2 of 6"
reaches `extrema` ("the function is constant (15)") and an lcm reaches `limit`. Math that
holds no letter, no id and no relation (`=`, `<`), sent to solve, extrema or limit with no
domain or bounds, has nothing to vary: it runs as `evaluate`. Only the call's math is read,
never the request's words.
"""

from __future__ import annotations

from typing import Any

from baml_client.types import QuadraticEvaluator
from tools import LimitError, ParseError
from tools.inequalities import is_inequality
from tools.parsing import parse

# The tools that work on a variable, and the field that holds their math.
_NEEDS_A_VARIABLE = {"solve": "equation", "extrema": "expression", "limit": "expression"}


def closed_evaluation(tool: str, arguments: dict[str, Any]) -> QuadraticEvaluator | None:
    """The `evaluate` call a solve, extremum or limit of closed math stands for; None for any
    other call."""
    math = arguments.get(_NEEDS_A_VARIABLE.get(tool, ""))
    if not isinstance(math, str) or arguments.get("domain") or arguments.get("lower"):
        return None
    if arguments.get("upper") or "#" in math or "=" in math or is_inequality(math):
        return None
    try:
        parsed = parse(math)
    except (ParseError, LimitError):
        return None
    if parsed.is_equation or parsed.lhs.free_symbols:
        return None
    return QuadraticEvaluator(tool="evaluate", expression=math, at=[])
