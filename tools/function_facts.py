"""A function's domain, range or inverse, over the reals, exactly or not at all.

Why one tool with ``what`` (as ``transform`` has ``how``): the three share their argument (one
function of one variable) and each is a question precalculus asks of a function; a small model
without them sends "the inverse of f" to ``solve`` (f = 0) and "its domain" to ``limit``.

- **domain**: where the function is defined and real (SymPy's ``continuous_domain``: a square
  root's radicand is nonnegative, a denominator nonzero, a logarithm's argument positive).
- **range**: the values it takes on that domain (``function_range``); an unbounded oscillation
  or a function SymPy cannot bound is refused, never guessed.
- **inverse**: ``y = f(x)`` solved for ``x`` over the reals. A function that takes one value
  at two places has no inverse, and the answer names the two places (``x^2`` is 1 at -1 and
  at 1) and the inverse on each piece of the domain a branch fills; otherwise a branch is the
  inverse only when proved so (it gives x back from f(x), or f is strictly monotone and f
  gives y back from it), in the person's variable, defined on f's range.

A function kept to a part of the line (``x^2 + 1, x >= 0``: the text after the first comma,
read as ``solve``'s domain is) is answered on that part: ``x^2`` has no inverse, but on
``x >= 0`` it is ``sqrt(x)``.

``value`` is the set (domain, range) or the inverse's expression.
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.calculus.util import continuous_domain, function_range

from tools.domains import read_domain
from tools.errors import ToolError
from tools.extraneous import is_odd_root, with_real_odd_roots
from tools.formatting import exact
from tools.inputs import choose_variable, read_one
from tools.intervals import condition_text, interval_text, is_plain_set
from tools.result import ToolResult

TOOL = "function_fact"
FACTS = ("domain", "range", "inverse")
# Where a function's text ends and the part of the line it is kept to begins.
_KEPT_TO = re.compile(r",|\b(?:for|on|if|when|where|with)\b", re.IGNORECASE)
# Small exact numbers: values tried for one the function takes at two places (the witness
# that it has no inverse), and places whose value is tried too (a range far from 0).
_PROBES = tuple(sp.Rational(n, d) for n, d in ((0, 1), (1, 1), (-1, 1), (2, 1), (-2, 1), (1, 2)))
_PROBES += tuple(sp.Integer(n) for n in (3, -3, 4, 5, 10, -10))


def function_fact(expression: str, what: str) -> ToolResult:
    """The domain, range or inverse of ``expression``, a function of one variable, or of the
    function kept to a part of the line written after a comma (``x^2 + 1, x >= 0``,
    ``x^2, [-1, 3]``): a range there, and an inverse where a piece is one-to-one."""
    if what not in FACTS:
        raise ToolError(f"Unknown question {what!r}: ask for the domain, range or inverse.")
    math, kept_to = restriction(expression)
    expr, name = read_one(math, None, TOOL)
    var = choose_variable(expr.free_symbols, name, f"find the {what} in", "function")
    if var is None:
        raise ToolError(
            f"{exact(expr)} is a number, not a function of a variable: it has no {what}."
        )
    real = sp.Symbol(var.name, real=True)
    expr = expr.xreplace({var: real})
    within = read_domain(kept_to, var.name).interval if kept_to is not None else None
    if what == "domain":
        return _domain(expr, real, within)
    if what == "range":
        return _range(expr, real, within)
    return _inverse(expr, real, within)


def restriction(expression: str) -> tuple[str, str | None]:
    """``x^2 + 1, x >= 0``: the function and the part of the line it is kept to (the text
    after the first comma, or a word such as "for", outside brackets), or the whole text and
    None."""
    for mark in _KEPT_TO.finditer(expression):
        before = expression[: mark.start()]
        if before.count("(") == before.count(")") and before.count("[") == before.count("]"):
            return before.strip(), expression[mark.end() :].strip() or None
    return expression, None


def domain_of(expr: sp.Expr, var: sp.Symbol) -> sp.Set:
    """Where ``expr`` is defined and real (raises ToolError when SymPy cannot say)."""
    try:
        found = continuous_domain(expr, var, sp.S.Reals)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise ToolError(f"Could not find the domain of {exact(expr)} exactly.") from exc
    if not is_plain_set(found):
        raise ToolError(
            f"The domain of {exact(expr)} is not a finite union of intervals "
            f"(it leaves out infinitely many points): {exact(found)}."
        )
    return found


def _kept_domain(expr: sp.Expr, var: sp.Symbol, within: sp.Set | None) -> sp.Set:
    """Where ``expr`` is defined, within the part of the line it is kept to (if any)."""
    domain = domain_of(expr, var)
    if within is None:
        return domain
    kept = domain.intersect(within)
    if kept.is_empty:
        raise ToolError(f"{exact(expr)} is defined nowhere in {interval_text(within)}.")
    return kept


def _on(within: sp.Set | None) -> str:
    return "" if within is None else f" on {interval_text(within)}"


def _domain(expr: sp.Expr, var: sp.Symbol, within: sp.Set | None) -> ToolResult:
    found = _kept_domain(expr, var, within)
    text = (
        f"the domain of {exact(expr)}{_on(within)} is {interval_text(found)} "
        f"({condition_text(found, var)})"
    )
    return ToolResult.success(TOOL, f"domain of {exact(expr)} for {var}", found, text)


def range_of(expr: sp.Expr, var: sp.Symbol, domain: sp.Set) -> sp.Set:
    """The values ``expr`` takes on its ``domain`` (raises ToolError when SymPy cannot say)."""
    try:
        found = function_range(expr, var, domain)
    except (NotImplementedError, ValueError, TypeError) as exc:
        raise ToolError(f"Could not find the range of {exact(expr)} exactly.") from exc
    if not is_plain_set(found) or found.has(sp.AccumBounds):
        raise ToolError(f"Could not find the range of {exact(expr)} exactly.")
    return found


def _range(expr: sp.Expr, var: sp.Symbol, within: sp.Set | None) -> ToolResult:
    domain = _kept_domain(expr, var, within)
    found = range_of(expr, var, domain)
    over = "" if domain == sp.S.Reals else f" on its domain {interval_text(domain)}"
    if within is not None:
        over = f" on {interval_text(domain)}"
    text = f"the range of {exact(expr)}{over} is {interval_text(found)}"
    return ToolResult.success(TOOL, f"range of {exact(expr)}{_on(within)}", found, text)


def _inverse(expr: sp.Expr, var: sp.Symbol, within: sp.Set | None) -> ToolResult:
    summary = f"inverse of {exact(expr)}{_on(within)}"
    domain = _kept_domain(expr, var, within)
    spread = _range_or_none(expr, var, domain)
    value = _value_symbol("y" if var.name != "y" else "u", spread)
    twice = _value_taken_twice(expr, var, domain)
    if twice is not None:
        text = _not_one_to_one(expr, var, value, twice, spread, within)
        return ToolResult.success(TOOL, summary, None, text)
    branches = _branches(expr, var, value)
    if within is not None:  # a branch that leaves the piece is the inverse of another one
        branches = [b for b in branches if _maps_into(b, value, spread, domain)]
    undoing = [b for b in branches if _undone_by(expr, var, value, b)]
    if not undoing and len(branches) == 1 and _monotone(expr, var, domain):
        undoing = [b for b in branches if _undoes(expr, var, value, b)]
    if len(undoing) != 1:
        raise ToolError(f"Could not find the inverse of {exact(expr)}{_on(within)} exactly.")
    inverse = sp.simplify(undoing[0].xreplace({value: var}))
    plain = sp.Symbol(var.name)
    inverse = inverse.xreplace({var: plain})
    text = f"the inverse of {exact(expr)}{_on(within)} is {exact(inverse)}"
    if any(is_odd_root(power) for power in inverse.atoms(sp.Pow)):
        text += " (an odd root here is the real one: cbrt(-8) = -2)"
    if spread is not None:
        text += f", defined for {plain} in {interval_text(spread)}"
    return ToolResult.success(TOOL, summary, inverse, text)


def _value_symbol(name: str, spread: sp.Set | None) -> sp.Symbol:
    """The letter for f's values, with the sign its range gives them (`sqrt(y**2)` is y only
    for y >= 0: the inverse of `sqrt(x - 2)` is checked so)."""
    if spread is not None and spread.is_subset(sp.Interval(0, sp.oo)):
        return sp.Symbol(name, nonnegative=True)
    if spread is not None and spread.is_subset(sp.Interval(-sp.oo, 0)):
        return sp.Symbol(name, nonpositive=True)
    return sp.Symbol(name, real=True)


def _not_one_to_one(
    expr: sp.Expr,
    var: sp.Symbol,
    value: sp.Symbol,
    twice: tuple[sp.Expr, list[sp.Expr]],
    spread: sp.Set | None,
    within: sp.Set | None = None,
) -> str:
    """Why there is no inverse (a value taken at two places), and where each branch of
    `value = expr` solved for `var` is one: on the part of the domain it maps the range onto."""
    level, places = twice
    shown = " and at ".join(f"{var} = {exact(p)}" for p in places)
    where = "its whole domain" if within is None else interval_text(within)
    text = (
        f"{exact(expr)} has no inverse on {where}: it is {exact(level)} at {shown}, "
        "so it is not one-to-one"
    )
    branches = [b for b in _branches(expr, var, value) if _undoes(expr, var, value, b)]
    if not 1 < len(branches) <= 4:
        return text
    pieces = _pieces(value, branches, spread)
    if pieces is not None and within is not None:  # each piece as far as the person kept f
        pieces = [piece.intersect(within) for piece in pieces]
    plain = sp.Symbol(var.name)
    if pieces is not None:
        each = "; ".join(
            f"on {interval_text(piece)}, {exact(b.xreplace({value: plain}))}"
            for piece, b in sorted(
                zip(pieces, branches, strict=True), key=lambda p: float(p[0].inf)
            )
        )
        return f"{text}. Its inverse on one piece of the domain: {each}"
    ways = " or ".join(f"{var} = {exact(b)}" for b in branches)
    return f"{text}; solving {value} = {exact(expr)} for {var} gives {ways}"


def _pieces(
    value: sp.Symbol, branches: list[sp.Expr], spread: sp.Set | None
) -> list[sp.Set] | None:
    """The part of the domain each branch maps f's range (`spread`) onto, when every one is
    a plain set and no two share more than an end (else None: no piece is claimed)."""
    if spread is None:
        return None
    pieces = []
    for branch in branches:
        try:
            piece = function_range(branch, value, spread)
        except (NotImplementedError, ValueError, TypeError):
            return None
        if not is_plain_set(piece) or piece.is_empty:
            return None
        pieces.append(piece)
    for i, one in enumerate(pieces):
        for other in pieces[i + 1 :]:
            if one.intersect(other).is_finite_set is not True:
                return None
    return pieces


def _maps_into(branch: sp.Expr, value: sp.Symbol, spread: sp.Set | None, domain: sp.Set) -> bool:
    """Does the branch send every value f takes on ``domain`` back into ``domain``?"""
    if spread is None:
        return True  # nothing to check against: the proofs below still decide
    try:
        reached = function_range(branch, value, spread)
    except (NotImplementedError, ValueError, TypeError):
        return True
    return bool(reached.is_subset(domain))


def _range_or_none(expr: sp.Expr, var: sp.Symbol, domain: sp.Set) -> sp.Set | None:
    try:
        return range_of(expr, var, domain)
    except ToolError:
        return None


def _value_taken_twice(
    expr: sp.Expr, var: sp.Symbol, domain: sp.Set
) -> tuple[sp.Expr, list[sp.Expr]] | None:
    """A value ``expr`` takes at two places of its domain, and those places (the smallest
    two), or None when no probe value is taken twice."""
    for level in _levels(expr, var, domain):
        try:
            found = sp.solveset(sp.Eq(expr, level), var, domain)
        except (NotImplementedError, ValueError, TypeError):
            continue
        places = _two_members(found)
        if places is not None:
            return level, places
    return None


def _levels(expr: sp.Expr, var: sp.Symbol, domain: sp.Set) -> list[sp.Expr]:
    """The probe values, then the function's values at the probe places in its domain."""
    levels = list(_PROBES)
    for place in _PROBES:
        if domain.contains(place) is sp.true:
            level = sp.simplify(expr.subs(var, place))
            if level.is_real and level.is_finite and level not in levels:
                levels.append(level)
    return levels


