"""An angle the person wrote in degrees stays in degrees in the call.

Why: "sin of 30 degrees?" or "a ramp inclined at 15°" reaches a small model's call as
`sin(30)` or `3*sin(15)`, which the tools read in radians (sin(30) ≈ -0.988). A number the
person wrote with a degree sign or word (`30°`, `30 degrees`, `30 deg`), standing alone as
the argument of a trigonometric function in the call, is that angle: the call says `sin(30°)`;
so is a bound of a solve's domain (`[0, 360]` for "between 0 and 360 degrees"), which the
tool then answers in degrees too. Only notation is read: a number and its unit in the
person's words, a function's argument or a bound in the call.
"""

from __future__ import annotations

import re
from typing import Any

from tools.vocabulary import ANGLE_IN_DEGREES

_NUMBER = r"\d+(?:\.\d+)?"
# `sin(30)`: a trigonometric function of a bare number (no unit, no other math).
_TRIG_OF_A_NUMBER = re.compile(rf"\b(sin|cos|tan|cot|sec|csc)\s*\(\s*({_NUMBER})\s*\)")
# A number standing alone in a solve's domain (`[0, 360]`), not part of a longer one or a unit.
_BARE_NUMBER = re.compile(rf"(?<![\w.])({_NUMBER})(?![\w.°])")
_MATH_FIELDS = ("expression", "equation")


def in_degrees(arguments: dict[str, Any], said: str) -> dict[str, Any] | None:
    """The call's fields with the person's angles in degrees marked `°` (a trigonometric
    function's bare argument, a bound of a solve's domain); None when nothing changes."""
    angles = set(ANGLE_IN_DEGREES.findall(said))
    if not angles:
        return None

    def trig_marked(match: re.Match[str]) -> str:
        name, number = match.groups()
        return f"{name}({number}°)" if number in angles else match.group(0)

    def bound_marked(match: re.Match[str]) -> str:
        return f"{match.group(1)}°" if match.group(1) in angles else match.group(0)

    changed = {
        field: _TRIG_OF_A_NUMBER.sub(trig_marked, text)
        for field in _MATH_FIELDS
        if isinstance(text := arguments.get(field), str)
    }
    if isinstance(domain := arguments.get("domain"), str):
        changed["domain"] = _BARE_NUMBER.sub(bound_marked, domain)
    changed = {field: text for field, text in changed.items() if text != arguments[field]}
    return {**arguments, **changed} if changed else None
