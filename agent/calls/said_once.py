"""A call with what it says twice, or in the wrong field, said once where the tool reads it.

Why apart from `resolve`: these change the call itself before it runs, and the call is
stored as changed, so the workspace's words for its result and what the model reads back are
what ran. Each reads math and fields, never the request's words:
- an integral written around an integral call's math ("h from t = 0 to 1",
  `integrate(h, t, 0, 1)`) leaves the math alone, its bounds and variable in their fields;
- a derivative of `h'''` with no order or order 3 is `h` with order 3 (the primes and the
  order say the same: not the sixth derivative);
- an evaluation whose expression works on an item's values (`(#2)^2`, `sum(#2)`) and whose
  points are those values again runs with no points (each root is used once, not twice);
- a function's value with its point written twice (`q(-3)` at `k = -3`), or the function
  named twice (`q(#3)` at a point, #3 being q or q's roots), is q at that point;
- a math field that also says the tool's own operation and bounds its other fields hold
  ("integrate h from 0 to 1") holds the math alone (`h`);
- an expression begun with a word and `=` (`area = ∫ (x^2 + 1) dx`) is the math after it:
  the word names the result, and an expression tool reads no equation;
- math followed by an id in brackets, as the answers write a result (`x**3/3 + C (#4)`), is
  that id: the id is exact, the copied math may not be (a factor form the model made up);
- an inverse call on `k^-1(x)` (the inverse's notation) is on the function k.
"""

from __future__ import annotations

import re
from typing import Any

from agent import wire
from agent.calls.field_words import echo_removed, english_words
from agent.calls.pointing import values_item
from agent.calls.resolve import EQUATION_TOOLS, MATH_FIELDS
from agent.workspace.math_values import math_key
from agent.workspace.record import Workspace, ids_in
from tools.errors import ToolError
from tools.operators import strip_integral
from tools.parsing import parse_expression
from tools.tokens import split_top_level
from tools.vocabulary import FUNCTIONS

# A function's name alone, with its primes if any: `f`, `f(x)`, `f'''`, `h''(t)`.
FUNCTION_ALONE = re.compile(r"\s*(?P<name>[^\W\d]\w*)(?P<primes>'*)\s*(?:\(\s*[^\W\d]\w*\s*\))?\s*")

# A function's name applied: `q(-3)`, `f'(#2)`.
_APPLIED = re.compile(r"\s*(?P<name>[^\W\d]\w*)(?P<primes>'*)\s*\((?P<args>.*)\)\s*", re.S)

# Words and `=` before an expression's math: `area = ...`, `total cost = ...`.
_LABEL = re.compile(r"\s*(?P<label>[A-Za-z][A-Za-z ]*?)\s*=(?!=)\s*(?P<math>[^=<>≤≥]+)")

# Math, then an id in brackets after a space: `(x - 4)(x - 6) (#1)`.
_LABELLED_BY_ID = re.compile(r"(?P<math>.*[^\s(])\s+\(\s*(?P<id>#\d+)\s*\)\s*", re.S)

# A function's inverse in notation: `k^-1(x)`, `k^(-1)`, `k⁻¹(x)`.
_INVERSE_NOTATION = re.compile(
    r"\s*(?P<name>[^\W\d]\w*)\s*(?:\^\s*\(?\s*-\s*1\s*\)?|⁻¹)\s*(?:\(\s*[^\W\d]\w*\s*\))?\s*"
)

# An id, or a combination of one (`sum(#2)`), as it stands in an expression.
_ID_OR_COMBINATION = re.compile(r"\b[A-Za-z]+\s*\(\s*#\d+\s*\)|#\d+(?:\[-?\d+\])?")


