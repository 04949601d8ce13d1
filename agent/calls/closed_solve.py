"""A solve of math with no unknown and no equation sign is a request for its value.

Why: a small model sends "what is the gcd of 84 and 126?" or "17 mod 5" to `solve` as
`gcd(84, 126)`; the tool reads it as `42 = 0` and answers "no solution (the equation is never
true)", and the model tells the person the gcd is not defined. Math that holds no letter, no
id and no relation (`=`, `<`) has nothing to solve for: it runs as `evaluate`. Only the
call's math is read, never the request's words.
"""

from __future__ import annotations

from typing import Any

from baml_client.types import QuadraticEvaluator
from tools import LimitError, ParseError
from tools.inequalities import is_inequality
from tools.parsing import parse


def closed_evaluation(tool: str, arguments: dict[str, Any]) -> QuadraticEvaluator | None:
    """The `evaluate` call a `solve` of closed math stands for; None for any other call."""
    equation = arguments.get("equation")
    if tool != "solve" or arguments.get("domain") or not isinstance(equation, str):
        return None
    if "#" in equation or "=" in equation or is_inequality(equation):
        return None
    try:
        parsed = parse(equation)
    except (ParseError, LimitError):
        return None
    if parsed.is_equation or parsed.lhs.free_symbols:
        return None
    return QuadraticEvaluator(tool="evaluate", expression=equation, at=[])
