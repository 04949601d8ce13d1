"""Calculus written around the math: ``d/dx (x^3)``, ``d²/dt² t^4``, ``integrate x^2 from 0
to 1``, ``integrate(x^2, x, 0, 1)``.

Why: asked for "the second derivative of the first polynomial", a small model sent
``{"tool": "derivative", "expression": "d/dx (q^2 + 6q + 8)"}``, and the parser read the
operator as the product ``x*(q^2 + 6q + 8)``: a wrong answer with no error. Integrals came as
``integrate p^2 - 2p - 3 from 0 to 2`` and were refused. The request already names the tool,
so the operator is redundant: it is taken off, and what it says (the variable, the order, the
bounds) is used where the call left it out, or checked against what the call says. An
operator anywhere else (a ``d/dx`` inside an integral or an evaluation) is read by the parser
as the derivative it denotes, never as a product.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import sympy as sp

from tools import limits
from tools.errors import ToolError
from tools.tokens import Token, _fail, _too_big

_ORDER_MARK = r"(?:\^\s*(?P<n>\d)|(?P<sup>[²³]))?"
# d/dx, d^2/dx^2, d²/dt², d / dq; the variable is one letter.
_DERIVATIVE_OPERATOR = re.compile(
    rf"\s*d{_ORDER_MARK}\s*/\s*d\s*(?P<var>[A-Za-z])(?:\s*\^\s*\d|[²³])?(?![A-Za-z0-9_])\s*"
)
_DERIVATIVE_WORDS = re.compile(r"\s*(?:the\s+)?(?:derivative\s+of|differentiate)\s+", re.IGNORECASE)
_INTEGRAL_WORDS = re.compile(
    r"\s*(?:the\s+)?(?:(?:definite\s+)?integral\s+of|integrate)\s+", re.IGNORECASE
)
_INTEGRAL_CALL = re.compile(r"\s*(?:integrate|integral)\s*\((?P<args>.*)\)\s*$", re.IGNORECASE)
# A bound: a number, a name, a call (`sqrt(2)`), an id (`#2[1]`), joined by * / ^ (`2*pi`).
_ATOM = r"(?:#\d+(?:\[-?\d+\])?|[\w.]+(?:\([^()]*\))?)"
_BOUND = rf"[-+]?\s*{_ATOM}(?:\s*[*/^]\s*{_ATOM})*"
# "from 0 to 2", "between 0 and 3", and with the variable named: "from w = 1 to 3",
# "from x=0 to x=2" (as people write the request, and the model copies it).
_FROM_TO = re.compile(
    rf"\s+(?:from|between)\s+(?:(?P<var>[A-Za-z])\s*=\s*)?(?P<lower>{_BOUND})\s+(?:to|and)\s+"
    rf"(?:(?P=var)\s*=\s*)?(?P<upper>{_BOUND})\s*$",
    re.IGNORECASE,
)
_SUPERSCRIPT_ORDER = {"²": 2, "³": 3}


@dataclass(frozen=True)
class Stripped:
    """The math inside the operators, and what the operators said."""

    body: str
    variable: str | None = None
    order: int = 0  # how many derivative operators were taken off (0: none)
    lower: str | None = None
    upper: str | None = None


def _unwrap(text: str) -> str:
    """``(x^2 + 1)`` -> ``x^2 + 1`` when the brackets enclose the whole text."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")") and _closes_at_end(text):
        text = text[1:-1].strip()
    return text


def _closes_at_end(text: str) -> bool:
    depth = 0
    for i, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return depth == 0


def strip_derivative(text: object) -> Stripped | None:
    """``d/dx (d/dx (E))`` -> E, variable x, order 2; None when `text` has no operator."""
    if not isinstance(text, str):
        return None
    body, variable, order = text, None, 0
    while True:
        words = _DERIVATIVE_WORDS.match(body)
        if words:
            body, order = body[words.end() :], order + 1
            continue
        match = _DERIVATIVE_OPERATOR.match(body)
        if match is None or match.end() == len(body):
            break
        n = int(match.group("n") or 0) or _SUPERSCRIPT_ORDER.get(match.group("sup") or "", 1)
        variable = variable or match.group("var")
        body, order = _unwrap(body[match.end() :]), order + n
    if order == 0:
        return None
    return Stripped(_unwrap(body), variable, order)


def strip_integral(text: object) -> Stripped | None:
    """``integrate E from a to b``, ``E from x = a to b``, ``integrate(E, x, a, b)`` -> E,
    the bounds (and the variable, when named); None when `text` has none of these."""
    if not isinstance(text, str):
        return None
    call = _INTEGRAL_CALL.match(text)
    if call:
        return _integral_call(call.group("args"))
    body, changed = text, False
    words = _INTEGRAL_WORDS.match(body)
    if words:
        body, changed = body[words.end() :], True
    lower = upper = variable = None
    bounds = written_bounds(body)
    if bounds is not None:
        body, lower, upper, variable = bounds.body, bounds.lower, bounds.upper, bounds.variable
        changed = True
    if not changed:
        return None
    return Stripped(_unwrap(body), variable, 0, lower, upper)


def written_bounds(text: str) -> Stripped | None:
    """``E from a to b`` (also "between a and b", "from x = a to x = b") -> E and its bounds;
    None when the text ends in no such words. One reader for the tool and the agent."""
    bounds = _FROM_TO.search(text)
    if bounds is None or not text[: bounds.start()].strip():
        return None
    lower, upper = (bounds.group(k).replace(" ", "") for k in ("lower", "upper"))
    return Stripped(_unwrap(text[: bounds.start()]), bounds.group("var"), 0, lower, upper)


