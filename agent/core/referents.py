"""Earlier polynomials a request names ("the first polynomial", "the equation before last",
"the cubic from before", "the polynomial itself"), each bound to the one it means.

Why: shown the list of solved equations labelled first/last/cubic (`equation_index`), the
1.5B model still took the wrong one for about one such request in two on the full `sessions`
set: "the second derivative of the first polynomial" differentiated the latest one, "the
equation before the last one" repeated the previous answer, "integrate the polynomial
itself" integrated the derivative just found. Matching a phrase to a line is one more step
than it takes reliably; read here, each phrase comes with its polynomial written out.

What counts: equations are the ones `solve` answered; polynomials are those and every
expression a derivative or integral was asked of that no earlier tool returned (the math the
person brought, not a result nor the model's reading of a name). A phrase is bound only
when the chat holds exactly what it names (no third equation in a chat of two, no cubic
among quadratics); otherwise nothing is said about it, and the model reads the request as it
is. A bare "the polynomial" or "that equation" names the latest, unless the request writes
math or a precise phrase names one; "it" right after a derivative is that derivative when
the request asks for its value ("plug a = -1 into it").

"Their" and "them" right after roots were found ("what are their squares?"), or after a
request for an earlier equation's roots, are shown as those roots, all of them: the model
squared one of three, or added the squares, or took the latest equation's after "the roots of
the first equation?". A call that still works on other math, or leaves some roots out, is
questioned once (`referent_fit`).

Measured on the full `sessions` set (window), with the tools' reading of `d/dx (...)` that
this made the model write (`tools.operators`): 97/107 dependent turns right, 87/107 before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import sympy as sp

from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from tools.errors import ToolError
from tools.formatting import exact
from tools.inputs import choose_variable, keep, read_variable
from tools.parsing import parse

_KIND_OF_DEGREE = {1: "linear", 2: "quadratic", 3: "cubic", 4: "quartic", 5: "quintic"}
_DEGREE_OF_KIND = {kind: degree for degree, kind in _KIND_OF_DEGREE.items()}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
}  # fmt: skip
_KIND = r"(?:linear|quadratic|cubic|quartic|quintic)"
_NOUN = rf"(?:equation|polynomial|poly|{_KIND})"
_ORDINAL = "|".join(_ORDINALS)
_LATEST = r"(?:last|latest|previous|most\s+recent|newest)"
_BEFORE_LAST = (
    r"(?:penultimate|second[- ](?:to|from)[- ](?:the[- ])?last|last[- ]but[- ]one|"
    r"one[- ]before[- ](?:the[- ])?last|previous[- ]but[- ]one)"
)
# "the first polynomial", "the second cubic equation", "the last quadratic", "the
# penultimate equation", "the equation before the last one", "the cubic (from before)",
# "the original polynomial", "the polynomial itself".
_PHRASE = re.compile(
    rf"\b(?:the|my|your|that)\s+(?:very\s+)?"
    rf"(?:(?P<ord>{_ORDINAL})|(?P<latest>{_LATEST})|(?P<before_last>{_BEFORE_LAST})|"
    rf"(?P<original>original|initial|starting))?\s*"
    rf"(?P<kind>{_KIND}\s+)?(?P<noun>{_NOUN})s?\b"
    rf"(?P<after>\s+(?:before\s+(?:the\s+)?last(?:\s+one)?|itself)\b)?",
    re.IGNORECASE,
)
# "the largest root of <phrase>", "the smallest solution of ...".
_EXTREME_ROOT = re.compile(
    r"\b(?P<which>largest|greatest|biggest|highest|smallest|least|lowest)\s+"
    r"(?:real\s+)?(?:root|solution|zero)\s+(?:of|for|from)\s+(?P<rest>.*)",
    re.IGNORECASE,
)
_LARGEST = {"largest", "greatest", "biggest", "highest"}
# "their squares", "square each of them", "add those up": several things at once.
_PLURAL = re.compile(r"\b(their|them|those|these|both)\b", re.IGNORECASE)
# A request about roots found before ("their sum", "add the solutions").
_ON_ROOTS = re.compile(
    r"\b(?:their|them|those|these|both|roots?|solutions?|zeros|zeroes)\b", re.IGNORECASE
)
# "f(1)", "g(-2)", "h(1/2)": a value in function notation, with the function left undefined.
FUNCTION_VALUE = re.compile(
    r"(?<![A-Za-z])(?P<name>[A-Za-z])\(\s*(?P<point>-?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?)\s*\)"
)
# A value of "it" or "that": "plug a = -1 into it", "substitute x = 2 in that", "evaluate it
# at t = 3", "what is it at x = 1?".
_VALUE_OF_IT = re.compile(
    r"\b(?:plug|substitute|sub|put|insert)\b.*\b(?:into|in)\s+(?P<a>it|that)\b"
    r"|\b(?:evaluate|compute|calculate)\s+(?P<b>it|that)\b"
    r"|\b(?P<c>it|that)\s+(?:at|when|for)\s+[A-Za-z]\s*=",
    re.IGNORECASE,
)
# "a = -1", "x=1/2": the point of such a request.
_POINT = re.compile(
    r"(?<![A-Za-z])(?P<var>[A-Za-z])\s*=\s*(?P<value>-?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?)(?![\d.])"
)
# Math a request writes itself: an equation, or a variable or number with an operator.
_OWN_MATH = re.compile(r"=|\d\s*[-+*/^]\s*[\w(]|[A-Za-z]\s*[\^*]\s*\d")


@dataclass(frozen=True)
class Polynomial:
    """A polynomial the person brought: from an equation `solve` answered (with its roots),
    or an expression a derivative or integral was asked of."""

    expr: sp.Expr
    variable: sp.Symbol | None
    # As the person or the model wrote it: "q^2 + 6q + 8", not SymPy's "q**2 + 6*q + 8".
    written: str
    equation: str | None = None
    roots: tuple[sp.Expr, ...] = ()
    roots_text: str | None = None

    @property
    def kind(self) -> str | None:
        if self.variable is None or not self.expr.is_polynomial(self.variable):
            return None
        return _KIND_OF_DEGREE.get(sp.Poly(self.expr, self.variable).degree())

    @property
    def text(self) -> str:
        """The polynomial as written: an equation's left side when its right side is 0."""
        side, equals, rest = self.written.partition("=")
        if not equals:
            return " ".join(side.split())
        if rest.strip() == "0" and "=" not in rest:
            return " ".join(side.split())
        return exact(self.expr).replace("**", "^")


