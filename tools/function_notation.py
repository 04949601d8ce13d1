"""Function notation for the tools: ``g(t) = 3t^2 - t``, ``g(-2)``, whole worded questions.

Why a module of its own: small models copy a question as it is worded ("Let n(m) = m**3 + 7.
What is n(-7)?") or split it between ``expression`` and ``at`` ("g(t) = ..." at "g(-2)"), with
any letter for the function and the variable. The plain parser reads ``g(-2)`` as ``g*(-2)``
(so ``2(x+1)`` and ``x(x-1)`` stay products); here a text is cut into clauses (at ``,`` ``;``
``?``, a sentence's ``.``, ``and``, ``at t =``), leading words ("Let", "What is") are dropped,
definitions ``name(params) = body`` are kept apart, and only names defined in the same input
are read as calls. :func:`read` returns None for a text without any of this, so such input
goes through the tools' usual path unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

import sympy as sp

from tools import limits
from tools.bounds import check_power
from tools.errors import LimitError, ParseError, ToolError
from tools.parsing import _Parser, parse_name
from tools.tokens import Token, _fail, _shown, _too_big, tokenize
from tools.vocabulary import _CODE_WORDS, CONSTANTS, FUNCTIONS

_Read = TypeVar("_Read")

#: Largest expression (in tree nodes) that substituting definitions into each other may build.
MAX_NODES = 20_000

_NAME = r"[^\W\d_]\w*"
DEFINITION = re.compile(
    rf"(?s)\s*(?P<name>[A-Za-z]\w*)\s*\(\s*(?P<params>{_NAME}(?:\s*,\s*{_NAME})*)\s*\)\s*"
    r"=(?!=)(?P<body>.*)"
)
_LEAD_WORDS = (
    "let|lets|suppose|given|assume|if|define|consider|take|then|now|and|also|so|that|we|have|"
    "give|what|whats|is|are|calculate|compute|determine|evaluate|find|get|work|out|the|value|"
    "values|of|at|for|when|where|with|me|please|tell|show|result|answer|differentiate|"
    "integrate|derivative|integral|antiderivative|first|second|third|function|polynomial"
)
_LEAD = re.compile(rf"(?i)(?:(?:{_LEAD_WORDS})(?:'s)?\s+)+")
_RESPECT = re.compile(rf"(?i)\s+(?:with\s+respect\s+to|wrt)\s+(?P<var>{_NAME})\s*$")
_WORD_SEPARATOR = re.compile(
    rf"(?i)\s+and\s+|\s+(?:at|when|where|for|with)\s+(?={_NAME}\s*(?:\([^()]*\)\s*)?=)"
)
_NEW_STATEMENT = re.compile(
    rf"(?i)\s*(?:(?:{_LEAD_WORDS})\s|[A-Za-z]\w*\s*\(\s*{_NAME}(?:\s*,\s*{_NAME})*\s*\)\s*=)"
)


@dataclass(frozen=True)
class Function:
    """A definition ``name(params) = body`` read from the input."""

    name: str
    params: tuple[sp.Symbol, ...]
    body: sp.Expr

    def call(self, args: Iterable[sp.Expr]) -> str:
        """How a call is shown: ``g(-2)``, ``h(2, 3)``."""
        return f"{self.name}({', '.join(sp.sstr(a) for a in args)})"


@dataclass
class Target:
    """One thing to compute: a defined function (maybe at the call's point) or an expression."""

    expr: sp.Expr
    function: Function | None = None
    point: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    label: str | None = None


@dataclass
class Reading:
    """What an input said: its definitions, what to compute, values it gave itself."""

    functions: dict[str, Function]
    targets: list[Target]
    values: list[tuple[str, sp.Expr]]
    keep: set[str]
    respect: str | None = None


class _CallParser(_Parser):
    """The usual parser, except that ``name(...)`` of a defined function is a call."""

    def __init__(self, text: str, tokens: list[Token], functions: Mapping[str, Function]) -> None:
        super().__init__(text, tokens)
        self.functions = functions

    def atom(self) -> sp.Expr:
        token = self.peek()
        if token.kind == "name" and self.peek(1).kind == "(":
            function = self.functions.get(str(token.value))
            if function is not None:
                self.take()
                return apply(function, self.arguments(), self.text)
        return super().atom()

    def arguments(self) -> list[sp.Expr]:
        opener = self.take()
        if self.peek().kind == ")":
            raise _fail(self.text, f"empty brackets at position {opener.pos}")
        args = [self.expr()]
        while self.peek().kind == ",":
            self.take()
            args.append(self.expr())
        self.expect(")", opener)
        return args


def apply(function: Function, args: list[sp.Expr], text: str = "") -> sp.Expr:
    """``function`` at ``args``, with the parser's size checks on every power it rebuilds."""
    if len(args) != len(function.params):
        wanted = ", ".join(p.name for p in function.params)
        raise ParseError(
            f"{function.name} takes {len(function.params)} value(s) ({wanted}), not {len(args)}."
        )
    result = substitute(function.body, dict(zip(function.params, args, strict=True)), text)
    for count, node in enumerate(sp.preorder_traversal(result)):
        if count > MAX_NODES:
            raise _too_big(text, "the definitions expand to an expression too large to work with")
        if isinstance(node, sp.Pow):
            check_power(node.base, node.exp, text)  # powers SymPy merged: (x^10)^10 = x^100
    return result


def substitute(expr: sp.Expr, mapping: dict[sp.Symbol, sp.Expr], text: str = "") -> sp.Expr:
    """``expr`` with symbols replaced, refusing a power or factorial that would be huge."""
    keys = set(mapping)

    def walk(node: sp.Basic) -> sp.Basic:
        if node in mapping:
            return mapping[node]  # type: ignore[index]
        if not node.args or not (node.free_symbols & keys):
            return node
        args = [walk(arg) for arg in node.args]
        if isinstance(node, sp.Pow):
            check_power(args[0], args[1], text)  # type: ignore[arg-type]
        big = isinstance(node, (sp.factorial, sp.gamma)) and args[0].is_Rational
        if big and abs(args[0]) > limits.MAX_FACTORIAL:  # type: ignore[operator]
            raise _too_big(text, f"factorials are limited to {limits.MAX_FACTORIAL}")
        return node.func(*args)

    return walk(expr)  # type: ignore[return-value]


# A name in prime notation before its argument: f'(q), g''(t), h′(x).
_PRIMED = re.compile(r"(?<![\w'′])(?P<name>[A-Za-z])(?P<primes>'+|′+)(?=\s*\()")


def unprimed(text: str) -> str:
    """``f'(q) = 3q^2 + 1`` -> ``f_prime(q) = 3q^2 + 1``: a model names the derivative it found
    so, and the quote stopped the parser ("quotes are not allowed"), which the model then
    passed on to the person as a question."""

    def renamed(match: re.Match[str]) -> str:
        primes = len(match["primes"])
        return f"{match['name']}_prime{primes if primes > 1 else ''}"

    return _PRIMED.sub(renamed, text)


def read(text: object, variable: str | None, at: object = None) -> Reading | None:
    """The input's definitions, targets and values; None when it uses no function notation."""
    if not isinstance(text, str) or not text.strip():
        return None
    text = unprimed(text)
    clauses, respect = _clauses(text)
    if not clauses:
        return None
    definitions = [m for m in map(DEFINITION.fullmatch, clauses) if m and is_definition(m)]
    at_names = _assigned_names(at)
    keep = {n for n in (variable, respect) if n} | at_names
    for match in definitions:
        keep |= {match["name"]} | {parse_name(p) for p in match["params"].split(",")}
    if clauses == [text.strip()] and not definitions:
        _refuse_undefined_call(text, keep, variable, at_names, at)
        at_name = call_name(at, keep)
        if at_name is None or at_name in _free_names(text, keep):
            return None
    return guarded(text, lambda: _read_clauses(clauses, keep, variable, at, respect))


def _read_clauses(
    clauses: list[str], keep: set[str], variable: str | None, at: object, respect: str | None
) -> Reading:
    """Each clause is a definition, a value (``t = -2``) or something to compute."""
    functions: dict[str, Function] = {}
    targets: list[Target] = []
    values: list[tuple[str, sp.Expr]] = []
    for clause in clauses:
        match = DEFINITION.fullmatch(clause)
        if match and is_definition(match):
            function = define(match, keep, functions)
            if function is not None:
                functions[function.name] = function
                continue
        _refuse_undefined_call(clause, keep, variable, _assigned_names(at), at, functions)
        call = read_call(clause, keep, functions)
        if call is not None:
            targets.append(_call_target(functions[call[0]], call[1], clause))
            continue
        lhs, rhs = parse_clause(clause, keep, functions)
        if rhs is not None and isinstance(lhs, sp.Symbol) and not rhs.free_symbols:
            values.append((lhs.name, rhs))
        elif rhs is not None and isinstance(lhs, sp.Symbol) and lhs not in rhs.free_symbols:
            targets.append(Target(rhs, label=_shown(clause)))
        elif rhs is not None:
            raise ParseError(
                f"'{_shown(clause)}' is an equation; the tools need an expression such as "
                f"'{sp.sstr(lhs - rhs)}' (or use the solve tool)."
            )
        else:
            targets.append(Target(lhs, label=_shown(clause)))
    return Reading(functions, targets, values, keep, respect)


def _call_target(function: Function, args: list[sp.Expr], clause: str) -> Target:
    """``g(-2)`` is g with a point; ``g(t)`` (its own variables) is g itself."""
    if all(not a.free_symbols for a in args):
        point = dict(zip(function.params, args, strict=True))
        return Target(function.body, function, point, _shown(clause))
    if tuple(args) == function.params:
        return Target(function.body, function)
    return Target(apply(function, args, clause), label=_shown(clause))


def define(match: re.Match[str], keep: set[str], known: dict[str, Function]) -> Function | None:
    """A definition's function; None when the name appears on the right (an equation)."""
    name = match["name"]
    params = tuple(sp.Symbol(parse_name(p, keep)) for p in match["params"].split(","))
    body, rhs = parse_clause(match["body"], keep - {name}, known)
    if rhs is not None:
        raise ParseError(f"The definition of {name} has more than one '=': {_shown(match[0])}.")
    if any(s.name == name for s in body.free_symbols):
        return None
    return Function(name, params, body)


def is_definition(match: re.Match[str]) -> bool:
    """``name(params) = body`` with a fresh name that the body does not use."""
    name = match["name"]
    params = [p.strip() for p in match["params"].split(",")]
    if (
        name in FUNCTIONS
        or (name in CONSTANTS and len(name) > 1)  # e(a) = ... defines e; pi(a) = ... does not
        or name in _CODE_WORDS
        or name in params
        or len(set(params)) != len(params)
        or not match["body"].strip()
    ):
        return False
    try:
        tokens = tokenize(match["body"], {name, *params})
    except ToolError:
        return True  # the body's own parse error is the one to report
    return all(t.value != name for t in tokens if t.kind == "name")


def read_call(
    text: object, keep: set[str], functions: Mapping[str, Function], any_name: bool = False
) -> tuple[str, list[sp.Expr]] | None:
    """``(name, args)`` when ``text`` is one call ``name(args)`` of a defined function.

    With ``any_name`` a name not defined (but not a known function) also counts.
    """
    name = call_name(text, keep)
    if name is None or not (any_name or name in functions):
        return None
    assert isinstance(text, str)
    parser = _CallParser(text, tokenize(text, keep | {name}), functions)
    parser.i = 1
    args = parser.arguments()
    parser.expect_end()
    return name, args


def call_name(text: object, keep: set[str]) -> str | None:
    """The name in ``name(...)`` when the whole text is one such call (any name not built in)."""
    if not isinstance(text, str) or "(" not in text:
        return None
    try:
        tokens = tokenize(text, keep | _head(text))
    except ToolError:
        return None
    if len(tokens) < 4 or tokens[0].kind != "name" or tokens[1].kind != "(":
        return None
    depth = 0
    for index, token in enumerate(tokens[1:-1], start=1):
        depth += {"(": 1, ")": -1}.get(token.kind, 0)
        if depth == 0:
            return str(tokens[0].value) if index == len(tokens) - 2 else None
    return None


def _head(text: str) -> set[str]:
    """The word before a leading ``(``, to keep whole (never a built-in name)."""
    match = re.match(r"\s*([A-Za-z]\w*)\s*\(", text)
    name = match.group(1) if match else ""
    return {name} if name and name not in FUNCTIONS and name not in CONSTANTS else set()


def _refuse_undefined_call(
    text: str,
    keep: set[str],
    variable: str | None,
    at_names: set[str],
    at: object,
    functions: Mapping[str, Function] | None = None,
) -> None:
    """Raise for a lone call ``g(-2)`` / ``g(t)`` of a function the input never defines.

    Read as a product it would give a puzzling "no value for g"; the model needs to hear that
    the definition is missing. ``x(x-1)`` and a name ``at`` assigns stay products.
    """
    name = call_name(text, keep)
    if name is None or name == variable or name in at_names or name in (functions or {}):
        return
    try:
        _, args = read_call(text, keep, functions or {}, any_name=True) or ("", [])
    except ToolError:
        return
    names = [a.name for a in args if isinstance(a, sp.Symbol)]
    closed = all(not a.free_symbols for a in args)
    if not args or not (
        closed or (len(names) == len(args) == len(set(names)) and name not in names)
    ):
        return
    call = f"{name}({', '.join(sp.sstr(a) for a in args)})"
    if functions:
        raise ToolError(
            f"{call} calls {name}, but the expression defines only {', '.join(functions)}."
        )
    if closed:
        letters = (
            [variable or ("t" if name == "x" else "x")]
            if len(args) == 1
            else ["x", "y", "z", "w"][: len(args)]
        )
        point = sp.sstr(args[0]) if len(args) == 1 else call
        raise ToolError(
            f"{call} needs {name}'s definition: send expression "
            f"'{name}({', '.join(letters)}) = ...' with at '{point}'."
        )
    shown = _shown(at) if isinstance(at, str) and at.strip() else "the point"
    raise ToolError(
        f"{call} needs {name}'s definition: send expression '{call} = ...' with at '{shown}'."
    )


def parse_clause(
    text: str, keep: set[str], functions: Mapping[str, Function]
) -> tuple[sp.Expr, sp.Expr | None]:
    """One clause, calls of ``functions`` resolved."""
    if not text.strip():
        raise ParseError("The expression has an empty part: check the commas and full stops.")
    return _CallParser(text, tokenize(text, keep), functions).equation()


def _free_names(text: str, keep: set[str]) -> set[str]:
    """Variables of a plain text (none when it does not parse: its own error comes later)."""
    try:
        lhs, rhs = _Parser(text, tokenize(text, keep)).equation()
    except Exception:
        return set()
    return {s.name for s in (lhs.free_symbols | (rhs.free_symbols if rhs is not None else set()))}


def _assigned_names(at: object) -> set[str]:
    """Names ``at`` gives values to; the parser keeps them whole (``rate=2``)."""
    if isinstance(at, Mapping):
        return {k.name if isinstance(k, sp.Symbol) else str(k).strip() for k in at}
    if isinstance(at, str) and "=" in at:
        return {part.split("=")[0].strip() for part in at.split(",") if "=" in part}
    return set()


def _clauses(text: str) -> tuple[list[str], str | None]:
    """Top-level pieces of ``text``, each without leading words; and a 'with respect to' name."""
    pieces: list[str] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        cut = _separator(text, i) if depth <= 0 else 0
        if cut:
            pieces.append(text[start:i])
            i += cut
            start = i
            continue
        i += 1
    pieces.append(text[start:])
    clauses, respect = [], None
    for piece in pieces:
        found = _RESPECT.search(piece)
        if found:
            respect = parse_name(found["var"])
            piece = piece[: found.start()]
        lead = _LEAD.match(piece.strip())
        rest = piece.strip()[lead.end() :] if lead else ""
        if lead and rest and rest[0] not in "+*/^=)!,.":
            piece = rest
        if piece.strip():
            clauses.append(piece.strip())
    return clauses, respect


def _separator(text: str, i: int) -> int:
    """Length of the clause separator starting at ``text[i]``, or 0."""
    ch = text[i]
    if ch in ",;?":
        return 1
    if ch == "." and (i + 1 == len(text) or text[i + 1].isspace()):
        return 1
    if ch == "\n" and _NEW_STATEMENT.match(text, i + 1):
        return 1
    if ch.isspace():
        match = _WORD_SEPARATOR.match(text, i)
        return match.end() - i if match else 0
    return 0


def guarded(text: str, read_all: Callable[[], _Read]) -> _Read:
    """Run the reader with the same protections as ``tools.parsing.parse``."""
    try:
        return read_all()
    except (ParseError, LimitError, ToolError):
        raise
    except RecursionError:
        raise _too_big(text, "it is nested too deeply") from None
    except MemoryError:
        raise _too_big(text, "it is too large to build") from None
    except Exception as exc:
        detail = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise _fail(text, f"SymPy cannot build it ({detail})") from None


def read_expression(
    text: object, variable: str | None, tool: str
) -> tuple[sp.Expr, str | None] | None:
    """For derivative and integral: the expression a definition gives, and its variable.

    None when the text uses no function notation (the tool's usual reading applies).
    """
    reading = read(text, variable)
    if reading is None:
        return None
    if reading.values:
        given = ", ".join(f"{k} = {sp.sstr(v)}" for k, v in reading.values)
        raise ToolError(
            f"The {tool} tool works on the whole function, without a point ({given}): drop it "
            "and evaluate the result afterwards."
        )
    if len(reading.targets) > 1:
        raise ToolError(f"Give the {tool} tool one expression at a time.")
    if reading.targets:
        target = reading.targets[0]
    else:
        last = list(reading.functions.values())[-1]
        target = Target(last.body, last)
    function = target.function
    if target.point and function is not None:
        raise ToolError(
            f"{target.label} is one number; send the function itself "
            f"('{function.call(function.params)} = ...') to the {tool} tool."
        )
    expr = target.expr
    if variable is None and reading.respect is not None:
        variable = reading.respect
    elif variable is None and function is not None and len(function.params) == 1:
        variable = function.params[0].name
    return expr, variable
