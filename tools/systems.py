"""Solve a system of 2 or 3 linear or polynomial equations, exactly.

Why a tool of its own: "x + y = 3 and x - y = 1" is one question, and solving it equation by
equation is where a small model slips. Linear systems go through ``linsolve`` (which states a
free unknown when there are infinitely many solutions); polynomial and rational ones through
``solve`` (Groebner bases; solutions that zero a denominator are dropped). Anything else
(``sin(x) + y = 1``) is refused rather than guessed, and the worker's time limit bounds a
system whose Groebner basis explodes. Conditions among the equations (``x > 0``, ``0 <= y <= 5``:
a word problem's lengths and counts) keep the real solutions that meet them; the others are
named as left out.

``value`` is a list of solutions, each a dict ``{Symbol: exact value}`` over every unknown,
real solutions first. ``[]`` means no solution. With infinitely many, each dict gives the
unknowns in terms of the free ones, and a free unknown maps to itself (``{x: 3 - y, y: y}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from tools.errors import ParseError, ToolError
from tools.extraneous import is_real_number
from tools.formatting import approximate, with_decimal
from tools.inequalities import RELATION
from tools.inputs import names_of, read_variable, short
from tools.parsing import parse, parse_expression
from tools.result import ToolResult
from tools.solving import solve_equation
from tools.system_definitions import read_system
from tools.tokens import split_top_level

TOOL = "solve_system"
MAX_EQUATIONS = 3
MAX_UNKNOWNS = 3
MAX_CONDITIONS = 2 * MAX_UNKNOWNS
MAX_LEFT_OUT_SHOWN = 5
_COMPARE = {
    "<": sp.Lt, "<=": sp.Le, "=<": sp.Le, "≤": sp.Le,
    ">": sp.Gt, ">=": sp.Ge, "=>": sp.Ge, "≥": sp.Ge,
}  # fmt: skip
_AND = re.compile(r"(?i)\s+and\s+|\n")
_SPACES = re.compile(r"\s+")


def solve_system(equations: object, variables: object = None) -> ToolResult:
    """Every solution of 2-3 equations in up to 3 unknowns (the others are parameters)."""
    texts, conditions = _split_conditions(_equation_texts(equations))
    names = _unknown_names(variables)
    defined = read_system(texts, names)
    sides, functions = defined if defined is not None else (_sides(texts, names), [])
    exprs = [lhs - rhs for lhs, rhs in sides]
    free: set[sp.Symbol] = set().union(*(e.free_symbols for e in exprs))
    unknowns = _unknowns(names, free)
    shown = "; ".join(f"{sp.sstr(lhs)} = {sp.sstr(rhs)}" for lhs, rhs in sides)
    summary = f"{shown} for {', '.join(u.name for u in unknowns)}"
    if functions:
        summary += f" ({', '.join(functions)} as defined)"
    for (lhs, rhs), expr in zip(sides, exprs, strict=True):
        numer, denom = sp.fraction(sp.together(expr))
        if not (numer.is_polynomial(*unknowns) and denom.is_polynomial(*unknowns)):
            written = short(f"{sp.sstr(lhs)} = {sp.sstr(rhs)}")
            raise ToolError(
                f"The solve_system tool handles linear and polynomial equations; '{written}' is "
                "neither (solve it with the solve tool)."
            )
    kept_when = _read_conditions(conditions, names, unknowns)
    if all(_is_linear(e, unknowns) for e in exprs):
        solutions = _linear(exprs, unknowns)
    else:
        solutions = _polynomial(exprs, unknowns)
    if not kept_when:
        if not solutions and len(unknowns) == 1 and len(exprs) > 1:
            alone = _each_alone(sides, unknowns[0])
            return _answer(solutions, unknowns, summary, f"{_NONE_AT_ONCE}; {alone}")
        return _answer(solutions, unknowns, summary)
    kept = [s for s in solutions if all(c.holds(s) for c in kept_when)]
    left_out = [s for s in solutions if s not in kept]
    conditions_text = ", ".join(c.text for c in kept_when)
    answer = _answer(
        kept, unknowns, f"{summary} with {conditions_text}", "no solution meets the conditions"
    )
    note = f"with {conditions_text}"
    if left_out:
        dropped = "; ".join(_solution_text(s, unknowns) for s in left_out[:MAX_LEFT_OUT_SHOWN])
        hidden = len(left_out) - MAX_LEFT_OUT_SHOWN
        note += f"; left out: {dropped}" + (f" and {hidden} more" if hidden > 0 else "")
    return ToolResult.success(TOOL, answer.input, answer.value, f"{answer.text} ({note})")


# ---------------------------------------------------------------------------------------------
# Reading the arguments


def _sides(texts: list[str], names: list[str]) -> list[tuple[sp.Expr, sp.Expr]]:
    """Each equation's two sides (an expression alone is ``= 0``)."""
    sides = []
    for text in texts:
        parsed = parse(text, names, "An equation")
        sides.append((parsed.lhs, parsed.rhs if parsed.rhs is not None else sp.S.Zero))
    return sides


