"""The math a person wrote in a message, read as notation by the tools' parser.

Why lexical and not linguistic: which words are English is not decided by a list of phrases
but by what the parser can read. A word is math when it holds a digit, an operator, a bracket
or a math symbol, or when it is a single letter, a name the parser knows (sin, sqrt, pi) or
two letters an operator stands beside (`xy` in `x^2 + xy + y^2`);
a word of letters stays a word inside brackets ("(metres,"). Maximal runs of such words are
parsed, without the units written after their numbers or in brackets after them
(`agent.workspace.units`: `52 cm²` is a measurement, not `52*c*m^2`); Leibniz's `dy/dx` and
`d/dx` are operations, and cut the runs they stand in (the math beside them is kept); a run
of bare numbers and lone letters with no operator ("a 20 m platform") is prose. What parses
and is more than a bare number or letter becomes a candidate item: an equation, an
expression, or a definition (`h(t) = ...`, a chain `h(t) = ... = 0`, or a named expression
`P = x^2 - 1`), or an inequality (`x^2 - 4 > 0`, not a condition such as `t >= 0`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

import sympy as sp

from agent.workspace.units import SYMBOLS, without_units
from tools.errors import ToolError
from tools.inequalities import RELATION, written
from tools.parsing import parse
from tools.vocabulary import CONSTANTS, FUNCTIONS, GREEK_NAMES

CapturedKind = Literal["equation", "expression", "function", "inequality"]

# Characters that make a word math: digits, operators, relations, brackets, powers, roots, pi.
_MATH_CHARS = re.compile(r"[\d+\-*/^=<>≤≥()²³⁴⁵⁶⁷⁸⁹√π·×−]")
_WORD = re.compile(r"\S+")
# Operators a word of letters may stand beside as a factor; those that never start a number.
_OPERATORS = frozenset("+-*/^=<>−")
_AFTER_A_FACTOR = frozenset("*/^=<>")
# Punctuation that ends a sentence or a clause, stripped from the edges of a run.
_EDGE = ",;:?!\"'“”"
_DEFINITION_HEAD = re.compile(
    r"^\s*([A-Za-z]\w*)\s*\(\s*([A-Za-z]\w*(?:\s*,\s*[A-Za-z]\w*)*)\s*\)\s*$"
)
_NAME_HEAD = re.compile(r"^\s*([A-Za-z])\s*$")
# Three letters or more that no function, constant or Greek name spells: a word, not math.
_LETTERS = re.compile(r"[A-Za-z]{3,}")
_NAMES = frozenset(FUNCTIONS) | frozenset(CONSTANTS) | GREEK_NAMES
_LABEL = re.compile(r"[A-Z]")
_CALL = re.compile(r"(?<![A-Za-z\w])([A-Za-z]\w*)'*\s*\(")
_TRAILING_LABEL = re.compile(r"(?<=[\w)])\s+([A-Z])$")
# Leibniz's notation for a derivative, `dy/dx`, `d/dx`, `d²y/dx²`, `d^2/dt^2`: an operation
# on the math beside it, never a product of letters to keep. The math it applies to is read
# as written (`d/dx (x^3)` holds x^3), and so is the math it is said to equal (`dy/dx = 3x^2`).
_LEIBNIZ = re.compile(
    r"(?<![A-Za-z0-9_])d(?:\^?\d+|[²³])?(?:[A-Za-z])?\s*/\s*d[A-Za-z](?:\^?\d+|[²³])?"
    r"(?![A-Za-z0-9_])(?:\s*=(?!=))?"
)
# A function's inverse written as people do, `f^-1(x)`, `f^(-1)(2)`, `f⁻¹(x)`: an operation
# on a function, never `x/f`; it cuts its run as Leibniz's notation does (`_inverse_cut`).
_INVERSE = re.compile(r"(?<![\w'])([A-Za-z]\w*)\s*(?:\^\s*\(\s*-\s*1\s*\)|\^\s*-\s*1|⁻¹)(?=\s*\()")
# A run of bare numbers and lone letters with no operator ("a 20 m platform"): prose with a
# number in it, not notation (math written with spaces has an operator: `2 x + 1`).
_BARE_WORD = re.compile(r"^(?:\d+(?:\.\d+)?|[A-Za-z])$")
# An ordinal written with digits (`1st`, `2nd`, `23rd`, `4th`): a word of place, never the
# product of a number and letters (`2*n*d`).
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)", re.IGNORECASE)
# The longest run read; chat math is short (the tools accept 2,000 characters).
_MAX_RUN = 400


@dataclass(frozen=True)
class Captured:
    """One piece of math a person wrote; `body` is SymPy text (an equation as `lhs = rhs`)."""

    kind: CapturedKind
    body: str
    name: str | None = None
    params: tuple[str, ...] = ()


def _is_math_word(word: str) -> bool:
    core = word.strip(_EDGE + ".")
    if not core:
        return False
    bare = core.lstrip("(").rstrip(")")
    if _ORDINAL.fullmatch(bare):
        return False
    if len(bare) > 1 and bare.isalpha() and bare not in _NAMES:
        return False  # "(metres," or "seconds)": a word in an aside, however bracketed
    if _MATH_CHARS.search(core):
        return True
    if len(core) == 1 and core.isalpha():
        return True
    return core in FUNCTIONS or core in CONSTANTS


def _between_operators(words: list[str], i: int) -> bool:
    """A two-letter word an operator stands beside (`x^2 + xy + y^2`, `ab = 4`): a product of
    two letters, not an English word (those stand between words and numbers)."""
    word = words[i].strip(_EDGE)
    if len(word) != 2 or not word.isalpha() or word in SYMBOLS:
        return False
    before = words[i - 1] if i > 0 else ""
    after = words[i + 1] if i + 1 < len(words) else ""
    # a sign glued to what follows (`is -5t^2`) is not an operator beside the word
    return before[-1:] in _OPERATORS or after in _OPERATORS or after[:1] in _AFTER_A_FACTOR


def math_runs(text: str) -> list[str]:
    """Maximal runs of math words, cut at the end of a sentence."""
    runs: list[str] = []
    current: list[str] = []
    words = _WORD.findall(text)
    for i, word in enumerate(words):
        if _is_math_word(word) or _between_operators(words, i):
            current.append(word)
            ends_sentence = word.endswith((".", "?", "!", ";")) and not re.search(r"\d\.$", word)
            if ends_sentence or word.endswith((",", ":")):
                runs.append(" ".join(current))
                current = []
        elif current:
            runs.append(" ".join(current))
            current = []
    if current:
        runs.append(" ".join(current))
    cleaned = [run.strip().strip(_EDGE).rstrip(".").strip() for run in runs]
    return [
        piece for run in cleaned for piece in _label_apart(run) if piece and len(piece) <= _MAX_RUN
    ]


def _label_apart(run: str) -> tuple[str, ...]:
    """`3y - 12 = 0 R`: a capital letter after the math, apart and with no operator before
    it, is a label beside the math, not a factor of its last number."""
    match = _TRAILING_LABEL.search(run)
    return (run,) if match is None else (run[: match.start()].strip(), match.group(1))


def _read(text: str) -> sp.Expr | tuple[sp.Expr, sp.Expr] | None:
    if any(word not in _NAMES for word in _LETTERS.findall(text)):
        return None  # "(solve):" is a word in brackets; the parser would multiply its letters
    try:
        parsed = parse(text)
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    if parsed.definition is not None:
        return None  # read by `_definition` instead
    return parsed.lhs if parsed.rhs is None else (parsed.lhs, parsed.rhs)


def _nontrivial(expr: sp.Expr) -> bool:
    """More than a number or a lone letter: something a person would point back at."""
    return bool(expr.free_symbols) and not isinstance(expr, sp.Symbol)


def _definition(head: str, body: str) -> Captured | None:
    match = _DEFINITION_HEAD.match(head)
    if match is None:
        return None
    name = match.group(1)
    if name in FUNCTIONS:
        return None
    params = tuple(p.strip() for p in match.group(2).split(","))
    value = _read(body)
    if value is None or isinstance(value, tuple):
        return None
    if name in {s.name for s in value.free_symbols}:
        return None
    return Captured("function", sp.sstr(value), name, params)


def _named(head: str, body: sp.Expr) -> Captured | None:
    """`P = x^2 - 1`: a letter naming an expression of other letters."""
    match = _NAME_HEAD.match(head)
    if match is None or not _nontrivial(body):
        return None
    name = match.group(1)
    if name in CONSTANTS or name in {s.name for s in body.free_symbols}:
        return None
    params = tuple(sorted(s.name for s in body.free_symbols))
    return Captured("function", sp.sstr(body), name, params if len(params) == 1 else ())


def _is_a_variable_of(letter: str, known: Mapping[str, str]) -> bool:
    """Whether `letter` is a variable in the body of a function defined so far."""
    used = re.compile(rf"(?<![A-Za-z_]){re.escape(letter)}(?![A-Za-z_0-9])")
    return any(used.search(body) for body in known.values())


def _calls_a_name(run: str, known: Mapping[str, str]) -> bool:
    """`g(-2)`, `f'(3)`: a use of a defined function, not new math (`x(x - 1)` is a product
    unless x names a function; a longer name is never a product)."""
    for match in _CALL.finditer(run):
        name = match.group(1)
        if name not in FUNCTIONS and (len(name) > 1 or name in known or "'" in match.group(0)):
            return True
    return False


def _from_run(run: str, known: Mapping[str, str]) -> list[Captured]:
    """`known`: the bodies of the functions defined so far, by name."""
    words = run.split()
    if len(words) > 1 and all(_BARE_WORD.match(word) for word in words):
        return []
    run = without_units(run).strip()  # a unit in brackets where the run was cut: `(m,`
    if RELATION.search(run):
        return _inequality(run, known)
    parts = [p.strip() for p in run.split("=")]
    head = _DEFINITION_HEAD.match(parts[0]) if len(parts) == 2 else None
    # The zeros of h are h's own: `h(t) = 0` and `h(t) = ... = 0` add no item besides h.
    if head is not None and head.group(1) in known:  # h(t) = 5 for a known h: an equation
        value = _read(parts[1])
        if value is None or isinstance(value, tuple) or value == 0:
            return []
        return [Captured("equation", f"{known[head.group(1)]} = {sp.sstr(value)}")]
    if len(parts) >= 2 and (defined := _definition(parts[0], parts[1])) is not None:
        found = [defined]
        if len(parts) == 3:  # h(t) = body = value: the definition and the equation
            rhs = _read(parts[2])
            if rhs is not None and not isinstance(rhs, tuple) and rhs != 0:
                found.append(Captured("equation", f"{defined.body} = {sp.sstr(rhs)}"))
        return found
    if len(parts) > 3 or _calls_a_name(run, known):
        return []
    if len(parts) == 3:  # a = b = c: keep the last equation of the chain
        run = f"{parts[1]} = {parts[2]}"
    value = _read(run)
    if value is None:
        return []
    if isinstance(value, tuple):
        lhs, rhs = value
        if isinstance(lhs, sp.Symbol) and _is_a_variable_of(lhs.name, known):
            return []  # `t = 2` or `t = 2 s` for a known s(t): a point (with its unit)
        if (named := _named(run.split("=")[0], rhs)) is not None:
            return [named]
        if isinstance(lhs, sp.Symbol) and not rhs.free_symbols:
            return []  # `x = 3`: a point, not an equation
        if not (lhs - rhs).free_symbols:
            return []
        return [Captured("equation", f"{sp.sstr(lhs)} = {sp.sstr(rhs)}")]
    return [Captured("expression", sp.sstr(value))] if _nontrivial(value) else []


def _inequality(run: str, known: Mapping[str, str]) -> list[Captured]:
    """`x^2 - 4 > 0`, `-1 < 2x + 3 <= 7`: an inequality with more than a letter and a number
    on its sides (`t >= 0` and `0 <= x <= 5` say where a letter lives: no item); a definition
    it starts with (`f(x) = x^2 - 4 > 0`) is captured too."""
    pieces = RELATION.split(run)
    sides, relations = pieces[0::2], pieces[1::2]
    found: list[Captured] = []
    if "=" in sides[0]:
        head, _, body = sides[0].partition("=")
        if (defined := _definition(head, body)) is None:
            return []
        found, sides[0] = [defined], body
    if len(sides) > 3 or any("=" in side or _calls_a_name(side, known) for side in sides):
        return found
    values = [_read(side) for side in sides]
    exprs = [v for v in values if isinstance(v, sp.Expr)]
    if len(exprs) != len(sides) or not any(_nontrivial(e) for e in exprs):
        return found
    return [*found, Captured("inequality", written(exprs, relations))]


def capture(text: str, known: Mapping[str, str] | None = None) -> list[Captured]:
    """The equations, expressions and definitions a message writes, in order; `known` maps
    the names of functions defined earlier to their bodies."""
    return list(_capture(text, tuple(sorted((known or {}).items()))))


@lru_cache(maxsize=4096)
def _capture(text: str, known: tuple[tuple[str, str], ...]) -> tuple[Captured, ...]:
    """Cached: the record is rebuilt from the conversation before every call."""
    names = dict(known)
    found: list[Captured] = []
    # `52 cm²` is a measurement, not letters multiplied: its unit is no part of any run
    pieces = _LEIBNIZ.split(without_units(text))
    runs = [run for piece in pieces for cut in _inverse_cut(piece, names) for run in math_runs(cut)]
    for run in runs:
        for item in _from_run(run, names):
            if item not in found:
                found.append(item)
            if item.name is not None:
                names[item.name] = item.body
    return tuple(_labelled(found, text, runs, names))


@dataclass(frozen=True)
class WrittenInverse:
    """`f^-1(x)` in a message: the function's name, its argument, and where it is written."""

    name: str
    argument: str
    start: int
    end: int


