"""A system that defines a function beside the equations that use it.

Why: for "when does the height h(t) = -5t^2 + 25t + 120 reach 150?" a small model sends
``["h(t) = 150", "h(t) = -5t^2 + 25t + 120"]``. Read as two equations that is ``h*t = 150``
beside ``body = 0``, a contradiction; the definition is to be applied, not solved.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.function_notation import (
    DEFINITION,
    Function,
    define,
    guarded,
    is_definition,
    parse_clause,
    unprimed,
)
from tools.parsing import parse_name
from tools.tokens import _shown, tokenize


def read_system(
    texts: list[str], keep: Iterable[str] = ()
) -> tuple[list[tuple[sp.Expr, sp.Expr]], list[str]] | None:
    """A system's equations with the functions it defines applied: ``["h(t) = 150",
    "h(t) = -5t^2 + 25t + 120"]`` is the one equation ``-5t^2 + 25t + 120 = 150``.

    Why: a definition copied beside an equation that uses it is not an equation of its own;
    read alone it became ``body = 0`` beside ``h*t = 150``, a contradiction. Returns the sides
    of each equation left and the definitions' names; None when no text is a definition
    called in another (the system's usual reading applies)."""
    texts = [unprimed(t) for t in texts]
    matches = [m if m and _defines(m) else None for m in map(DEFINITION.fullmatch, texts)]
    called = {
        i
        for i, match in enumerate(matches)
        if match is not None
        and any(
            re.search(rf"(?<![\w]){re.escape(match['name'])}\s*\(", other)
            for j, other in enumerate(texts)
            if j != i and matches[j] is None
        )
    }
    if not called:
        return None
    names = set(keep)
    for i in called:
        names |= {matches[i]["name"]} | {parse_name(p) for p in matches[i]["params"].split(",")}
    joined = "; ".join(texts)

    def read_all() -> tuple[list[tuple[sp.Expr, sp.Expr]], list[str]]:
        functions: dict[str, Function] = {}
        for i in sorted(called):
            function = define(matches[i], names, functions)
            if function is None:
                raise ParseError(f"Could not read the definition '{_shown(texts[i])}'.")
            functions[function.name] = function
        sides = []
        for i, text in enumerate(texts):
            if i not in called:
                lhs, rhs = parse_clause(text, names, functions)
                sides.append((lhs, rhs if rhs is not None else sp.S.Zero))
        return sides, list(functions)

    return guarded(joined, read_all)


def _defines(match: re.Match[str]) -> bool:
    """A definition whose body uses every parameter: ``h(t) = -5t^2 + 25t``, while
    ``h(t) = 150`` is an equation on h."""
    if not is_definition(match):
        return False
    params = {p.strip() for p in match["params"].split(",")}
    try:
        tokens = tokenize(match["body"], {match["name"], *params})
    except ToolError:
        return False
    return params <= {str(t.value) for t in tokens if t.kind == "name"}
