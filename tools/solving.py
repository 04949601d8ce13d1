"""Solve one equation for one unknown, exactly when possible.

Why this order: polynomials (after clearing denominators) go through ``roots`` factor by
factor, which gives radicals with multiplicities (or exact ``CRootOf`` objects when no radical
form exists); everything else goes to ``solveset`` over the reals (which knows periodic
families such as ``sin(x) = 0``), then ``solve`` (principal solutions, LambertW...), and only
then to a numerical scan, which the text labels as numerical.

``value`` is a list of distinct roots. Two special answers: ``sympy.S.Complexes`` when the
equation holds for every value (``x = x``) and ``[]`` when it holds for none (``1 = 2``). A
general solution is a list of expressions in an integer symbol (``2*pi*n``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import sympy as sp

from tools.errors import ToolError
from tools.extraneous import is_real_number, split_extraneous
from tools.formatting import approximate, with_decimal
from tools.inputs import choose_variable, keep, names_of, read_variable
from tools.parsing import parse
from tools.result import ToolResult

TOOL = "solve"
_FUNCTION_NAMES = {"y", "f", "g", "h"}
_MULTIPLICITY = {2: "double root", 3: "triple root", 4: "quadruple root"}
_SCAN = (-100, 100, 800)
_SHOWN_NUMERIC = 10


@dataclass(frozen=True)
class Equation:
    """An equation as the solve tool reads it: both sides, the unknown and the summary."""

    lhs: sp.Expr
    rhs: sp.Expr
    var: sp.Symbol | None
    free: set[sp.Symbol]
    summary: str


def read_equation(equation: str, variable: str | None = None) -> Equation:
    """Parse ``equation`` (or ``expression = 0``) and pick the unknown, as ``solve`` does."""
    name = read_variable(variable)
    parsed = parse(equation, keep(name), "The equation")
    lhs = parsed.lhs
    rhs = parsed.rhs if parsed.rhs is not None else sp.S.Zero
    if (
        parsed.rhs is not None
        and name is None
        and isinstance(lhs, sp.Symbol)
        and lhs.name in _FUNCTION_NAMES
        and lhs not in rhs.free_symbols
        and rhs.free_symbols
    ):
        lhs, rhs = rhs, sp.S.Zero  # "y = x^2 - 4": the roots of the right side
    free = lhs.free_symbols | rhs.free_symbols
    var = choose_variable(free, name, "solve for", "equation")
    shown = f"{sp.sstr(lhs)} = {sp.sstr(rhs)}"
    summary = f"{shown} for {var}" if var is not None else shown
    return Equation(lhs, rhs, var, free, summary)


def solve_equation(equation: str, variable: str | None = None) -> ToolResult:
    """Roots of ``equation`` (or of ``expression = 0``) for ``variable``."""
    read = read_equation(equation, variable)
    var, summary = read.var, read.summary
    expr = read.lhs - read.rhs
    if var is None or var not in expr.free_symbols:
        return _constant_equation(expr, var, read.free, summary)
    numer, denom = sp.fraction(sp.together(expr))
    if numer.is_polynomial(var) and denom.is_polynomial(var):
        return _polynomial(numer, denom, var, summary)
    return _general_equation(expr, var, summary)


def _constant_equation(
    expr: sp.Expr, var: sp.Symbol | None, free: set[sp.Symbol], summary: str
) -> ToolResult:
    """No unknown left: the equation is always true, never true, or not about ``var``."""
    if var is not None and var not in free:
        raise ToolError(
            f"The equation does not contain {var}; its variables are {names_of(free)}."
            if free
            else f"The equation does not contain {var}."
        )
    if expr.free_symbols:
        raise ToolError(
            f"The equation does not depend on {var} once simplified; it relates "
            f"{names_of(expr.free_symbols)}."
        )
    zero = expr.equals(0)
    who = f"every {var}" if var is not None else "every value (the equation has no unknown)"
    if zero:
        return ToolResult.success(TOOL, summary, sp.S.Complexes, f"true for {who}")
    return ToolResult.success(TOOL, summary, [], "no solution (the equation is never true)")


# ---------------------------------------------------------------------------------------------
# Polynomials and rational equations


def _polynomial(numer: sp.Expr, denom: sp.Expr, var: sp.Symbol, summary: str) -> ToolResult:
    poly = sp.Poly(numer, var)
    if poly.is_zero:
        excluded = _distinct(poly_roots(sp.Poly(denom, var))) if denom.has(var) else []
        text = f"true for every {var}"
        if excluded:
            text += " except " + ", ".join(f"{var} = {with_decimal(r)}" for r in excluded)
        return ToolResult.success(TOOL, summary, sp.S.Complexes, text)
    if poly.degree() == 0:
        return ToolResult.success(TOOL, summary, [], "no solution (the equation is never true)")
    found = poly_roots(poly)
    excluded = [r for r in found if denom.has(var) and _is_zero(denom.subs(var, r))]
    for r in excluded:
        del found[r]
    if not found:
        shown = ", ".join(f"{var} = {with_decimal(r)}" for r in excluded)
        return ToolResult.success(
            TOOL, summary, [], f"no solution ({shown} would make a denominator zero)"
        )
    text, ordered = _describe_roots(var, found)
    if excluded:
        shown = ", ".join(f"{var} = {with_decimal(r)}" for r in excluded)
        text += f" ({shown} excluded: it makes a denominator zero)"
    return ToolResult.success(TOOL, summary, ordered, text)


def poly_roots(poly: sp.Poly) -> Counter[sp.Expr]:
    """Every root with its multiplicity: radicals per factor, else exact CRootOf objects."""
    var = poly.gen
    try:
        _, factors = sp.factor_list(poly)
    except Exception:
        factors = [(poly, 1)]
    numeric = all(c.is_number for c in poly.coeffs())
    found: Counter[sp.Expr] = Counter()
    for factor, power in factors:
        part = sp.Poly(factor, var)
        if part.degree() < 1:
            continue
        roots = sp.roots(part)
        if sum(roots.values()) < part.degree():
            if not numeric:
                raise ToolError(
                    f"Could not find the roots of {sp.sstr(part.as_expr())} in closed form "
                    "(it has symbolic coefficients)."
                )
            roots = Counter(part.all_roots())
        for root, count in roots.items():
            found[real_form(root)] += count * power
    return found


def real_form(root: sp.Expr) -> sp.Expr:
    """Cubic roots of three-real-root cubics come out with I; rewrite them without it."""
    if not root.has(sp.I) or not root.is_number or sp.count_ops(root) > 80:
        return root
    if not is_real_number(root):
        return root
    try:
        nicer = sp.simplify(sp.expand_complex(root))
    except Exception:
        return root
    return nicer if not nicer.has(sp.I) else root


def _is_zero(value: sp.Expr) -> bool:
    if value.is_zero is not None:
        return bool(value.is_zero)
    if value.is_number:
        return abs(complex(approximate(value, 30))) < 1e-25
    return sp.simplify(value) == 0


def _distinct(found: Counter[sp.Expr]) -> list[sp.Expr]:
    return sort_values(list(found))


def sort_values(values: list[sp.Expr]) -> list[sp.Expr]:
    """Ascending by numeric value (real part, then imaginary), symbolic ones last."""

    def key(value: sp.Expr) -> tuple[int, float, float, str]:
        if value.is_number:
            try:
                approx = complex(approximate(value, 15))
                return (0, approx.real, approx.imag, "")
            except (TypeError, ValueError):
                pass
        return (1, 0.0, 0.0, sp.sstr(value))

    return sorted(values, key=key)


def root_text(var: sp.Symbol, root: sp.Expr, count: int = 1) -> str:
    text = f"{var} = {with_decimal(root)}"
    if count > 1:
        text += f" ({_MULTIPLICITY.get(count, f'multiplicity {count}')})"
    return text


def _describe_roots(var: sp.Symbol, found: Counter[sp.Expr]) -> tuple[str, list[sp.Expr]]:
    """Text listing real roots, then complex ones, and the ordered list of distinct roots."""
    roots = sort_values(list(found))
    if not all(r.is_number for r in roots):
        return ", ".join(root_text(var, r, found[r]) for r in roots), roots
    real = [r for r in roots if is_real_number(r)]
    complex_ = [r for r in roots if r not in real]
    real_text = ", ".join(root_text(var, r, found[r]) for r in real)
    complex_text = ", ".join(root_text(var, r, found[r]) for r in complex_)
    if not complex_:
        return real_text, real
    if not real:
        return f"no real roots; complex roots: {complex_text}", complex_
    return f"{real_text}; complex roots: {complex_text}", real + complex_


# ---------------------------------------------------------------------------------------------
# Everything else


def _general_equation(expr: sp.Expr, var: sp.Symbol, summary: str) -> ToolResult:
    try:
        solutions = sp.solveset(expr, var, sp.S.Reals)
    except Exception:
        solutions = None
    if solutions is not None:
        answer = _from_set(solutions, var, expr, summary, real=True)
        if answer is not None:
            return answer
    return _fallback(expr, var, summary)


def _from_set(
    solutions: sp.Set, var: sp.Symbol, expr: sp.Expr, summary: str, real: bool
) -> ToolResult | None:
    """A ToolResult for the set shapes we can state plainly, else None."""
    if solutions == sp.S.Reals or solutions == sp.S.Complexes:
        return ToolResult.success(TOOL, summary, sp.S.Complexes, f"true for every {var}")
    if solutions is sp.S.EmptySet:
        if not real:
            return ToolResult.success(TOOL, summary, [], "no solution")
        try:
            complex_solutions = sp.solveset(expr, var, sp.S.Complexes)
        except Exception:
            return None
        answer = _from_set(complex_solutions, var, expr, summary, real=False)
        if answer is None or not answer.ok or answer.value == []:
            return ToolResult.success(TOOL, summary, [], "no solution")
        return ToolResult.success(
            TOOL, summary, answer.value, f"no real solution; complex solutions: {answer.text}"
        )
    if isinstance(solutions, sp.FiniteSet):
        roots = sort_values(list(solutions.args))
        dropped: list[str] = []
        if real:
            roots, dropped = split_extraneous(expr, var, roots)
        text = ", ".join(root_text(var, r) for r in roots) or "no real solution"
        return ToolResult.success(TOOL, summary, roots, "; ".join([text, *dropped]))
    family = general_family(solutions, var, expr)
    if family is None:
        return None
    values, n = family
    listed = ", ".join(f"{var} = {sp.sstr(v)}" for v in values)
    return ToolResult.success(
        TOOL, summary, values, f"general solution: {listed} ({n} any integer)"
    )


def general_family(
    solutions: sp.Set, var: sp.Symbol, expr: sp.Expr
) -> tuple[list[sp.Expr], sp.Symbol] | None:
    """``Union(ImageSet(Lambda(_n, 2*_n*pi), Integers), ...)`` as ``[2*pi*n, ...]``."""
    parts = solutions.args if isinstance(solutions, sp.Union) else (solutions,)
    taken = {s.name for s in expr.free_symbols} | {var.name}
    name = next(c for c in ("n", "k", "m", "n_1", "n_2") if c not in taken)
    n = sp.Symbol(name, integer=True)
    values: list[sp.Expr] = []
    for part in parts:
        if isinstance(part, sp.ImageSet) and part.base_sets == (sp.S.Integers,):
            (dummy,) = part.lamda.variables
            values.append(part.lamda.expr.xreplace({dummy: n}))
        elif isinstance(part, sp.FiniteSet):
            values.extend(part.args)
        else:
            return None
    return (values, n) if values else None


def _fallback(expr: sp.Expr, var: sp.Symbol, summary: str) -> ToolResult:
    """``solve`` (principal solutions), then a numerical scan of the real line."""
    try:
        solutions = sp.solve(expr, var, dict=False)
    except Exception:
        solutions = []
    candidates = [real_form(s) for s in solutions if not isinstance(s, (dict, tuple))]
    real = [s for s in candidates if s.is_number and is_real_number(s)]
    kept, dropped = split_extraneous(expr, var, real)
    solutions = [s for s in candidates if s not in real or s in kept]
    if not solutions and dropped:
        return ToolResult.success(TOOL, summary, [], "; ".join(["no real solution", *dropped]))
    if solutions:
        found = Counter(dict.fromkeys(solutions, 1))
        text, ordered = _describe_roots(var, found)
        text = "; ".join([text, *dropped])
        if _periodic(expr, var):
            text = f"principal solutions (others differ by a period): {text}"
        return ToolResult.success(TOOL, summary, ordered, text)
    if expr.free_symbols != {var}:
        raise ToolError(
            f"Could not solve {summary} exactly (it has the parameters "
            f"{names_of(expr.free_symbols - {var})})."
        )
    roots = _numeric_roots(expr, var)
    low, high, _ = _SCAN
    if not roots:
        raise ToolError(
            f"Could not solve {summary} exactly, and found no real solution numerically "
            f"between {low} and {high}."
        )
    shown = sorted(sorted(roots, key=abs)[:_SHOWN_NUMERIC])
    listed = ", ".join(f"{var} ≈ {_plain_float(r)}" for r in shown)
    more = len(roots) - len(shown)
    if more:
        listed += f" (and {more} more found)"
    text = (
        f"no exact solution found; numerical solutions found between {low} and {high} "
        f"(there may be others): {listed}"
    )
    return ToolResult.success(TOOL, summary, [sp.Float(r, 15) for r in roots], text)


def _plain_float(value: float) -> str:
    return f"{value:.10g}"


def _periodic(expr: sp.Expr, var: sp.Symbol) -> bool:
    trig = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sec, sp.csc)
    return any(f.has(var) for f in expr.atoms(*trig))


def _numeric_roots(expr: sp.Expr, var: sp.Symbol) -> list[float]:
    """Sign changes on a grid, refined by bisection; poles are filtered out by |f| at the end."""

    def f(t: float) -> float | None:
        try:
            value = complex(expr.evalf(15, subs={var: sp.Float(t, 20)}))
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if value.imag != 0 and abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
            return None
        return value.real

    low, high, steps = _SCAN
    grid = [low + (high - low) * i / steps for i in range(steps + 1)]
    values = [f(t) for t in grid]
    roots: list[float] = []
    for a, b, fa, fb in zip(grid, grid[1:], values, values[1:], strict=False):
        if fa is None or fb is None:
            continue
        if fa == 0:
            roots.append(a)
            continue
        if fa * fb > 0:
            continue
        for _ in range(60):
            mid = (a + b) / 2
            fm = f(mid)
            if fm is None:
                break
            if fa * fm <= 0:
                b, fb = mid, fm
            else:
                a, fa = mid, fm
        root = (a + b) / 2
        if abs(root) < 1e-12:
            root = 0.0
        value = f(root)
        if value is not None and abs(value) < 1e-8:
            roots.append(root)
    distinct: list[float] = []
    for r in roots:
        if not distinct or abs(r - distinct[-1]) > 1e-9:
            distinct.append(r)
    return distinct
