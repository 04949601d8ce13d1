"""Judge the agent's final answer text with SymPy, the way a reader checks it.

The reply is free text from a small model ("The roots of x^2 + 5x + 6 = 0 are x = -3 and
x = -2.", "x = -5/2 ± √13/2", "∫₀¹ x² dx = 1/3 ≈ 0.333", leftover `\\frac{1}{3}`), so string
matching would fail right answers written differently and pass wrong ones that merely restate
the question. Instead the text is cut into math spans that each get a role
(`agent.eval.reply_math` says how), and each expectation kind compares the spans that state
something with the expected answer by value (`agent.eval.compare`). Kinds look at what states something; when a
reply states nothing that way (a lone "6·o − 48·o²"), its bare spans count instead.

Roots: the offered roots are the assigned and the stated numbers, or failing both the bare
ones; so the numbers of a restated equation (`x^2 + 5x + 6 = 0`) are never offered roots, nor
one the reply turns down (`t = -1 is outside it`). Every expected root must be offered, and
every offered number must be an expected root.
Values: every expected number is a result or stated; other numbers may be there too.
Quantities (word problems): as values, and a number assigned to a letter (`t = 5 s`) counts
too; a unit after the number (`5 s`, `12 m²`, `$40`) is not part of it.
Forms: an expression equal to the answer and written factored (each factor irreducible over
the rationals), expanded (no sum inside a product or power) or simplified (no more operations
than the answer has, plus one).
Line: `y = m*x + b`, or any equation that solves to it (`y - 4 = 10(x - 2)`).
Assignments: each letter is given its value (`x = 2, y = 1`, `(x, y) = (2, 1)`), never another.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from agent.eval.cases import Expected
from agent.eval.compare import close, same, states
from agent.eval.reply_math import Span, answers, relations, spans, written

_LEADING_NUMBER = re.compile(r"\(?\s*([-+]?\d+(?:\.\d+)?)")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    why: str


# --- numbers, expressions, antiderivatives ---------------------------------------------------


def _judge_roots(found: list[Span], expected: list[sp.Expr]) -> Verdict:
    offered = [s for s in answers(found, ("assigned", "stated")) if s.value.is_number]
    if not offered:
        return Verdict(False, "no roots are stated")
    for root in expected:
        if states(offered, root) is None:
            return Verdict(False, f"the root {root} is not stated")
    for span in offered:
        if not any(same(span.value, r) or close(span.text, r, strict=False) for r in expected):
            return Verdict(False, f"{span.text} is offered as a root but is not one")
    return Verdict(True, f"states the roots {', '.join(map(str, expected))} and no other")


def _judge_expression(found: list[Span], target: sp.Expr) -> Verdict:
    span = states(answers(found, ("result", "assigned", "stated")), target)
    if span is None:
        return Verdict(False, f"no expression equal to {target} is stated")
    return Verdict(True, f"states {sp.sstr(span.value)}, equal to {target}")


def _judge_antiderivative(found: list[Span], integrand: sp.Expr, variable: str | None) -> Verdict:
    names = sorted(s.name for s in integrand.free_symbols)
    v = sp.Symbol(variable or (names[0] if names else "x"))
    for span in answers(found, ("result", "assigned", "stated")):
        if span.value.has(v) and same(sp.diff(span.value, v), integrand):
            return Verdict(
                True, f"states {sp.sstr(span.value)}, whose derivative in {v} is {integrand}"
            )
    return Verdict(False, f"no expression whose derivative in {v} is {integrand} is stated")


def _judge_values(found: list[Span], targets: list[sp.Expr]) -> Verdict:
    candidates = answers(found, ("result", "stated"))
    for target in targets:
        if states(candidates, target) is None:
            return Verdict(False, f"{target} is not stated")
    return Verdict(True, f"states {', '.join(map(str, targets))}")


# --- word problems: numbers with units ---------------------------------------------------------


def _number(span: Span, variable: str | None) -> tuple[sp.Expr, str] | None:
    """The number a span states, a unit after it left out: `12 m^(2)` is 12, `5 m/s` is 5.
    Letters of the problem's own variable are no unit (`20t` is no 20)."""
    value = span.value
    if value.is_number:
        return value, span.text
    own = {sp.Symbol(variable)} if variable else set()
    if value.free_symbols & own:
        return None
    number, unit = value.as_independent(*value.free_symbols, as_Add=False)
    powers = sp.Mul.make_args(unit)
    if not number.is_number or not all(
        p.is_Symbol or (p.is_Pow and p.base.is_Symbol) for p in powers
    ):
        return None
    shown = _LEADING_NUMBER.match(span.text)
    return number, shown.group(1) if shown else ""


def _judge_quantities(found: list[Span], targets: list[sp.Expr], variable: str | None) -> Verdict:
    candidates = answers(found, ("result", "stated", "assigned"))
    for target in targets:
        numbers = [n for n in (_number(s, variable) for s in candidates) if n is not None]
        if not any(same(value, target) or close(text, target) for value, text in numbers):
            return Verdict(False, f"{target} is not stated")
    return Verdict(True, f"states {', '.join(map(str, targets))}")


# --- forms: factored, expanded, simplified ---------------------------------------------------


def _factors(shape: sp.Expr) -> list[sp.Expr]:
    if isinstance(shape, sp.Mul):
        return [f for arg in shape.args for f in _factors(arg)]
    return [shape]


