"""Ids and names inside a tool call's math, replaced by the exact math they stand for.

The model writes `#4`, `#1` (an equation), `(#2)^2` (each root squared), `#2[1]`, `sum(#2)`,
`max(#2)`, `h`, `h'`, `h(3)`, `h'(2)`, `#4 = 0`, or `equations[-2]` (the person's equation
before the last); `at: ["#2"]` means every root as a point.
This module turns such a call into the plain math the tools read, so the model never copies
a number or a polynomial. An unknown id is an error sentence that lists what exists; the
model reads it as a tool error and fixes its call.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from agent import wire
from agent.calls.field_words import echo_removed, words_refused
from agent.workspace.math_values import same_math
from agent.workspace.record import Item, Workspace
from tools.errors import ToolError
from tools.function_facts import FACTS, restriction
from tools.implicit import is_implicit
from tools.parsing import parse_expression
from tools.tokens import split_top_level

# Fields that hold math, per tool (by its `tool` literal); a list of points (`at` of
# `wire.POINT_LIST_TOOLS`) is read apart, and a list of math (a system's equations) item by item.
MATH_FIELDS = {
    "solve": ("equation",),
    "solve_system": ("equations",),
    "derivative": ("expression",),
    "evaluate": ("expression",),
    "integral": ("expression", "lower", "upper"),
    "extrema": ("expression", "lower", "upper"),
    "maximum": ("expression", "lower", "upper"),  # run as extrema (`pending.as_run`)
    "minimum": ("expression", "lower", "upper"),
    "tangent": ("expression", "at"),
    "simplify": ("expression",),
    "factor": ("expression",),
    "expand": ("expression",),
    "domain": ("expression",),
    "range": ("expression",),
    "inverse": ("expression",),
    "limit": ("expression", "to"),
    "series": ("expression", "at"),
}
# Tools whose math is an equation: `#1` alone there is the equation as it is.
EQUATION_TOOLS = ("solve", "solve_system")
# What an id alone in such a tool stands for as written: an equation, an inequality.
_SOLVED_AS_WRITTEN = ("equation", "inequality")
# `sum(#2)`, or over several items' values together: `product(#2, #4)`.
_AGGREGATE = re.compile(
    rf"\b({'|'.join(wire.COMBINATIONS)})\s*\(\s*(#\d+(?:\s*,\s*#\d+)*)\s*\)", re.IGNORECASE
)
_INDEXED = re.compile(r"#(\d+)\s*\[\s*(-?\d+)\s*\]")
_ID = re.compile(r"#(\d+)")
# `#` not followed by a number: a placeholder copied from an instruction (`#N`, `#id`).
_NOT_AN_ID = re.compile(r"#(?!\s*\d)")
# `h(t) = ...` or `h = ...`: a name, maybe its variable, then one `=`.
_NAME_EQUALS = re.compile(r"\s*([A-Za-z]\w*)\s*(?:\(\s*([A-Za-z]\w*)\s*\))?\s*=(?!=)(.*)$", re.S)
# A result of resolving kept readable for the model's error messages and the tool's echo.
MAX_RESOLVED_CHARS = 2000


class ReferenceProblem(Exception):
    """A call points at something that does not exist or cannot be used that way."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _wrap(text: str) -> str:
    return f"({text})"


def _put_value(number: int, value: str, text: str) -> str:
    """`#N` in `text` replaced by `value` in brackets; `(#N)` already has them, so the
    tool's echo reads `(-3)^2 = 9`, not `((-3))^2`."""
    wrapped = _wrap(value)
    text = re.sub(rf"\(\s*#{number}\s*\)", lambda _: wrapped, text)
    return re.sub(rf"#{number}(?!\d)", lambda _: wrapped, text)


def _item(workspace: Workspace, number: int) -> Item:
    item = workspace.get(number)
    if item is None:
        raise ReferenceProblem(f"There is no #{number}: the workspace has {workspace.summary()}.")
    return item


def _not_a_point(item: Item) -> None:
    """A system's solutions are points (`x = 2, y = 1`), not values to compute with."""
    if item.kind == "solutions":
        raise ReferenceProblem(
            f"{item.id} holds the solutions of a system ({item.shown}), which are points: "
            f'use it as the point of an evaluate call, "at": ["{item.id}"].'
        )


