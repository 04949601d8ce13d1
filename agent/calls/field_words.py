"""Words in a tool call's math field: English the parser would read as a product of letters.

Why apart from `resolve`: these read the model's call, never the person's request, and decide
one of three things. The tool's own verb echoed around the math ("integrate h from 0 to 1" in
an integral call from 0 to 1) is dropped; another tool's operation (`integrate(#4, t)` in a
derivative call) is refused with that tool's name, so the model calls it first; any other word
is refused, showing the math inside when there is one piece.
"""

from __future__ import annotations

import re
from typing import Any

import sympy as sp

from agent import wire
from agent.workspace.capture import math_runs
from agent.workspace.record import Workspace
from tools.vocabulary import ANGLE_IN_DEGREES, CONSTANTS, FUNCTIONS, GREEK_NAMES

# The verb that asks for each tool's own operation. A model that echoes the request writes
# it in a math field ("integrate h from 0 to 1" in an integral call): an instruction, never
# math, so the math it applies to is what the tool gets. A noun ("derivative of h") may name
# an object instead (h'), so it still stops the call.
OPERATION_VERBS = {
    "solve": "solve",
    "solve_system": "solve",
    "derivative": "differentiate",
    "evaluate": "evaluate",
    "integral": "integrate",
    "simplify": "simplify",
    "factor": "factor",
    "expand": "expand",
}
# Tools whose noun, written before the math ("integral of h", "inverse of f"), echoes the call
# itself (an integral of an integral, an inverse of an inverse: no request of a first course).
OWN_NOUNS = frozenset({"integral", "domain", "range", "inverse"})
# Words (verbs, nouns, code's names) of a tool's operation: written in another tool's math
# field (`integrate(#4, t)` in a derivative call), they ask for that tool's result first.
OPERATION_WORDS = {
    "integrate": "integral",
    "integral": "integral",
    "antiderivative": "integral",
    "differentiate": "derivative",
    "derivative": "derivative",
    "solve": "solve",
    "simplify": "simplify",
    "factor": "factor",
    "expand": "expand",
    "domain": "domain",
    "range": "range",
    "inverse": "inverse",
    "limit": "limit",
    "series": "series",
    "tangent": "tangent",
}
# Bounds of a definite integral said in words around the math: "from 0 to 1".
_BOUND_WORDS = frozenset({"from"})


def english_words(text: str, workspace: Workspace) -> list[str]:
    """Words of four or more letters that no function, constant or workspace name spells:
    English copied into a math field ("derivative of q"), which the parser would read as a
    product of letters."""
    known = set(FUNCTIONS) | set(CONSTANTS) | GREEK_NAMES | set(workspace.named)
    known |= set(wire.COMBINATIONS)
    text = ANGLE_IN_DEGREES.sub(r"\1°", text)  # `sin(30 degrees)`: an angle, read as 30°
    return [w for w in re.findall(r"[A-Za-z]{4,}", text) if w not in known]


def words_refused(
    tool: str, name: str, value: str, arguments: dict[str, Any], workspace: Workspace
) -> str | None:
    """The sentence that refuses a field holding words (None when it holds none, or names
    a result by the workspace's own words for it)."""
    if workspace.made_by(value) is not None:
        return None
    declared = _declared_unknowns(tool, arguments, value)
    if not (words := [w for w in english_words(value, workspace) if w not in declared]):
        return None
    said = [OPERATION_WORDS[w.lower()] for w in words if w.lower() in OPERATION_WORDS]
    own = "solve" if tool == "solve_system" else tool  # a system is solved too
    if said and said[0] != own:
        return (
            f"'{words[0]}' asks for the {said[0]} tool's work, not math: call {said[0]} on that "
            f"math first, then put the id of its result in {name}; the newest are "
            f"{workspace.newest()}."
        )
    inside = math_inside(value, arguments, name)
    if inside is None:
        return (
            f"'{words[0]}' is a word, not math: put the id of the item you mean "
            f"or its math in {name}; the newest are {workspace.newest()}."
        )
    return (  # the tool's own noun ("derivative of h" may name h'): the model decides
        f"'{words[0]}' is a word, not math: {name} holds the math alone, like "
        f'"{name}": "{inside}" (the tool does the operation).'
    )


def _declared_unknowns(tool: str, arguments: dict[str, Any], value: str) -> set[str]:
    """The word unknowns a solve declares (`"variable": "side"` for `side^2 = 144`): a word
    problem's quantities by name, which the tools read as one unknown each. A name alone
    against a number (`height = 0`) is no equation of the quantity: it stays refused."""
    if tool not in ("solve", "solve_system"):
        return set()
    names = arguments.get("variables") if tool == "solve_system" else [arguments.get("variable")]
    declared = {n.strip() for n in names or [] if isinstance(n, str)}
    declared = {n for n in declared if re.fullmatch(r"[A-Za-z]{2,}", n)}
    return {
        n
        for n in declared
        if not re.fullmatch(rf"\s*{n}\s*=\s*[^A-Za-z]*|[^A-Za-z]*=\s*{n}\s*", value)
    }


def echo_removed(
    tool: str, name: str, value: str, arguments: dict[str, Any], workspace: Workspace
) -> str | None:
    """The math alone of a field that also says the tool's own operation, and bounds its
    other fields hold ("integrate h from 0 to 1" in an integral call from 0 to 1: h); None
    when the field says anything else."""
    if workspace.made_by(value) is not None or not (words := english_words(value, workspace)):
        return None
    inside = math_inside(value, arguments, name)
    return inside if inside is not None and _echoes_the_operation(tool, words) else None


def _echoes_the_operation(tool: str, words: list[str]) -> bool:
    """The field's only words are the verb of this tool's operation (and "from" of bounds),
    or its noun (`OWN_NOUNS`): "integral of h" in an integral call is that call."""
    verb = OPERATION_VERBS.get(tool)
    said = {w.lower() for w in words}
    own = {verb} | ({tool, "of"} if tool in OWN_NOUNS else set())
    return bool(said & (own - {"of"})) and said <= own | _BOUND_WORDS


def math_inside(value: str, arguments: dict[str, Any], name: str) -> str | None:
    """The one piece of math in a field that also holds words ("integrate h from 0 to 1"
    with the bounds 0 and 1 in their own fields holds h), to show in the refusal; None when
    there is no single piece, or when it writes a number the call's other fields do not hold
    (a bound or a point the words carry that the call would lose)."""
    runs = math_runs(value)
    pieces = [run for run in runs if not _is_number(run)]
    if len(pieces) != 1 or english_words(pieces[0], Workspace()):
        return None
    elsewhere = " ".join(str(v) for k, v in arguments.items() if k != name and v is not None)
    held = {_number_text(n) for n in re.findall(r"-?\d+(?:\.\d+)?", elsewhere)}
    numbers = [_number_text(run) for run in runs if _is_number(run)]
    return pieces[0] if all(n in held for n in numbers) else None


def _is_number(text: str) -> bool:
    return re.fullmatch(r"\s*-?\d+(?:\.\d+)?\s*", text) is not None


def _number_text(text: str) -> str:
    return str(sp.nsimplify(text.strip()))
