"""Ids and names inside a tool call's math, replaced by the exact math they stand for.

The model writes `#4`, `#1` (an equation), `(#2)^2` (each root squared), `#2[1]`, `sum(#2)`,
`max(#2)`, `h`, `h'`, `h(3)`, `h'(2)`, or `#4 = 0`; `at: ["#2"]` means every root as a point.
This module turns such a call into the plain math the tools read, so the model never copies
a number or a polynomial. An unknown id is an error sentence that lists what exists; the
model reads it as a tool error and fixes its call.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from agent.workspace.record import Item, Workspace
from tools.errors import ToolError
from tools.parsing import parse_expression, split_top_level

# Fields that hold math, per tool; `at` (a list of points) is read apart.
MATH_FIELDS = {
    "solve": ("equation",),
    "derivative": ("expression",),
    "evaluate": ("expression",),
    "integral": ("expression", "lower", "upper"),
}
_AGGREGATE = re.compile(
    r"\b(sum|product|prod|mean|average|min|max|count)\s*\(\s*#(\d+)\s*\)", re.IGNORECASE
)
_INDEXED = re.compile(r"#(\d+)\s*\[\s*(-?\d+)\s*\]")
_ID = re.compile(r"#(\d+)")
# A result of resolving kept readable for the model's error messages and the tool's echo.
MAX_RESOLVED_CHARS = 2000


class ReferenceProblem(Exception):
    """A call points at something that does not exist or cannot be used that way."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _wrap(text: str) -> str:
    return f"({text})"


def _item(workspace: Workspace, number: int) -> Item:
    item = workspace.get(number)
    if item is None:
        raise ReferenceProblem(f"There is no #{number}: the workspace has {workspace.summary()}.")
    return item


def _expression_of(item: Item) -> str:
    """An item as one expression: an equation `lhs = rhs` as `lhs - (rhs)`."""
    if item.kind == "equation":
        lhs, _, rhs = item.body.partition(" = ")
        return lhs if rhs.strip() == "0" else f"{lhs} - ({rhs})"
    if item.values and len(item.values) > 1:
        raise ReferenceProblem(
            f"{item.id} holds {len(item.values)} values; pick one with {item.id}[1], or use "
            f"sum({item.id}), product({item.id}), mean({item.id}), max({item.id}), min({item.id})."
        )
    return item.values[0] if item.values else item.body


def _values(item: Item) -> list[str]:
    if item.values:
        return list(item.values)
    if item.kind in ("value", "expression"):
        return [item.body]
    raise ReferenceProblem(f"{item.id} is {item.kind} {item.shown}, not a list of values.")


def _aggregate(kind: str, item: Item) -> str:
    values = [parse_expression(v) for v in _values(item)]
    kind = kind.lower()
    if kind == "count":
        return str(len(values))
    if kind in ("min", "max"):
        if not all(v.is_real for v in values):
            raise ReferenceProblem(f"{kind}({item.id}) needs real values; {item.id} has others.")
        chosen = max(values) if kind == "max" else min(values)
        return _wrap(sp.sstr(chosen))
    terms = [_wrap(sp.sstr(v)) for v in values]
    if kind == "sum":
        return _wrap(" + ".join(terms))
    if kind in ("product", "prod"):
        return _wrap("*".join(terms))
    return _wrap(f"({' + '.join(terms)})/{len(terms)}")  # mean, average


def _indexed(workspace: Workspace, match: re.Match[str]) -> str:
    item = _item(workspace, int(match.group(1)))
    values = _values(item)
    index = int(match.group(2))
    if not 1 <= index <= len(values):
        raise ReferenceProblem(
            f"{item.id} has {len(values)} value(s): use {item.id}[1] to {item.id}[{len(values)}]."
        )
    return _wrap(values[index - 1])


def _function_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w#]){re.escape(name)}('*)(?![\w])")


def _call_args(text: str, start: int) -> tuple[list[str], int] | None:
    """The comma-separated arguments of a call whose `(` is at `start`, and where it ends."""
    if start >= len(text) or text[start] != "(":
        return None
    depth, args, begin = 0, [], start + 1
    for i in range(start, len(text)):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                args.append(text[begin:i])
                return [a.strip() for a in args], i + 1
        elif ch == "," and depth == 1:
            args.append(text[begin:i])
            begin = i + 1
    return None


def _function_value(item: Item, primes: int, args: list[str] | None) -> str:
    """`h`, `h'`, `h(3)`, `h''(t)` as plain math."""
    params = [sp.Symbol(p) for p in item.params]
    body = parse_expression(item.body)
    if primes:
        if len(params) != 1:
            raise ReferenceProblem(f"{item.name}' needs a function of one variable.")
        body = sp.diff(body, params[0], primes)
    if args is not None:
        if len(args) != len(params):
            raise ReferenceProblem(
                f"{item.name} takes {len(params)} argument(s): {item.name}({', '.join(item.params)})."
            )
        values = [parse_expression(a) for a in args]
        body = body.xreplace(dict(zip(params, values, strict=True)))
    return _wrap(sp.sstr(body))


def _names(text: str, workspace: Workspace) -> str:
    """Every use of a defined name replaced by its math (longest names first)."""
    for name in sorted(workspace.names, key=len, reverse=True):
        item = workspace.names[name]
        pattern = _function_pattern(name)
        out, position = [], 0
        for match in pattern.finditer(text):
            if match.start() < position:
                continue
            call = _call_args(text, match.end()) if item.params else None
            end = call[1] if call else match.end()
            out.append(text[position : match.start()])
            out.append(_function_value(item, len(match.group(1)), call[0] if call else None))
            position = end
        text = "".join(out) + text[position:]
    return text


