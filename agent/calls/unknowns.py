"""A word problem's call needs an unknown of its own: not a unit, not none at all.

Why: a small model turns "the area is 52 m²" into `solve 52*m^2 = 52` for m, "a radius of
5 m" into `solve 5*m = 0`, and "$380 from 26 adults and 24 children" into `solve 26 + 24 +
12 + 53 = 115`: the tool answers exactly, and wrongly, about a unit or about arithmetic
nobody asked for. Such a call is refused with a sentence that names what is wrong and asks for
a letter of the quantity's own. Only notation is read (where a letter stands, whether an
equation has one), never what the words say.
"""

from __future__ import annotations

import re
from typing import Any

from agent.calls.variable_fit import LETTER

# Letters that are SI unit symbols (metre, second, gram, hour, litre, newton, joule, watt).
UNIT_LETTERS = frozenset("msghlLNJW")
# The call's fields that hold math or name its letters.
_LETTER_FIELDS = ("equation", "expression", "equations", "variable", "variables")
# A letter as a unit: after a number (`52 m²`, `5m`) or after another unit and a slash
# (`m/s`), with an optional square or cube, then the end, punctuation, a slash, or a word.
# `2s + 3` is not one: an operator follows.
_AS_UNIT = (
    r"(?:(?<=\d)|(?<=\d\s)|(?<=[A-Za-z]/)){letter}(?:\^[23]|[²³])?"
    r"(?=\s*$|[.,;:!?)]|/[A-Za-z]|\s+[A-Za-z(])"
)
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


def _letters(arguments: dict[str, Any]) -> set[str]:
    """The single letters of a call's math and variables."""
    found: set[str] = set()
    for name in _LETTER_FIELDS:
        for text in _texts(arguments.get(name)):
            found.update(LETTER.findall(text))
    return found


def unit_written(letter: str, message: str) -> str | None:
    """How the message writes `letter` as a unit ("52 m²"), when it writes it only so; None
    when the letter is not a unit symbol, is absent, or stands anywhere as math."""
    if letter not in UNIT_LETTERS:
        return None
    anywhere = [m.start() for m in LETTER.finditer(message) if m.group(1) == letter]
    as_unit = list(re.finditer(_AS_UNIT.format(letter=re.escape(letter)), message))
    if not anywhere or len(as_unit) != len(anywhere):
        return None
    first = as_unit[0]
    # The refusal quotes a short number, even after a pasted run of digits.
    before = message[max(0, first.start() - 24) : first.start()]
    number = re.search(r"[\d.]+\s?(?:[A-Za-z]+/)?$", before)
    return (number.group(0) if number else "") + first.group(0)


def unit_as_unknown(arguments: dict[str, Any], said: str) -> str | None:
    """The refusal of a call whose math is in a letter the person wrote only as a unit."""
    for letter in sorted(_letters(arguments)):
        written = unit_written(letter, said)
        if written is not None:
            return (
                f"Not run: {letter} is the unit the person wrote in '{written}', not an "
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
