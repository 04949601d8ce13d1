"""The analysis behind the extrema tool: critical points, their kind, the ends of the domain.

Kept apart from `tools.extrema` (which words the answer) so each module holds one concept:
this one finds, exactly, where f' is 0 or undefined, classifies each point, and takes f's
one-sided limits at open or infinite ends and at poles.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp
from sympy.calculus.util import continuous_domain

from tools.domains import Domain, family_members
from tools.errors import ToolError
from tools.extraneous import is_real_number
from tools.formatting import approximate, tidy, with_decimal
from tools.inputs import as_real, names_of, one_point, read_point, read_univariate, short
from tools.solving import general_family, sort_values

TOOL = "extrema"


@dataclass(frozen=True)
class Critical:
    """A critical point (or a periodic family of them), its kind and f's value there."""

    at: sp.Expr
    value: sp.Expr | None  # None: f differs along a family
    kind: str  # "local maximum", "local minimum" or "neither"
    note: str = ""


@dataclass(frozen=True)
class Candidate:
    """A place where f may be extreme: the point, its label and f's value there."""

    at: sp.Expr
    where: str
    value: sp.Expr


@dataclass(frozen=True)
class End:
    """An open or infinite end of the domain and f's one-sided limit there (None: unknown)."""

    where: str
    limit: sp.Expr | None


@dataclass(frozen=True)
class Analysis:
    """Everything the answer is built from (``constant`` is f's value when f' is 0)."""

    expr: sp.Expr
    var: sp.Symbol
    pieces: list[sp.Interval]
    criticals: list[Critical]
    candidates: list[Candidate]
    ends: list[End]
    constant: sp.Expr | None = None

    @property
    def where(self) -> str:
        """`` on [0, 5]`` (or nothing on the whole real line)."""
        return "" if self.pieces == [sp.S.Reals] else f" on {region_text(self.pieces)}"


def analyse(
    expression: str, variable: str | None = None, lower: object = None, upper: object = None
) -> Analysis:
    """Critical points (classified), candidates for the extremes and the limits at the ends."""
    expr, var = read_univariate(expression, variable, TOOL, "find the extrema in")
    others = expr.free_symbols - {var}
    if others:
        them = "it a value" if len(others) == 1 else "them values"
        raise ToolError(
            f"The expression also contains {names_of(others)}: give {them} first (the extrema "
            f"tool needs a function of {var} alone)."
        )
    low = read_bound(lower, var, "The lower bound", -sp.oo)
    high = read_bound(upper, var, "The upper bound", sp.oo)
    if not bool(low < high):
        raise ToolError(
            f"The lower bound {short(low)} must be smaller than the upper bound {short(high)}."
        )
    f, x = as_real(expr, var)
    pieces = _pieces(f, x, sp.Interval(low, high))
    f1 = sp.diff(f, x)
    if _is_zero(f1):
        return Analysis(expr, var, pieces, [], [], [], _constant_value(f, x, pieces))
    criticals = _critical_points(f, f1, x, pieces)
    ends, closed = _ends(f, x, pieces, var)
    candidates = closed + [
        Candidate(c.at, at_text(var, c.at), c.value) for c in criticals if c.value is not None
    ]
    return Analysis(expr, var, pieces, criticals, candidates, ends)


# ---------------------------------------------------------------------------------------------
# Reading


def read_bound(raw: object, var: sp.Symbol | None, what: str, default: sp.Expr) -> sp.Expr:
    """A real bound (or +-oo), `default` when left out; `var=None` for a list of numbers."""
    raw = one_point(raw)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return default
    value = read_point(raw, var, what)
    if value.free_symbols or not (value.is_extended_real or value in (sp.oo, -sp.oo)):
        raise ToolError(f"{what} must be a real number, not {short(value)}.")
    return value


