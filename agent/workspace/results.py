"""How a tool result reads in the workspace: its values as text, its kind, its origin in words.

Why apart from the record: each tool's result has its own shape (a list of roots, a system's
solutions as dicts, a vertical tangent as an equation, one-sided limits as a pair) and its
own words for what made it ("maximum of f on [0, 5]", "factored #3"); the record only numbers
and keeps items. Only what the tools read back becomes an item's value, so an id of it works
in a later call.
"""

from __future__ import annotations

import re
from typing import Any, Literal

import sympy as sp

from agent.messages import ToolResultMessage
from tools.errors import ToolError
from tools.formatting import exact
from tools.function_facts import FACTS, restriction
from tools.intervals import interval_text, is_interval_text
from tools.listed_extremes import BOTH, LARGEST, SMALLEST
from tools.parsing import parse_expression

# "solutions": a system's solutions, each a point `x = 2, y = 1` (used as a point, in `at`).
# "inequality": one the person wrote; "solution set": where one holds (`(-oo, -2) ∪ (2, oo)`),
# a part of the line, not values: no sum, no point, no math to put it in.
ItemKind = Literal[
    "equation",
    "expression",
    "function",
    "inequality",
    "roots",
    "solution set",
    "solutions",
    "value",
    "values",
]
# The rewriting tools (one BAML class whose `tool` literal says how) and their past participle.
REWRITES = {"simplify": "simplified", "factor": "factored", "expand": "expanded"}
# The same class's questions about a function (`tools.function_facts.FACTS`) whose answer is
# a part of the line, as an inequality's is.
SETS_OF_A_FUNCTION = ("domain", "range")
# A result with more values than this is no item (an id of it would be unreadable).
MAX_ITEM_VALUES = 50
_EXTREMES = {"max": "maximum", "min": "minimum"}
# The origin of an extrema result without a kind: its values are the critical points' x.
CRITICAL_POINTS = "critical points"
# Extrema of listed values (an id of roots): labelled by what the tool took of them.
LISTED = (BOTH, LARGEST, SMALLEST)
_SIDES = {"left": "-", "right": "+"}
_EQUALS_ZERO = re.compile(r"\s*=\s*0$")
_LIMIT_POINT = re.compile(r" as (\S+) → (.+)$")


def result_values(value: Any) -> tuple[str, ...]:
    """A result's exact values as SymPy text: a value, each of a list, a system's solution as
    the point `x = 2, y = 1`, an equation (a vertical tangent) as `x = 0`, a solution set (an
    inequality's) in interval notation, `(-oo, -2) ∪ (2, oo)`. None at all for a value no tool
    reads back: a limit that oscillates (`AccumBounds`) has nothing to point at."""
    if isinstance(value, sp.Set):
        return (interval_text(value),)
    items = value if isinstance(value, (list, tuple)) else [value]
    texts: list[str] = []
    for item in items:
        if item is None or isinstance(item, bool):
            continue
        if isinstance(item, sp.AccumBounds):
            return ()
        if isinstance(item, dict):
            texts.append(", ".join(f"{exact(k)} = {exact(v)}" for k, v in item.items()))
        elif isinstance(item, sp.Equality):
            texts.append(f"{exact(item.lhs)} = {exact(item.rhs)}")
        else:
            texts.append(exact(item))
    return tuple(texts) if len(texts) <= MAX_ITEM_VALUES else ()


def is_solution_set(tool: str, values: tuple[str, ...]) -> bool:
    """A solve whose value was a set (an inequality's answer, every x of an identity)."""
    return tool == "solve" and len(values) == 1 and is_interval_text(values[0])


def _number(values: tuple[str, ...]) -> bool:
    """A result that is one number, not a function of a letter: an integral up to its own
    letter (`∫ from 0 to t`) is a function of t, to differentiate or evaluate later."""
    try:
        return len(values) == 1 and not parse_expression(values[0]).free_symbols
    except (ToolError, ValueError, TypeError, RecursionError):
        return True


def result_kind(tool: str, arguments: dict[str, Any], values: tuple[str, ...]) -> ItemKind:
    """What a result is: roots, a solution set, a system's solutions, values (several, or
    critical points), a value (a number a tool computed at a point, a derivative's at a point,
    an extreme, a limit), an equation (a vertical tangent), else an expression (a derivative,
    a rewriting, a tangent line, a series, an inverse); a domain or a range is a solution set
    (a part of the line)."""
    if is_solution_set(tool, values) or tool in SETS_OF_A_FUNCTION:
        return "solution set"
    if tool == "solve":
        return "roots"
    if tool == "solve_system":
        return "solutions"
    if tool == "tangent" and len(values) == 1 and " = " in values[0]:
        return "equation"
    if len(values) > 1 or (tool == "extrema" and arguments.get("kind") is None):
        return "values"
    definite = tool == "integral" and arguments.get("lower") is not None and _number(values)
    at_points = tool == "derivative" and bool(arguments.get("at"))
    if tool in ("evaluate", "limit", "extrema") or definite or at_points:
        return "value"
    return "expression"