def one_equation_with_conditions(equations: object) -> tuple[str, list[str]] | None:
    """``["2x^2 - 2x - 4 = 0", "1 <= x <= 5"]``: one equation and the conditions on its
    solutions, which is that equation solved on a domain; None for anything else."""
    try:
        only, conditions = _partition(_equation_texts(equations))
    except ToolError:
        return None
    return (only[0], conditions) if len(only) == 1 and conditions else None


def _partition(texts: list[str]) -> tuple[list[str], list[str]]:
    """The equations and the conditions (texts with <, >, <=, >=) among ``texts``."""
    return [t for t in texts if not RELATION.search(t)], [t for t in texts if RELATION.search(t)]


def _split_conditions(texts: list[str]) -> tuple[list[str], list[str]]:
    """The equations, and the conditions among them (``x > 0``: which solutions to keep).
    One equation with a condition is a solve call, which the error says how to make."""
    equations, conditions = _partition(texts)
    if len(equations) > MAX_EQUATIONS:
        raise ToolError(
            f"The solve_system tool takes at most {MAX_EQUATIONS} equations, not "
            f"{len(equations)}: solve a smaller system first."
        )
    if len(conditions) > MAX_CONDITIONS:
        raise ToolError(
            f"The solve_system tool takes at most {MAX_CONDITIONS} conditions, not "
            f"{len(conditions)}: join the ones on one unknown, as in '0 < x < 5'."
        )
    if conditions and len(equations) == 1:
        raise ToolError(
            f"One equation with a condition is a solve call: solve(equation='{short(equations[0])}', "
            f"domain='{short(', '.join(conditions))}')."
        )
    if len(equations) < 2:
        raise ToolError(
            f"A system needs 2 or {MAX_EQUATIONS} equations (got {len(equations)}); for one "
            "equation use the solve tool."
        )
    return equations, conditions


@dataclass(frozen=True)
class _Condition:
    """``x > 0``, ``0 <= y <= 5``, ``x > y``: sides compared pairwise, left to right."""

    text: str
    sides: tuple[sp.Expr, ...]
    relations: tuple[str, ...]

    def holds(self, solution: dict[sp.Symbol, sp.Expr]) -> bool:
        """False when a solution's values break it (or are not real); a value that depends
        on a parameter keeps the solution (its text shows the parameter)."""
        values = [sp.sympify(side).subs(solution) for side in self.sides]
        for left, relation, right in zip(values, self.relations, values[1:], strict=False):
            gap = left - right
            if not gap.is_number:
                continue
            if not is_real_number(gap):
                return False
            decided = _COMPARE[relation](gap, 0)
            if decided not in (sp.true, sp.false):
                decided = _COMPARE[relation](approximate(gap, 30), 0)
            if decided is sp.false or decided is False:
                return False
        return True