def _integral_call(args: str) -> Stripped:
    """``E, x, 0, 1`` / ``E, x, lower=0, upper=1`` / ``E, (x, 0, 1)``."""
    parts = [_unwrap(p) for p in _split_commas(args) if p.strip()]
    if not parts:
        raise ToolError("The integral has no expression: write the expression alone.")
    # "(x, 0, 3)" is the variable and bounds in one bracket
    body, rest = parts[0], [q.strip() for p in parts[1:] for q in _split_commas(p)]
    keyed = dict(p.split("=", 1) for p in rest if "=" in p)
    plain = [p for p in rest if "=" not in p]
    variable = plain[0] if plain and re.fullmatch(r"[A-Za-z]", plain[0]) else None
    bounds = plain[1:] if variable else plain
    lower = keyed.get("lower", bounds[0] if len(bounds) == 2 else None)
    upper = keyed.get("upper", bounds[1] if len(bounds) == 2 else None)
    return Stripped(
        body, variable, 0, lower.strip() if lower else None, upper.strip() if upper else None
    )


class TokenReader(Protocol):
    """What `read_leibniz` needs of the parser: its tokens and its two grammar rules."""

    text: str
    i: int

    def peek(self, ahead: int = 0) -> Token: ...
    def take(self) -> Token: ...
    def atom(self) -> sp.Expr: ...
    def expr(self) -> sp.Expr: ...


def read_leibniz(parser: TokenReader, d: Token) -> sp.Expr | None:
    """At the letter ``d`` just read: ``d/dx (E)``, ``d²/dt² E``, ``d^2/dx^2 (E)`` read as
    the derivative of E (without brackets, of the rest of the sum; when E has no x but one
    other letter, of that letter: ``d/dx (q^2 + 6q)``); None, with nothing read, when this
    ``d`` is just a letter."""
    start = parser.i
    top = _order_mark(parser)
    over, d_again, letter = parser.peek(), parser.peek(1), parser.peek(2)
    if not (
        over.kind == "op"
        and over.value == "/"
        and d_again.kind == "name"
        and d_again.value == "d"
        and letter.kind == "name"
        and len(str(letter.value)) == 1
    ):
        parser.i = start
        return None
    parser.i += 3
    bottom = _order_mark(parser)
    if top is not None and bottom is not None and top != bottom:
        raise _fail(parser.text, f"the operator at position {over.pos} has two orders")
    order = top or bottom or 1
    if order > limits.MAX_DERIVATIVE_ORDER:
        raise _too_big(parser.text, f"derivatives go up to order {limits.MAX_DERIVATIVE_ORDER}")
    name = str(letter.value)
    if parser.peek().kind in ("end", "=", ")"):
        raise _fail(parser.text, f"nothing to differentiate after position {d.pos}")
    operand = parser.atom() if parser.peek().kind == "(" else parser.expr()
    var, letters = sp.Symbol(name), operand.free_symbols
    if var not in letters and len(letters) == 1:
        var = next(iter(letters))
    elif var not in letters and letters:
        raise _fail(parser.text, f"what follows d/d{name} at position {d.pos} has no {name}")
    result, work = operand, 0
    for _ in range(order):  # one order at a time, the work bounded: the parser has no time limit
        result = sp.diff(result, var)
        work += sp.count_ops(result)
        if work > limits.MAX_OPERATOR_OPS:
            raise _too_big(
                parser.text, f"the derivative at position {d.pos} grows too large to compute"
            )
    if result.has(sp.Derivative):
        raise _fail(parser.text, f"the derivative at position {d.pos} has no closed form")
    return result


def _order_mark(parser: TokenReader) -> int | None:
    """``²`` or ``^2`` after a ``d`` of an operator, read; None (nothing read) if absent."""
    token = parser.peek()
    if token.kind == "sup":
        parser.take()
        return int(str(token.value))
    if token.kind == "op" and token.value == "^" and parser.peek(1).kind == "num":
        parser.take()
        return int(str(parser.take().value))
    return None


def _split_commas(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


# "[x**2 for x in [-4, -3, 1]]", "sum(x for x in [-4, -3])": a list written as code.
_COMPREHENSION = re.compile(
    r"^\s*(?:(?P<fold>sum|product|prod)\s*\(\s*)?[\[(]?\s*(?P<body>.+?)\s+for\s+"
    r"(?P<var>[A-Za-z])\s+in\s+[\[(](?P<values>[^\[\]()]*)[\])]\s*[\])]?\s*\)?\s*$"
)
_LIST_LITERAL = re.compile(
    r"^\s*(?P<fold>sum|product|prod)\s*\(\s*\[(?P<values>[^\[\]]*)\]\s*\)\s*$"
)


def expand_listing(text: object) -> str | None:
    """A list written as code, as the values it means: ``[x**2 for x in [-4, 1]]`` ->
    ``(-4)**2, (1)**2``; ``sum(x for x in [-4, 1])`` -> ``sum((-4), (1))``; ``sum([-4, 1])``
    -> ``sum(-4, 1)``. None for anything else (the parser then says what it cannot read)."""
    if not isinstance(text, str):
        return None
    literal = _LIST_LITERAL.match(text)
    if literal:
        return f"{literal.group('fold')}({literal.group('values')})"
    match = _COMPREHENSION.match(text)
    if match is None:
        return None
    values = [v.strip() for v in match.group("values").split(",") if v.strip()]
    if not values:
        return None
    letter = re.compile(rf"(?<![A-Za-z_]){match.group('var')}(?![A-Za-z_])")
    body = _unwrap(match.group("body"))
    items = [letter.sub(f"({value})", body) for value in values]
    fold = match.group("fold")
    return f"{fold}({', '.join(items)})" if fold else ", ".join(items)