@dataclass(frozen=True)
class Binding:
    """One phrase of the request and the polynomial it names."""

    phrase: str
    polynomial: Polynomial
    # "the largest root of ...": that root, when the request asks for it.
    extreme_root: tuple[str, sp.Expr] | None = None
    # "their", "them": the phrase names the roots of the polynomial, not the polynomial.
    roots_only: bool = False
    # "f(1) for the cubic": the function's name and the point, when the request asks so.
    function_value: tuple[str, str] | None = None
    # "plug a = -1 into it": "it" is the result found last ("the derivative found last"),
    # and the point the request gives in its letter.
    result_of: str | None = None
    point: str | None = None

    def line(self) -> str:
        p = self.polynomial
        if self.result_of is not None:
            text = f'- "{self.phrase}" is {p.text}, {self.result_of}'
            if self.point is not None:
                text += f"\n- so the request asks for the value of {p.text} at {self.point}"
            return text
        if self.roots_only:
            count = len(p.roots)
            return (
                f'- "{self.phrase}" are the {count} roots of the equation {p.equation}: '
                f"{p.roots_text}"
            )
        origin = f"from the equation {p.equation}" if p.equation else "brought by the user"
        roots = f"; roots {p.roots_text}" if p.roots_text else ""
        text = f'- "{self.phrase}" is {p.text} ({origin}{roots})'
        if self.extreme_root is not None:
            which, value = self.extreme_root
            text += f'\n- the {which} root of "{self.phrase}" is {exact(value)}'
        if self.function_value is not None and p.variable is not None:
            name, point = self.function_value
            text += (
                f"\n- so {name}({p.variable}) = {p.text}, and {name}({point}) is its value at "
                f"{p.variable} = {point}"
            )
        return text


