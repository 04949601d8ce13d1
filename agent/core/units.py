"""A unit the person wrote after a number is not an unknown.

Why: a small model turns "the area is 52 m²" into `solve 52*m^2 = 52 for m`, and "a radius of
5 m" into `solve 5*m = 0`: the tool answers exactly, and wrongly, about the unit. A call whose
math or variable is a letter that the person's message writes only as a unit (after a number:
`52 m²`, `5 m`, `25 m/s`, `2 s`) is refused with a sentence that says so and asks for a letter
of the quantity's own. Only notation is read: where a letter stands, never what words say.
"""

from __future__ import annotations

import re
from typing import Any

# Letters that are SI unit symbols (metre, second, gram, hour, litre, newton, joule, watt).
UNIT_LETTERS = frozenset("msghlLNJW")
# The call's fields that hold math or name its letters.
_LETTER_FIELDS = ("equation", "expression", "equations", "variable", "variables")
_LETTER = re.compile(r"(?<![A-Za-z_])([A-Za-z])(?![A-Za-z_])")
# A letter as a unit: after a number (`52 m²`, `5m`) or after another unit and a slash
# (`m/s`), with an optional square or cube, then the end, punctuation, a slash, or a word.
# `2s + 3` is not one: an operator follows.
_AS_UNIT = (
    r"(?:(?<=\d)|(?<=\d\s)|(?<=[A-Za-z]/)){letter}(?:\^[23]|[²³])?"
    r"(?=\s*$|[.,;:!?)]|/[A-Za-z]|\s+[A-Za-z(])"
)


def _letters(arguments: dict[str, Any]) -> set[str]:
    """The single letters of a call's math and variables."""
    found: set[str] = set()
    for name in _LETTER_FIELDS:
        value = arguments.get(name)
        texts = value if isinstance(value, list) else [value]
        for text in texts:
            if text is not None:
                found.update(_LETTER.findall(str(text)))
    return found


def unit_written(letter: str, message: str) -> str | None:
    """How the message writes `letter` as a unit ("52 m²"), when it writes it only so; None
    when the letter is not a unit symbol, is absent, or stands anywhere as math."""
    if letter not in UNIT_LETTERS:
        return None
    anywhere = [m.start() for m in _LETTER.finditer(message) if m.group(1) == letter]
    as_unit = list(re.finditer(_AS_UNIT.format(letter=re.escape(letter)), message))
    if not anywhere or len(as_unit) != len(anywhere):
        return None
    first = as_unit[0]
    number = re.search(r"[\d.]+\s?(?:[A-Za-z]+/)?$", message[: first.start()])
    return (number.group(0) if number else "") + first.group(0)


def unit_as_unknown(arguments: dict[str, Any], message: str) -> str | None:
    """The refusal of a call whose math is in a letter the person wrote only as a unit; None
    when the call stands."""
    for letter in sorted(_letters(arguments)):
        written = unit_written(letter, message)
        if written is not None:
            return (
                f"Not run: {letter} is the unit the person wrote in '{written}', not an "
                "unknown. Give the quantity the question asks for a letter of its own (w for a "
                "width, r for a radius, x otherwise) and write, in that letter, the equation or "
                "expression the words state with the person's numbers."
            )
    return None
