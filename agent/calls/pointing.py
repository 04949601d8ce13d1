"""A call's copied math shown back to the model as the id (or name) of the item it restates.

Why: a small model learns from its own history more than from instructions. When it copies a
polynomial or a list of roots into a call, the history it reads next shows the same call
pointing at the item (`{"tool":"derivative","expression":"#3"}`), so the next reference it
writes is an id, which code resolves exactly, and not a copy it may get wrong. The call
that ran keeps its own arguments; only what the model reads back changes (`ToolCall.pointed`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from agent import wire
from agent.calls.resolve import MATH_FIELDS
from agent.workspace.math_values import math_key, same_math
from agent.workspace.record import Item, Workspace
from tools.errors import ToolError

# The field of each tool that holds its main math (its first); bounds and points are numbers,
# and a number restating a value item would point by coincidence. A system's list is apart.
_MAIN_FIELD = {tool: fields[0] for tool, fields in MATH_FIELDS.items() if tool != "solve_system"}
_EQUATION_FIELDS = frozenset({"equation"})
# Kinds an expression field may point at (an equation is not an expression to differentiate).
_EXPRESSION_KINDS = frozenset({"expression", "function", "value"})
_EQUATION_KINDS = frozenset({"equation", "expression", "function"})


def pointed_arguments(
    tool: str, arguments: dict[str, Any], workspace: Workspace
) -> dict[str, Any] | None:
    """The arguments with copied math written as the id of the item it restates; None when
    the call already points (or restates nothing), so nothing is stored."""
    changed = dict(arguments)
    field = _MAIN_FIELD.get(tool)
    if field is not None and isinstance(arguments.get(field), str):
        changed[field] = _pointer(arguments[field], field in _EQUATION_FIELDS, workspace)
    if tool == "solve_system" and isinstance(arguments.get("equations"), list):
        changed["equations"] = [
            _pointer(e, True, workspace) if isinstance(e, str) else e
            for e in arguments["equations"]
        ]
    if tool in wire.POINT_LIST_TOOLS and isinstance(arguments.get("at"), list):
        changed["at"] = _points(arguments["at"], workspace)
    return changed if changed != arguments else None


def _pointer(math: str, is_equation: bool, workspace: Workspace) -> str:
    """`math` as the newest item it restates (`#3`, or `f(x)` for a function), else as is."""
    if "#" in math or not math.strip():
        return math
    try:
        key = math_key(math)
    except (ToolError, ValueError, TypeError, RecursionError):
        return math
    if not key.free_symbols:  # a bare number points at a value only by coincidence
        return math
    kinds = _EQUATION_KINDS if is_equation else _EXPRESSION_KINDS
    for item in reversed(workspace.items):
        if item.kind in kinds and _restates(item, key, up_to_sign=is_equation):
            return written_reference(item, math, is_equation)
    return math


def _restates(item: Item, key: sp.Expr, up_to_sign: bool) -> bool:
    try:
        return same_math(math_key(item.body), key, up_to_sign=up_to_sign)
    except (ToolError, ValueError, TypeError, RecursionError):
        return False


def written_reference(item: Item, math: str, is_equation: bool) -> str:
    """How a call names the item: a function by its name and letters (`f(x)`, and
    `f(x) = 0` in an equation field when the call wrote one), anything else by its id."""
    if item.kind != "function" or item.name is None:
        return item.id
    head = f"{item.name}({', '.join(item.params)})" if item.params else item.name
    if is_equation and "=" in math:
        return f"{head} = 0"
    return head


def _points(at: list[Any], workspace: Workspace) -> list[Any]:
    """Points that are exactly the values of one roots item (in any order) as that id."""
    item = values_item(at, workspace.items)
    return [item.id] if item is not None and item.kind == "roots" else at


def values_item(at: list[Any], items: list[Item]) -> Item | None:
    """The newest of `items` whose values the points are, in any order (`x = -2` or `-2`,
    or the item's own id); None when there is none."""
    if len(at) == 1 and isinstance(at[0], str):
        match = next((i for i in items if i.id == at[0].strip() and i.values), None)
        if match is not None:
            return match
    values = [_point_value(p) for p in at]
    if not values or any(v is None for v in values):
        return None
    for item in reversed(items):
        if item.values and len(item.values) == len(values):
            held = [number_value(v) for v in item.values]
            if None not in held and _same_values(held, values):  # type: ignore[arg-type]
                return item
    return None


def _point_value(point: Any) -> sp.Expr | None:
    """`-2` or `x = -2` as the number -2; None for anything else (several letters, ids)."""
    if not isinstance(point, (str, int, float)) or "#" in str(point):
        return None
    text = str(point)
    if text.count("=") == 1:
        text = text.split("=")[1]
    return number_value(text)


def number_value(text: str) -> sp.Expr | None:
    try:
        value = math_key(text)
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    return value if not value.free_symbols else None


def _same_values(held: list[sp.Expr], given: list[sp.Expr]) -> bool:
    remaining = list(held)
    for value in given:
        match = next((h for h in remaining if same_math(h, value, up_to_sign=False)), None)
        if match is None:
            return False
        remaining.remove(match)
    return True
