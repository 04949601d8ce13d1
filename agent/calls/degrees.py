"""An angle the person wrote in degrees stays in degrees in the call.

Why: "sin of 30 degrees?" or "a ramp inclined at 15°" reaches a small model's call as
`sin(30)` or `3*sin(15)`, which the tools read in radians (sin(30) ≈ -0.988). A number the
person wrote with a degree sign or word (`30°`, `30 degrees`, `30 deg`), standing alone as
the argument of a trigonometric function in the call, is that angle: the call says `sin(30°)`.
Only notation is read: a number and its unit in the person's words, a function's argument in
the call.
"""

from __future__ import annotations

import re
from typing import Any

from tools.vocabulary import DEGREE_WORDS

_NUMBER = r"\d+(?:\.\d+)?"
_UNIT = "|".join(sorted(DEGREE_WORDS, key=len, reverse=True))
# `30°`, `30 °`, `30 degrees`: a number with its unit of angle.
_IN_DEGREES = re.compile(rf"(?<![\w.])({_NUMBER})\s*(?:°|(?:{_UNIT})\b)")
# `sin(30)`: a trigonometric function of a bare number (no unit, no other math).
_TRIG_OF_A_NUMBER = re.compile(rf"\b(sin|cos|tan|cot|sec|csc)\s*\(\s*({_NUMBER})\s*\)")
_MATH_FIELDS = ("expression", "equation")


def in_degrees(arguments: dict[str, Any], said: str) -> dict[str, Any] | None:
    """The call's fields with the person's angles in degrees marked `°`; None when no
    trigonometric function in the call takes one of them bare."""
    angles = set(_IN_DEGREES.findall(said))
    if not angles:
        return None

    def marked(match: re.Match[str]) -> str:
        name, number = match.groups()
        return f"{name}({number}°)" if number in angles else match.group(0)

    changed = {
        field: _TRIG_OF_A_NUMBER.sub(marked, text)
        for field in _MATH_FIELDS
        if isinstance(text := arguments.get(field), str)
    }
    changed = {field: text for field, text in changed.items() if text != arguments[field]}
    return {**arguments, **changed} if changed else None
