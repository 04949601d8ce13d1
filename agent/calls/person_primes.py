"""The order of a derivative as the person's primes count it.

Why: asked for `f'''`, a small model writes the derivative of f with order 2; it miscounted
the primes it read, and the tool answers f'' with no error. When the person's message writes
one primed form of the function the call differentiates (`f'''`, `h''(t)`) and the call gives
another order of 2 or more, the call takes the count of the primes. Only an order the model
wrote is corrected: a call with no order may mean one more derivative of `f''`. Reads the
message's notation and the call's fields, never the request's words.
"""

from __future__ import annotations

import re
from typing import Any

from agent.calls.said_once import FUNCTION_ALONE
from agent.workspace.record import Workspace

# A function's name with two or more primes in a message: `f'''`, `h''(t)`.
_PRIMED = re.compile(r"(?<![\w'])(?P<name>[^\W\d]\w*)(?P<primes>'{2,})")


def counted_order(
    tool: str, arguments: dict[str, Any], message: str, workspace: Workspace
) -> dict[str, Any] | None:
    """The call with the order the person's primes give, or None when it stands."""
    order = arguments.get("order")
    if tool != "derivative" or not isinstance(order, int) or order < 2:
        return None
    name = function_named(str(arguments.get("expression") or ""), workspace)
    if name is None:
        return None
    counts = {len(m["primes"]) for m in _PRIMED.finditer(message) if m["name"] == name}
    if len(counts) != 1 or order in counts:
        return None
    return {**arguments, "order": counts.pop()}


def function_named(expression: str, workspace: Workspace) -> str | None:
    """The name of the function the expression is, alone (`f`, `f(x)`, or its id)."""
    if (item := workspace.cited_alone(expression)) is not None:
        return item.name
    match = FUNCTION_ALONE.fullmatch(expression)
    if match is None or match["primes"] or match["name"] not in workspace.named:
        return None
    return match["name"]