def said_once(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The call's arguments with each thing said once (an equal dict when nothing was)."""
    arguments = _id_for_its_label(tool, _label_dropped(tool, arguments, workspace), workspace)
    arguments = _operation_said_once(tool, bounds_in_fields(tool, arguments), workspace)
    if tool == "derivative":
        arguments = _primes_as_order(arguments, workspace)
    if tool == "evaluate":
        arguments = _point_said_once(_values_given_again(arguments, workspace), workspace)
    if tool == "inverse":
        arguments = _inverse_notation_said_once(arguments, workspace)
    return arguments


def _label_dropped(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """An expression begun with English words and `=` (`area = ∫ (x^2 + 1) dx`) holds the
    math after them; a letter or a name the chat gave (`v = ...`) is not such a word."""
    value = arguments.get("expression")
    if tool in EQUATION_TOOLS or not isinstance(value, str):
        return arguments
    match = _LABEL.fullmatch(value)
    if match is None:
        return arguments
    label = match["label"]
    if any(len(w) < 2 or w in workspace.named for w in label.split()):
        return arguments  # a letter (`integrate h from t = 0`) or a name is math
    if not english_words(label, workspace):
        return arguments
    return {**arguments, "expression": match["math"].strip()}


def _id_for_its_label(tool: str, arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """Each math field written as an answer writes a result, math then its id in brackets
    (`x**3/3 + C (#4)`), holds the id alone; a function applied (`max (#2)`) is not one."""
    changed = dict(arguments)
    for name in MATH_FIELDS.get(tool, ()):
        match = _LABELLED_BY_ID.fullmatch(str(arguments.get(name) or ""))
        if match is None or workspace.cited_alone(match["id"]) is None:
            continue
        last = re.search(r"([A-Za-z]+)$", match["math"])
        if last is not None and last[1] in wire.COMBINATIONS + tuple(FUNCTIONS):
            continue
        changed[name] = match["id"]
    return changed


def _inverse_notation_said_once(arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """An inverse call on `k^-1(x)`, the notation of the inverse it asks for, is on k (read
    as math, it would be x/k, and the tool would invert that)."""
    match = _INVERSE_NOTATION.fullmatch(str(arguments.get("expression") or ""))
    if match is None or match["name"] not in workspace.named:
        return arguments
    return {**arguments, "expression": match["name"]}


def _operation_said_once(
    tool: str, arguments: dict[str, Any], workspace: Workspace
) -> dict[str, Any]:
    """The main math field without the tool's own verb (`field_words.echo_removed`): stored so,
    the workspace names the result by its math and the model reads back a clean call."""
    fields = MATH_FIELDS.get(tool, ())
    if not fields or not isinstance(value := arguments.get(fields[0]), str):
        return arguments
    alone = echo_removed(tool, fields[0], value, arguments, workspace)
    return arguments if alone is None else {**arguments, fields[0]: alone}


def _point_said_once(arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """`q(-3)` at `k = -3`: q's value at -3 (no point left to put in). `q(#3)` at a point,
    #3 being q or an item made from q (its roots): q at the point."""
    at = arguments.get("at")
    match = _APPLIED.fullmatch(str(arguments.get("expression") or ""))
    if not isinstance(at, list) or len(at) != 1 or match is None:
        return arguments
    named = workspace.named.get(match["name"])
    if named is None:
        return arguments
    written = [a.strip() for a in split_top_level(match["args"])]
    item = workspace.cited_alone(written[0]) if len(written) == 1 else None
    if item is not None:  # an unknown id falls through: the comparison below cannot read it
        if named.number in (item.number, item.source):
            return {**arguments, "expression": match["name"] + match["primes"]}
        return arguments
    given = [p.partition("=")[2] if "=" in p else p for p in split_top_level(str(at[0]))]
    try:
        same = len(written) == len(given) and all(
            parse_expression(a) == parse_expression(b) for a, b in zip(written, given, strict=True)
        )
    except ToolError:
        return arguments
    return {**arguments, "at": []} if same else arguments


def bounds_in_fields(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """An integral call whose expression also writes the integral around its math, as the
    integral tool reads it (`tools.operators.strip_integral`: "x^2 from 0 to 1",
    `integrate(x^2, x, 0, 1)`, "integrate h"), with the math alone in expression and what
    the operator says in the fields the call left empty: the tool reads them there, and the
    checks on bounds (did the person give them?) and on words see the call that runs. A field
    that says otherwise leaves the call as it is (the tool reports the clash)."""
    if tool != "integral":
        return arguments
    try:
        found = strip_integral(str(arguments.get("expression") or ""))
    except ToolError:
        return arguments
    if found is None or not found.body:
        return arguments
    written = {"expression": found.body}
    said = {"variable": found.variable, "lower": found.lower, "upper": found.upper}
    for key, value in said.items():
        given = arguments.get(key)
        if value is None:
            continue
        if given in (None, ""):
            written[key] = value
        elif str(given).replace(" ", "") != value.replace(" ", ""):
            return arguments
    return {**arguments, **written}


def _primes_as_order(arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """A derivative call on `f'''` with no order or order 3 asks for f''' once, not the
    third derivative of f''' (the primes and the order say the same): f with order 3."""
    match = FUNCTION_ALONE.fullmatch(str(arguments.get("expression") or ""))
    if match is None or not match["primes"] or match["name"] not in workspace.named:
        return arguments
    primes = len(match["primes"])
    if arguments.get("order") not in (None, primes):
        return arguments
    return {**arguments, "expression": match["name"], "order": primes}


def _values_given_again(arguments: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """`(#2)^2` or `sum(#2)` at the points #2 holds: those values once, so no points."""
    at = arguments.get("at")
    expression = str(arguments.get("expression") or "")
    cited = [workspace.get(n) for n in ids_in(expression)]
    items = [i for i in cited if i is not None and len(i.values) > 1]
    if not isinstance(at, list) or not at or not items or not _closed_but_ids(expression):
        return arguments
    return {**arguments, "at": []} if values_item(at, items) is not None else arguments


def _closed_but_ids(expression: str) -> bool:
    """No letter but the ids' (`(#2)^2`, `sum(#2)`): points would have nothing to go into."""
    text = _ID_OR_COMBINATION.sub("1", expression)
    try:
        return not math_key(text).free_symbols
    except (ToolError, ValueError, TypeError, RecursionError):
        return False