def _two_members(found: sp.Set) -> list[sp.Expr] | None:
    """The two smallest real members of a solution set, exactly: of a finite set, or of the
    first members of each family of solutions (``2*n*pi`` and ``2*n*pi + pi``)."""
    if isinstance(found, sp.FiniteSet):
        members = [m for m in found if m.is_real]
    else:
        families = found.args if isinstance(found, sp.Union) else (found,)
        if not all(isinstance(f, sp.ImageSet) for f in families):
            return None
        members = [sp.simplify(f.lamda(n)) for f in families for n in (0, 1)]
        members = [m for m in set(members) if m.is_real]
    members.sort(key=float)
    return members[:2] if len(members) >= 2 else None


def _branches(expr: sp.Expr, var: sp.Symbol, value: sp.Symbol) -> list[sp.Expr]:
    """The real solutions of ``value = expr`` for ``var``: each a formula in ``value``."""
    try:
        found = sp.solve(sp.Eq(value, expr), var)
    except (NotImplementedError, ValueError, TypeError):
        return []
    return [b for b in found if not b.has(sp.I, sp.nan, sp.Piecewise)]


def _undoes(expr: sp.Expr, var: sp.Symbol, value: sp.Symbol, branch: sp.Expr) -> bool:
    """Does ``expr`` at ``branch`` give back ``value``, for every value (exactly)?"""
    back = expr.xreplace({var: branch}) - value
    try:
        return sp.simplify(back) == 0
    except (NotImplementedError, ValueError, TypeError):
        return False


