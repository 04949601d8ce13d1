"""An integral's or an extremum's bounds held to the ones the person gave.

Why: a small model asked "integrate this" for a function, or for its greatest value, often
adds bounds of its own (0 and 1, or a result's numbers): the tool then answers a definite
integral or a bounded extremum nobody asked for, exactly and wrongly. Bounds that the person
did not write in this task (in digits or as a number word) and that no result holds are
left out: the integral runs as the antiderivative, the extremum without that end (an end
the person gave stays: "at most 41 items" bounds a profit's maximum when the model's 0 goes),
and the result says so. For the extreme of several values (`#N` of roots) a result's number
is no excuse: no one bounds roots by other roots. Only numbers are compared, never words'
meaning.

The other way round, the model drops bounds the person wrote ("the area under y = x^2 + 1
from x = 0 to x = 3" sent with no bounds answers an antiderivative): when the person's words
in this task write exactly one interval in a notation people use for one (`from a to b`,
`between a and b`, `[a, b]`, `a <= x <= b`), a call with no bounds takes that interval.
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

# A bound as people write one: `3`, `-1.5`, `1/2`, `pi`, `2pi`, `π/2`, `-2*pi`.
_END = r"-?\s*(?:\d+(?:\.\d+)?\s*\*?\s*)?(?:pi|π)(?:\s*/\s*\d+)?|-?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?"
# 0 <= x <= 3, 0 ≤ t ≤ 3, 0 < x < 5 (its letter and relations named for a strict end)
_CHAIN = (
    rf"(?<![\w.])(?P<a>{_END})\s*(?P<r1><=|≤|<)\s*(?P<v>[a-z])\s*(?P<r2><=|≤|<)\s*"
    rf"(?P<b>{_END})(?!\w|\.\d)"
)
# The notations of one interval, each naming its ends `a` and `b`.
_INTERVALS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        # from 0 to 3, between x = 0 and x = 3, from t=1 until t=4
        rf"\b(?:from|between)\s+(?:(?P<v>[a-z])\s*=\s*)?(?P<a>{_END})\s+(?:to|and|until)\s+"
        rf"(?:(?P=v)\s*=\s*)?(?P<b>{_END})(?!\w|\.\d)",
        # x = 0 to x = 3
        rf"\b(?P<v>[a-z])\s*=\s*(?P<a>{_END})\s+to\s+(?P=v)\s*=\s*(?P<b>{_END})(?!\w|\.\d)",
        # [0, 3]
        rf"\[\s*(?P<a>{_END})\s*,\s*(?P<b>{_END})\s*\]",
        _CHAIN,
    )
)


# One condition on a letter, standing alone: `x >= 0`, `t ≥ 2`, `x < -1` (not one end of a chain
# such as `0 <= x <= 3`, which `_INTERVALS` reads).
_CONDITION = re.compile(
    rf"(?<![<>=≤≥]\s)(?<![\w.<>=≤≥])(?P<v>[a-z])\s*(?P<rel>>=|≥|<=|≤|>|<)\s*(?P<a>{_END})"
    r"(?!\w|\.\d|\s*(?:<|≤|>|≥))",
    re.IGNORECASE,
)
_RELATIONS = {"≥": ">=", "≤": "<="}


# What a model writes in a bound field to mean there is none: the whole line in words, or an
# empty value (`all real numbers`, `real`, `ℝ`, `undefined`, `none`). Never the person's words.
_NO_BOUND = re.compile(
    r"(?:all\s+)?(?:the\s+)?real(?:s|\s+numbers?|\s+line)?|ℝ|none|null|nil|undefined|n/?a"
    r"|unbounded|any|anything|no\s+(?:lower\s+|upper\s+)?(?:bound|limit)s?|-+",
    re.IGNORECASE,
)


def says_no_bound(value: object) -> bool:
    """A bound field whose words say there is no bound (`all real numbers`, `undefined`)."""
    return isinstance(value, str) and _NO_BOUND.fullmatch(value.strip()) is not None


def bounds_said_in_words(tool: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """The call without the bounds whose words say there is none; None when it has no such
    bound. An integral loses both (one end alone is no integral: it was an antiderivative);
    an extremum keeps the other end (a one-sided range is a range)."""
    if tool not in wire.BOUNDED_TOOLS:
        return None
    worded = [k for k in ("lower", "upper") if says_no_bound(arguments.get(k))]
    if not worded:
        return None
    cleared = _CLEARED if tool == "integral" else dict.fromkeys(worded)
    return {**arguments, **cleared}


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
    if _extreme_of_values(tool, arguments, workspace):
        known = set()
    unsaid = [b for b in bounds if unwritten_values([b], said, known)]
    if not unsaid or not all(is_number(b) for b in bounds):
        return None  # a bound that is no number: the tool says why
    cleared = _CLEARED
    if tool == "extrema":  # a one-sided range is a range: the end the person gave stays
        cleared = {k: None for k in _CLEARED if str(arguments.get(k) or "") in unsaid}
    kept = [str(arguments[k]) for k in _CLEARED if k not in cleared and arguments.get(k)]
    return {**arguments, **cleared}, wire.unsaid_bounds_note(unsaid, tool, kept)


def _extreme_of_values(tool: str, arguments: dict[str, Any], workspace: Workspace) -> bool:
    """An extremum of an item of several values (`max` of roots): no range bounds it."""
    cited = workspace.cited_alone(str(arguments.get("expression") or ""))
    return tool == "extrema" and cited is not None and len(cited.values) > 1


def persons_interval(said: str) -> tuple[str, str] | None:
    """The one interval the person's words write (its ends as written, spaces dropped); None
    when they write none, or several different ones."""
    text = _numerals(said).replace("−", "-")
    found = {
        (m["a"].replace(" ", ""), m["b"].replace(" ", ""))
        for pattern in _INTERVALS
        for m in pattern.finditer(text)
    }
    ends = [pair for pair in found if all(is_number(end) for end in pair)]
    return ends[0] if len(ends) == 1 and len(found) == 1 else None


def persons_restriction(said: str, math: str) -> str | None:
    """The part of the line the person's words keep a function to, as the tools read it: the
    one interval they write (`[0, 3]`), else their conditions on one letter of `math` (`x >=
    0`, `x > 0 and x < 5`); None when they write none, or conditions on several letters."""
    text = _numerals(said).replace("−", "-")
    if (interval := persons_interval(said)) is not None:
        return _strict_chain(text, interval) or f"[{interval[0]}, {interval[1]}]"
    found = list(
        dict.fromkeys(
            (m["v"], _RELATIONS.get(m["rel"], m["rel"]), m["a"].replace(" ", ""))
            for m in _CONDITION.finditer(text)
            if re.search(rf"(?<![A-Za-z]){m['v']}(?![A-Za-z])", math)
        )
    )
    if len({letter for letter, _, _ in found}) != 1 or not all(is_number(e) for *_, e in found):
        return None  # none, or conditions on two letters: which one is the function's?
    return " and ".join(" ".join(condition) for condition in found)


def _strict_chain(text: str, interval: tuple[str, str]) -> str | None:
    """`0 < x <= 5` as the conditions it is (`x > 0 and x <= 5`), when the person's one
    interval is that chain with an end left out: `[0, 5]` would put the end back in."""
    for m in re.finditer(_CHAIN, text, re.IGNORECASE):
        ends = (m["a"].replace(" ", ""), m["b"].replace(" ", ""))
        if ends == interval and "<" in (m["r1"], m["r2"]):
            lower = ">" if m["r1"] == "<" else ">="
            upper = "<" if m["r2"] == "<" else "<="
            return f"{m['v']} {lower} {ends[0]} and {m['v']} {upper} {ends[1]}"
    return None


def dropped_bounds(
    tool: str, arguments: dict[str, Any], said: str, workspace: Workspace
) -> dict[str, Any] | None:
    """The call's arguments with the one interval the person wrote as its bounds, where the
    call gave none; None when it gave some, or the person wrote no single interval. The
    extreme of several values (`max` of roots) takes none: roots are not bounded."""
    if tool not in wire.BOUNDED_TOOLS or any(arguments.get(k) for k in ("lower", "upper")):
        return None
    if _extreme_of_values(tool, arguments, workspace):
        return None
    if (interval := persons_interval(said)) is None:
        return None
    return {**arguments, "lower": interval[0], "upper": interval[1]}