def _pieces(f: sp.Expr, x: sp.Symbol, region: sp.Interval) -> list[sp.Interval]:
    """The intervals of ``region`` where f is defined and continuous (poles cut it)."""
    try:
        domain = continuous_domain(f, x, region)
    except Exception:
        domain = region
    parts = domain.args if isinstance(domain, sp.Union) else (domain,)
    if any(not isinstance(p, (sp.Interval, sp.FiniteSet)) for p in parts):
        raise ToolError(
            f"The expression has infinitely many breaks on {region_text([region])}: give an "
            "interval with lower and upper."
        )
    pieces = [p for p in parts if isinstance(p, sp.Interval)]
    if not pieces:
        raise ToolError(
            f"The expression is not defined as a real function on {region_text([region])}."
        )
    return pieces


def _is_zero(value: sp.Expr) -> bool:
    if value == 0:
        return True
    try:
        return bool(sp.simplify(value) == 0)
    except Exception:
        return False


# ---------------------------------------------------------------------------------------------
# Critical points


def _critical_points(
    f: sp.Expr, f1: sp.Expr, x: sp.Symbol, pieces: list[sp.Interval]
) -> list[Critical]:
    """Classified critical points inside the pieces (periodic families as families)."""
    points, families = _roots_of_derivative(f1, x)
    singular = _singular_points(f, f1, x)
    f2 = sp.diff(f1, x)
    interior = sp.Union(*(sp.Interval(p.start, p.end, True, True) for p in pieces))
    family_points: list[tuple[sp.Expr, sp.Expr]] = []  # (family shown, representative)
    if families:
        values, index = families
        shown_families = _families_on(values, x, pieces)
        for family, shown in zip(values, shown_families, strict=True):
            if shown is None:
                continue
            if isinstance(shown, list):
                points.extend(p for p in shown if p not in points)
            else:
                family_points.append((shown, family.subs(index, 0)))
    points = [p for p in points if _inside(p, interior)]
    singular = [p for p in singular if _inside(p, interior) and p not in points]
    special = sort_values(
        list(points)
        + singular
        + [
            family.subs(index, k)
            for family in (families[0] if families else [])
            for k in (-1, 0, 1)
        ]
        + [e for p in pieces for e in (p.start, p.end) if e.is_finite]
    )
    found: list[Critical] = []
    for point in sort_values(points + singular):
        kind = _classify(f1, f2, x, point, special, point in singular)
        note = "not differentiable" if point in singular else ""
        found.append(Critical(point, _value(f, x, point), kind, note))
    for shown, rep in sorted(family_points, key=lambda pair: sort_position(pair[1])):
        kind = _classify(f1, f2, x, rep, special, False)
        found.append(Critical(shown, _family_value(f, x, shown), kind))
    return [c for c in found if c.value is None or is_real_number(c.value)]


def _roots_of_derivative(
    f1: sp.Expr, x: sp.Symbol
) -> tuple[list[sp.Expr], tuple[list[sp.Expr], sp.Symbol] | None]:
    """Real roots of f' (exact), or periodic families of them."""
    numer, _ = sp.fraction(sp.cancel(sp.together(f1)))
    if numer.is_polynomial(x):
        poly = sp.Poly(numer, x)
        if poly.degree() < 1:
            return [], None
        return real_roots(poly), None
    solutions = sp.solveset(f1, x, sp.S.Reals)
    if isinstance(solutions, sp.FiniteSet):
        return [s for s in solutions.args if s.is_number and is_real_number(s)], None
    if solutions is sp.S.EmptySet:
        return [], None
    family = general_family(solutions, x, f1)
    if family is None or any(v.free_symbols - {family[1]} for v in family[0]):
        raise ToolError(f"Could not find exactly where the derivative {short(f1)} is zero.")
    values, n = family
    fixed = [v for v in values if n not in v.free_symbols]
    periodic = [v for v in values if n in v.free_symbols]
    return fixed, (periodic, n) if periodic else None