def _read_conditions(
    conditions: list[str], names: list[str], unknowns: list[sp.Symbol]
) -> list[_Condition]:
    read = []
    for text in conditions:
        pieces = RELATION.split(text)
        sides = [
            parse_expression(side, names, "A condition") for side in pieces[0::2] if side.strip()
        ]
        if len(sides) != len(pieces[0::2]) or not any(
            s.free_symbols & set(unknowns) for s in sides
        ):
            raise ToolError(
                f"The condition '{short(text)}' should compare the unknowns "
                f"({names_of(unknowns)}) with numbers, as in '{unknowns[0]} > 0'."
            )
        shown = " ".join(f"{sp.sstr(a)} {r}" for a, r in zip(sides, pieces[1::2], strict=False))
        read.append(_Condition(f"{shown} {sp.sstr(sides[-1])}", tuple(sides), tuple(pieces[1::2])))
    return read


def _equation_texts(equations: object) -> list[str]:
    """``"x + y = 3, x - y = 1"`` (commas, semicolons, new lines or "and") or a list of texts."""
    if isinstance(equations, str):
        raw = [equations]
    elif isinstance(equations, (list, tuple)):
        raw = list(equations)
    else:
        raise ParseError(
            "The equations must be text such as 'x + y = 3, x - y = 1' or a list of texts, "
            f"not {type(equations).__name__}."
        )
    texts: list[str] = []
    for item in raw:
        if not isinstance(item, str):
            raise ParseError(f"Each equation must be text, not {type(item).__name__}.")
        for chunk in _AND.split(item):
            texts.extend(p.strip() for p in split_top_level(chunk) if p.strip())
    return texts


def _unknown_names(variables: object) -> list[str]:
    """The unknowns the caller named (``"x, y"``, ``"x y"`` or a list), in order, or []."""
    if variables is None:
        return []
    if isinstance(variables, str):
        raw: list[object] = _split_names(variables)
    elif isinstance(variables, (list, tuple)):
        # ["a, c"] is the list ["a", "c"] written as one string: each string is split too
        raw = [w for v in variables for w in (_split_names(v) if isinstance(v, str) else [v])]
    else:
        raise ParseError(
            f"The variables must be text such as 'x, y' or a list of names, not "
            f"{type(variables).__name__}."
        )
    names: list[str] = []
    for item in raw:
        name = read_variable(item)
        if name is not None and name not in names:
            names.append(name)
    if len(names) > MAX_UNKNOWNS:
        raise ToolError(
            f"The solve_system tool solves for at most {MAX_UNKNOWNS} unknowns, not {len(names)}."
        )
    return names


def _split_names(text: str) -> list[object]:
    """`"x, y"` or `"x y"` -> `["x", "y"]`."""
    return [w for part in split_top_level(text) for w in _SPACES.split(part.strip()) if w]


def _unknowns(names: list[str], free: set[sp.Symbol]) -> list[sp.Symbol]:
    if names:
        unknowns = [sp.Symbol(n) for n in names]
        missing = [u for u in unknowns if u not in free]
        if missing:
            raise ToolError(
                f"The equations do not contain {names_of(missing)}; their variables are "
                f"{names_of(free) or 'none'}."
            )
        return unknowns
    if not free:
        raise ToolError("The equations have no unknowns: there is nothing to solve for.")
    if len(free) > MAX_UNKNOWNS:
        raise ToolError(
            f"The system has {len(free)} unknowns ({names_of(free)}); at most {MAX_UNKNOWNS} are "
            "supported: name the unknowns in variables (the others are then parameters)."
        )
    return sorted(free, key=lambda s: s.name)


def _is_linear(expr: sp.Expr, unknowns: list[sp.Symbol]) -> bool:
    try:
        poly = sp.Poly(expr, *unknowns)
    except sp.PolynomialError:
        return False
    return poly.total_degree() <= 1


# ---------------------------------------------------------------------------------------------
# Solving


def _linear(exprs: list[sp.Expr], unknowns: list[sp.Symbol]) -> list[dict[sp.Symbol, sp.Expr]]:
    found = sp.linsolve(exprs, unknowns)
    if found is sp.S.EmptySet:
        return []
    if not isinstance(found, sp.FiniteSet):
        raise ToolError("Could not solve this linear system exactly.")
    return [dict(zip(unknowns, solution, strict=True)) for solution in found.args]