def _read(text: str, variable: object) -> tuple[sp.Expr, sp.Symbol | None] | None:
    """`text` as the tools read it (an equation as lhs - rhs), and its variable."""
    try:
        name = read_variable(variable)
        parsed = parse(text, keep(name), "The input")
        expr = parsed.lhs - (parsed.rhs if parsed.rhs is not None else sp.S.Zero)
        var = choose_variable(expr.free_symbols, name, "read", "expression")
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    if not isinstance(expr, sp.Expr) or not expr.free_symbols:
        return None
    return sp.expand(expr), var


def _roots(text: str) -> tuple[sp.Expr, ...]:
    """The real roots in a solve result such as "x = -3, x = -2"."""
    found = []
    for part in re.findall(r"=\s*([^,;≈]+)", text):
        try:
            value = parse(part.strip(), (), "A root").lhs
        except (ToolError, ValueError, TypeError, RecursionError):
            continue
        if isinstance(value, sp.Expr) and not value.free_symbols and value.is_real:
            found.append(value)
    return tuple(found)


def polynomials(conversation: list[Message]) -> list[Polynomial]:
    """Every polynomial of the chat in order: each solved equation, and each expression a
    derivative or integral was asked of that is no earlier tool result nor seen before.

    A call made for a request that names an earlier polynomial and writes no math of its own
    brings nothing new: its math is the model's reading of that name. Seen with `ledger`: the
    model differentiated a wrong expression for "the first polynomial", and that expression
    then became "the last polynomial" of the next request."""
    calls = {m.call_id: m for m in conversation if isinstance(m, ToolCall)}
    found: list[Polynomial] = []
    results: list[sp.Expr] = []  # what tools returned: derived, not brought
    names_earlier = False  # the current request names an earlier polynomial, writing no math
    for message in conversation:
        if isinstance(message, UserMessage):
            names_earlier = bool(_phrases(message.text, found)) and not _OWN_MATH.search(
                message.text
            )
        if not (isinstance(message, ToolResultMessage) and message.ok):
            continue
        call = calls.get(message.call_id)
        if call is None or call.tool not in ("solve", "derivative", "integral"):
            continue
        key = "equation" if call.tool == "solve" else "expression"
        read = _read(str(call.arguments.get(key) or ""), call.arguments.get("variable"))
        if read is not None:
            expr, var = read
            written = str(call.arguments.get(key))
            known = any(same_expression(expr, other.expr) for other in found) or any(
                same_expression(expr, r) for r in results
            )
            if call.tool == "solve" and not any(
                same_expression(expr, other.expr) for other in found
            ):
                roots = _roots(message.text)
                found.append(Polynomial(expr, var, written, written, roots, message.text))
            elif call.tool != "solve" and not known and not names_earlier:
                found.append(Polynomial(expr, var, written))
        if call.tool != "solve":
            results.extend(result_math(message.text, call.arguments.get("variable")))
    return found


def result_math(text: str, variable: object) -> list[sp.Expr]:
    """The expression a derivative or integral returned ("4*x + 4"; a definite value is no
    polynomial and is skipped by `_read`)."""
    head = text.split(" = ")[-1].split("≈")[0].split(";")[0].strip()
    read = _read(re.sub(r"\s*\+\s*C$", "", head), variable)
    return [read[0]] if read is not None else []