def real_roots(poly: sp.Poly) -> list[sp.Expr]:
    """Distinct real roots: rationals and square roots as such, others as exact ``CRootOf``.

    Why not radicals for cubics and quartics (as ``solve`` gives): f and f'' must be evaluated
    and compared there, and the quartic formula makes that take seconds; ``CRootOf`` is just
    as exact and its decimals are cheap. ``CRootOf`` needs rational coefficients: with `pi` or
    `sqrt(2)` among them, ``solveset`` gives the roots.
    """
    try:
        roots = set(poly.real_roots())
    except NotImplementedError:
        found = sp.solveset(poly.as_expr(), poly.gen, sp.S.Reals)
        if not isinstance(found, sp.FiniteSet):
            raise ToolError(
                f"Could not find exactly where {short(poly.as_expr())} is zero."
            ) from None
        roots = {r for r in found.args if is_real_number(r)}
    return sorted(roots, key=lambda r: float(approximate(r, 15)))


def _singular_points(f: sp.Expr, f1: sp.Expr, x: sp.Symbol) -> list[sp.Expr]:
    """Where f' has a pole but f is finite (a corner or a cusp)."""
    _, denom = sp.fraction(sp.cancel(sp.together(f1)))
    if not denom.has(x) or not denom.is_polynomial(x):
        return []
    found = []
    for root in real_roots(sp.Poly(denom, x)):
        value = _value(f, x, root)
        if value is not None and value.is_finite and is_real_number(value):
            found.append(root)
    return found


def _families_on(
    values: list[sp.Expr], x: sp.Symbol, pieces: list[sp.Interval]
) -> list[list[sp.Expr] | sp.Expr | None]:
    """Each family as shown on the domain: itself, its members, or re-indexed from n = 0."""
    if len(pieces) != 1:
        raise ToolError("Could not find the critical points exactly on a domain with breaks.")
    (piece,) = pieces
    if piece == sp.S.Reals:
        return list(values)
    domain = Domain(piece.start, piece.end, piece.left_open, piece.right_open)
    shown: list[list[sp.Expr] | sp.Expr | None] = []
    for family in values:
        members = family_members(family, x, domain)
        shown.append(members if not isinstance(members, list) or members else None)
    return shown


def _classify(
    f1: sp.Expr,
    f2: sp.Expr,
    x: sp.Symbol,
    point: sp.Expr,
    special: list[sp.Expr],
    singular: bool,
) -> str:
    """Second-derivative test, else the sign of f' on each side of the point."""
    if not singular:
        curvature = sign_of(f2.subs(x, point))
        if curvature is not None and curvature != 0:
            return "local minimum" if curvature > 0 else "local maximum"
    left = [p for p in special if _less(p, point)]
    right = [p for p in special if _less(point, p)]
    left_at = (left[-1] + point) / 2 if left else point - 1
    right_at = (right[0] + point) / 2 if right else point + 1
    before, after = sign_of(f1.subs(x, left_at)), sign_of(f1.subs(x, right_at))
    if before is None or after is None:
        return "neither"
    if before > 0 > after:
        return "local maximum"
    if before < 0 < after:
        return "local minimum"
    return "neither"


def sign_of(value: sp.Expr) -> int | None:
    """-1, 0 or 1 for a real number (exactly when SymPy knows, else at 30 digits)."""
    if value.is_zero:
        return 0
    if value.is_positive:
        return 1
    if value.is_negative:
        return -1
    if not value.is_number or value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    try:
        approx = approximate(value, 30)
        real = float(sp.re(approx))
    except (TypeError, ValueError):
        return None
    if abs(float(sp.im(approx))) > 1e-20 * max(1.0, abs(real)):
        return None
    return (real > 0) - (real < 0)


def _value(f: sp.Expr, x: sp.Symbol, point: sp.Expr) -> sp.Expr | None:
    value = f.subs(x, point)
    if value.has(sp.nan, sp.zoo) or value in (sp.oo, -sp.oo):
        return None
    return tidy(value)


def _family_value(f: sp.Expr, x: sp.Symbol, family: sp.Expr) -> sp.Expr | None:
    """f along a family when it is the same for every n, else None."""
    n = family_index(family)
    at_zero = _value(f, x, family.subs(n, 0))
    if at_zero is None:
        return None
    try:
        same = sp.simplify(f.subs(x, family) - at_zero) == 0
    except Exception:
        same = False
    return at_zero if same else None