def _is_factored(shape: sp.Expr, target: sp.Expr) -> bool:
    """Every written factor that is not a number is irreducible over the rationals."""
    for factor in _factors(shape):
        if factor.is_number:
            continue
        base, exponent = (factor.base, factor.exp) if factor.is_Pow else (factor, sp.Integer(1))
        if not (exponent.is_Integer and exponent > 0):
            return False
        try:
            _, irreducible = sp.factor_list(sp.expand(base))
        except (sp.PolynomialError, ValueError, TypeError):
            return False
        if len(irreducible) != 1 or irreducible[0][1] != 1:
            return False
    return True


def _is_expanded(shape: sp.Expr, target: sp.Expr) -> bool:
    """No sum with a letter in it is multiplied or raised to a power."""
    for node in sp.preorder_traversal(shape):
        inside = node.args if isinstance(node, sp.Mul) else ()
        if isinstance(node, sp.Pow):
            inside = (node.base,)
        if any(isinstance(arg, sp.Add) and arg.free_symbols for arg in inside):
            return False
    return True


def _is_simplified(shape: sp.Expr, target: sp.Expr) -> bool:
    return sp.count_ops(shape) <= sp.count_ops(target) + 1


FORMS: dict[str, Callable[[sp.Expr, sp.Expr], bool]] = {
    "factored": _is_factored,
    "expanded": _is_expanded,
    "simplified": _is_simplified,
}


def _judge_form(found: list[Span], target: sp.Expr, form: str) -> Verdict:
    equal = [s for s in answers(found, ("result", "assigned", "stated")) if same(s.value, target)]
    for span in equal:
        shape = written(span.text, [target])
        if shape is not None and FORMS[form](shape, target):
            return Verdict(True, f"states {span.text}, equal to {target} and {form}")
    if equal:
        return Verdict(False, f"{equal[0].text} equals {target} but is not written {form}")
    return Verdict(False, f"no expression equal to {target} is stated")


# --- a line, and the values of several unknowns ------------------------------------------------


def _judge_line(reply: str, found: list[Span], target: sp.Expr, variable: str | None) -> Verdict:
    span = states(answers(found, ("result", "assigned", "stated")), target)
    if span is not None:
        return Verdict(True, f"states y = {sp.sstr(span.value)}")
    x = sp.Symbol(variable or "x")
    for left, right in relations(reply, [target]):
        difference = left - right
        others = difference.free_symbols - {x}
        if len(others) != 1:
            continue
        try:
            solved = sp.solve(difference, others.pop())
        except (NotImplementedError, ValueError, TypeError):
            continue
        if len(solved) == 1 and same(solved[0], target):
            return Verdict(True, f"states {left} = {right}, the line y = {target}")
    return Verdict(False, f"no equation of the line y = {target} is stated")


def _judge_assignments(found: list[Span], targets: list[sp.Expr], variable: str | None) -> Verdict:
    letters = [c.strip() for c in (variable or "").split(",") if c.strip()]
    if len(letters) != len(targets):
        return Verdict(False, "the expectation names no letter for each value")
    given = [(s.subject, s.value, s.text) for s in found if s.subject and s.role != "excluded"]
    for letter, target in zip(letters, targets, strict=True):
        mine = [(value, text) for c, value, text in given if c == letter and value.is_number]
        if not any(same(value, target) or close(text, target) for value, text in mine):
            return Verdict(False, f"{letter} = {target} is not stated")
        for value, text in mine:
            if not (same(value, target) or close(text, target, strict=False)):
                return Verdict(False, f"{letter} is also given {text}")
    pairs = ", ".join(f"{c} = {t}" for c, t in zip(letters, targets, strict=True))
    return Verdict(True, f"states {pairs}")


# --- the verdict -----------------------------------------------------------------------------


def _expected_values(expected: Expected) -> list[sp.Expr]:
    """The expected texts as SymPy objects (E and I are SymPy's constants there)."""
    names = {c: sp.Symbol(c) for c in string.ascii_letters if c not in "EI"}
    return [sp.sympify(text, locals=names) for text in expected.answers]


def judge(reply: str, asked_back: bool, expected: Expected, request: str = "") -> Verdict:
    """Whether the reply a person reads answers the turn as `expected` says; never raises.
    Math copied from the `request` ("the equation that had solutions 1 and 4 is ...") is
    the question restated, not an answer."""
    try:
        return _judge(reply, asked_back, expected, request)
    except Exception as error:  # a reply that breaks the judge is not a right answer
        return Verdict(False, f"could not judge the reply ({type(error).__name__})")


def _judge(reply: str, asked_back: bool, expected: Expected, request: str) -> Verdict:
    if not isinstance(reply, str) or not reply.strip():
        return Verdict(False, "the reply is empty")
    if expected.kind == "asks":
        if asked_back:
            return Verdict(True, "asks back what to do")
        return Verdict(False, "answers instead of asking back")
    if asked_back:
        return Verdict(False, "asks back instead of answering")
    targets = _expected_values(expected)
    if not targets:
        return Verdict(False, f"the expectation {expected.kind} lists no answer")
    found = spans(reply, targets, request)
    kind = expected.kind
    if kind == "roots":
        return _judge_roots(found, targets)
    if kind == "expression":
        return _judge_expression(found, targets[0])
    if kind == "antiderivative":
        return _judge_antiderivative(found, targets[0], expected.variable)
    if kind in ("value", "values"):
        return _judge_values(found, targets)
    if kind == "quantity":
        return _judge_quantities(found, targets, expected.variable)
    if kind in FORMS:
        return _judge_form(found, targets[0], kind)
    if kind == "line":
        return _judge_line(reply, found, targets[0], expected.variable)
    if kind == "assignments":
        return _judge_assignments(found, targets, expected.variable)
    return Verdict(False, f"unknown expectation kind {expected.kind!r}")
