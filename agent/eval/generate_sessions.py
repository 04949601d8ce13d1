"""The multi-turn session generator of the eval set: conversations that refer back.

Why a module of its own: a session is written step by step by a small state machine (`_Chat`:
the problems given so far, their names, the results made from them, and what "it" and "them"
point at), worded from one part's family (`agent.eval.wordings`). Every kind of reference
(position from the start or counted back, degree, a result, a name, the operation that made
it, a pronoun, a return after unrelated turns) is drawn in each part; `sessions_set(seed,
part)` makes one part. The draws here must keep their order, or the committed
`sessions-*.json` change.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from agent.eval.cases import EvalCase, EvalTurn, Expected
from agent.eval.generate_common import chat_text, derive, from_roots, polynomial
from agent.eval.generate_single import arithmetic
from agent.eval.wordings import Family, family

SESSIONS = 8
MIN_TURNS, MAX_TURNS = 8, 12
MIN_DEPENDENT_SHARE = 0.7  # of the judged turns of a part
PEOPLE = ("Ana", "Tom", "Priya", "Lee", "Sofia", "Kwame", "Mia", "Jonas", "Yuki", "Omar")
ORDINALS = ("first", "second", "third")
DEGREE_NAMES = {2: "quadratic", 3: "cubic", 4: "quartic"}
# Letters of the problems; names a person gives (never one of these letters).
VARIABLES = "xxxyztkmnsw"
EQUATION_NAMES = "PQRABC"
FUNCTION_NAMES = "fghpq"
# How a problem is given: plain, named ("call it P"), a function ("f(x) = ...; zeros of f"),
# chained ("h(t) = ... = 0, solve for t"); the session's index picks its first one.
FORMS = ("plain", "named", "function", "chained")
# Reference kinds drawn after the problems; the part's least used go first.
BACK_KINDS = ("ordinal", "back", "degree", "result", "name", "operation")


@dataclass
class _Problem:
    poly: sp.Expr
    var: sp.Symbol
    roots: list[sp.Expr]
    name: str | None = None  # the person's own name for it (P, or f of f(x))


@dataclass
class _Chat:
    rng: random.Random
    words: Family
    turns: list[EvalTurn] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)  # what each turn is, for balance and tests
    problems: list[_Problem] = field(default_factory=list)
    functions: dict[str, tuple[sp.Expr, sp.Symbol]] = field(default_factory=dict)
    derivative: tuple[sp.Expr, sp.Symbol] | None = None  # the one derivative asked for
    antiderivative: tuple[sp.Expr, sp.Symbol] | None = None  # (its integrand, letter)
    # What a pronoun points at: "problem" (the last one: "it" and "them"), "expression"
    # ("it": a derivative just made), "roots" ("them"), or "" (nothing).
    focus: str = ""
    focus_expr: tuple[sp.Expr, sp.Symbol] | None = None
    focus_roots: list[sp.Expr] = field(default_factory=list)
    used_names: set[str] = field(default_factory=set)

    def word(self, key: str, **slots: object) -> str:
        return self.rng.choice(self.words[key]).format(**slots)

    def say(self, kind: str, text: str, expected: Expected | None, depends: bool) -> None:
        self.kinds.append(kind)
        self.turns.append(EvalTurn(text, expected, depends))

    def new_name(self, pool: str) -> str:
        name = self.rng.choice([c for c in pool if c not in self.used_names])
        self.used_names.add(name)
        return name


# --- expectations ----------------------------------------------------------------------------


def _roots(roots: Sequence[sp.Expr], v: sp.Symbol) -> Expected:
    return Expected("roots", tuple(sp.sstr(r) for r in roots), v.name)


def _value(value: sp.Expr) -> Expected:
    return Expected("value", (sp.sstr(value),))


def _expression(expr: sp.Expr, v: sp.Symbol) -> Expected:
    return Expected("expression", (sp.sstr(expr),), v.name)


def _point(rng: random.Random) -> int:
    return rng.choice((-3, -2, -1, 1, 2, 3, 4))


def _bounds(rng: random.Random) -> tuple[int, int]:
    return rng.choice(((0, 1), (0, 2), (-1, 1), (1, 3), (-2, 0)))


def _listed(roots: Sequence[sp.Expr]) -> str:
    """`-2 and 5`, `-3, 1 and 4`."""
    texts = [sp.sstr(r) for r in roots]
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


def _property(rng: random.Random, roots: Sequence[sp.Expr]) -> tuple[str, sp.Expr]:
    """A root picked by a property that names exactly one: the positive one, the largest..."""
    options: list[tuple[str, sp.Expr]] = []
    many = len(roots) > 2
    options.append(("largest" if many else "larger", max(roots)))
    options.append(("smallest" if many else "smaller", min(roots)))
    positive, negative = [r for r in roots if r > 0], [r for r in roots if r < 0]
    if len(positive) == 1:
        options.append(("positive", positive[0]))
    if len(negative) == 1:
        options.append(("negative", negative[0]))
    return rng.choice(options)


# --- the problems ----------------------------------------------------------------------------


def _give(chat: _Chat, degree: int, form: str) -> None:
    """A new problem with distinct nonzero integer roots, no two opposite (so that squaring
    them gives as many numbers as there are roots)."""
    rng = chat.rng
    v = sp.Symbol(rng.choice([c for c in VARIABLES if c not in chat.used_names]))
    span = 5 if degree < 3 else 4
    while True:
        roots = sorted(rng.sample([n for n in range(-span, span + 1) if n], degree))
        if not any(-r in roots for r in roots):
            break
    lead = sp.Integer(rng.choice((1, 1, 1, -1, 2)))
    poly = from_roots([sp.Integer(r) for r in roots], lead, v)
    problem = _Problem(poly, v, [sp.Integer(r) for r in roots])
    p, eq = chat_text(poly), f"{chat_text(poly)} = 0"
    if form == "named":
        problem.name = chat.new_name(EQUATION_NAMES)
        text = chat.word("give-named", eq=eq, p=p, v=v.name, name=problem.name)
    elif form in ("function", "chained"):
        problem.name = chat.new_name(FUNCTION_NAMES)
        chat.functions[problem.name] = (poly, v)
        text = chat.word(f"give-{form}", p=p, v=v.name, name=problem.name)
    else:
        text = chat.word("give-plain", eq=eq, p=p, v=v.name)
    chat.used_names.add(v.name)
    chat.problems.append(problem)
    chat.say(f"give-{form}", text, _roots(problem.roots, v), False)
    chat.focus, chat.focus_roots = "problem", list(problem.roots)
    chat.focus_expr = (poly, v)


# --- asking about a problem or a result --------------------------------------------------------


def _ask_problem(chat: _Chat, problem: _Problem, ref: str, prefer_pick: bool = False) -> None:
    """One question about `problem`, which `ref` names (a reference phrase, or None for "it")."""
    rng = chat.rng
    v, poly, roots = problem.var, problem.poly, problem.roots
    actions = ["roots", "second", "value", "integral", "pick", "sum", "product", "mean", "squares"]
    if chat.derivative is None:
        actions.append("derivative")
    if chat.antiderivative is None:
        actions.append("antiderivative")
    action = "pick" if prefer_pick else rng.choice(actions)
    slots: dict[str, object] = {"ref": ref, "v": v.name}
    if action == "roots":
        expected = _roots(roots, v)
        chat.focus, chat.focus_roots = "roots", list(roots)
    elif action == "derivative":
        result = derive(poly, v)
        chat.derivative = (result, v)
        expected = _expression(result, v)
        chat.focus, chat.focus_expr = "expression", (result, v)
    elif action == "second":
        expected = _expression(derive(poly, v, 2), v)
        chat.focus = ""
    elif action == "antiderivative":
        chat.antiderivative = (poly, v)
        expected = Expected("antiderivative", (sp.sstr(poly),), v.name)
        chat.focus = ""
    elif action == "value":
        k = _point(rng)
        slots["k"] = k
        expected = _value(poly.subs(v, k))
        chat.focus = ""
    elif action == "integral":
        a, b = _bounds(rng)
        slots.update(a=a, b=b)
        expected = _value(sp.integrate(poly, (v, a, b)))
        chat.focus = ""
    elif action == "pick":
        prop, root = _property(rng, roots)
        slots["prop"] = prop
        expected = _value(root)
        chat.focus = ""
    else:
        expected = _arithmetic_on(action, roots)
        chat.focus = ""
    chat.say(f"act-{action}", chat.word(f"act-{action}", **slots), expected, True)


def _arithmetic_on(action: str, roots: Sequence[sp.Expr]) -> Expected:
    if action == "sum":
        return _value(sum(roots, sp.Integer(0)))
    if action == "product":
        return _value(sp.prod(roots))
    if action == "mean":
        return _value(sum(roots, sp.Integer(0)) / len(roots))
    squares = sorted({r**2 for r in roots}, key=int)
    return Expected("values", tuple(sp.sstr(s) for s in squares))


def _zeros_are_plain(expr: sp.Expr, v: sp.Symbol) -> bool:
    """Zeros asked for only where they are square roots at worst (degree 1 or 2)."""
    return 1 <= sp.degree(expr, v) <= 2


def _pronoun(chat: _Chat) -> bool:
    """A follow-up with "it", "that", "them" or "those" on what was just said; False when
    nothing is in focus."""
    rng = chat.rng
    if chat.focus == "problem":
        options = ["it-derivative", "it-second", "it-value", "it-integral", "them-squares"]
        options += ["them-sum", "them-product", "them-mean", "them-pick"]
        if chat.antiderivative is None:
            options.append("it-antiderivative")
        if chat.derivative is not None:
            options.remove("it-derivative")
    elif chat.focus == "expression":
        options = ["it-value", "it-integral"]
        if chat.focus_expr is not None and _zeros_are_plain(*chat.focus_expr):
            options.append("it-zeros")
    elif chat.focus == "roots":
        options = ["them-squares", "them-sum", "them-product", "them-mean", "them-pick"]
    else:
        return False
    key = rng.choice(options)
    assert chat.focus_expr is not None
    expr, v = chat.focus_expr
    slots: dict[str, object] = {"v": v.name}
    focus = ""
    if key == "it-derivative":
        result = derive(expr, v)
        chat.derivative = (result, v)
        expected = _expression(result, v)
        chat.focus_expr, focus = (result, v), "expression"
    elif key == "it-second":
        expected = _expression(derive(expr, v, 2), v)
    elif key == "it-antiderivative":
        chat.antiderivative = (expr, v)
        expected = Expected("antiderivative", (sp.sstr(expr),), v.name)
    elif key == "it-value":
        k = _point(rng)
        slots["k"] = k
        expected = _value(expr.subs(v, k))
    elif key == "it-integral":
        a, b = _bounds(rng)
        slots.update(a=a, b=b)
        expected = _value(sp.integrate(expr, (v, a, b)))
    elif key == "it-zeros":
        expected = _roots(sorted(sp.solve(expr, v), key=float), v)
    elif key == "them-pick":
        prop, root = _property(rng, chat.focus_roots)
        slots["prop"] = prop
        expected = _value(root)
    else:
        expected = _arithmetic_on(key.removeprefix("them-"), chat.focus_roots)
    chat.say(key, chat.word(key, **slots), expected, True)
    chat.focus = focus
    return True


def _ask_operation(chat: _Chat) -> bool:
    """A question about a result named by the operation that made it ("the derivative you
    computed", "that antiderivative"); False when no such result was made."""
    rng = chat.rng
    made = [m for m in ("derivative", "antiderivative") if getattr(chat, m) is not None]
    if not made:
        return False
    which = rng.choice(made)
    ref = chat.word(f"ref-{which}")
    if which == "antiderivative":
        assert chat.antiderivative is not None
        integrand, v = chat.antiderivative
        text = chat.word("act-derivative", ref=ref)
        chat.say("ref-operation:antiderivative", text, _expression(integrand, v), True)
        chat.focus = ""
        return True
    assert chat.derivative is not None
    expr, v = chat.derivative
    action = rng.choice(
        ("value", "integral", "zeros") if _zeros_are_plain(expr, v) else ("value", "integral")
    )
    slots: dict[str, object] = {"ref": ref, "v": v.name}
    if action == "value":
        slots["k"] = k = _point(rng)
        expected = _value(expr.subs(v, k))
    elif action == "integral":
        a, b = _bounds(rng)
        slots.update(a=a, b=b)
        expected = _value(sp.integrate(expr, (v, a, b)))
    else:
        expected = _roots(sorted(sp.solve(expr, v), key=float), v)
    chat.say(f"ref-operation:act-{action}", chat.word(f"act-{action}", **slots), expected, True)
    chat.focus = ""
    return True


def _refer_back(chat: _Chat, kind: str, prefer_pick: bool = False) -> bool:
    """A question about an earlier problem named by `kind`; False when `kind` cannot name one
    unambiguously here."""
    rng = chat.rng
    problems = chat.problems
    if kind == "operation":
        return _ask_operation(chat)
    if kind == "ordinal":
        index = rng.randrange(len(problems))
        ref = chat.word("ref-ordinal", ordinal=ORDINALS[index], n=index + 1)
        problem = problems[index]
    elif kind == "back":
        if len(problems) < 2:
            return False
        problem = problems[-2]
        ref = chat.word("ref-back")
    elif kind == "degree":
        problem = rng.choice(problems)
        degree = len(problem.roots)
        ref = chat.word("ref-degree", kind=DEGREE_NAMES[degree], d=degree)
    elif kind == "result":
        problem = rng.choice(problems)
        ref = chat.word("ref-result", roots=_listed(problem.roots), v=problem.var.name)
    elif kind == "name":
        named = [p for p in problems if p.name]
        fresh = [n for n in chat.functions if not any(p.name == n for p in problems)]
        if not named and not fresh:
            return False
        if fresh:  # a function defined in passing, asked again by its name
            return _name_value(chat, rng.choice(fresh))
        problem = rng.choice(named)
        if problem.name in chat.functions and rng.random() < 0.4:
            return _name_value(chat, problem.name)
        ref = chat.word("ref-name", name=problem.name)
    else:
        raise ValueError(kind)
    _ask_problem(chat, problem, ref, prefer_pick and kind == "ordinal")
    chat.kinds[-1] = f"ref-{kind}:{chat.kinds[-1]}"
    return True


def _name_value(chat: _Chat, name: str) -> bool:
    """A function the person defined, used by its name: its value at a point."""
    expr, v = chat.functions[name]
    k = _point(chat.rng)
    text = chat.word("name-value", name=name, k=k)
    chat.say("ref-name:name-value", text, _value(expr.subs(v, k)), True)
    chat.focus = ""
    return True


# --- turns in between --------------------------------------------------------------------------


def _fresh(chat: _Chat, kind: str) -> None:
    """An independent question: nothing earlier is needed to answer it."""
    rng = chat.rng
    v = sp.Symbol(rng.choice([c for c in "uvwrs" if c not in chat.used_names]))
    f = polynomial(rng, v, rng.randint(2, 3))
    if kind == "value":  # defined and asked in the same message; its name may come back
        name = chat.new_name(FUNCTION_NAMES)
        chat.functions[name] = (f, v)
        k = _point(rng)
        text = chat.word("fresh-value", name=name, v=v.name, p=chat_text(f), k=k)
        expected = _value(f.subs(v, k))
    elif kind == "derivative":
        text = chat.word("fresh-derivative", p=chat_text(f))
        expected = _expression(derive(f, v), v)
    elif kind == "integral":
        a, b = _bounds(rng)
        text = chat.word("fresh-integral", p=chat_text(f), v=v.name, a=a, b=b)
        expected = _value(sp.integrate(f, (v, a, b)))
    else:
        shown, value = arithmetic(rng, "chat", rng.randrange(6))
        text, expected = chat.word("fresh-arithmetic", e=shown), _value(value)
    chat.say(f"fresh-{kind}", text, expected, False)
    chat.focus = ""


def _aside(chat: _Chat, kind: str) -> None:
    """An introduction or a standing preference: not judged, needs nothing earlier."""
    if kind == "introduce":
        text = chat.word("introduce", person=chat.rng.choice(PEOPLE))
    else:
        text = chat.word("preference")
    chat.say(kind, text, None, False)
    chat.focus = ""


def _break(chat: _Chat, index: int) -> None:
    """One or two unrelated turns; the session's index makes every kind appear in a part."""
    rng = chat.rng
    fresh = ("value", "derivative", "integral", "arithmetic")[index % 4]
    first = rng.choice(("fresh", "introduce", "preference")) if index % 2 else "fresh"
    if first == "fresh":
        _fresh(chat, fresh)
    else:
        _aside(chat, first)
    if rng.random() < 0.3:
        _aside(chat, "preference" if first == "introduce" else "introduce")


def _resume(chat: _Chat, kind: str, prefer_pick: bool = False) -> bool:
    """After unrelated turns, a reference back, wrapped as a return to the earlier problems."""
    if not _refer_back(chat, kind, prefer_pick):
        return False
    last = chat.turns[-1]
    text = chat.word("resume", sentence=last.text)
    chat.turns[-1] = EvalTurn(text, last.expected, last.depends)
    chat.kinds[-1] = f"resume:{chat.kinds[-1]}"
    return True


# --- a session ---------------------------------------------------------------------------------


def _session(rng: random.Random, words: Family, index: int, balance: Counter[str]) -> _Chat:
    """Two or three problems of different degrees (so "the cubic" names one), pronoun
    follow-ups after each, unrelated turns, then references back of several kinds."""
    chat = _Chat(rng, words)
    degrees = rng.sample((2, 3, 4), rng.choice((2, 2, 3)))
    forms = [FORMS[index % len(FORMS)], *(rng.choice(FORMS) for _ in degrees[1:])]
    for i, (degree, form) in enumerate(zip(degrees, forms, strict=True)):
        if i and rng.random() < 0.2:
            _break(chat, index + i)
        _give(chat, degree, form)
        for _ in range(rng.choice((1, 1, 2))):
            _pronoun(chat)
    _break(chat, index)  # then the first reference back is a return to the problems
    kinds = sorted(BACK_KINDS, key=lambda k: (balance[k], rng.random()))
    resumed = False
    for kind in kinds[: rng.randint(3, 5)]:
        wants_pick = kind == "ordinal" and index % 2 == 0
        if not resumed and kind != "operation":
            resumed = _resume(chat, kind, wants_pick)
        elif not _refer_back(chat, kind, prefer_pick=wants_pick):
            continue
        if rng.random() < 0.4:
            _pronoun(chat)
    return chat


def _dependent_share(turns: Sequence[EvalTurn]) -> float:
    judged = [t for t in turns if t.expected is not None]
    return sum(t.depends for t in judged) / len(judged) if judged else 0.0


def session_kinds(seed: int, part: str) -> list[list[str]]:
    """What each turn of each session of a part is (`give-named`, `ref-back:act-sum`...)."""
    return [chat.kinds for chat in _sessions(seed, part)]


def _sessions(seed: int, part: str) -> list[_Chat]:
    rng = random.Random(f"{seed}:sessions:{part}")
    words = family("sessions", part)
    chats: list[_Chat] = []
    balance: Counter[str] = Counter()
    while len(chats) < SESSIONS:
        chat = _session(rng, words, len(chats), balance)
        if not MIN_TURNS <= len(chat.turns) <= MAX_TURNS:
            continue
        if _dependent_share(chat.turns) < MIN_DEPENDENT_SHARE:
            continue
        if any(chat.turns == other.turns for other in chats):
            continue
        chats.append(chat)
        for kind in chat.kinds:
            for back in BACK_KINDS:
                if f"ref-{back}" in kind:
                    balance[back] += 1
    return chats


def sessions_set(seed: int, part: str) -> list[EvalCase]:
    """One part of `sessions` for one seed."""
    return [
        EvalCase(
            name=f"sessions-{part}-{seed}-{i:02d}",
            category="chain",
            wording="chat",
            turns=tuple(chat.turns),
        )
        for i, chat in enumerate(_sessions(seed, part))
    ]