def _inside(point: sp.Expr, region: sp.Set) -> bool:
    try:
        answer = region.contains(point)
    except Exception:
        return False
    if answer in (sp.true, sp.false):
        return bool(answer)
    approx = float(approximate(point, 30))
    return any(
        float(p.start) < approx < float(p.end)
        for p in (region.args if isinstance(region, sp.Union) else (region,))
    )


def _less(a: sp.Expr, b: sp.Expr) -> bool:
    return float(approximate(a, 30)) < float(approximate(b, 30)) - 1e-25


# ---------------------------------------------------------------------------------------------
# Ends of the domain


def _ends(
    f: sp.Expr, x: sp.Symbol, pieces: list[sp.Interval], var: sp.Symbol
) -> tuple[list[End], list[Candidate]]:
    """Limits at open and infinite ends; values at closed ends."""
    ends: list[End] = []
    closed: list[Candidate] = []
    for piece in pieces:
        for point, is_open, side in (
            (piece.start, piece.left_open, "+"),
            (piece.end, piece.right_open, "-"),
        ):
            if point.is_finite and not is_open:
                value = _value(f, x, point)
                if value is not None and is_real_number(value):
                    closed.append(Candidate(point, f"{var} = {with_decimal(point)}", value))
                continue
            ends.append(End(_approach(var, point, side), _limit(f, x, point, side)))
    return ends, closed


def _approach(var: sp.Symbol, point: sp.Expr, side: str) -> str:
    if point == sp.oo:
        return f"{var} → ∞"
    if point == -sp.oo:
        return f"{var} → -∞"
    where = "the right" if side == "+" else "the left"
    return f"{var} → {sp.sstr(point)} from {where}"


def _limit(f: sp.Expr, x: sp.Symbol, point: sp.Expr, side: str) -> sp.Expr | None:
    try:
        value = sp.limit(f, x, point, side) if point.is_finite else sp.limit(f, x, point)
    except Exception:
        return None
    if isinstance(value, sp.AccumBounds) or value in (sp.oo, -sp.oo):
        return value
    if value.has(sp.Limit, sp.nan, sp.zoo, sp.AccumBounds) or not value.is_number:
        return None
    return value if is_real_number(value) else None


def family_index(point: sp.Expr) -> sp.Symbol | None:
    """The integer index of a family (``n`` in ``pi/2 + 2*pi*n``), None for a point."""
    return next((s for s in point.free_symbols if s.is_integer), None)


def at_text(var: sp.Symbol, point: sp.Expr) -> str:
    text = f"{var} = {with_decimal(point)}"
    index = family_index(point)
    if index is not None and index.is_nonnegative:
        text += f" ({index} = 0, 1, 2, ...)"
    elif index is not None:
        text += f" ({index} any integer)"
    return text


def _constant_value(f: sp.Expr, x: sp.Symbol, pieces: list[sp.Interval]) -> sp.Expr:
    """f's value at some point of the first piece (f' is 0, so any point will do)."""
    piece = pieces[0]
    if piece.start.is_finite and piece.end.is_finite:
        point = (piece.start + piece.end) / 2
    elif piece.start.is_finite or piece.end.is_finite:
        point = piece.start + 1 if piece.start.is_finite else piece.end - 1
    else:
        point = sp.S.Zero
    return tidy(sp.simplify(f.subs(x, point)))


def region_text(pieces: list[sp.Interval]) -> str:
    """`[0, 5]`, `(-oo, 0] ∪ [2, oo)`, or "the real line"."""
    if pieces == [sp.S.Reals]:
        return "the real line"
    texts = []
    for p in pieces:
        left = "(" if p.left_open else "["
        right = ")" if p.right_open else "]"
        texts.append(f"{left}{sp.sstr(p.start)}, {sp.sstr(p.end)}{right}")
    return " ∪ ".join(texts)


def sort_position(point: sp.Expr) -> float:
    """Where a point (or a family's n = 0 member) lies, for listing places left to right."""
    index = family_index(point)
    return float(approximate(point.subs(index, 0) if index is not None else point, 15))
