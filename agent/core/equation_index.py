"""The equations a chat has solved, labelled by position and kind, shown with the request.

Why: a 1.5B model reads "the roots of the first equation", "the polynomial of the equation
before last" or "f(4) for the cubic from before" against a long history of raw tool calls and
picks the wrong one, or lists every root of the chat for "what were the roots again?" (on the
full `sessions` eval set, 28 of its 35 misses). Counting back through the history is what it
cannot do; matching "first", "before last" or "cubic" to a line labelled so, it can. This is
presentation, not interpretation: the list is every solved equation, the same whatever the
request says, and the model decides what the request means. Measured there: 85/107 dependent
turns right with it, 72/107 without, the same seconds per turn.

It is shown only with a request that names an earlier task by position ("the first
equation", "before last", "two questions back", read by `agent.context.references`, the
ledger's reader) other than the previous one, names an equation by the kind the index
labels ("the cubic"). A request for roots found earlier and named no other way ("what were
the roots again?", "which roots did you find?") is shown the latest equation alone: the model
answered those with the first equation's roots, the prompt's example chat's, or, shown the
whole list, every root of the chat (full `sessions` set, 8 such misses of 17). Measured on the full `sessions` set, shown with every request it
fixed 16 such turns and broke 18 others: "evaluate that", "add them up", "differentiate it"
mean the latest result, and a list of equations next to them drew the model away from it. It
also costs seconds: the request it is shown with differs from the one stored, so the next turn
re-reads from there (p50 7.7 s -> 11.5 s per turn when shown every time).

A request whose phrases name earlier polynomials outright ("the first polynomial", "the
equation before the last one", "the cubic") is shown those phrases bound instead
(`agent.core.referents`): with the list, the model still matched the wrong line.

The index is built from the whole conversation (the transcript: what a strategy folded away
too), once per turn, and added in front of the open request in what the model is shown; it is
never stored. Built once per turn, it keeps every call of the turn on the same prompt prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import sympy as sp

from agent import wire
from agent.context.references import by_kind_ordinal, by_position
from agent.core.recall import finished_lines
from agent.core.referents import bind
from agent.messages import Message, ToolCall, ToolResultMessage
from tools.errors import ToolError
from tools.inputs import choose_variable, keep, read_variable
from tools.parsing import parse

# An index longer than this keeps the latest equations (a long session solves many).
MAX_EQUATIONS = 8
# Root lists beyond this are cut: the index names the equation, the tool result has the rest.
MAX_ROOTS_CHARS = 120
_KINDS = {1: "linear", 2: "quadratic", 3: "cubic", 4: "quartic", 5: "quintic"}
_WORDS = re.compile(r"[a-z]+")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_EARLIER_ROOTS = re.compile(r"\b(?:roots?|solutions?|zero(?:e)?s)\b(?!\s+(?:of|for|to)\b)", re.I)
# Math a request writes itself: an equation, or a variable or number with an operator.
_OWN_MATH = re.compile(r"=|\d\s*[-+*/^]\s*[\w(]|[A-Za-z]\s*[\^*]\s*\d|\b[a-z]\s*[-+]\s*\d")


@dataclass(frozen=True)
class SolvedEquation:
    """One successful `solve` call: the equation as sent, its variable, the tool's roots."""

    equation: str
    variable: str | None
    roots: str

    @property
    def kind(self) -> str | None:
        """The polynomial kind, e.g. "quadratic in x"; None when that cannot be told (the
        parser bounds exponents, so the degree is cheap to find)."""
        try:  # read as the solve tool reads it
            name = read_variable(self.variable)
            parsed = parse(self.equation, keep(name), "The equation")
            expr = parsed.lhs - (parsed.rhs if parsed.rhs is not None else sp.S.Zero)
            var = choose_variable(expr.free_symbols, name, "solve for", "equation")
        except (ToolError, ValueError, TypeError, RecursionError):
            return None  # with several letters and none named, this does not guess which
        if var is None or var not in expr.free_symbols:
            return None
        if not expr.is_polynomial(var):
            return None
        degree = sp.Poly(expr, var).degree()
        name = _KINDS.get(degree, f"degree {degree}")
        return f"{name} in {var.name}"