def _not_a_set(item: Item) -> None:
    """An inequality and the set where it holds are conditions on a letter, not values."""
    if item.kind == "solution set":
        raise ReferenceProblem(
            f"{item.id} is a solution set ({item.shown}), a part of the number line and not a "
            "list of values: it has no sum, mean, single value or point to compute with, so "
            "quote it as it is."
        )
    if item.kind == "inequality":
        raise ReferenceProblem(
            f"{item.id} is the inequality {item.shown}, not an expression or values: solve it "
            f'with "tool": "solve", "equation": "{item.id}".'
        )


def _expression_of(item: Item) -> str:
    """An item as one expression: an equation `lhs = rhs` as `lhs - (rhs)`."""
    _not_a_set(item)
    _not_a_point(item)
    if item.kind == "equation":
        lhs, _, rhs = item.body.partition(" = ")
        return lhs if rhs.strip() == "0" else f"{lhs} - ({rhs})"
    if item.values and len(item.values) > 1:
        # the roots of an equation stand in a call for the equation often ("its derivative"
        # after a solve): the error names the id that holds the equation itself
        solved = f" To use the math they solve, use #{item.source}." if item.source else ""
        raise ReferenceProblem(
            f"{item.id} holds {len(item.values)} values; pick one with {item.id}[1], or use "
            f"sum({item.id}), product({item.id}), mean({item.id}), max({item.id}), "
            f"min({item.id}).{solved}"
        )
    return item.values[0] if item.values else item.body


# What stands for its roots where a list is meant, once a tool has solved it.
_SOLVABLE = ("equation", "function", "expression")
_RANKED = {"max": "greatest", "min": "least"}


def _values(item: Item, workspace: Workspace, combination: str = "") -> list[str]:
    """Each value an item holds where a list is meant. A solved equation, function or
    expression stands for its roots (`mean(#1)` after #1 was solved). `combination`: the
    aggregate asked; `max`/`min` of a function or expression is refused, since its greatest
    value is a question of its own (the extrema tool's)."""
    _not_a_set(item)
    _not_a_point(item)
    if item.values:
        return list(item.values)
    roots = workspace.roots_of(item) if item.kind in _SOLVABLE else None
    if combination in _RANKED and item.kind in ("function", "expression") and roots is not None:
        ranked = _RANKED[combination]
        raise ReferenceProblem(
            f"{combination}({item.id}) has two readings: for the {ranked} of its roots use "
            f"{combination}({roots.id}) ({roots.origin}); for the {ranked} value of "
            f"{item.name or item.id} itself call extrema on {item.id}."
        )
    if roots is not None:
        return list(roots.values)
    if item.kind in ("value", "expression"):
        return [item.body]
    extrema = (
        f"; for the {_RANKED[combination]} value of {item.name or item.id} call extrema on it"
        if combination in _RANKED and item.kind == "function"
        else ""
    )
    raise ReferenceProblem(
        f"{item.id} is {item.kind} {item.shown}, not a list of values: solve it first, then "
        f"use the id of its roots{extrema}."
    )


def _aggregate(kind: str, items: list[Item], workspace: Workspace) -> str:
    """A combination of the values of one item or several together; a solved equation and
    its roots named both (`product(#1, #2)`) count those roots once."""
    kind = kind.lower()
    counted = {(workspace.roots_of(i) or i).number if not i.values else i.number: i for i in items}
    values = [parse_expression(v) for i in counted.values() for v in _values(i, workspace, kind)]
    item = items[0]
    if kind in ("count", "len", "length"):
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
    values = _values(item, workspace)
    index = int(match.group(2))
    if not 1 <= index <= len(values):
        raise ReferenceProblem(
            f"{item.id} has {len(values)} value(s): use {item.id}[1] to {item.id}[{len(values)}]."
        )
    return _wrap(values[index - 1])


def function_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w#]){re.escape(name)}('*)(?![\w])")