def written_inverses(text: str, names: Collection[str]) -> list[WrittenInverse]:
    """Each inverse of a function the text writes (`f^-1(x)`, `f^(-1)(2)`, `f⁻¹(x)`), for an
    f in `names` or defined in the text; `x^-1(x + 1)` of a letter is a product, not one."""
    found = []
    for match in _INVERSE.finditer(text):
        name = match.group(1)
        if name in names or re.search(rf"(?<!\w){re.escape(name)}\s*\([^()]*\)\s*=", text):
            close = text.find(")", match.end())
            argument = text[text.index("(", match.end()) + 1 : close].strip() if close > 0 else ""
            found.append(WrittenInverse(name, argument, match.start(), match.end()))
    return found


def _inverse_cut(text: str, names: Collection[str]) -> list[str]:
    """The text cut at each inverse of a function, so that no piece of math holds it."""
    pieces, start = [], 0
    for inverse in written_inverses(text, names):
        pieces.append(text[start : inverse.start])
        start = inverse.end
    return [*pieces, text[start:]]


def _labelled(
    found: list[Captured], text: str, runs: list[str], names: Mapping[str, str]
) -> list[Captured]:
    """One piece of math and a capital letter standing alone beside it ("... = 0, call it
    Q", "Q: t^2 - 4 = 0"): the letter is the person's label for that math, as equations
    are labelled in a text. "I", and "A" opening a sentence, are words."""
    unnamed = [item for item in found if item.name is None]
    if len(found) != 1 or len(unnamed) != 1:
        return found
    labels = {
        run
        for run in runs
        if _LABEL.fullmatch(run)
        and run != "I"
        and run not in names
        and not (run == "A" and re.search(r"(?:^|[.!?]\s+)A\b", text))
    }
    if len(labels) != 1:
        return found
    (label,) = labels
    return [replace(unnamed[0], name=label)]