def solved_equations(conversation: list[Message]) -> list[SolvedEquation]:
    """Every equation `solve` answered in `conversation`, first to last, each once."""
    calls = {m.call_id: m for m in conversation if isinstance(m, ToolCall) and m.tool == "solve"}
    found: list[SolvedEquation] = []
    seen: set[str] = set()
    for message in conversation:
        if not (isinstance(message, ToolResultMessage) and message.ok):
            continue
        call = calls.get(message.call_id)
        equation = str(call.arguments.get("equation") or "").strip() if call else ""
        key = " ".join(equation.split())
        if not equation or key in seen:
            continue
        seen.add(key)
        variable = call.arguments.get("variable") if call else None
        roots = message.text if len(message.text) <= MAX_ROOTS_CHARS else "(see the tool result)"
        found.append(SolvedEquation(equation, str(variable) if variable else None, roots))
    return found


def _position(index: int, count: int) -> str:
    """Every word that points at the `index`-th of `count`: "second, before last"."""
    words = [_ORDINALS[index] if index < len(_ORDINALS) else f"#{index + 1}"]
    if count > 1 and index == count - 2:
        words.append("before last")
    if index == count - 1:
        words.append("last" if count > 1 else "the only one")
    return ", ".join(words)


def names_an_earlier_task(request: str, conversation: list[Message]) -> bool:
    """Does `request` name a finished task other than the previous one by its position?"""
    lines = finished_lines(conversation)
    current = len(lines) + 1
    named = by_position(request, current) | by_kind_ordinal(request, lines)
    return bool(named - {current - 1})


def asks_for_earlier_roots(request: str) -> bool:
    """ "what were the roots again?", "which roots did you find?", "add the solutions": roots
    found earlier. Not "the roots of the derivative" (roots of something: a new task, or one
    named by position, read above) nor a request that writes math of its own."""
    return bool(_EARLIER_ROOTS.search(request)) and not _OWN_MATH.search(request)


def equation_index(conversation: list[Message], request: str) -> str | None:
    """The note shown with `request`: each earlier polynomial the request names, bound to it
    (`agent.core.referents`); else the index. None before any equation is solved, and for a
    request that names no earlier task by position, no equation by its kind and no earlier
    roots."""
    bindings = bind(request, conversation)
    if bindings:
        return "\n".join([wire.REFERENTS_HEADER, *(binding.line() for binding in bindings)])
    equations = solved_equations(conversation)
    if not equations:
        return None
    far = names_an_earlier_task(request, conversation)
    kind_words = set(_WORDS.findall(request.lower())) & set(_KINDS.values())
    if not far and not kind_words:
        if asks_for_earlier_roots(request):
            return _last_equation_text(equations[-1])
        return None  # nothing to show: no equation parsed (this runs on every turn)
    kinds = [eq.kind for eq in equations]
    if not far and not any(kind and kind.split(" in ")[0] in kind_words for kind in kinds):
        return _last_equation_text(equations[-1]) if asks_for_earlier_roots(request) else None
    return _index_text(equations, kinds)


def _last_equation_text(equation: SolvedEquation) -> str:
    kind = equation.kind
    label = "last" + (f"; {kind}" if kind else "")
    line = wire.equation_index_line(label, equation.equation, equation.roots)
    return "\n".join([wire.LAST_EQUATION_HEADER, line])


def _index_text(equations: list[SolvedEquation], kinds: list[str | None]) -> str:
    shown = len(equations) - MAX_EQUATIONS
    lines = [
        wire.equation_index_line(
            _position(i, len(equations)) + (f"; {kind}" if kind else ""), eq.equation, eq.roots
        )
        for i, (eq, kind) in enumerate(zip(equations, kinds, strict=True))
        if i >= shown
    ]
    return "\n".join([wire.EQUATION_INDEX_HEADER, *lines])