def call_args(text: str, start: int) -> tuple[list[str], int] | None:
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
    """`h`, `h'`, `h(3)`, `h''(t)` as plain math; a labelled equation `Q` as `lhs - rhs`."""
    _not_a_set(item)
    body = parse_expression(_expression_of(item) if item.kind == "equation" else item.body)
    params = [sp.Symbol(p) for p in item.params]
    if not params and primes and len(body.free_symbols) == 1:
        params = list(body.free_symbols)
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
    for name in sorted(workspace.named, key=len, reverse=True):
        item = workspace.named[name]
        pattern = function_pattern(name)
        out, position = [], 0
        for match in pattern.finditer(text):
            if match.start() < position:
                continue
            call = call_args(text, match.end()) if item.params else None
            end = call[1] if call else match.end()
            # `f(g(3))`: g's own value first, so f gets a number, not the letter g
            args = [_names(arg, workspace) for arg in call[0]] if call else None
            out.append(text[position : match.start()])
            out.append(_function_value(item, len(match.group(1)), args))
            position = end
        text = "".join(out) + text[position:]
    return text


def _restated_definition(text: str, workspace: Workspace) -> str | None:
    """`h(t) = <h's body>` restated (or `y = <y's body>`, a curve), or `h(t) = 0`: the math it
    means for the tools."""
    match = _NAME_EQUALS.match(text)
    if match is None or match.group(1) not in workspace.named:
        return None
    item = workspace.named[match.group(1)]
    rhs = match.group(3).strip()
    chained = None
    if rhs.count("=") == 1:  # h(t) = <body> = 0: the equation on h
        rhs, _, chained = (part.strip() for part in rhs.partition("="))
    try:
        value = parse_expression(rhs)
        body = parse_expression(item.body)
    except ToolError:
        return None
    if same_math(value, body, up_to_sign=False):
        return item.body if chained is None else f"{item.body} = {chained}"
    if chained is not None:
        return None
    if not value.free_symbols:
        return f"{item.body} = {rhs}"
    return None  # a new definition: the tools read it as written


def _without_restated_definitions(texts: list[Any], workspace: Workspace) -> list[Any]:
    """A system's equations without a workspace function's definition copied beside an
    equation that uses the function (`h(t) = <h's body>` beside `h(t) = 150`): the definition
    is known, and read as an equation it would be `<body> = 0`, which contradicts the other."""
    strings = [t for t in texts if isinstance(t, str)]

    def restates(text: str) -> bool:
        match = _NAME_EQUALS.match(text)
        if match is None or match.group(1) not in workspace.named:
            return False
        body = workspace.named[match.group(1)].body
        used = any(
            function_pattern(match.group(1)).search(other) for other in strings if other != text
        )
        return used and _restated_definition(text, workspace) == body

    kept = [t for t in texts if not (isinstance(t, str) and restates(t))]
    return kept or texts


def resolve_math(
    text: str, workspace: Workspace, each: bool = False, equation: bool = False
) -> list[str]:
    """Plain math for one field. `each`: an id of several values (roots) makes one text per
    value (`(#2)^2` -> the square of each root); otherwise such an id is an error.
    `equation`: the field is an equation (solve), so `#1` alone is that equation as it is."""
    if _NOT_AN_ID.search(text):
        raise ReferenceProblem(
            f"An id is # and a number, like #3: the workspace has {workspace.summary()}."
        )
    labelled = workspace.made_by(text)
    if labelled is not None:  # the workspace's own words for a result: "2nd derivative of q"
        text = labelled.id
    if "#" not in text and not any(function_pattern(n).search(text) for n in workspace.named):
        return [text]
    _refuse_self_application(text, workspace)
    restated = _restated_definition(text, workspace)
    if restated is not None:
        return [restated]
    labelled = workspace.named.get(text.strip())
    if equation and labelled is not None and labelled.kind in _SOLVED_AS_WRITTEN:
        return [labelled.body]  # `Q` alone in solve: the equation the person labelled Q
    text = _AGGREGATE.sub(
        lambda m: _aggregate(
            m.group(1), [_item(workspace, int(n)) for n in _ID.findall(m.group(2))], workspace
        ),
        text,
    )
    text = _INDEXED.sub(lambda m: _indexed(workspace, m), text)
    texts = [text]
    multi = [
        _item(workspace, int(n))
        for n in dict.fromkeys(_ID.findall(text))
        if len(_item(workspace, int(n)).values) > 1
    ]
    if multi and each:
        item = multi[0]
        _not_a_point(item)
        texts = [_put_value(item.number, v, text) for v in item.values]
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
    if equation and whole and item.kind in _SOLVED_AS_WRITTEN:
        return item.body  # `#1` alone in solve: the equation (or inequality) as it is
    if item.kind == "function":
        return _function_value(item, 0, None)
    return _wrap(_expression_of(item))