def _restated_definition(text: str, workspace: Workspace) -> str | None:
    """`h(t) = <h's body>` restated, or `h(t) = 0`: the math it means for the tools."""
    match = re.match(r"\s*([A-Za-z]\w*)\s*\(\s*([A-Za-z]\w*)\s*\)\s*=(?!=)(.*)$", text, re.S)
    if match is None or match.group(1) not in workspace.names:
        return None
    item = workspace.names[match.group(1)]
    rhs = match.group(3).strip()
    chained = None
    if rhs.count("=") == 1:  # h(t) = <body> = 0: the equation on h
        rhs, _, chained = (part.strip() for part in rhs.partition("="))
    try:
        value = parse_expression(rhs)
        body = parse_expression(item.body)
    except ToolError:
        return None
    if sp.simplify(value - body) == 0:
        return item.body if chained is None else f"{item.body} = {chained}"
    if chained is not None:
        return None
    if not value.free_symbols:
        return f"{item.body} = {rhs}"
    return None  # a new definition: the tools read it as written


def resolve_math(
    text: str, workspace: Workspace, each: bool = False, equation: bool = False
) -> list[str]:
    """Plain math for one field. `each`: an id of several values (roots) makes one text per
    value (`(#2)^2` -> the square of each root); otherwise such an id is an error.
    `equation`: the field is an equation (solve), so `#1` alone is that equation as it is."""
    if "#" not in text and not any(_function_pattern(n).search(text) for n in workspace.names):
        return [text]
    restated = _restated_definition(text, workspace)
    if restated is not None:
        return [restated]
    text = _AGGREGATE.sub(lambda m: _aggregate(m.group(1), _item(workspace, int(m.group(2)))), text)
    text = _INDEXED.sub(lambda m: _indexed(workspace, m), text)
    texts = [text]
    multi = [
        _item(workspace, int(n))
        for n in dict.fromkeys(_ID.findall(text))
        if len(_item(workspace, int(n)).values) > 1
    ]
    if multi and each:
        item = multi[0]
        pattern = re.compile(rf"#{item.number}(?!\d)")
        texts = [pattern.sub(_wrap(v), text) for v in item.values]
    elif multi:
        _expression_of(multi[0])  # raises the sentence that says how to pick
    resolved = []
    for text_ in texts:
        one = _ID.sub(
            lambda m, whole=text_: _single(workspace, int(m.group(1)), whole, m, equation), text_
        )
        one = _names(one, workspace)
        if len(one) > MAX_RESOLVED_CHARS:
            raise ReferenceProblem("The math these ids stand for is too long for one call.")
        resolved.append(one)
    return resolved


def _single(
    workspace: Workspace, number: int, text: str, match: re.Match[str], equation: bool
) -> str:
    item = _item(workspace, number)
    whole = text.strip() == match.group(0)
    if equation and whole and item.kind == "equation":
        return item.body  # `#1` alone in solve: the equation as it is
    if item.kind == "function":
        return _function_value(item, 0, None)
    return _wrap(_expression_of(item))


def _points(raw: str, workspace: Workspace) -> list[str]:
    """One entry of `at`: `#2` is every value of #2 as a point; `#2[1]` one of them."""
    match = re.fullmatch(r"\s*(?:([A-Za-z]\w*)\s*=\s*)?#(\d+)(?:\s*\[\s*(-?\d+)\s*\])?\s*", raw)
    if match is None:
        return resolve_math(raw, workspace)
    item = _item(workspace, int(match.group(2)))
    values = _values(item)
    if match.group(3) is not None:
        index = int(match.group(3))
        if not 1 <= index <= len(values):
            raise ReferenceProblem(f"{item.id} has {len(values)} value(s).")
        values = [values[index - 1]]
    # Without a letter written, a bare value: the tool binds it to the expression's one
    # variable (roots in x used as points of h(t) are points of h).
    letter = match.group(1)
    return [f"{letter} = {v}" if letter else v for v in values]


def resolve_arguments(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The call's arguments with every id and name replaced (an equal dict if none)."""
    try:
        return _resolved(tool, arguments, workspace)
    except ToolError as exc:  # math held by an item the parser cannot read back
        raise ReferenceProblem(exc.message) from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise ReferenceProblem(f"Could not use those ids here ({type(exc).__name__}).") from None


def _resolved(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    resolved = dict(arguments)
    for name in MATH_FIELDS.get(tool, ()):
        value = arguments.get(name)
        if not isinstance(value, str):
            continue
        if tool == "evaluate" and name == "expression":  # a list: each part on its own
            parts = [p.strip() for p in split_top_level(value)] if "#" in value else [value]
            texts = [t for part in parts for t in resolve_math(part, workspace, each=True)]
        else:
            texts = resolve_math(value, workspace, equation=tool == "solve")
        resolved[name] = ", ".join(texts)
    if tool == "evaluate" and isinstance(arguments.get("at"), list):
        points: list[str] = []
        for raw in arguments["at"]:
            points += _points(str(raw), workspace) if isinstance(raw, str) else [raw]
        resolved["at"] = points
    return resolved