def same_expression(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal once expanded (False when SymPy cannot tell)."""
    try:
        return sp.expand(a - b) == 0
    except (TypeError, ValueError, RecursionError):
        return False


def bind(request: str, conversation: list[Message]) -> list[Binding]:
    """The phrases of `request` that name one earlier polynomial, each with it."""
    chat = polynomials(conversation)
    bindings = _phrases(request, chat) if chat else []
    if not bindings and chat:
        bindings.extend(_plural_roots(request, conversation, chat))
    if not bindings:
        bindings.extend(_latest_result(request, conversation))
    return bindings


def _phrases(request: str, chat: list[Polynomial]) -> list[Binding]:
    bindings: list[Binding] = []
    matches = list(_PHRASE.finditer(request))
    # "the polynomial of the penultimate equation": a bare phrase defers to a precise one.
    precise = [m for m in matches if not _is_bare(m) and _named(m, chat, bare=False)]
    bare = not precise and not _OWN_MATH.search(request)
    for match in matches:
        named = _named(match, chat, bare=bare)
        if named is None:
            continue
        phrase = " ".join(match.group(0).split())
        extreme = _extreme_root(request, match, named)
        bindings.append(Binding(phrase, named, extreme))
    if len(bindings) == 1 and (value := _function_value(request)) is not None:
        bindings[0] = replace(bindings[0], function_value=value)
    return bindings


def _function_value(request: str) -> tuple[str, str] | None:
    """ "what's f(1) for the cubic from before?": the function's name and the point. Small
    models sent `f(1)` alone, with no definition, and then asked the user for it. Only one
    such value per request (two name different functions, or the same at two points: the
    model reads those as they are)."""
    found = list(FUNCTION_VALUE.finditer(request))
    if len(found) != 1:
        return None
    return found[0].group("name"), "".join(found[0].group("point").split())


def _previous_request(request: str, conversation: list[Message]) -> str | None:
    """The request before `request` (which may already be the conversation's last)."""
    asked = [m.text for m in conversation if isinstance(m, UserMessage)]
    if asked and asked[-1] == request:
        asked.pop()
    return asked[-1] if asked else None


def _plural_roots(
    request: str, conversation: list[Message], chat: list[Polynomial]
) -> list[Binding]:
    """ "what are their squares?", "add them up" right after roots were found: "their" are
    those roots, all of them (the model squared one root of three, or added the squares).
    Only while the latest math of the chat is that solve and arithmetic on its roots: after a
    derivative, "them" may be anything."""
    plural = _PLURAL.search(request)
    if plural is None or _OWN_MATH.search(request):
        return []
    # "remind me: the roots of the first equation?" then "what are their squares?"
    previous = _previous_request(request, conversation)
    for earlier in _phrases(previous or "", chat):
        if len(earlier.polynomial.roots) >= 2 and earlier.polynomial.equation:
            return [Binding(plural.group(1).lower(), earlier.polynomial, roots_only=True)]
    calls: dict[str, tuple[ToolCall, str]] = {}  # each call and the request it was made for
    asked = ""
    for message in conversation:
        if isinstance(message, UserMessage):
            asked = message.text
        elif isinstance(message, ToolCall):
            calls[message.call_id] = (message, asked)
    for message in reversed(conversation):
        if not (isinstance(message, ToolResultMessage) and message.ok):
            continue
        if message.call_id not in calls:
            continue
        call, asked = calls[message.call_id]
        if call.tool == "evaluate" and not call.arguments.get("at") and _ON_ROOTS.search(asked):
            continue  # "their sum": arithmetic on the roots, which are still "them"
        if call.tool != "solve":
            return []
        solved = [p for p in chat if p.equation == str(call.arguments.get("equation"))]
        if solved and len(solved[-1].roots) >= 2:
            return [Binding(plural.group(1).lower(), solved[-1], roots_only=True)]
        return []
    return []


def _latest_result(request: str, conversation: list[Message]) -> list[Binding]:
    """ "plug a = -1 into it" right after a derivative or antiderivative was found: "it" is
    that result (a constant too), with the point in its letter. Seen on every strategy: the
    model evaluated the polynomial instead of its derivative, or answered the derivative
    again with no tool run. Only when the previous request's last tool found it: after
    anything else, "it" may be anything."""
    match = _VALUE_OF_IT.search(request)
    if match is None:
        return []
    phrase = next(g for g in match.groups() if g is not None).lower()
    asked = [i for i, m in enumerate(conversation) if isinstance(m, UserMessage)]
    if asked and conversation[asked[-1]].text == request:
        asked.pop()  # the request itself may already be in the conversation
    if not asked:
        return []
    end = next(
        (
            i
            for i in range(asked[-1] + 1, len(conversation))
            if isinstance(conversation[i], UserMessage)
        ),
        len(conversation),
    )
    turn = conversation[asked[-1] : end]
    calls = {m.call_id: m for m in turn if isinstance(m, ToolCall)}
    results = [m for m in turn if isinstance(m, ToolResultMessage) and m.ok and m.call_id in calls]
    if not results:
        return []
    call = calls[results[-1].call_id]
    if call.tool not in ("derivative", "integral") or call.arguments.get("lower") is not None:
        return []
    found = _result_value(results[-1].text)
    if found is None:
        return []
    letters = sorted(found.free_symbols, key=str)
    differentiated = _read(
        str(call.arguments.get("expression") or ""), call.arguments.get("variable")
    )
    var = letters[0] if len(letters) == 1 else (differentiated[1] if differentiated else None)
    point = None
    points = list(_POINT.finditer(request))
    if len(points) == 1 and var is not None and points[0].group("var") == var.name:
        point = f"{var.name} = {''.join(points[0].group('value').split())}"
    kind = "derivative" if call.tool == "derivative" else "antiderivative"
    written = exact(found).replace("**", "^")
    polynomial = Polynomial(found, var, written)
    return [Binding(phrase, polynomial, result_of=f"the {kind} found last", point=point)]


def _result_value(text: str) -> sp.Expr | None:
    """What a derivative or antiderivative returned, a constant too ("... = 2")."""
    head = text.split(" = ")[-1].split("≈")[0].split(";")[0].split(" (for")[0].strip()
    try:
        value = parse(re.sub(r"\s*\+\s*C$", "", head), (), "A result").lhs
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    return value if isinstance(value, sp.Expr) else None


def _is_bare(match: re.Match[str]) -> bool:
    """ "the polynomial", "that equation": no position, kind or "itself" said."""
    said = ("ord", "latest", "before_last", "original", "kind", "after")
    return match.group("noun").lower() not in _DEGREE_OF_KIND and not any(
        match.group(g) for g in said
    )


def _named(match: re.Match[str], chat: list[Polynomial], bare: bool) -> Polynomial | None:
    """The polynomial a phrase names; `bare`: whether "the polynomial" alone may name the
    latest one (not when the request writes math: "the polynomial x^3 + 2x")."""
    noun = match.group("noun").lower()
    kind = (match.group("kind") or "").strip().lower() or (noun if noun in _DEGREE_OF_KIND else "")
    after = " ".join((match.group("after") or "").lower().split())
    # Kinds name solved equations ("the cubic from before" is not the 2r^3 just integrated).
    solved = [p for p in chat if p.equation is not None]
    pool = solved if noun == "equation" or kind else chat
    if kind:
        pool = [p for p in pool if p.kind == kind]
    if not pool:
        return None
    if match.group("ord"):
        position = _ORDINALS[match.group("ord").lower()]
        return pool[position - 1] if position <= len(pool) else None
    if match.group("before_last") or after.startswith("before"):
        return pool[-2] if len(pool) >= 2 else None
    if match.group("latest") or match.group("original") or after == "itself":
        return pool[-1]
    # "the cubic", "the cubic from before": a kind names the latest of that kind. A bare
    # "the polynomial", "that polynomial", "the equation" is the latest one: "the second
    # derivative of the polynomial?" after a quartic was solved and its roots squared was
    # done on a made-up expression, "the derivative of that polynomial" on an older one.
    return pool[-1] if kind or bare else None


def _extreme_root(
    request: str, match: re.Match[str], named: Polynomial
) -> tuple[str, sp.Expr] | None:
    """ "the largest root of <this phrase>": that root, when its roots are real numbers."""
    for extreme in _EXTREME_ROOT.finditer(request):
        if extreme.start("rest") != match.start() or not named.roots:
            continue
        which = extreme.group("which").lower()
        pick = max if which in _LARGEST else min
        value = pick(named.roots, key=lambda root: float(root))
        return which, value
    return None
