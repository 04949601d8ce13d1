"""Inequalities in one unknown: ``x^2 - 4 > 0``, ``|x - 1| < 3``, ``-1 < 2x + 3 <= 7``.

Why a module of its own: an inequality's answer is a set of the real line, not a list of
roots, and it reads differently (``x < -2 or x > 2``). The tokenizer refuses ``<`` and ``>``
(every other tool reads one expression), so the text is cut at its relations here, as a
domain's is, and each side is read by the project parser; nothing is evaluated. SymPy's
``solve_univariate_inequality`` finds the set (polynomial, rational, absolute value,
exponential, logarithmic); a periodic inequality (``sin(x) > 1/2``) is solved on one period
and stated as a family in an integer ``n``, or listed piece by piece on a bounded domain.

``value`` is the exact SymPy set (``Interval``, ``Union``, ``FiniteSet``, ``S.Reals``,
``S.EmptySet``); a family's bounds hold ``n``; the text is `tools.intervals`'. With parameters (``x + y > 2`` for x) only a
linear inequality with a numeric coefficient is solved (``x > 2 - y``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.formatting import exact
from tools.inputs import choose_variable, keep, names_of, read_variable
from tools.intervals import answer_text, condition, pieces_of
from tools.parsing import parse, parse_expression
from tools.result import ToolResult
from tools.tokens import _shown, split_top_level

TOOL = "solve"
#: ``<``, ``<=`` (also ``=<``, ``≤``), ``>``, ``>=`` (also ``=>``, ``≥``): the relations read.
RELATION = re.compile(r"(<=|>=|=<|=>|≤|≥|<|>)")
#: Whether each relation is strict.
LESS = {"<": True, "<=": False, "=<": False, "≤": False}
GREATER = {">": True, ">=": False, "=>": False, "≥": False}
_SHOWN = {"<": "<", "<=": "<=", "=<": "<=", "≤": "<=", ">": ">", ">=": ">=", "=>": ">=", "≥": ">="}
_BUILD: dict[str, Callable[[sp.Expr, sp.Expr], sp.Basic]] = {
    "<": sp.StrictLessThan,
    "<=": sp.LessThan,
    ">": sp.StrictGreaterThan,
    ">=": sp.GreaterThan,
}
# Conditions joined in words: "x > 0 and x < 5" is two inequalities, not one.
_AND = re.compile(r"(?i)\s+and\s+")
#: Most pieces of a periodic solution listed on a bounded domain.
MAX_PIECES = 50


@dataclass(frozen=True)
class Inequality:
    """An inequality as solve reads it: its sides, the relations between them (``<``,
    ``<=``, ``>``, ``>=``), the unknown, every letter, and the summary."""

    sides: tuple[sp.Expr, ...]
    relations: tuple[str, ...]
    var: sp.Symbol | None
    free: frozenset[sp.Symbol]
    summary: str

    @property
    def pairs(self) -> list[tuple[sp.Expr, str, sp.Expr]]:
        """``a < b <= c`` as ``(a, <, b)`` and ``(b, <=, c)``."""
        return list(zip(self.sides, self.relations, self.sides[1:], strict=False))


def is_inequality(text: object) -> bool:
    """Text with ``<``, ``>``, ``<=``, ``>=``, ``≤`` or ``≥`` in it."""
    return isinstance(text, str) and RELATION.search(text) is not None


def read_inequality(text: str, variable: str | None = None) -> Inequality:
    """``a < b`` or a chain ``a < b <= c``, each side read by the project parser; the
    unknown is picked as solve picks it for an equation."""
    name = read_variable(variable)
    pieces = RELATION.split(text)
    sides, relations = pieces[0::2], [_SHOWN[r] for r in pieces[1::2]]
    if any(not side.strip() for side in sides):
        raise ParseError(
            f"Could not read '{_shown(text)}': each relation needs math on both sides, as in "
            "'x^2 - 4 > 0'."
        )
    if len(split_top_level(text)) > 1 or _AND.search(text):
        raise ParseError(
            f"Could not read '{_shown(text)}': solve reads one inequality (or a chain such as "
            "'-1 < 2x + 3 <= 7'); put a condition on the unknown in domain, as in 'x > 0'."
        )
    if len(sides) > 3:
        raise ParseError(
            f"Could not read '{_shown(text)}': solve reads one inequality or a chain of two, "
            "as in '-1 < 2x + 3 <= 7'."
        )
    exprs = tuple(parse_expression(side, keep(name), "The inequality") for side in sides)
    free = frozenset().union(*(e.free_symbols for e in exprs))
    var = choose_variable(set(free), name, "solve for", "inequality")
    shown = written(exprs, relations)
    return Inequality(exprs, tuple(relations), var, free, f"{shown} for {var}" if var else shown)


def written(sides: Sequence[sp.Expr], relations: Sequence[str]) -> str:
    """``x**2 - 4 > 0``, ``-1 < 2*x + 3 <= 7``: the sides in SymPy's text, the relations in
    ASCII (``≤`` as ``<=``), as solve's summary and the workspace write an inequality."""
    shown = [_SHOWN[relation] for relation in relations]
    return sp.sstr(sides[0]) + "".join(
        f" {r} {sp.sstr(e)}" for r, e in zip(shown, sides[1:], strict=True)
    )