def _refuse_self_application(text: str, workspace: Workspace) -> None:
    """`g(#3)` where #3 is g itself: g put into g, never what a chat means by g's value."""
    for match in re.finditer(r"([A-Za-z]\w*)\s*\(\s*#(\d+)\s*\)", text):
        named = workspace.named.get(match.group(1))
        if named is not None and named.number == int(match.group(2)):
            name = named.name
            raise ReferenceProblem(
                f"{match.group(0)} puts {name} into itself: for {name}'s value at a point write "
                f"{name}(3), or the expression {name} with the point in at."
            )


def _points(raw: str, workspace: Workspace) -> list[str]:
    """One entry of `at`: `#2` is every value of #2 as a point; `#2[1]` one of them."""
    match = re.fullmatch(r"\s*(?:([A-Za-z]\w*)\s*=\s*)?#(\d+)(?:\s*\[\s*(-?\d+)\s*\])?\s*", raw)
    if match is None:
        return resolve_math(raw, workspace)
    item = _item(workspace, int(match.group(2)))
    values = list(item.values) if item.kind == "solutions" else _values(item, workspace)
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
        if isinstance(value, list):  # a system's equations: each resolved on its own
            resolved[name] = [
                _field(tool, name, v, workspace, arguments) if isinstance(v, str) else v
                for v in _without_restated_definitions(value, workspace)
            ]
        elif isinstance(value, str):
            resolved[name] = _field(tool, name, value, workspace, arguments)
    if tool in wire.POINT_LIST_TOOLS and isinstance(arguments.get("at"), list):
        points: list[str] = []
        for raw in arguments["at"]:
            points += _points(str(raw), workspace) if isinstance(raw, str) else [raw]
        resolved["at"] = points
        expression = str(arguments.get("expression") or "")
        if (
            tool == "evaluate"
            and points
            and resolved.get("expression") != expression
            and _closed(resolved)
        ):
            raise ReferenceProblem(
                f"{expression} leaves no variable to put {', '.join(map(str, points))} into: "
                "for a function's value at a point write the function's name alone with the "
                "point in at, or f(3) with at []."
            )
    return resolved


def _field(
    tool: str, name: str, value: str, workspace: Workspace, arguments: dict[str, Any]
) -> str:
    """One math text of a call with its places, ids and names replaced."""
    try:
        value = workspace.cite_places(value)
    except IndexError as exc:
        raise ReferenceProblem(str(exc)) from None
    if tool in FACTS and (kept := restriction(value))[1] is not None:  # `f for x >= 0`
        return f"{_field(tool, name, kept[0], workspace, arguments)}, {kept[1]}"
    if (alone := echo_removed(tool, name, value, arguments, workspace)) is not None:
        value = alone
    elif (refused := words_refused(tool, name, value, arguments, workspace)) is not None:
        raise ReferenceProblem(refused)
    if tool == "derivative" and name == "expression" and (curve := _curve(value, workspace)):
        return curve
    if tool in ("evaluate", "extrema") and name == "expression":  # a list: each on its own
        parts = [p.strip() for p in split_top_level(value)] if "#" in value else [value]
        texts = [t for part in parts for t in resolve_math(part, workspace, each=True)]
    else:
        texts = resolve_math(value, workspace, equation=tool in EQUATION_TOOLS)
    return ", ".join(texts)


def _curve(value: str, workspace: Workspace) -> str | None:
    """`#1` alone in a derivative, #1 the equation of a curve (`x^2 + y^2 = 25`): that
    equation as it is, which the tool differentiates implicitly (as `lhs - rhs`, y would be
    a constant)."""
    match = _ID.fullmatch(value.strip())
    if match is None:
        return None
    item = _item(workspace, int(match.group(1)))
    return item.body if item.kind == "equation" and is_implicit(item.body, None) else None


def _closed(resolved: dict[str, Any]) -> bool:
    """Every expression of an evaluate call is a number (no letter left)."""
    try:
        parts = split_top_level(str(resolved.get("expression") or ""))
        return all(not parse_expression(p).free_symbols for p in parts)
    except ToolError:
        return False
