"""A derivative's point held to the one the person wrote.

Why: asked for a rate at a moment in a follow-up ("what's its velocity at t = 1 s?", "the
marginal profit at q = 15"), a small model calls `derivative` on the right function and
drops the point: the tool answers the derivative as a function and the value asked for is
never stated. When the person's newest message writes the derivative's letter equal to a
number (`t = 1`, `q=15`) and the call has no point, the call takes those points. The tool's
text still states the derivative itself ("d/dt (...) = 20 - 10*t, which at t = 1 is 10"), so
nothing is lost when the person wanted both. Only math notation is read, never words: an
interval written with the letter (`from x = 0 to x = 3`) is no point, nor are the roots that
name an earlier equation ("the one that came out as x = -9 or x = 6", `calls/named_values`).
"""

from __future__ import annotations

import re
from typing import Any

from agent.calls.bounds import is_number, persons_interval
from agent.calls.named_values import among, named_by_values
from agent.calls.person_primes import function_named
from agent.calls.pointing import number_value
from agent.calls.variable_fit import only_letter
from agent.workspace.record import Workspace
from tools.parsing import parse_expression

# `t = 1`, `q=15`, `x = -1/2`, `x = 2.5` (a unit or a full stop may follow: `t = 1 s.`);
# not `f(x) = 3`, not `x = 2y + 1`, not `x = 3 * k`.
_POINT = re.compile(
    r"(?<![\w.'(])(?P<v>[a-z])\s*=\s*(?P<n>-?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?)"
    r"(?![\w(^]|\.\d|\s*[-+*/^]\s*[\w(])"
)

# A function's value in prime notation at a number: `g''(2)`, `f'(-1/2)`, `h'( 0.5 )`.
_PRIMED_AT = re.compile(
    r"(?<![\w'])(?P<name>[^\W\d]\w*)(?P<primes>'+)\s*\(\s*"
    r"(?P<n>-?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?)\s*\)"
)


def _letter(arguments: dict[str, Any]) -> str | None:
    """The letter the derivative is taken in: its `variable`, else its math's one letter."""
    if variable := str(arguments.get("variable") or "").strip():
        return variable
    return only_letter(arguments)


def persons_points(message: str, letter: str) -> list[str]:
    """The points the message writes for `letter` (`t = 1` as `t = 1`), in order; none when
    it writes an interval, which a point's pattern would read as its two ends."""
    text = message.replace("−", "-")
    if persons_interval(text) is not None:
        return []
    found = (m for m in _POINT.finditer(text) if m["v"] == letter)
    points = [f"{letter} = {m['n'].replace(' ', '')}" for m in found]
    return [p for p in dict.fromkeys(points) if is_number(p.split("=", 1)[1])]


def dropped_point(
    tool: str,
    written: dict[str, Any],
    resolved: dict[str, Any],
    message: str,
    workspace: Workspace,
) -> list[str] | None:
    """The points a derivative with none should take from the person's newest message; None
    when the call has points, is no derivative, or the message writes none for its letter
    but the roots it names an earlier result by (`resolved`: the call with its ids read,
    whose math says the letter)."""
    if tool != "derivative" or written.get("at"):
        return None
    letter = _letter(resolved)
    if letter is None:
        return None
    points = persons_points(message, letter) or primed_points(message, written, workspace)
    if (named := named_by_values(message, workspace)) is not None:
        values = [v for v in map(number_value, named.values) if v is not None]
        points = [p for p in points if not among(parse_expression(p.split("=", 1)[1]), values)]
    return points or None


def primed_points(message: str, written: dict[str, Any], workspace: Workspace) -> list[str]:
    """The numbers the message writes the differentiated function's primes at, as many
    primes as the call's order (`g''(2)` for the second derivative of g), as points in the
    function's one letter."""
    name = function_named(str(written.get("expression") or ""), workspace)
    item = workspace.named.get(name) if name is not None else None
    if item is None or len(item.params) != 1:
        return []
    order = written.get("order") or 1
    text = message.replace("−", "-").replace("′", "'").replace("’", "'")
    points = [
        f"{item.params[0]} = {m['n'].replace(' ', '')}"
        for m in _PRIMED_AT.finditer(text)
        if m["name"] == name and len(m["primes"]) == order
    ]
    return list(dict.fromkeys(points))
