"""A calculus call in a letter its math lacks runs in the math's one letter.

Why: a small model carries the letter of an earlier task into a new call (the derivative of
`q^3 + 9q^2` sent with variable t), and the tool then treats the whole expression as a
constant and answers 0, a wrong answer with no error. When the person's message does write
the call's letter and the call's math lacks it, the call points at the wrong math: it is
refused with the ids of the math in that letter (`foreign_variable`), as an evaluation at
a number the person gave another letter is (`foreign_point`). Only math is read: the call's
expression, its variable, and whether the person's message writes that letter at all.
"""

from __future__ import annotations

import re
from typing import Any

from agent.workspace.math_values import math_key
from agent.workspace.record import Workspace
from tools.calculus import read_derivative, read_integral, split_differential
from tools.errors import ToolError
from tools.operators import strip_derivative, strip_integral

# A letter standing alone in math ("q" in "9q^2 + q"); e, E and I are constants.
LETTER = re.compile(r"(?<![A-Za-z_])([A-Za-z])(?![A-Za-z_])")
_CONSTANTS = frozenset({"e", "E", "I"})


def fitted_variable(tool: str, arguments: dict[str, Any], message: str) -> dict[str, Any] | None:
    """The call's arguments in its math's one letter, when it names a variable that math
    lacks (in its field, or as an integral's trailing differential: `3*w**2 dx`) and the
    person's message never writes; None when the call stands as it is."""
    if tool not in ("derivative", "integral"):
        return None
    expression = str(arguments.get("expression") or "")
    stripped = strip_derivative(expression) if tool == "derivative" else strip_integral(expression)
    body = stripped.body if stripped is not None else expression
    variable = str(arguments.get("variable") or "").strip() or (
        stripped.variable if stripped is not None else None
    )
    differential = None
    if tool == "integral" and stripped is None and not variable:  # `3*w**2 dx`
        read, differential = split_differential(body, None)
        body, variable = str(read), differential
    letters = set(LETTER.findall(body)) - _CONSTANTS
    if not variable or len(letters) != 1 or variable in letters:
        return None
    if variable in LETTER.findall(message):  # "with respect to y": taken at its word
        return None
    fixed = {**arguments, "variable": next(iter(letters))}
    if differential is not None:  # the differential's letter is the wrong one: the math alone
        fixed["expression"] = body
    if stripped is not None:  # the operator's letter is the wrong one: its math, as fields
        fixed["expression"] = stripped.body
        if tool == "derivative" and stripped.order > 1 and not arguments.get("order"):
            fixed["order"] = stripped.order
        if tool == "integral" and stripped.lower is not None and not arguments.get("lower"):
            fixed["lower"], fixed["upper"] = stripped.lower, stripped.upper
    return fixed if _readable(tool, fixed) else None


def _readable(tool: str, arguments: dict[str, Any]) -> bool:
    """Whether the calculus tool reads this call (an integral whose bounds name another
    letter than its variable does not)."""
    expression, variable = str(arguments.get("expression")), str(arguments.get("variable"))
    try:
        if tool == "derivative":
            read_derivative(expression, variable, arguments.get("order") or 1)
        else:
            read_integral(expression, variable, arguments.get("lower"), arguments.get("upper"))
    except (ToolError, ValueError, TypeError, RecursionError):
        return False
    return True


# A number as a point is written: `3`, `-1.5`, `2/3`.
_NUMBER = r"-?\d+(?:\.\d+)?(?:/\d+)?"
# `w = 3` written by the person: a letter given a number.
_ASSIGNED = re.compile(rf"(?<![A-Za-z_])([A-Za-z])\s*=\s*({_NUMBER})(?![\d.])")


def foreign_point(
    arguments: dict[str, Any], resolved: dict[str, Any], message: str, workspace: Workspace
) -> str | None:
    """The refusal of an evaluation at a bare number the person gave to another letter
    (`w = 3` in the message, the math in k alone, k nowhere in the message) while the
    workspace holds math in that letter: the call points at other math than the person
    means. None when the call stands."""
    at = arguments.get("at")
    if not isinstance(at, list) or len(at) != 1 or not isinstance(at[0], str):
        return None
    point = at[0].strip()
    letter = only_letter(resolved)
    if letter is None or not re.fullmatch(_NUMBER, point):
        return None
    said = {name for name, number in _ASSIGNED.findall(message) if number == point}
    if not said or letter in said or letter in LETTER.findall(message):
        return None
    given = sorted(said)[0]
    within = _math_in(given, workspace)
    if not within:
        return None
    return (
        f"The request gives {given} = {point}, but {arguments.get('expression')} is in "
        f"{letter}; the math in {given} is {', '.join(within[-4:])}: use the one the request "
        "means."
    )


# The tools whose `variable` names the letter their math is in.
_CALCULUS = ("derivative", "integral", "extrema", "tangent", "limit", "series")


def foreign_variable(
    tool: str, resolved: dict[str, Any], message: str, workspace: Workspace
) -> str | None:
    """The refusal of a calculus call in a letter the person wrote (`from s = -1 to 1`, `in
    s`) on math in one other letter, while the workspace holds math in the person's letter:
    the call points at other math than the person means (the integral of a w-polynomial in
    s is the polynomial times a length, a silent wrong value). None when the call stands."""
    variable = str(resolved.get("variable") or "").strip()
    if tool not in _CALCULUS or not LETTER.fullmatch(variable):
        return None
    if variable not in LETTER.findall(message):
        return None
    letter = only_letter(resolved)
    if letter is None or letter == variable:
        return None
    within = _math_in(variable, workspace)
    if not within:
        return None
    return (
        f"The request is in {variable}, but the call's math is in {letter}; the math in "
        f"{variable} is {', '.join(within[-4:])}: use the one the request means."
    )


def only_letter(resolved: dict[str, Any]) -> str | None:
    """The one letter of the call's expression; None for none, several, or unreadable math."""
    try:
        letters = math_key(str(resolved.get("expression") or "")).free_symbols
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    return str(next(iter(letters))) if len(letters) == 1 else None


def _math_in(letter: str, workspace: Workspace) -> list[str]:
    """The ids of the workspace's math (not roots) written in `letter`."""
    return [i.id for i in workspace.items if i.kind != "roots" and _has_letter(i.body, letter)]


def _has_letter(math: str, letter: str) -> bool:
    try:
        return letter in {str(s) for s in math_key(math).free_symbols}
    except (ToolError, ValueError, TypeError, RecursionError):
        return False
