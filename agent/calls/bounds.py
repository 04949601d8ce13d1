"""An integral's or an extremum's bounds that nobody gave, left out with a note saying so.

Why: a small model asked "integrate this" for a function, or for its greatest value, often
adds bounds of its own (0 and 1, or a result's numbers): the tool then answers a definite
integral or a bounded extremum nobody asked for, exactly and wrongly. Bounds that the person
did not write in this task (in digits or as a number word) and that no result holds are
left out: the integral runs as the antiderivative, the extremum without a range, and the
result says so. For the extreme of several values (`#N` of roots) a result's number is no
excuse: no one bounds roots by other roots. Only numbers are compared, never words' meaning.
"""

from __future__ import annotations

import re
from typing import Any

from agent import wire
from agent.calls.grounding import NUMBER, SUPERSCRIPTS
from agent.workspace.record import Workspace
from tools.errors import ToolError
from tools.parsing import parse_expression

# Numbers people write as words in a request ("from zero to two"), read as numerals.
_NUMBER_WORDS = {
    word: str(n)
    for n, word in enumerate(
        (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        )
    )
}
_CLEARED = {"lower": None, "upper": None}


def _numerals(text: str) -> str:
    """`text` with number words from zero to twelve written as digits."""
    return re.sub(r"[A-Za-z]+", lambda m: _NUMBER_WORDS.get(m.group(0).lower(), m.group(0)), text)


def is_number(text: str) -> bool:
    """Text the tools' parser reads as a number (`1`, `-1/2`, `pi`, `sqrt(2)`)."""
    try:
        return not parse_expression(text).free_symbols
    except (ToolError, ValueError, TypeError, RecursionError):
        return False


def unwritten_values(values: list[str], said: str, known: set[str]) -> list[str]:
    """The numbers of a call's bounds or points that the person did not write in this task
    (in digits or as a word) and no result holds ("integrate this" answered with bounds 0
    and 1 nobody gave)."""
    written = set(NUMBER.findall(_numerals(said).translate(SUPERSCRIPTS))) | known
    found = [n for v in values for n in NUMBER.findall(v)]
    return list(dict.fromkeys(n for n in found if n not in written))


def unsaid_bounds(
    tool: str, arguments: dict[str, Any], said: str, workspace: Workspace
) -> tuple[dict[str, Any], str] | None:
    """The call's arguments without bounds nobody gave, and the note that says so; None when
    the call keeps its bounds (`said`: the person's words in this task)."""
    if tool not in wire.BOUNDED_TOOLS:
        return None
    bounds = [str(arguments.get(k) or "") for k in ("lower", "upper")]
    bounds = [b for b in bounds if b and "#" not in b]
    known = {v for item in workspace.items if item.origin != "you" for v in item.values}
    cited = workspace.cited_alone(str(arguments.get("expression") or ""))
    if tool == "extrema" and cited is not None and len(cited.values) > 1:
        known = set()
    unsaid = unwritten_values(bounds, said, known)
    if not unsaid or not all(is_number(b) for b in bounds):
        return None  # a bound that is no number: the tool says why
    return {**arguments, **_CLEARED}, wire.unsaid_bounds_note(unsaid, tool)
