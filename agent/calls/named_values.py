"""An earlier result the person names by its values: the item the call points at.

Why: "the product of the roots of the equation that had solutions 1 and 4" names one item
exactly, by numbers the workspace holds, yet a small model takes the item nearest in the
chat (the newest roots, the function it solved first). The person's numbers are read as
notation (as `bounds.persons_interval` reads an interval), never their words: when every
value of one earlier roots item is among the numbers of the message, and the call points at
one other item that is neither those roots nor what they were solved from, it points at
them instead (roots for roots, what they were solved from for math). A number the call uses
as a point or a bound was said for that, and an item of the message itself is new math:
then the call stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from agent.calls.pointing import number_value, written_reference
from agent.calls.resolve import MATH_FIELDS, call_args, function_pattern
from agent.workspace.math_values import same_math
from agent.workspace.record import EQUATIONS, Item, Workspace

# A number as people write one in a sentence: `-5`, `3`, `1.5`, `-1/2`; not a coefficient
# (`5x`), a power (`^2`) or part of a name (`x2`).
_NUMBER = re.compile(r"(?<![\w.^*/])-?\d+(?:\.\d+)?(?:/\d+)?(?![\w.^(/])")
# Fields whose numbers are points, bounds or a domain: numbers said for them name no item.
_PLACE_FIELDS = ("at", "lower", "upper", "to", "domain")
# What a call can point at: an id (`#5`, `#5[1]`) or a place (`equations[2]`).
_ID = re.compile(r"#(\d+)(?:\s*\[\s*-?\d+\s*\])?")
_PLACE = re.compile(rf"\b{EQUATIONS}\s*\[\s*(-?\d+)\s*\]")
# Kinds of math a result was solved from: what stands in for them is that math.
_MATH_KINDS = frozenset({"equation", "function", "expression"})


def persons_numbers(text: str) -> list[sp.Expr]:
    """The numbers of a sentence (`-5 and 3`, `x = 2`), exact."""
    numbers = []
    for match in _NUMBER.finditer(text.replace("−", "-")):
        try:
            numbers.append(sp.nsimplify(sp.Rational(match.group(0))))
        except (TypeError, ValueError):
            continue
    return numbers


def among(value: sp.Expr, numbers: Sequence[sp.Expr]) -> bool:
    """Whether `value` is one of `numbers`, compared as math (`same_math`), not as text."""
    return any(same_math(value, n, up_to_sign=False) for n in numbers)


def _solved_from(item: Item) -> int | None:
    """The item whose roots these are (the call's math was its id or name), if any."""
    return item.of if item.of is not None else item.source


def named_by_values(text: str, workspace: Workspace) -> Item | None:
    """The earliest roots item whose every value the text writes (two values at least), when
    all such items were solved from one thing; None when none is, or the numbers fit
    results of different math (then they name nothing for sure)."""
    numbers = persons_numbers(text)
    if len(numbers) < 2:
        return None
    found = []
    for item in workspace.items:
        if item.kind != "roots" or len(item.values) < 2:
            continue
        values = [number_value(v) for v in item.values]
        if all(v is not None and among(v, numbers) for v in values):
            found.append(item)
    most = max((len(i.values) for i in found), default=0)
    found = [i for i in found if len(i.values) == most]  # "1, 2 and 4" is not "1 and 4"
    if not found or len({_solved_from(i) for i in found}) != 1:
        return None
    return found[0]


@dataclass(frozen=True)
class _Pointer:
    """One place a call's math points at an item; `whole`: it names the item itself (an id,
    a place, or a function's name with its own letters), not its value or derivative."""

    field: str
    index: int | None  # the place in a list field (a system's equations)
    start: int
    end: int
    item: Item
    whole: bool


def _pointers_in(field: str, index: int | None, text: str, workspace: Workspace) -> list[_Pointer]:
    found = []
    for match in _ID.finditer(text):
        if (item := workspace.get(int(match.group(1)))) is not None:
            whole = "[" not in match.group(0)
            found.append(_Pointer(field, index, match.start(), match.end(), item, whole))
    for match in _PLACE.finditer(text):
        try:
            item = workspace.equation_at(int(match.group(1)))
        except IndexError:
            continue
        found.append(_Pointer(field, index, match.start(), match.end(), item, True))
    for name, item in workspace.named.items():  # read as `resolve` reads a name's use
        for match in function_pattern(name).finditer(text):
            args = call_args(text, match.end())
            end = args[1] if args else match.end()
            own = args is None or args[0] == list(item.params)
            whole = not match.group(1) and own
            found.append(_Pointer(field, index, match.start(), end, item, whole))
    return found


def _pointers(tool: str, arguments: dict[str, Any], workspace: Workspace) -> list[_Pointer]:
    found: list[_Pointer] = []
    for field in MATH_FIELDS.get(tool, ())[:1]:  # the main math; bounds and points are apart
        value = arguments.get(field)
        if isinstance(value, str):
            found += _pointers_in(field, None, value, workspace)
        elif isinstance(value, list):
            for index, text in enumerate(value):
                if isinstance(text, str):
                    found += _pointers_in(field, index, text, workspace)
    return found


def _said_for_a_place(arguments: dict[str, Any], roots: Item) -> bool:
    """Whether a value of `roots` is a number of the call's points, bounds or domain."""
    said = []
    for field in _PLACE_FIELDS:
        value = arguments.get(field)
        for text in value if isinstance(value, list) else [value]:
            if isinstance(text, str | int | float):
                said += persons_numbers(str(text))
    return any(among(v, said) for v in (number_value(t) for t in roots.values) if v is not None)


def _related(roots: Item, workspace: Workspace) -> set[int]:
    """The roots, what they were solved from, and every roots item of that same math."""
    origin = _solved_from(roots)
    related = {roots.number} | ({origin} if origin is not None else set())
    for item in workspace.items:
        if item.kind == "roots" and origin is not None and _solved_from(item) == origin:
            related.add(item.number)
    return related


def pointed_at_named_values(
    tool: str, arguments: dict[str, Any], text: str, workspace: Workspace, new: Sequence[str]
) -> dict[str, Any] | None:
    """The call's arguments pointing at the roots the person named by their values (or at
    what those were solved from), when the call points at one other item; None to leave
    the call as it is. `new`: the ids of the items the person's message wrote."""
    if tool not in MATH_FIELDS or (roots := named_by_values(text, workspace)) is None:
        return None
    if _said_for_a_place(arguments, roots):
        return None
    pointers = _pointers(tool, arguments, workspace)
    items = {p.item.number for p in pointers}
    if len(items) != 1 or items & _related(roots, workspace) or pointers[0].item.id in new:
        return None
    if not all(p.whole for p in pointers):
        return None
    taken = pointers[0].item
    if taken.values:
        target: Item | None = roots
    elif taken.kind in _MATH_KINDS:
        origin = _solved_from(roots)
        target = workspace.get(origin) if origin is not None else None
    else:
        target = None
    if target is None:
        return None
    changed = dict(arguments)
    is_equation = tool in ("solve", "solve_system")
    for pointer in sorted(pointers, key=lambda p: p.start, reverse=True):
        value = changed[pointer.field]
        old = value if pointer.index is None else value[pointer.index]
        piece = old[pointer.start : pointer.end]
        new_text = old[: pointer.start] + written_reference(target, piece, is_equation)
        new_text += old[pointer.end :]
        if target.kind == "equation" and is_equation:  # `#4 = 0` of an equation is `#4`
            new_text = re.sub(rf"^\s*{target.id}\s*=\s*0\s*$", target.id, new_text)
        if pointer.index is None:
            changed[pointer.field] = new_text
        else:
            changed[pointer.field] = [
                *value[: pointer.index],
                new_text,
                *value[pointer.index + 1 :],
            ]
    return changed
