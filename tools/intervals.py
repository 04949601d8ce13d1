"""A set of the real line as people write it: ``x < -2 or x > 2`` and ``(-oo, -2) ∪ (2, oo)``.

Why a module of its own: the solve tool says an inequality's answer this way, and the
workspace keeps the same interval notation as a solution set's text and must tell it from a
root's text (a set is never summed or substituted). Exact SymPy text for every end, with a
decimal beside the irrational ones; an end that is a root with no closed form (``CRootOf``,
whose text is a whole polynomial) is written as its decimal, and the note names its polynomial.
"""

from __future__ import annotations

import sympy as sp

from tools.errors import ToolError
from tools.formatting import approximate, decimal, exact, needs_decimal, with_decimal


def pieces_of(solution: sp.Set) -> list[sp.Set]:
    """The intervals and points of a set, left to right (points one by one)."""
    parts = list(solution.args) if isinstance(solution, sp.Union) else [solution]
    pieces: list[sp.Set] = []
    for part in parts:
        if isinstance(part, sp.FiniteSet):
            pieces.extend(sp.FiniteSet(p) for p in part.args)
        elif part != sp.S.EmptySet:
            pieces.append(part)
    return sorted(pieces, key=_start)


def _start(piece: sp.Set) -> tuple[int, float, str]:
    start = piece.inf
    if start == -sp.oo:
        return (0, 0.0, "")
    if start.is_number:
        return (1, float(approximate(start, 15)), "")
    return (2, 0.0, sp.sstr(start))


def end_text(end: sp.Expr) -> str:
    """An end exactly, or as its decimal when it is a ``CRootOf`` (see the module's note)."""
    if isinstance(end, sp.Basic) and end.has(sp.CRootOf):
        return decimal(end) or exact(end)
    return exact(end)


def bounds_text(
    lower: sp.Expr, upper: sp.Expr, left_open: bool, right_open: bool, subject: object
) -> str:
    """An interval as a condition on ``subject``: ``0 < x <= 5``, ``x >= 0``, ``real x``."""
    low, high = lower != -sp.oo, upper != sp.oo
    below = "<" if left_open else "<="
    above = "<" if right_open else "<="
    if low and high:
        return f"{end_text(lower)} {below} {subject} {above} {end_text(upper)}"
    if low:
        return f"{subject} {'>' if left_open else '>='} {end_text(lower)}"
    if high:
        return f"{subject} {above} {end_text(upper)}"
    return f"real {subject}"


def condition(piece: sp.Set, var: sp.Symbol) -> str:
    """One interval or point as a condition: ``-2 < x < 4``, ``x = 1``."""
    if isinstance(piece, sp.FiniteSet):
        return f"{var} = {end_text(piece.args[0])}"
    if isinstance(piece, sp.Interval):
        return bounds_text(piece.start, piece.end, piece.left_open, piece.right_open, var)
    raise ToolError(f"Could not state the set {exact(piece)} as intervals.")


def condition_text(solution: sp.Set, var: sp.Symbol) -> str:
    """``x < -2 or x > 2``, ``-2 < x < 4``, ``x = 1``, ``all real x``, ``no real x``."""
    if solution == sp.S.Reals:
        return f"all real {var}"
    if solution == sp.S.EmptySet:
        return f"no real {var}"
    return " or ".join(condition(piece, var) for piece in pieces_of(solution))


def is_plain_set(found: sp.Set) -> bool:
    """A finite union of intervals and points: what ``interval_text`` can write."""
    if isinstance(found, (sp.Interval, sp.FiniteSet)) or found in (sp.S.Reals, sp.S.EmptySet):
        return True
    return isinstance(found, sp.Union) and all(is_plain_set(part) for part in found.args)


def interval_text(solution: sp.Set) -> str:
    """``(-oo, -2) ∪ (2, oo)``, ``[1, 10]``, ``{1}``, ``(-oo, oo)``, ``∅`` (and ``ℂ`` for
    an identity's every complex value)."""
    named = {sp.S.Reals: "(-oo, oo)", sp.S.EmptySet: "∅", sp.S.Complexes: "ℂ"}
    if solution in named:
        return named[solution]
    parts = []
    for piece in pieces_of(solution):
        if isinstance(piece, sp.Interval):
            left = "(" if piece.left_open else "["
            right = ")" if piece.right_open else "]"
            parts.append(f"{left}{end_text(piece.start)}, {end_text(piece.end)}{right}")
        else:
            parts.append("{" + ", ".join(end_text(p) for p in piece.args) + "}")
    return " ∪ ".join(parts)


def is_interval_text(text: str) -> bool:
    """Whether ``text`` is what ``interval_text`` writes: brackets around two ends, braces
    around points, joined by ``∪`` (a root's text never is, whatever its brackets)."""
    return text in ("∅", "ℂ") or all(_is_piece(piece) for piece in text.split(" ∪ "))


def _is_piece(piece: str) -> bool:
    if len(piece) < 2 or piece[0] not in "([{":
        return False
    if piece[0] == "{":
        return piece[-1] == "}"
    depth, comma = 0, False
    for place, char in enumerate(piece):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0 and place != len(piece) - 1:
                return False  # `(x + 1)*(x - 1)`: the first bracket closes early
        elif char == "," and depth == 1:
            comma = True
    return comma and depth == 0


def answer_text(solution: sp.Set, var: sp.Symbol, where: sp.Set, label: str) -> str:
    """The answer as a person writes it, then its interval notation, the decimals of its
    irrational ends and the domain it was restricted to."""
    restricted = where != sp.S.Reals
    if restricted and solution == where:
        return f"true for every {label}"
    notes = [f"for {label}"] if restricted else []
    if solution in (sp.S.Reals, sp.S.EmptySet):
        said = condition_text(solution, var)
        return f"{said} ({notes[0]})" if notes else said
    pieces = pieces_of(solution)
    if any(isinstance(piece, sp.Interval) for piece in pieces):
        notes.append(f"interval: {interval_text(solution)}")
    ends = dict.fromkeys(e for p in pieces for e in p.boundary if needs_decimal(e))
    ordered = sorted(ends, key=lambda end: float(approximate(end, 15)))
    if exact_ends := [end for end in ordered if not end.has(sp.CRootOf)]:
        notes.append(", ".join(with_decimal(end) for end in exact_ends))
    notes += _roots_note([end for end in ordered if end.has(sp.CRootOf)])
    said = condition_text(solution, var)
    return f"{said} ({'; '.join(notes)})" if notes else said


def _roots_note(ends: list[sp.Expr]) -> list[str]:
    """``1.167 is a decimal of a root of x**5 - x - 1``: what an end written as a decimal is."""
    polynomials = dict.fromkeys(root.expr for end in ends for root in end.atoms(sp.CRootOf))
    if not ends:
        return []
    shown = ", ".join(end_text(end) for end in ends)
    verb = "is a decimal" if len(ends) == 1 else "are decimals"
    of = " and ".join(exact(p) for p in polynomials)
    return [f"{shown} {verb} of {'a root' if len(ends) == 1 else 'roots'} of {of}"]