def inequality_domain(text: str, var: sp.Symbol | None) -> tuple[sp.Set, str]:
    """A domain written as an inequality of its own (``x^2 > 1``): where it holds, and how
    it reads (``x**2 > 1``)."""
    read = read_inequality(text, var.name if var is not None else None)
    if read.var is None or _period_of(read) is not None:
        raise ParseError(f"The domain '{_shown(text)}' should be an inequality in the unknown.")
    return solution_set(read), f"{read.var} with {read.summary.removesuffix(f' for {read.var}')}"


def misplaced_inequality(equation: object, domain: object, name: str | None) -> bool:
    """Whether a call put an inequality in ``domain`` and that inequality's own math in
    ``equation``: ``x^2 - 4`` or ``x^2 - 4 = 0`` with ``x^2 - 4 > 0`` (how a small model
    places "solve x^2 - 4 > 0"). Then the inequality is what the call asks."""
    if not isinstance(equation, str) or not is_inequality(domain):
        return False
    try:
        inequality = read_inequality(str(domain), name)
        parsed = parse(equation, keep(name), "The equation")
    except ToolError:
        return False
    gaps = [a - b for a, _, b in inequality.pairs]
    if parsed.rhs is not None:
        return any(_same(parsed.lhs - parsed.rhs, gap) for gap in gaps)
    sides = [side for side in inequality.sides if side.free_symbols]
    return any(_same(parsed.lhs, math) for math in [*sides, *gaps])


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal, or negatives (``0 = x^2 - 4`` is ``x^2 - 4 = 0``), once expanded."""
    return a == b or sp.expand(a - b) == 0 or sp.expand(a + b) == 0


# ---------------------------------------------------------------------------------------------
# Solving


def solve_inequality(
    text: str, variable: str | None = None, where: sp.Set = sp.S.Reals, label: str = ""
) -> ToolResult:
    """The real ``x`` that satisfy ``text``, within ``where`` (a domain, said as ``label``)."""
    read = read_inequality(text, variable)
    var, summary = read.var, read.summary
    if var is None or var not in read.free:
        return _constant(read)
    if _period_of(read) is not None:
        return _periodic(read, where, label)
    solution = solution_set(read) & where
    if not isinstance(solution, (sp.Interval, sp.Union, sp.FiniteSet)) and solution not in (
        sp.S.Reals,
        sp.S.EmptySet,
    ):
        raise ToolError(f"Could not state the solution of {summary} as intervals.")
    return ToolResult.success(TOOL, summary, solution, answer_text(solution, var, where, label))


def solution_set(read: Inequality) -> sp.Set:
    """Every real value of the unknown that satisfies every relation of the chain."""
    var = read.var
    assert var is not None
    solution: sp.Set = sp.S.Reals
    for a, relation, b in read.pairs:
        solution = solution & _one(a, relation, b, var, read.summary)
    return solution


def _one(a: sp.Expr, relation: str, b: sp.Expr, var: sp.Symbol, summary: str) -> sp.Set:
    """The set where ``a relation b`` holds (``relation`` one of ``< <= > >=``)."""
    try:
        condition = _BUILD[relation](a, b)
    except TypeError:
        raise ToolError(f"{summary} compares values that are not real.") from None
    if condition in (sp.true, sp.false):
        return sp.S.Reals if condition else sp.S.EmptySet
    if (a - b).free_symbols != {var}:
        return _linear(a - b, relation, var, summary)
    try:
        return sp.solve_univariate_inequality(condition, var, relational=False)
    except NotImplementedError:
        raise ToolError(
            f"Could not solve {summary} exactly (solve handles polynomial, rational, absolute "
            "value, exponential, logarithmic and periodic inequalities)."
        ) from None
    except ValueError:
        raise ToolError(f"{summary} compares values that are not real.") from None


def _linear(expr: sp.Expr, relation: str, var: sp.Symbol, summary: str) -> sp.Set:
    """``x + y > 2`` for x: a half-line whose end holds the other letters, when the
    coefficient of x is a number (its sign decides the direction)."""
    poly = sp.Poly(expr, var) if expr.is_polynomial(var) else None
    coefficient = poly.coeff_monomial(var) if poly is not None and poly.degree() == 1 else None
    if (
        coefficient is None
        or not (coefficient.is_number and coefficient.is_real)
        or coefficient == 0
    ):
        others = names_of(expr.free_symbols - {var})
        raise ToolError(
            f"Could not solve {summary}: with the parameters {others} solve reads only a "
            f"linear inequality with a number before {var}."
        )
    end = sp.expand(-(expr - coefficient * var) / coefficient)
    strict = LESS.get(relation, GREATER.get(relation, False))
    below = (relation in LESS) == bool(coefficient > 0)
    if below:
        return sp.Interval(-sp.oo, end, True, strict)
    return sp.Interval(end, sp.oo, strict, True)


def _constant(read: Inequality) -> ToolResult:
    """No unknown (``3 > 2``), or one that cancels: true for every value or for none."""
    var = read.var
    if var is not None and read.free:
        raise ToolError(
            f"The inequality does not contain {var}; its variables are {names_of(read.free)}."
        )
    try:
        holds = all(_BUILD[r](a, b) == sp.true for a, r, b in read.pairs)
    except TypeError:
        raise ToolError(f"{read.summary} compares values that are not real.") from None
    who = f"every {var}" if var is not None else "every value (the inequality has no unknown)"
    if holds:
        return ToolResult.success(TOOL, read.summary, sp.S.Reals, f"true for {who}")
    return ToolResult.success(
        TOOL, read.summary, sp.S.EmptySet, "no solution (the inequality is never true)"
    )


# ---------------------------------------------------------------------------------------------
# Periodic inequalities


def _period_of(read: Inequality) -> sp.Expr | None:
    """The period of a periodic inequality (each relation's, which must agree), else None."""
    periods = set()
    for a, _, b in read.pairs:
        try:
            period = sp.periodicity(a - b, read.var)
        except Exception:
            period = None
        periods.add(period if period != 0 else None)
    if periods == {None}:
        return None
    if len(periods) != 1:
        raise ToolError(f"Could not solve {read.summary}: its parts repeat with different periods.")
    return periods.pop()


def _periodic(read: Inequality, where: sp.Set, label: str) -> ToolResult:
    """One period's solution (SymPy's, on ``[0, T)``), repeated: as a family in ``n`` on the
    whole line, piece by piece on a bounded domain."""
    var, summary, period = read.var, read.summary, _period_of(read)
    assert var is not None and period is not None
    one = solution_set(read) & sp.Interval.Ropen(0, period)
    if one in (sp.S.EmptySet, sp.Interval.Ropen(0, period)):
        solution = (sp.S.Reals if one != sp.S.EmptySet else sp.S.EmptySet) & where
        return ToolResult.success(TOOL, summary, solution, answer_text(solution, var, where, label))
    pieces = pieces_of(one)
    if where == sp.S.Reals:
        family, n = _family(pieces, period, read)
        shown = " or ".join(condition(p, var) for p in pieces_of(family))
        repeats = f"{n} any integer; the pattern repeats every {exact(period)}"
        text = f"general solution: {shown} ({repeats})"
        return ToolResult.success(TOOL, summary, family, text)
    low, high = where.inf, where.sup
    if not (low.is_finite and high.is_finite):
        raise ToolError(
            f"{summary} holds on infinitely many intervals for {label}: give a bounded domain "
            "such as [0, 2*pi]."
        )
    first, last = int(sp.floor(low / period)) - 1, int(sp.ceiling(high / period)) + 1
    if (last - first - 1) * len(pieces) > MAX_PIECES:  # counted before SymPy builds them
        raise ToolError(
            f"{summary} holds on more than {MAX_PIECES} intervals for {label}: use a smaller "
            "domain."
        )
    shifted = [_shifted(p, k * period) & where for k in range(first, last + 1) for p in pieces]
    solution = sp.Union(*shifted)
    return ToolResult.success(TOOL, summary, solution, answer_text(solution, var, where, label))


def _family(pieces: list[sp.Set], period: sp.Expr, read: Inequality) -> tuple[sp.Set, sp.Symbol]:
    """The pieces of one period shifted by ``period*n``; a piece that starts at 0 joined with
    the one that ends at the period (``cos(x) > 0``: ``-pi/2 + 2*pi*n < x < pi/2 + 2*pi*n``)."""
    taken = {s.name for s in read.free}
    n = sp.Symbol(next(c for c in ("n", "k", "m") if c not in taken), integer=True)
    first, last = pieces[0], pieces[-1]
    if (
        len(pieces) > 1
        and isinstance(first, sp.Interval)
        and isinstance(last, sp.Interval)
        and first.start == 0
        and not first.left_open
        and last.end == period
    ):
        joined = sp.Interval(last.start - period, first.end, last.left_open, first.right_open)
        pieces = [joined, *pieces[1:-1]]
    return sp.Union(*(_shifted(p, period * n) for p in pieces)), n


def _shifted(piece: sp.Set, by: sp.Expr) -> sp.Set:
    if isinstance(piece, sp.Interval):
        return sp.Interval(piece.start + by, piece.end + by, piece.left_open, piece.right_open)
    return sp.FiniteSet(*(p + by for p in piece.args))
