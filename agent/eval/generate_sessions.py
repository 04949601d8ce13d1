"""The multi-turn session generators of the eval set: conversations that refer back.

Why a module of its own: a session is written step by step by a small state machine
(`_Chat`: what "it", "that" and "them" refer to at each point), which has nothing in common
with the single questions but the shared pieces in `generate_common`. `sessions_set` makes the
"sessions" set; the draws here must keep their order, or the committed `sessions.json` changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import sympy as sp

from agent.eval.cases import EvalCase, EvalTurn, Expected
from agent.eval.generate_common import chat_text, derive, from_roots, polynomial

SESSIONS = 14


@dataclass
class _Equation:
    poly: sp.Expr
    var: sp.Symbol
    roots: list[sp.Expr]


@dataclass
class _Chat:
    """A conversation being written: what "it", "that" and "them" refer to at this point."""

    rng: random.Random
    turns: list[EvalTurn] = field(default_factory=list)
    shape: list[str] = field(default_factory=list)
    equations: list[_Equation] = field(default_factory=list)
    last: str = ""  # "roots", "expression" (of `focus_expr`), "value", or "" (nothing to refer to)
    focus_expr: sp.Expr | None = None
    focus_roots: list[sp.Expr] = field(default_factory=list)

    def say(self, step: str, text: str, expected: Expected | None, depends: bool) -> None:
        self.shape.append(step)
        self.turns.append(EvalTurn(text, expected, depends))

    def pick(self, *texts: str) -> str:
        return self.rng.choice(texts)

    @property
    def equation(self) -> _Equation:
        return self.equations[-1]


def _roots_expected(roots: Sequence[sp.Expr], v: sp.Symbol) -> Expected:
    return Expected("roots", tuple(sp.sstr(r) for r in roots), v.name)


def _value(value: sp.Expr) -> Expected:
    return Expected("value", (sp.sstr(value),))


def _point(rng: random.Random) -> int:
    return rng.choice((-3, -2, -1, 1, 2, 3, 4))


def _solve(chat: _Chat, degree: int) -> None:
    """A monic polynomial with distinct nonzero integer roots, no two opposite (so that
    "square each of them" gives as many numbers as there are roots)."""
    rng = chat.rng
    v = sp.Symbol(rng.choice("xxxyzt" + "abkmnpqrsuw"))
    span = 5 if degree < 3 else 4
    while True:
        roots = sorted(rng.sample([n for n in range(-span, span + 1) if n], degree))
        if not any(-r in roots for r in roots):
            break
    poly = from_roots([sp.Integer(r) for r in roots], sp.Integer(1), v)
    eq = f"{chat_text(poly)} = 0"
    text = chat.pick(
        f"solve {eq}", f"what are the roots of {chat_text(poly)}?", f"{eq}, solve for {v}"
    )
    chat.equations.append(_Equation(poly, v, [sp.Integer(r) for r in roots]))
    chat.say("solve", text, _roots_expected(chat.equation.roots, v), False)
    chat.last, chat.focus_roots = "roots", list(chat.equation.roots)


def _derivative(chat: _Chat) -> None:
    e = chat.equation
    text = chat.pick(
        "now its derivative", "differentiate it", "what's the derivative of that polynomial?"
    )
    chat.focus_expr = derive(e.poly, e.var)
    chat.say(
        "derivative", text, Expected("expression", (sp.sstr(chat.focus_expr),), e.var.name), True
    )
    chat.last = "expression"


def _evaluate_that(chat: _Chat) -> None:
    e, k = chat.equation, _point(chat.rng)
    assert chat.focus_expr is not None
    text = chat.pick(
        f"evaluate that at {e.var} = {k}",
        f"what's that at {e.var} = {k}?",
        f"plug {e.var} = {k} into it",
    )
    chat.say("evaluate", text, _value(chat.focus_expr.subs(e.var, k)), True)
    chat.last = "value"


def _integrate_original(chat: _Chat) -> None:
    e = chat.equation
    a, b = chat.rng.choice(((0, 1), (0, 2), (-1, 1), (1, 3)))
    text = chat.pick(
        f"integrate the original polynomial from {a} to {b}",
        f"now integrate the polynomial itself from {e.var} = {a} to {b}",
    )
    chat.say("integrate", text, _value(sp.integrate(e.poly, (e.var, a, b))), True)
    chat.last = "value"


def _second_derivative(chat: _Chat) -> None:
    e = chat.equation
    text = chat.pick(
        "and the second derivative of the polynomial?", "what's its second derivative?"
    )
    chat.focus_expr = derive(e.poly, e.var, 2)
    chat.say("second", text, Expected("expression", (sp.sstr(chat.focus_expr),), e.var.name), True)
    chat.last = "expression"


def _recall_roots(chat: _Chat) -> None:
    e = chat.equation
    text = chat.pick(
        "what were the roots again?", "remind me of the roots", "which roots did you find?"
    )
    chat.say("recall", text, _roots_expected(e.roots, e.var), True)
    chat.last, chat.focus_roots = "roots", list(e.roots)


def _square_them(chat: _Chat) -> None:
    text = chat.pick("square each of them", "what are their squares?", "and the squares of those?")
    squares = sorted({r**2 for r in chat.focus_roots}, key=int)
    chat.say("square", text, Expected("values", tuple(sp.sstr(s) for s in squares)), True)
    chat.last = "value"


def _sum_them(chat: _Chat) -> None:
    text = chat.pick("add them up", "what's their sum?", "and their product?")
    product = "product" in text
    total = sp.prod(chat.focus_roots) if product else sum(chat.focus_roots, sp.Integer(0))
    chat.say("product" if product else "sum", text, _value(total), True)
    chat.last = "value"


# After a step, which steps may follow within the same block (pronouns stay unambiguous).
_FOLLOW_UPS: dict[str, tuple[Callable[[_Chat], None], ...]] = {
    "roots": (_derivative, _square_them, _sum_them, _second_derivative),
    "expression": (_evaluate_that, _integrate_original),
    "value": (_recall_roots, _integrate_original),
}


def _block(chat: _Chat, degree: int, follow_ups: int) -> None:
    """Solve a new equation, then ask about it without naming it again."""
    _solve(chat, degree)
    used: list[Callable[[_Chat], None]] = []
    for _ in range(follow_ups):
        options = [s for s in _FOLLOW_UPS.get(chat.last, ()) if s not in used]
        if not options:
            return
        step = chat.rng.choice(options)
        used.append(step)
        step(chat)


def _introduce(chat: _Chat) -> None:
    name = chat.rng.choice(("Ana", "Tom", "Priya", "Lee", "Sofia", "Kwame", "Mia", "Jonas"))
    text = chat.pick(f"I'm {name}, by the way", f"btw my name is {name}", f"thanks! I'm {name}")
    chat.say("name", text, None, False)
    chat.last = ""


def _fresh(chat: _Chat) -> None:
    """An independent question between blocks: nothing earlier is needed to answer it."""
    rng = chat.rng
    kind = rng.randrange(4)
    v = sp.Symbol(rng.choice("uvwrs"))
    f = polynomial(rng, v, rng.randint(2, 3))
    if kind == 0:
        a, b, c = rng.randint(3, 12), rng.randint(3, 12), rng.randint(2, 30)
        text, expected = f"unrelated: what's {a}*{b} - {c}?", _value(sp.Integer(a * b - c))
    elif kind == 1:
        text = f"quick one: differentiate {chat_text(f)}"
        expected = Expected("expression", (sp.sstr(derive(f, v)),), v.name)
    elif kind == 2:
        a, b = sorted(rng.sample(range(-2, 4), 2))
        text = f"also, integrate {chat_text(f)} from {a} to {b}"
        expected = _value(sp.integrate(f, (v, a, b)))
    else:
        k = _point(rng)
        text = f"separate question: if h({v}) = {chat_text(f)}, what is h({k})?"
        expected = _value(f.subs(v, k))
    chat.say(f"fresh-{kind}", text, expected, False)
    chat.last = ""  # a block or an introduction follows, never a pronoun


def _degree_name(degree: int) -> str:
    return {1: "linear one", 2: "quadratic", 3: "cubic", 4: "quartic"}[degree]


def _back_reference(chat: _Chat, kind: int) -> None:
    """A turn naming an earlier equation by position or by degree ("the first equation")."""
    rng = chat.rng
    first, before_last, last = chat.equations[0], chat.equations[-2], chat.equations[-1]
    chat.last = ""
    if kind == 0:
        text = chat.pick(
            "what were the roots of the first equation again?",
            "remind me: the roots of the first equation?",
        )
        chat.say("ref-roots", text, _roots_expected(first.roots, first.var), True)
        chat.last, chat.focus_roots = "roots", list(first.roots)
        if rng.random() < 0.6:
            _square_them(chat)
    elif kind == 1:
        result = derive(first.poly, first.var, 2)
        expected = Expected("expression", (sp.sstr(result),), first.var.name)
        chat.say("ref-second", "and the second derivative of the first polynomial", expected, True)
    elif kind == 2:
        e, k = rng.choice(chat.equations), _point(rng)
        text = f"what's f({k}) for the {_degree_name(len(e.roots))} from before?"
        chat.say("ref-value", text, _value(e.poly.subs(e.var, k)), True)
    elif kind == 3:
        text = chat.pick(
            "go back to the equation before the last one: what's its derivative?",
            "differentiate the polynomial of the equation before last",
        )
        result = derive(before_last.poly, before_last.var)
        expected = Expected("expression", (sp.sstr(result),), before_last.var.name)
        chat.say("ref-before-last", text, expected, True)
    else:
        text = "plug the largest root of the first equation into the last polynomial"
        chat.say("ref-plug", text, _value(last.poly.subs(last.var, max(first.roots))), True)


def _session(rng: random.Random) -> _Chat:
    """Two or three blocks (a different degree each, so "the cubic" names one), an optional
    introduction and independent questions between them, then back-references."""
    chat = _Chat(rng)
    degrees = rng.sample((2, 3, 4), rng.choice((2, 2, 3)))
    introduce_at = rng.choice((0, 1, None))
    for i, degree in enumerate(degrees):
        if i and rng.random() < 0.5:
            _fresh(chat)
        if i == introduce_at:
            _introduce(chat)
        _block(chat, degree, rng.randint(2, 3))
    for kind in rng.sample(range(5), rng.randint(1, 3)):
        _back_reference(chat, kind)
    return chat


def _depends_share(turns: Sequence[EvalTurn]) -> float:
    judged = [t for t in turns if t.expected is not None]
    return sum(t.depends for t in judged) / len(judged)


def sessions_set(seed: int) -> list[EvalCase]:
    rng = random.Random(f"{seed}:sessions")
    cases: list[EvalCase] = []
    shapes: list[list[str]] = []
    while len(cases) < SESSIONS:
        chat = _session(rng)
        if not 8 <= len(chat.turns) <= 15 or _depends_share(chat.turns) < 0.6:
            continue
        if chat.shape in shapes:
            continue
        shapes.append(chat.shape)
        cases.append(
            EvalCase(
                name=f"session-{len(cases):02d}",
                category="chain",
                wording="chat",
                turns=tuple(chat.turns),
            )
        )
    return cases