def _polynomial(exprs: list[sp.Expr], unknowns: list[sp.Symbol]) -> list[dict[sp.Symbol, sp.Expr]]:
    try:
        found = sp.solve(exprs, unknowns, dict=True)
    except NotImplementedError:
        raise ToolError("Could not solve this polynomial system exactly.") from None
    return [{u: s.get(u, u) for u in unknowns} for s in found]


def _answer(
    solutions: list[dict[sp.Symbol, sp.Expr]],
    unknowns: list[sp.Symbol],
    summary: str,
    none: str = "no solution (the equations contradict each other)",
) -> ToolResult:
    if not solutions:
        return ToolResult.success(TOOL, summary, [], none)
    set_unknowns = set(unknowns)
    free = sorted(
        {u for s in solutions for v in s.values() for u in v.free_symbols & set_unknowns},
        key=lambda u: u.name,
    )
    if free:
        listed = "; ".join(_solution_text(s, unknowns, free) for s in solutions)
        anything = "any number" if len(free) == 1 else "any numbers"
        text = f"infinitely many solutions: {listed} ({names_of(free)} {anything})"
        return ToolResult.success(TOOL, summary, solutions, text)
    ordered = sorted(solutions, key=lambda s: _order(s, unknowns))
    real = [s for s in ordered if _is_real(s)]
    complex_ = [s for s in ordered if not _is_real(s)]
    real_text = _listing(real, unknowns)
    complex_text = _listing(complex_, unknowns, "complex ")
    if not complex_:
        text = real_text
    elif not real:
        text = f"no real solutions; {complex_text}"
    else:
        text = f"{real_text}; and {complex_text}"
    return ToolResult.success(TOOL, summary, real + complex_, text)


_NONE_AT_ONCE = "no value solves them all at once"


def _each_alone(sides: list[tuple[sp.Expr, sp.Expr]], unknown: sp.Symbol) -> str:
    """Each equation's own solutions, as the solve tool writes them: equations in one unknown
    with none in common are most often two problems sent as one (`x^2 - 16 = 0 and also
    x^2 - 25 = 0`)."""
    parts = []
    for lhs, rhs in sides:
        equation = f"{sp.sstr(lhs)} = {sp.sstr(rhs)}"
        try:
            parts.append(f"{equation} alone: {solve_equation(equation, unknown.name).text}")
        except ToolError:  # the solve tool says why when that equation is sent alone
            return "solve each with the solve tool"
    return "; ".join(parts)


def _listing(
    solutions: list[dict[sp.Symbol, sp.Expr]], unknowns: list[sp.Symbol], kind: str = ""
) -> str:
    if len(solutions) == 1:
        label = f"{kind}solution: " if kind else ""
        return label + _solution_text(solutions[0], unknowns)
    parts = [f"({i}) {_solution_text(s, unknowns)}" for i, s in enumerate(solutions, start=1)]
    return f"{len(solutions)} {kind}solutions: " + "; ".join(parts)


def _solution_text(
    solution: dict[sp.Symbol, sp.Expr],
    unknowns: list[sp.Symbol],
    free: list[sp.Symbol] | None = None,
) -> str:
    return ", ".join(
        f"{u} = {with_decimal(solution[u])}" for u in unknowns if u not in (free or [])
    )


def _is_real(solution: dict[sp.Symbol, sp.Expr]) -> bool:
    return all(not v.is_number or is_real_number(v) for v in solution.values())


def _order(
    solution: dict[sp.Symbol, sp.Expr], unknowns: list[sp.Symbol]
) -> tuple[tuple[int, float, float, str], ...]:
    key: list[tuple[int, float, float, str]] = []
    for u in unknowns:
        value = solution[u]
        try:
            approx = complex(approximate(value, 15))
            key.append((0, approx.real, approx.imag, ""))
        except (TypeError, ValueError):
            key.append((1, 0.0, 0.0, sp.sstr(value)))
    return tuple(key)
