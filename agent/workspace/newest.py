"""`ans` in a tool call: the newest workspace item of the kind its place in the call takes.

Why: calculators call the last result `ans`, and a follow-up ("add them up", "its
derivative", "plug 2 into that") most often means the newest result. Picking that item's
number among a dozen lines is where a small model slips (it points at an older function or
the first roots); `ans` is one word, and code picks the item by type and recency, never by
the request's words: values where values are meant (`sum(ans)`, `ans[1]`, a point in `at`,
`(ans)^2` evaluated with no points), math with a variable where a tool works on math (a
derivative, an integral, a solve, a value at points). The call is stored with the id, so the
record and every later rebuild say exactly what ran.
"""

from __future__ import annotations

import re
from typing import Any

from agent import wire
from agent.workspace.record import Item, Workspace
from agent.workspace.resolve import MATH_FIELDS, ReferenceProblem
from tools.errors import ToolError
from tools.parsing import parse_expression

ANS = "ans"
_ANS = re.compile(rf"(?<![\w#']){ANS}(?!\w)")
# `sum(ans)` or `ans[2]`: the values are meant whatever the field.
_ANS_AS_VALUES = re.compile(
    rf"\b(?:{'|'.join(wire.COMBINATIONS)})\s*\(\s*{ANS}\s*\)|(?<![\w#']){ANS}\s*\[",
    re.IGNORECASE,
)
_VALUE_KINDS = ("roots", "values", "value")
_MATH_KINDS = ("function", "expression", "equation")


def with_ans_replaced(
    tool: str, arguments: dict[str, Any], workspace: Workspace
) -> tuple[dict[str, Any], set[str]]:
    """The arguments with every `ans` written as the id (or function name) it stands for,
    and the names of the fields that held one. Raises ReferenceProblem when no item fits."""
    replaced = dict(arguments)
    changed: set[str] = set()
    points = arguments.get("at")
    has_points = isinstance(points, list) and bool(points)
    for name in MATH_FIELDS.get(tool, ()):
        value = arguments.get(name)
        if isinstance(value, str) and _ANS.search(value):
            replaced[name] = _replace(value, _wanted(tool, name, has_points), workspace)
            changed.add(name)
        elif isinstance(value, list) and any(isinstance(v, str) and _ANS.search(v) for v in value):
            replaced[name] = [
                _replace(v, _MATH_KINDS, workspace) if isinstance(v, str) else v for v in value
            ]
            changed.add(name)
    if (
        tool in wire.POINT_LIST_TOOLS
        and isinstance(points, list)
        and any(isinstance(p, str) and _ANS.search(p) for p in points)
    ):
        replaced["at"] = [
            _replace(p, _VALUE_KINDS, workspace) if isinstance(p, str) else p for p in points
        ]
        changed.add("at")
    return replaced, changed


def _wanted(tool: str, field: str, has_points: bool) -> tuple[str, ...]:
    """The kinds `ans` may be in this field: a main math field takes math, except an
    evaluation with no points (it computes with values) and extrema (of a function, or the
    largest of some values); bounds and limit points are values."""
    if field != MATH_FIELDS[tool][0]:
        return _VALUE_KINDS
    if tool == "evaluate" and not has_points:
        return _VALUE_KINDS
    if tool == "extrema":
        return (*_MATH_KINDS, "roots", "values")
    return _MATH_KINDS


def _replace(text: str, kinds: tuple[str, ...], workspace: Workspace) -> str:
    """Each `ans` of one text as its item: inside a combination or indexed, the newest
    values; applied or primed (`ans(2)`, `ans'`), the newest math; elsewhere the newest
    item of `kinds`."""
    values_at = {m.start() + m.group(0).lower().find(ANS) for m in _ANS_AS_VALUES.finditer(text)}

    def one(match: re.Match[str]) -> str:
        if match.start() in values_at:
            wanted = _VALUE_KINDS
        elif text[match.end() :].lstrip()[:1] in ("(", "'"):
            wanted = _MATH_KINDS
        else:
            wanted = kinds
        return _pointer(newest_of(wanted, workspace))

    return _ANS.sub(one, text)


def newest_of(kinds: tuple[str, ...], workspace: Workspace) -> Item:
    """The newest item of one of `kinds` (math only when it has a variable: a number is no
    function to differentiate); ReferenceProblem when there is none."""
    for item in reversed(workspace.items):
        if item.kind in kinds and (item.kind in _VALUE_KINDS or _has_variable(item)):
            return item
    wanted = "values" if kinds == _VALUE_KINDS else "math with a variable"
    raise ReferenceProblem(
        f"{ANS} is the newest result, and this field takes {wanted}: there is none yet "
        f"(the workspace has {workspace.summary()}); put the math or an id in the field."
    )


def _has_variable(item: Item) -> bool:
    if item.kind == "function":
        return True
    body = item.body.partition(" = ")[0] + " - " + (item.body.partition(" = ")[2] or "0")
    try:
        return bool(parse_expression(body).free_symbols)
    except (ToolError, ValueError, TypeError, RecursionError):
        return False


def _pointer(item: Item) -> str:
    """A function by its name (so `ans(2)` and `ans'` read as `f(2)` and `f'`), else its id."""
    return item.name if item.kind == "function" and item.name else item.id
