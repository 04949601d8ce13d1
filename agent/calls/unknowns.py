"""A word problem's call needs an unknown of its own: not a unit, not none at all.

Why: a small model turns "the area is 52 m²" into `solve 52*m^2 = 52` for m, "a radius of
5 m" into `solve 5*m = 0`, "52 cm²" into `52*c*m^2`, and "$380 from 26 adults and 24 children" into `solve 26 + 24 +
12 + 53 = 115`: the tool answers exactly, and wrongly, about a unit or about arithmetic
nobody asked for. Such a call is refused with a sentence that names what is wrong and asks for
a letter of the quantity's own. Only notation is read (where a letter stands, whether an
equation has one; what a unit after a number looks like is `agent.workspace.units`), never
what the words say.
"""

from __future__ import annotations

import re
from typing import Any

from agent.calls.variable_fit import LETTER
from agent.workspace.units import only_units, written_as_unit

# The call's fields that hold math or name its letters.
_LETTER_FIELDS = ("equation", "expression", "equations", "variable", "variables")
_ASK_FOR_LETTERS = (
    "Give each quantity the question asks for a letter of its own (w for a width, r for a "
    "radius, x otherwise) and write, in those letters, the equations or expression the words "
    "state with the person's numbers."
)


def unknown_refusal(tool: str, arguments: dict[str, Any], said: str) -> str | None:
    """Why a call has no unknown of its own (`arguments`: as the model wrote them, `said`:
    the person's words in this task); None when the call stands."""
    return unit_as_unknown(arguments, said) or no_unknown(tool, arguments, said)


def _texts(value: Any) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list) else [str(value or "")]


def _math(arguments: dict[str, Any]) -> list[str]:
    return [text for name in _LETTER_FIELDS for text in _texts(arguments.get(name))]


def _written(symbol: str, math: str) -> bool:
    """The call writes a unit's symbol as letters (`m`; `cm`, `c*m` or `c m` for cm)."""
    letters = r"\s*\*?\s*".join(map(re.escape, symbol))
    return re.search(rf"(?<![A-Za-z_]){letters}(?![A-Za-z_])", math) is not None


def unit_as_unknown(arguments: dict[str, Any], said: str) -> str | None:
    """The refusal of a call whose math or variable is a unit the person wrote after a number
    and nowhere as math: `m` of `52 m²`, `s` of `25 m/s`, `c*m` of `52 cm²`."""
    math = _math(arguments)
    letters = sorted({letter for text in math for letter in LETTER.findall(text)})
    symbols = sorted({s for unit in only_units(said) for s, _end in unit.symbols if len(s) > 1})
    for symbol in [*letters, *(s for s in symbols if any(_written(s, t) for t in math))]:
        if (use := written_as_unit(symbol, said)) is not None:
            return (
                f"Not run: {symbol} is the unit the person wrote in '{use.quote}', not an "
                f"unknown. {_ASK_FOR_LETTERS}"
            )
    return None


def _squeezed(text: str) -> str:
    return "".join(text.split()).replace("**", "^")


def no_unknown(tool: str, arguments: dict[str, Any], said: str) -> str | None:
    """The refusal of a solve or system whose equations hold no letter and no id, when the
    person did not write them: arithmetic made up from a word problem's numbers."""
    if tool not in ("solve", "solve_system"):
        return None
    equations = [e for e in _texts(arguments.get("equations") or arguments.get("equation")) if e]
    if not equations or any(re.search(r"[A-Za-z#]", e) for e in equations):
        return None
    if all(_squeezed(e) in _squeezed(said) for e in equations):
        return None  # the person's own arithmetic, to check
    return f"Not run: {'; '.join(equations)} has no unknown. {_ASK_FOR_LETTERS}"
