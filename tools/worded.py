"""Arithmetic named in words over listed values: "sum of the roots" at -4, 1, 3.

A small model asked "what's their sum?" sometimes sends `evaluate` the request's own words as
the expression and the numbers it means as the points (seen on the `sessions` eval: "sum of
the roots" at ["-4", "1", "3"]). Read literally that is a parse error, and the model then asked
the user back. The words name one operation on the values, so the call is read as that
arithmetic written out; anything else in words is left to the parser's error.
"""

from __future__ import annotations

import re

# What the values are called: "the roots", "them", "these numbers", "the solutions".
_OF_VALUES = (
    r"(?:\s+(?:of|for)\s+(?:all\s+)?(?:the\s+|these\s+|those\s+|its\s+|their\s+)?"
    r"(?:roots?|values?|numbers?|solutions?|zeros?|points?|them|they|each))?"
)
_FORMS = {
    "sum_of_squares": r"sum\s+of\s+(?:the\s+)?squares",
    "sum": r"sum|total|addition",
    "product": r"product",
    "mean": r"mean|average",
    "squares": r"squares?|squared",
    "cubes": r"cubes?|cubed",
}
_WORDED = re.compile(
    r"^\s*(?:the\s+)?(?P<form>"
    + "|".join(f"(?P<{name}>{pattern})" for name, pattern in _FORMS.items())
    + r")"
    + _OF_VALUES
    + r"\s*[?.]?\s*$",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"^[-+]?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?$")


def worded_arithmetic(expression: str, values: list[str]) -> str | None:
    """The arithmetic `expression` names on `values`, written out ("sum of the roots" on
    -4, 1 -> "(-4) + (1)"), or None when the words are not one of these operations or a value
    is not a plain number."""
    match = _WORDED.match(expression)
    if match is None or not values or not all(_NUMBER.match(v.strip()) for v in values):
        return None
    items = [f"({v.strip()})" for v in values]
    form = next(name for name in _FORMS if match.group(name))
    if form == "sum_of_squares":
        return " + ".join(f"{item}^2" for item in items)
    if form == "sum":
        return " + ".join(items)
    if form == "product":
        return "*".join(items)
    if form == "mean":
        return f"({' + '.join(items)})/{len(items)}"
    power = 2 if form == "squares" else 3
    return ", ".join(f"{item}^{power}" for item in items)