def _undone_by(expr: sp.Expr, var: sp.Symbol, value: sp.Symbol, branch: sp.Expr) -> bool:
    """Does the branch give back every x of the domain from f(x), exactly? That proves f
    one-to-one and the branch its inverse (an odd root read as the real root)."""
    back = with_real_odd_roots(branch.xreplace({value: expr})) - var
    try:
        if sp.simplify(back) == 0:
            return True
        # `sign(x**3)*Abs(x**3)**(1/3) - x`: zero on each side of 0, which SymPy sees apart
        sides = (sp.Symbol("p", positive=True), sp.Symbol("n", negative=True))
        return all(sp.simplify(back.xreplace({var: side})) == 0 for side in sides) and (
            sp.simplify(back.xreplace({var: sp.S.Zero})) == 0
        )
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError):
        return False


def _monotone(expr: sp.Expr, var: sp.Symbol, domain: sp.Set) -> bool:
    """Strictly monotone on an interval domain: f' never has both signs (`(x - 2)**3`), so f
    takes no value twice and the one branch that f undoes is its inverse."""
    if not isinstance(domain, sp.Interval) and domain != sp.S.Reals:
        return False
    slope = sp.diff(expr, var)
    try:
        falls = sp.solveset(slope < 0, var, domain)
        rises = sp.solveset(slope > 0, var, domain)
    except (NotImplementedError, ValueError, TypeError):
        return False
    one_way = (falls.is_empty, rises.is_empty)
    return one_way in ((True, False), (False, True))
