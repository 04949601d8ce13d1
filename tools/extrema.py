"""Critical points of f(x), each classified, and the absolute maximum and minimum.

Why one tool: "the maximum height", "where is f smallest on [0, 5]" and "find the turning
points" are one call each instead of derivative + solve + evaluate + comparisons, which is
where a small model slips. Everything is exact and a pure function of the inputs:

* Critical points are the real roots of f' (exact radicals or ``CRootOf`` for polynomial f',
  ``solveset`` otherwise, periodic families ``pi/2 + 2*pi*n`` included) and the points where f'
  has a pole but f is finite (``|x|`` at 0 comes out of ``solveset(sign(x))``).
* Each is classified by the sign of f''; when f'' is 0 or unknown, by the sign of f' on each
  side, sampled midway to the next special point (f' keeps one sign between its roots).
* The absolute extremes compare f at the critical points and at closed ends with the one-sided
  limits at open or infinite ends and at poles (``continuous_domain`` cuts the line there), so
  "no maximum: f → ∞ as x → ∞" and "approaches 0 without reaching it" are stated plainly.

``kind="max"`` / ``"min"``: ``value`` is the maximum (minimum) value, the text also says where;
when there is none, ``value`` is the supremum (infimum), ``oo``/``-oo`` when unbounded, and the
text starts with "no maximum". ``kind=None``: ``value`` is the list of critical points (exact
x values, or families in an integer ``n``); the text classifies them and names the extremes.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from tools.critical_points import (
    TOOL,
    Analysis,
    Candidate,
    End,
    analyse,
    at_text,
    family_index,
    sort_position,
)
from tools.errors import ToolError
from tools.formatting import approximate, decimal, with_decimal
from tools.inputs import quoted
from tools.listed_extremes import listed_extremes, listed_numbers
from tools.result import ToolResult
from tools.shape import shape_text

_KINDS = {
    "": None,
    "both": None,
    "all": None,
    "max": "max",
    "maximum": "max",
    "largest": "max",
    "min": "min",
    "minimum": "min",
    "smallest": "min",
}
_TIE = 1e-20


def extrema(
    expression: str,
    variable: str | None = None,
    lower: object = None,
    upper: object = None,
    kind: str | None = None,
) -> ToolResult:
    """Critical points, their kind, and the absolute extremes of ``expression``; of a list
    of numbers (`-3, -2, 4`), the largest and smallest of them."""
    want = _kind(kind)
    lower, upper = _place(lower), _place(upper)
    if isinstance(expression, str) and (values := listed_numbers(expression)) is not None:
        return listed_extremes(values, lower, upper, want)
    found = analyse(expression, variable, lower, upper)
    summary = f"extrema of {sp.sstr(found.expr)}{found.where}"
    if found.constant is not None:
        text = (
            f"the function is constant ({with_decimal(found.constant)}): every {found.var} gives "
            "its maximum and minimum"
        )
        return ToolResult.success(TOOL, summary, found.constant if want else [], text)
    if want is not None:
        return _one_extreme(want, found, summary)
    return _everything(found, summary)


def _place(bound: object) -> object:
    """A bound written as a kind (`"lower": "min"`, `"upper": "max"`: the extreme asked for,
    in the words of the kind field) names no place: that side is open."""
    if isinstance(bound, str) and bound.strip().lower() in _KINDS:
        return None
    return bound


def _kind(raw: object) -> str | None:
    if raw is None:
        return None
    if isinstance(raw, str) and raw.strip().lower() in _KINDS:
        return _KINDS[raw.strip().lower()]
    raise ToolError(f"kind must be 'max', 'min' or left out (for both), not {quoted(raw)}.")


# ---------------------------------------------------------------------------------------------
# Answers


@dataclass(frozen=True)
class Verdict:
    """The maximum (or minimum): ``value`` is it, or the supremum (infimum) when not attained."""

    attained: bool
    value: sp.Expr | None
    text: str


def _extreme(largest: bool, candidates: list[Candidate], ends: list[End]) -> Verdict:
    word = "maximum" if largest else "minimum"
    sign = 1 if largest else -1
    infinite = sp.oo if largest else -sp.oo
    unbounded = [
        e.where for e in ends if e.limit is not None and _edge(e.limit, largest) == infinite
    ]
    if unbounded:
        arrow = "∞" if largest else "-∞"
        return Verdict(False, infinite, f"no {word}: f → {arrow} as {_join(unbounded)}")
    best: sp.Expr | None = None
    where: list[str] = []
    for candidate in sorted(candidates, key=lambda c: sort_position(c.at)):
        if best is None or _compare(candidate.value, best) * sign > 0:
            best, where = candidate.value, [candidate.where]
        elif _compare(candidate.value, best) == 0 and candidate.where not in where:
            where.append(candidate.where)
    periodic = any(family_index(c.at) is not None for c in candidates)
    unknown = [
        e.where
        for e in ends
        if e.limit is None or (isinstance(e.limit, sp.AccumBounds) and not periodic)
    ]
    if unknown:
        return Verdict(
            False,
            None,
            f"could not decide the {word} (the behaviour as {_join(unknown)} is unknown)",
        )
    bound: tuple[sp.Expr, str] | None = None
    for end in ends:
        limit = end.limit
        assert limit is not None
        if isinstance(limit, sp.AccumBounds):
            # SymPy's bounds of an oscillation may be too wide (sin + cos gives [-2, 2]); a
            # periodic f takes its values at its critical families, so they decide.
            continue
        edge = _edge(limit, largest)
        if (best is None or _compare(edge, best) * sign > 0) and (
            bound is None or _compare(edge, bound[0]) * sign > 0
        ):
            bound = (edge, end.where)
    if bound is not None:
        edge, at = bound
        return Verdict(
            False,
            edge,
            f"no {word}: f approaches {with_decimal(edge)} as {at} without reaching it",
        )
    if best is None:
        return Verdict(False, None, f"no {word}")
    return Verdict(True, best, f"{word} {_shown(best)} at {' and '.join(where)}")


def _edge(limit: sp.Expr, largest: bool) -> sp.Expr:
    """The highest (lowest) value f comes near at an end; an oscillation counts by its bound."""
    if isinstance(limit, sp.AccumBounds):
        return limit.max if largest else limit.min
    return limit


def _shown(value: sp.Expr) -> str:
    """A value for the text: exact with its decimal, or the decimal alone for an expression in
    ``CRootOf`` (exact but unreadable; ``value`` keeps it)."""
    if value.has(sp.CRootOf) and not isinstance(value, sp.CRootOf):
        return f"≈ {decimal(value)}"
    return with_decimal(value)


def _compare(a: sp.Expr, b: sp.Expr) -> int:
    """-1, 0 or 1: exact when SymPy can tell, else at 30 digits with a tiny tie band."""
    if a == b:
        return 0
    if a in (sp.oo, -sp.oo) or b in (sp.oo, -sp.oo):
        return 1 if bool(a > b) else -1
    diff = approximate(a - b, 30)
    scale = max(1.0, abs(float(approximate(a, 30))))
    value = float(sp.re(diff))
    if abs(value) <= _TIE * scale:
        return 0
    return 1 if value > 0 else -1


def _join(items: list[str]) -> str:
    unique = list(dict.fromkeys(items))
    if len(unique) == 2 and unique[0].endswith("→ -∞") and unique[1].endswith("→ ∞"):
        return unique[1].replace("→ ∞", "→ ±∞")
    return " and as ".join(unique)


def _one_extreme(want: str, found: Analysis, summary: str) -> ToolResult:
    verdict = _extreme(want == "max", found.candidates, found.ends)
    if verdict.value is None:
        word = "maximum" if want == "max" else "minimum"
        raise ToolError(f"Could not find the {word}: {verdict.text}.")
    where = found.where
    text = f"{where[1:]}: {verdict.text}" if where else verdict.text
    if not verdict.attained:
        text += _local_ones(want, found)
    return ToolResult.success(TOOL, summary, verdict.value, text)


def _local_ones(want: str, found: Analysis) -> str:
    """With no absolute maximum (minimum), the local ones of that kind: "the local maximum"
    of a cubic is what a person asking for its maximum usually means."""
    word = "local maximum" if want == "max" else "local minimum"
    local = [c for c in found.criticals if c.kind == word and c.value is not None]
    if not local:
        return ""
    shown = "; ".join(f"{_shown(c.value)} at {at_text(found.var, c.at)}" for c in local)
    return f"; {word if len(local) == 1 else word[:-2] + 'a'}: {shown}"


def _everything(found: Analysis, summary: str) -> ToolResult:
    criticals, var, where = found.criticals, found.var, found.where
    if criticals:
        parts = []
        for c in criticals:
            details = [c.note] if c.note else []
            details.append(c.kind)
            if c.value is not None:
                details.append(f"value {_shown(c.value)}")
            parts.append(f"{at_text(var, c.at)} ({', '.join(details)})")
        head = f"critical point{'s' if len(criticals) > 1 else ''}: " + "; ".join(parts)
    else:
        head = "no critical points"
    scope = "absolute" if where else "global"
    pieces = []
    for largest in (True, False):
        text = _extreme(largest, found.candidates, found.ends).text
        if text.startswith("no "):
            text = f"no {scope} {text[3:]}"
        elif not text.startswith("could not"):
            text = f"{scope} {text}"
        pieces.append(text)
    tail = f"{where[1:]}: " if where else ""
    text = f"{head}; {tail}{'; '.join(pieces)}"
    if (shape := shape_text(found)) is not None:
        text += f"; {shape}"
    return ToolResult.success(TOOL, summary, [c.at for c in criticals], text)