def origin(tool: str, arguments: dict[str, Any], subject: str, result: ToolResultMessage) -> str:
    """What made a result, in words: `roots of #1`, `derivative of h`, `antiderivative of
    #4`, `integral of #4 from 0 to 1`, `h at t = 2`, `maximum of f on [0, 5]`, `tangent to f
    at 2`, `factored #3`, `limit of #3 as x -> oo`, `series of f at 0`, `solution of the
    system #1, #2`; `subject` names the math the call worked on."""
    args = arguments
    if tool == "solve":
        what = "solution set" if is_solution_set(tool, result.values) else "roots"
        domain = args.get("domain")
        return f"{what} of {worked_on(tool, subject)}" + (f" ({domain})" if domain else "")
    if tool == "solve_system":
        return _system(args, result)
    if tool == "derivative":
        order = int(args.get("order") or 1)
        at = args.get("at") or []
        where = f" at {', '.join(map(str, at))}" if at else ""
        return f"{'' if order == 1 else ordinal(order) + ' '}derivative of {subject}{where}"
    if tool == "integral":
        lower, upper = args.get("lower"), args.get("upper")
        if lower is not None and upper is not None:
            return f"integral of {subject} from {lower} to {upper}"
        return f"antiderivative of {subject}"
    if tool == "evaluate":
        at = args.get("at") or []
        return f"{subject} at {', '.join(map(str, at))}" if at else subject
    if tool == "extrema":
        listed = next((w for w in LISTED if result.subject.startswith(w)), None)
        if listed is not None:  # the largest of a list of values (`#2`): no function's
            return f"{listed} {subject}"
        what = _EXTREMES.get(str(args.get("kind")), CRITICAL_POINTS)
        return f"{what} of {subject}{_interval(args.get('lower'), args.get('upper'))}"
    if tool == "tangent":
        return f"tangent to {subject} at {args.get('at')}"
    if tool in REWRITES:
        return f"{REWRITES[tool]} {subject}"
    if tool in FACTS:  # on the part of the line the person kept the function to, if any
        kept = restriction(subject)[1]
        where = "" if kept is None else f" on {kept}" if kept[0] in "[(" else f" for {kept}"
        return f"{tool} of {worked_on(tool, subject)}{where}"
    if tool == "limit":
        return _limit(args, subject, result)
    if tool == "series":
        return f"series of {subject} at {args.get('at') or 0}"
    return subject


def worked_on(tool: str, subject: str) -> str:
    """The math a result is of, as its origin names it: the roots of `q = 0` are q's, the
    inverse of `f, x >= 0` is f's."""
    if tool in FACTS:
        return restriction(subject)[0]
    return _EQUALS_ZERO.sub("", subject) if tool == "solve" else subject


def _system(args: dict[str, Any], result: ToolResultMessage) -> str:
    equations = args.get("equations") or []
    listed = ", ".join(map(str, equations)) if isinstance(equations, list) else str(equations)
    shown = listed if listed and len(listed) <= 60 else result.subject
    return f"{'solution' if len(result.values) == 1 else 'solutions'} of the system {shown}"


def _interval(lower: Any, upper: Any) -> str:
    """` on [0, 5]`, ` on [0, oo)`, ` on (-oo, 5]`, or nothing for the whole line."""
    if lower is None and upper is None:
        return ""
    left = f"[{lower}" if lower is not None else "(-oo"
    right = f"{upper}]" if upper is not None else "oo)"
    return f" on {left}, {right}"


def _limit(args: dict[str, Any], subject: str, result: ToolResultMessage) -> str:
    """`limit of #3 as x -> oo`, the point as the tool read it (side included: `0+`);
    `limits of ... from the left and the right` when the sides differ (two values)."""
    found = _LIMIT_POINT.search(result.subject)
    if found is not None:
        point = found.group(2).replace("⁺", "+").replace("⁻", "-")
        where = f"as {found.group(1)} -> {point}"
    else:
        where = f"at {args.get('to')}{_SIDES.get(str(args.get('direction')), '')}"
    if len(result.values) == 2:
        return f"limits of {subject} {where} from the left and the right"
    return f"limit of {subject} {where}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
