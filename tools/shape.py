"""Where a function rises and falls, and where it bends: the rest of a first course's study of
f, said after its critical points when the extrema tool is asked for no one extreme.

Why: asked "find the inflection point" or "where is f increasing?", a small model calls
extrema with no kind (no other tool studies the shape of f), and the person got the critical
points alone, the answer to another question. Both parts are exact: the sign of f' between
the critical points, and of f'' between its zeros. A shape that cannot be found exactly
(periodic families, an f'' whose zeros are no polynomial's) is left unsaid, never guessed.
"""

from __future__ import annotations

from itertools import pairwise

import sympy as sp

from tools.critical_points import Analysis, family_index, real_roots, sign_of, sort_position
from tools.errors import ToolError
from tools.formatting import decimal, tidy, with_decimal
from tools.inputs import as_real

# An interval's end longer than this is shown as its decimal.
_LONGEST_EXACT_END = 16
# Above this degree the zeros of f'''s numerator are left alone (slow, and no classroom's).
_MOST_INFLECTIONS = 8


def shape_text(found: Analysis) -> str | None:
    """`increasing on (-∞, -1) and (3, ∞), decreasing on (-1, 3); inflection point: x = 1
    (value -6); concave down on (-∞, 1), up on (1, ∞)`, or the part of it found exactly."""
    f, x = as_real(found.expr, found.var)
    parts = [_rising_and_falling(found, f, x), _bending(found, f, x)]
    return "; ".join(p for p in parts if p) or None


def _rising_and_falling(found: Analysis, f: sp.Expr, x: sp.Symbol) -> str | None:
    points = [c.at for c in found.criticals]
    if any(family_index(p) is not None for p in points):
        return None
    runs = _signed_runs(sp.diff(f, x), x, found.pieces, points)
    if runs is None or all(sign == 0 for _run, sign in runs):
        return None
    return _worded(runs, {1: "increasing", -1: "decreasing"})


def _bending(found: Analysis, f: sp.Expr, x: sp.Symbol) -> str | None:
    f2 = _sign_carrier(sp.diff(f, x, 2), x)
    if f2.is_zero or not f2.is_rational_function(x):
        return None
    numerator = sp.Poly(sp.numer(f2), x)
    if numerator.degree() > _MOST_INFLECTIONS:
        return None
    try:
        zeros = real_roots(numerator) if numerator.degree() > 0 else []
    except ToolError:
        return None
    runs = _signed_runs(f2, x, found.pieces, zeros)
    if runs is None:
        return None
    turns = [  # a change of sign at a point of the domain (not across a pole)
        a.end
        for (a, before), (b, after) in pairwise(runs)
        if a.end == b.start and before * after < 0 and _in_domain(a.end, found.pieces)
    ]
    concave = _worded(runs, {1: "concave up", -1: "concave down"})
    if not turns:
        return f"no inflection point; {concave}" if concave else None
    shown = "; ".join(f"{_at(found.var, t)} (value {_number(f.subs(x, t))})" for t in turns)
    plural = "s" if len(turns) > 1 else ""
    return f"inflection point{plural}: {shown}; {concave}"


def _sign_carrier(g: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """g without its factors that are positive everywhere (`exp(-x**2)`, a positive constant):
    the same sign, and often a rational function where g is not (the bell curve's f'')."""
    factors = sp.Mul.make_args(sp.factor(sp.together(g)))
    kept = [
        factor
        for factor in factors
        if not (isinstance(factor, sp.exp) or (factor.is_number and factor.is_positive))
    ]
    return sp.together(sp.Mul(*kept))


def _signed_runs(
    g: sp.Expr, x: sp.Symbol, pieces: list[sp.Interval], cuts: list[sp.Expr]
) -> list[tuple[sp.Interval, int]] | None:
    """Each piece cut at the points inside it, with g's sign on each run (None: a sign not
    known exactly); neighbours of one sign are one run."""
    runs: list[tuple[sp.Interval, int]] = []
    for piece in pieces:
        interior = sp.Interval.open(piece.start, piece.end)
        inside = sorted(
            (c for c in set(cuts) if interior.contains(c) is sp.true), key=sort_position
        )
        ends = [piece.start, *inside, piece.end]
        for a, b in pairwise(ends):
            sign = sign_of(g.subs(x, _between(a, b)))
            if sign is None:
                return None
            left_open = a != piece.start or piece.left_open
            right_open = b != piece.end or piece.right_open
            run = sp.Interval(a, b, left_open, right_open)
            if runs and runs[-1][1] == sign and runs[-1][0].end == a and a in inside:
                run = sp.Interval(runs[-1][0].start, b, runs[-1][0].left_open, right_open)
                runs[-1] = (run, sign)
            else:
                runs.append((run, sign))
    return runs


def _in_domain(point: sp.Expr, pieces: list[sp.Interval]) -> bool:
    return any(piece.contains(point) is sp.true for piece in pieces)


def _between(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    if a.is_finite and b.is_finite:
        return (a + b) / 2
    if a.is_finite:
        return a + 1
    return b - 1 if b.is_finite else sp.S.Zero


def _worded(runs: list[tuple[sp.Interval, int]], words: dict[int, str]) -> str:
    """`increasing on (-∞, -1) and (3, ∞), decreasing on (-1, 3)`, signs in order of
    first appearance; a run where g is 0 throughout is left out."""
    said: dict[int, list[str]] = {}
    for run, sign in runs:
        if sign in words:
            said.setdefault(sign, []).append(_interval(run))
    phrases = [f"{words[s]} on {' and '.join(texts)}" for s, texts in said.items()]
    if len(phrases) == 2 and words[1].startswith("concave"):  # "concave down on ..., up on ..."
        phrases[1] = phrases[1].removeprefix("concave ")
    return ", ".join(phrases)


def _interval(run: sp.Interval) -> str:
    left = "(" if run.left_open else "["
    right = ")" if run.right_open else "]"
    return f"{left}{_end(run.start)}, {_end(run.end)}{right}"


def _at(var: sp.Symbol, point: sp.Expr) -> str:
    """`x = 1`, `x = -sqrt(3)/3 ≈ -0.5774`, or `x ≈ -1.09` where the exact form is long."""
    shown = _number(point)
    return f"{var} {shown}" if shown.startswith("≈") else f"{var} = {shown}"


def _number(value: sp.Expr) -> str:
    """A point or value: exact with its decimal when the exact form is short, else the
    decimal alone (a root of a quintic)."""
    value = tidy(value)
    return with_decimal(value) if _short_exact(value) else f"≈ {decimal(value)}"


def _end(value: sp.Expr) -> str:
    """An end as the interval shows it: exact when short (`-sqrt(3)`), else its decimal (a
    root of a quartic)."""
    if value in (sp.oo, -sp.oo):
        return "∞" if value == sp.oo else "-∞"
    return _short_exact(tidy(value)) or f"≈{decimal(value)}"


def _short_exact(value: sp.Expr) -> str | None:
    """The exact form when it reads at a glance (no `CRootOf`, a few characters), else None."""
    exact = sp.sstr(value)
    return exact if len(exact) <= _LONGEST_EXACT_END and not value.has(sp.CRootOf) else None
