"""Chat text -> SymPy objects, without ever calling ``eval``.

Why a parser of our own: ``sympify`` and ``parse_expr`` run Python's ``eval`` on (transformed)
input, so a crafted string can reach Python. Here the text is first cut into a whitelist of
tokens (numbers, known names, single identifiers, operators, round brackets, ``|``, ``√``,
superscript digits); any other character is rejected with its position. A small
recursive-descent parser then builds the expression by calling SymPy constructors directly
(``Add``, ``Mul``, ``Pow``, ``sin``...). No string is ever executed, so there is nothing to
escape from: ``__import__('os')`` fails at the ``_``, ``x.real`` at the ``.``, ``lambda: 1`` at
the ``:``, quotes, ``[``, ``{``, ``;`` and ``\\`` are unexpected characters, and Python keywords
(``import``, ``for``...) are refused as words.

How text is read (documented choices):

* ``^`` and ``**`` are powers, right-associative (``2^3^2 = 2^9``); ``-x^2 = -(x^2)``;
  superscripts ``x²``, ``x³``, ``x⁻¹`` are powers; ``n!`` is a factorial.
* Implicit multiplication: ``5x``, ``2(x+1)``, ``x(x+1)``, ``(x+1)(x-2)``, ``2 sin x``,
  ``x y``. ``2^3x`` is ``2^3 * x`` and ``e^2x`` is ``e^2 * x`` (write ``e^(2x)``). Two bare
  numbers in a row (``2 3``) are an error rather than a guess.
* ``−`` (U+2212) and dashes are minus; ``×``, ``·``, ``⋅`` are times; ``÷`` is division;
  ``√x``, ``√(x+1)``, ``∛x`` are roots (``√`` takes what follows up to a ``^`` power included:
  ``√x^2 = sqrt(x^2)``, ``√2x = sqrt(2)*x``); ``|x|`` is ``abs(x)`` (use ``abs()`` for
  nested bars); ``π``/``pi`` is pi, ``∞``/``oo``/``inf``/``infinity`` is infinity.
* ``e`` and ``E`` are Euler's number, even when ``e`` is the only letter (so ``e^2`` is a
  number). Callers that really mean a variable called ``e`` pass it in ``keep_whole`` (the
  tools do this when the user names ``e`` as the variable). ``I`` is the imaginary unit;
  ``i`` is an ordinary variable.
* Decimals are exact: ``0.1`` is ``1/10``; ``2.5e3`` is scientific notation (``2500``).
* Functions: ``sin x`` and ``sin(x)`` both work; without brackets the argument is the next
  power and any letters/numbers glued to it (``sin 2x = sin(2x)``, ``sin x cos x`` is a
  product); ``sin^2 x`` / ``sin² x`` mean ``sin(x)^2``; ``ln`` and ``log`` are natural logs,
  ``log(x, b)`` has base ``b``, ``log10``/``log2`` exist. ``gamma`` is the gamma function only
  when followed by ``(``; otherwise it is the Greek letter.
* Names: a word that is a known function, constant or Greek letter (``theta``, ``alpha``...)
  stays whole. Any other word is split into single letters, as SymPy's implicit-multiplication
  transform does: ``xy = x*y``, ``2xsinx = 2*x*sin(x)``; trailing digits stay with the last
  letter (``x1``, ``t0`` are names) and ``x_1``, ``v_max`` (with an underscore) are whole names.
  Words passed in ``keep_whole`` (e.g. the variable the user named, ``rate``) are never split.
  ``f(x)`` inside an expression is ``f*x``; an unknown word of three or more letters directly
  followed by ``(`` is reported as an unknown function instead of being split.
* A leading definition ``f(x) =`` (or ``g(t, u) =``) is recognised and dropped when the name
  does not appear on the right and its arguments do; ``y = ...`` is left to the tools, which
  know whether ``y`` is the unknown.

Cost is bounded while building (see ``tools.limits``): nesting depth, digits per number, the
size of numeric powers and factorials are checked *before* SymPy evaluates them.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sympy as sp

from tools import limits
from tools.errors import LimitError, ParseError

# ---------------------------------------------------------------------------------------------
# Vocabulary


def _log_base(base: int) -> Callable[[sp.Expr], sp.Expr]:
    """log to a fixed base, for the ``log10``/``log2`` spellings."""
    return lambda arg: sp.log(arg, base)


#: name -> (constructor, min args, max args). Only these names can be called.
FUNCTIONS: dict[str, tuple[Callable[..., sp.Expr], int, int]] = {
    "sin": (sp.sin, 1, 1),
    "cos": (sp.cos, 1, 1),
    "tan": (sp.tan, 1, 1),
    "cot": (sp.cot, 1, 1),
    "sec": (sp.sec, 1, 1),
    "csc": (sp.csc, 1, 1),
    "cosec": (sp.csc, 1, 1),
    "asin": (sp.asin, 1, 1),
    "acos": (sp.acos, 1, 1),
    "atan": (sp.atan, 1, 1),
    "acot": (sp.acot, 1, 1),
    "asec": (sp.asec, 1, 1),
    "acsc": (sp.acsc, 1, 1),
    "arcsin": (sp.asin, 1, 1),
    "arccos": (sp.acos, 1, 1),
    "arctan": (sp.atan, 1, 1),
    "arccot": (sp.acot, 1, 1),
    "arcsec": (sp.asec, 1, 1),
    "arccsc": (sp.acsc, 1, 1),
    "sinh": (sp.sinh, 1, 1),
    "cosh": (sp.cosh, 1, 1),
    "tanh": (sp.tanh, 1, 1),
    "coth": (sp.coth, 1, 1),
    "sech": (sp.sech, 1, 1),
    "csch": (sp.csch, 1, 1),
    "asinh": (sp.asinh, 1, 1),
    "acosh": (sp.acosh, 1, 1),
    "atanh": (sp.atanh, 1, 1),
    "acoth": (sp.acoth, 1, 1),
    "arcsinh": (sp.asinh, 1, 1),
    "arccosh": (sp.acosh, 1, 1),
    "arctanh": (sp.atanh, 1, 1),
    "arsinh": (sp.asinh, 1, 1),
    "arcosh": (sp.acosh, 1, 1),
    "artanh": (sp.atanh, 1, 1),
    "exp": (sp.exp, 1, 1),
    "ln": (sp.log, 1, 1),
    "log": (sp.log, 1, 2),
    "log10": (_log_base(10), 1, 1),
    "log2": (_log_base(2), 1, 1),
    "sqrt": (sp.sqrt, 1, 1),
    "cbrt": (sp.cbrt, 1, 1),
    "root": (sp.root, 2, 2),
    "abs": (sp.Abs, 1, 1),
    "Abs": (sp.Abs, 1, 1),
    "sign": (sp.sign, 1, 1),
    "sgn": (sp.sign, 1, 1),
    "floor": (sp.floor, 1, 1),
    "ceil": (sp.ceiling, 1, 1),
    "ceiling": (sp.ceiling, 1, 1),
    "factorial": (sp.factorial, 1, 1),
    "gamma": (sp.gamma, 1, 1),
    "erf": (sp.erf, 1, 1),
    "erfc": (sp.erfc, 1, 1),
    "erfi": (sp.erfi, 1, 1),
    "Si": (sp.Si, 1, 1),
    "Ci": (sp.Ci, 1, 1),
    "Shi": (sp.Shi, 1, 1),
    "Chi": (sp.Chi, 1, 1),
    "Ei": (sp.Ei, 1, 1),
    "li": (sp.li, 1, 1),
    "LambertW": (sp.LambertW, 1, 1),
    "max": (sp.Max, 1, 20),
    "min": (sp.Min, 1, 20),
    "Max": (sp.Max, 1, 20),
    "Min": (sp.Min, 1, 20),
}

#: Function names that are only functions when a bracket follows (else a Greek letter).
_BRACKET_ONLY_FUNCTIONS = frozenset({"gamma"})

_INFINITY_WORDS = ("oo", "inf", "infinity", "Infinity")
CONSTANTS: dict[str, sp.Expr] = {
    "pi": sp.pi,
    "Pi": sp.pi,
    "e": sp.E,
    "E": sp.E,
    "I": sp.I,
    **dict.fromkeys(_INFINITY_WORDS, sp.oo),
}

GREEK_LETTERS: dict[str, str] = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "ρ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
    "Γ": "Gamma",
    "Δ": "Delta",
    "Θ": "Theta",
    "Λ": "Lambda",
    "Ξ": "Xi",
    "Σ": "Sigma",
    "Φ": "Phi",
    "Ψ": "Psi",
    "Ω": "Omega",
}
GREEK_NAMES = frozenset(GREEK_LETTERS.values())

#: Known names that a longer unknown word may start with (``sinx``, ``pix``, ``thetax``).
#: Short or risky names (``li``, ``oo``, two-letter Greek) only count as whole words.
_PREFIX_NAMES = tuple(
    sorted(
        {name for name in FUNCTIONS if len(name) >= 2 and name not in {"li", "W"}}
        | {"pi"}
        | {name for name in GREEK_NAMES if len(name) >= 4},
        key=len,
        reverse=True,
    )
)

#: Words that look like code. Refused with a clear message rather than split into letters.
_CODE_WORDS = (frozenset(keyword.kwlist) - {"lambda"}) | {
    "eval",
    "exec",
    "compile",
    "open",
    "globals",
    "locals",
    "vars",
    "getattr",
    "setattr",
    "delattr",
    "breakpoint",
    "exit",
    "quit",
    "input",
    "print",
    "os",
    "sys",
    "subprocess",
    "system",
    "builtins",
    "sympify",
}

_SUPERSCRIPTS = {
    "⁰": "0",
    "¹": "1",
    "²": "2",
    "³": "3",
    "⁴": "4",
    "⁵": "5",
    "⁶": "6",
    "⁷": "7",
    "⁸": "8",
    "⁹": "9",
    "⁻": "-",
    "⁺": "+",
}

#: Single characters and what token they become.
_CHAR_TOKENS = {
    "+": ("op", "+"),
    "-": ("op", "-"),
    "−": ("op", "-"),
    "–": ("op", "-"),
    "—": ("op", "-"),
    "*": ("op", "*"),
    "×": ("op", "*"),
    "·": ("op", "*"),
    "⋅": ("op", "*"),
    "∗": ("op", "*"),
    "/": ("op", "/"),
    "÷": ("op", "/"),
    "∕": ("op", "/"),
    "⁄": ("op", "/"),
    "^": ("op", "^"),
    "(": ("(", "("),
    ")": (")", ")"),
    ",": (",", ","),
    "=": ("=", "="),
    "!": ("!", "!"),
    "|": ("|", "|"),
    "√": ("root", "2"),
    "∛": ("root", "3"),
    "∜": ("root", "4"),
    "π": ("const", "pi"),
    "∞": ("const", "oo"),
}

_WHY_REJECTED = {
    "'": "quotes are not allowed in math input",
    '"': "quotes are not allowed in math input",
    "[": "use round brackets ( ) for grouping",
    "]": "use round brackets ( ) for grouping",
    "{": "use round brackets ( ) for grouping",
    "}": "use round brackets ( ) for grouping",
    "<": "inequalities are not supported; use an equation with '='",
    ">": "inequalities are not supported; use an equation with '='",
    "≤": "inequalities are not supported; use an equation with '='",
    "≥": "inequalities are not supported; use an equation with '='",
    "≠": "inequalities are not supported; use an equation with '='",
}

_NUMBER_RE = re.compile(r"(?P<mant>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE](?P<exp>[+-]?[0-9]+))?")
_WORD_RE = re.compile(r"(?P<letters>[A-Za-z]+)(?P<digits>[0-9]*)(?P<sub>_[A-Za-z0-9]+)?")

# ---------------------------------------------------------------------------------------------
# Tokens


@dataclass(frozen=True, slots=True)
class Token:
    """One whitelisted piece of input; ``pos`` is its 0-based offset in the original text."""

    kind: str  # num, name, const, func, op, (, ), ",", =, !, |, root, sup, end
    text: str
    pos: int
    value: object = None


def _shown(text: str) -> str:
    """The input as quoted in error messages: single line, at most 60 characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


def _fail(text: str, detail: str) -> ParseError:
    return ParseError(f"Could not read '{_shown(text)}': {detail}.")


def _too_big(text: str, detail: str) -> LimitError:
    return LimitError(f"Could not read '{_shown(text)}': {detail}.")


def _char_name(ch: str) -> str:
    return repr(ch) if not ch.isprintable() or ch.isspace() else f"'{ch}'"


def tokenize(text: str, keep_whole: Iterable[str] = ()) -> list[Token]:
    """Cut text into whitelisted tokens, or raise ParseError naming the first bad character."""
    whole = frozenset(keep_whole)
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch in "0123456789" or (ch == "." and i + 1 < n and text[i + 1] in "0123456789"):
            match = _NUMBER_RE.match(text, i)
            assert match is not None
            tokens.append(Token("num", match.group(0), i, _number_value(text, match)))
            i = match.end()
            continue
        if ch.isascii() and ch.isalpha():
            match = _WORD_RE.match(text, i)
            assert match is not None
            tokens.extend(_word_tokens(text, match, whole))
            i = match.end()
            continue
        if ch in GREEK_LETTERS:
            name = GREEK_LETTERS[ch]
            tokens.append(Token("name", ch, i, name))
            i += 1
            continue
        if ch in _SUPERSCRIPTS:
            j = i
            while j < n and text[j] in _SUPERSCRIPTS:
                j += 1
            tokens.append(Token("sup", text[i:j], i, _superscript_value(text, i, j)))
            i = j
            continue
        if ch == "*" and text.startswith("**", i):
            tokens.append(Token("op", "**", i, "^"))
            i += 2
            continue
        if ch == "=" and text.startswith("==", i):
            tokens.append(Token("=", "==", i, "="))
            i += 2
            continue
        if ch in _CHAR_TOKENS:
            kind, value = _CHAR_TOKENS[ch]
            tokens.append(Token(kind, ch, i, value))
            i += 1
            continue
        why = _WHY_REJECTED.get(ch)
        suffix = f" ({why})" if why else ""
        raise _fail(text, f"unexpected {_char_name(ch)} at position {i}{suffix}")
    tokens.append(Token("end", "", n))
    return tokens


def _number_value(text: str, match: re.Match[str]) -> sp.Rational:
    """Exact value of a numeric literal, refusing absurd sizes before building it."""
    mant, exp = match.group("mant"), match.group("exp")
    if sum(c.isdigit() for c in mant) > limits.MAX_NUMBER_DIGITS:
        raise _too_big(text, f"a number has more than {limits.MAX_NUMBER_DIGITS} digits")
    value = sp.Rational(mant if not mant.endswith(".") else mant[:-1])
    if exp is not None:
        power = int(exp)
        if abs(power) > limits.MAX_NUMBER_DIGITS:
            raise _too_big(
                text, f"the exponent in {match.group(0)[:20]} is beyond ±{limits.MAX_NUMBER_DIGITS}"
            )
        value = value * sp.Integer(10) ** power
    return value


def _superscript_value(text: str, start: int, end: int) -> int:
    raw = "".join(_SUPERSCRIPTS[c] for c in text[start:end])
    if not re.fullmatch(r"[+-]?[0-9]+", raw):
        raise _fail(text, f"cannot read the superscript {text[start:end]!r} at position {start}")
    if len(raw) > 6:
        raise _too_big(text, f"the exponent at position {start} is too large")
    return int(raw)


def _word_tokens(text: str, match: re.Match[str], whole: frozenset[str]) -> list[Token]:
    """Classify a word: known name, kept-whole name, or letters to split (see module doc)."""
    word, pos = match.group(0), match.start()
    letters, digits, sub = match.group("letters"), match.group("digits"), match.group("sub")
    if word in whole:
        return [Token("name", word, pos, word)]
    if word in _CODE_WORDS:
        raise _fail(text, f"'{word}' at position {pos} looks like program code, not math")
    if sub:
        return [Token("name", word, pos, word)]
    if word in FUNCTIONS:
        return [Token("func", word, pos, word)]
    if word in CONSTANTS:
        return [Token("const", word, pos, word)]
    next_char = text[match.end()] if match.end() < len(text) else ""
    pieces = _split_letters(letters, whole)
    if (
        next_char == "("
        and len(letters) >= 3
        and not digits
        and all(len(p) == 1 and p not in CONSTANTS for p in pieces)
    ):
        known = "sin, cos, tan, exp, ln, log, sqrt, abs"
        raise _fail(
            text,
            f"'{letters}' at position {pos} is not a function I know (known functions include "
            f"{known}; for a product write {'*'.join(letters)}*(...))",
        )
    tokens: list[Token] = []
    offset = pos
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        if last and digits and _classify(piece, whole) == "name":
            piece_name = piece + digits
            tokens.append(Token("name", piece_name, offset, piece_name))
            return tokens
        tokens.append(_piece_token(piece, offset, whole))
        offset += len(piece)
    if digits:
        tokens.append(Token("num", digits, offset, sp.Integer(digits)))
    return tokens


def _classify(piece: str, whole: frozenset[str]) -> str:
    if piece in whole or piece in GREEK_NAMES:
        return "name"
    if piece in FUNCTIONS:
        return "func"
    if piece in CONSTANTS:
        return "const"
    return "name"


def _piece_token(piece: str, pos: int, whole: frozenset[str]) -> Token:
    kind = _classify(piece, whole)
    return Token(kind, piece, pos, piece)


def _split_letters(letters: str, whole: frozenset[str]) -> list[str]:
    """Split an unknown word: keep known names (longest first), else one letter at a time."""
    known_whole = (FUNCTIONS.keys() | CONSTANTS.keys() | GREEK_NAMES | whole) - set(_INFINITY_WORDS)
    pieces: list[str] = []
    i = 0
    while i < len(letters):
        rest = letters[i:]
        if rest in known_whole:
            pieces.append(rest)
            break
        prefix = next((p for p in _PREFIX_NAMES if rest.startswith(p)), None)
        if prefix is None:
            prefix = next(
                (w for w in sorted(whole, key=len, reverse=True) if rest.startswith(w)), None
            )
        if prefix is None or len(prefix) == 1:
            pieces.append(letters[i])
            i += 1
        else:
            pieces.append(prefix)
            i += len(prefix)
    return pieces


# ---------------------------------------------------------------------------------------------
# Parser


@dataclass(frozen=True)
class Parsed:
    """What a text said: one expression, or two sides of an equation.

    ``definition`` is the dropped left side of ``f(x) = ...`` (e.g. ``"f(x)"``), if any.
    """

    lhs: sp.Expr
    rhs: sp.Expr | None = None
    definition: str | None = None

    @property
    def is_equation(self) -> bool:
        return self.rhs is not None


class _Parser:
    """Recursive descent over the token list; builds SymPy objects as it goes."""

    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.abs_depth = 0

    # -- helpers --------------------------------------------------------------------------
    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def take(self) -> Token:
        token = self.tokens[self.i]
        if token.kind != "end":
            self.i += 1
        return token

    def is_op(self, token: Token, *ops: str) -> bool:
        return token.kind == "op" and token.value in ops

    def error_at(self, token: Token, detail: str | None = None) -> ParseError:
        if token.kind == "end":
            before = self.tokens[self.i - 1].text if self.i > 0 else ""
            msg = detail or (f"it ends too early after '{before}'" if before else "it is empty")
            return _fail(self.text, msg)
        return _fail(self.text, detail or f"unexpected '{token.text}' at position {token.pos}")

    # -- grammar --------------------------------------------------------------------------
    def equation(self) -> tuple[sp.Expr, sp.Expr | None]:
        if self.peek().kind == "end":
            raise _fail(self.text, "it is empty")
        lhs = self.expr()
        rhs = None
        if self.peek().kind == "=":
            eq = self.take()
            if self.peek().kind == "end":
                raise _fail(self.text, f"nothing after '=' at position {eq.pos}")
            rhs = self.expr()
            if self.peek().kind == "=":
                raise _fail(self.text, f"more than one '=' (second at position {self.peek().pos})")
        self.expect_end()
        return lhs, rhs

    def expect_end(self) -> None:
        token = self.peek()
        if token.kind == ")":
            raise _fail(self.text, f"unmatched ')' at position {token.pos}")
        if token.kind == "num" and self.i > 0 and self.tokens[self.i - 1].kind == "num":
            prev = self.tokens[self.i - 1]
            raise _fail(
                self.text,
                f"missing operator between '{prev.text}' and '{token.text}' at position "
                f"{token.pos}",
            )
        if token.kind != "end":
            raise self.error_at(token)

    def expr(self) -> sp.Expr:
        terms = [self.term()]
        while self.is_op(self.peek(), "+", "-"):
            op = self.take()
            right = self.term()
            terms.append(-right if op.value == "-" else right)
        return sp.Add(*terms) if len(terms) > 1 else terms[0]

    def starts_implicit_factor(self, token: Token) -> bool:
        if token.kind in ("name", "const", "func", "(", "root"):
            return True
        if token.kind == "num":
            return self.tokens[self.i - 1].kind != "num"
        return token.kind == "|" and self.abs_depth == 0

    def term(self) -> sp.Expr:
        value = self.unary()
        while True:
            token = self.peek()
            if self.is_op(token, "*", "/"):
                self.take()
                right = self.unary()
                value = value * right if token.value == "*" else value / right
            elif self.starts_implicit_factor(token):
                value = value * self.power()
            else:
                return value

    def unary(self) -> sp.Expr:
        negative = False
        while self.is_op(self.peek(), "+", "-"):
            if self.take().value == "-":
                negative = not negative
        value = self.power()
        return -value if negative else value

    def power(self) -> sp.Expr:
        self.depth += 1
        if self.depth > limits.MAX_NESTING:
            raise _too_big(self.text, f"it is nested more than {limits.MAX_NESTING} levels deep")
        try:
            base = self.postfix()
            if self.is_op(self.peek(), "^"):
                caret = self.take()
                if self.peek().kind == "end":
                    raise self.error_at(self.peek(), f"nothing after '{caret.text}'")
                exponent = self.unary()
                return self.make_power(base, exponent)
            return base
        finally:
            self.depth -= 1

    def postfix(self) -> sp.Expr:
        value = self.atom()
        while True:
            token = self.peek()
            if token.kind == "!":
                self.take()
                value = self.make_factorial(value, sp.factorial)
            elif token.kind == "sup":
                self.take()
                value = self.make_power(value, sp.Integer(token.value))
            else:
                return value

    def atom(self) -> sp.Expr:
        token = self.take()
        kind = token.kind
        if kind == "num":
            return token.value  # type: ignore[return-value]
        if kind == "name":
            return sp.Symbol(str(token.value))
        if kind == "const":
            return CONSTANTS[str(token.value)]
        if kind == "func":
            return self.function(token)
        if kind == "(":
            if self.peek().kind == ")":
                raise _fail(self.text, f"empty brackets at position {token.pos}")
            inner = self.expr()
            self.expect(")", token)
            return inner
        if kind == "|":
            self.abs_depth += 1
            try:
                inner = self.expr()
            finally:
                self.abs_depth -= 1
            closing = self.peek()
            if closing.kind != "|":
                raise self.error_at(
                    closing, f"missing '|' to close the '|' at position {token.pos}"
                )
            self.take()
            return sp.Abs(inner)
        if kind == "root":
            if self.peek().kind == "end":
                raise self.error_at(self.peek(), f"nothing after '{token.text}'")
            operand = self.power()
            return self.make_power(operand, sp.Rational(1, int(str(token.value))))
        if kind == "end":
            raise self.error_at(token)
        if kind == ")":
            raise _fail(self.text, f"unexpected ')' at position {token.pos}")
        raise self.error_at(token)

    def expect(self, kind: str, opener: Token) -> Token:
        token = self.peek()
        if token.kind != kind:
            if token.kind == "end":
                raise _fail(self.text, f"missing ')' to close the '(' at position {opener.pos}")
            raise self.error_at(token)
        return self.take()

    def function(self, token: Token) -> sp.Expr:
        name = str(token.value)
        nxt = self.peek()
        if name in _BRACKET_ONLY_FUNCTIONS and nxt.kind != "(":
            return sp.Symbol(name)
        outer_power: sp.Expr | None = None
        if nxt.kind == "sup" or self.is_op(nxt, "^"):
            outer_power = self.function_power(token)
            nxt = self.peek()
        if nxt.kind == "(":
            opener = self.take()
            args = [self.expr()]
            while self.peek().kind == ",":
                self.take()
                args.append(self.expr())
            self.expect(")", opener)
        elif nxt.kind in ("num", "name", "const", "func", "root", "|") or self.is_op(nxt, "-", "+"):
            args = [self.bare_argument()]
        else:
            raise _fail(
                self.text, f"'{name}' at position {token.pos} needs an argument, e.g. {name}(x)"
            )
        value = self.call(name, token, args)
        if outer_power is not None:
            value = self.make_power(value, outer_power)
        return value

    def function_power(self, token: Token) -> sp.Expr:
        """``sin^2 x`` / ``sin² x``: a power written between the name and its argument."""
        nxt = self.take()
        power = sp.Integer(nxt.value) if nxt.kind == "sup" else self.unary()
        if power == -1:
            raise _fail(
                self.text,
                f"'{token.text}^-1' at position {token.pos} is ambiguous: write "
                f"a{token.text}(x) for the inverse function or 1/{token.text}(x) for the reciprocal",
            )
        return power

    def bare_argument(self) -> sp.Expr:
        """Argument of ``sin 2x``: a power, then glued letters/numbers (not other functions)."""
        value = self.unary()
        while self.peek().kind in ("name", "const") or (
            self.peek().kind == "num" and self.tokens[self.i - 1].kind != "num"
        ):
            value = value * self.power()
        return value

    def call(self, name: str, token: Token, args: list[sp.Expr]) -> sp.Expr:
        func, low, high = FUNCTIONS[name]
        if not low <= len(args) <= high:
            wanted = str(low) if low == high else f"{low} to {high}"
            raise _fail(
                self.text,
                f"'{name}' at position {token.pos} takes {wanted} argument(s), not {len(args)}",
            )
        if name in ("factorial", "gamma"):
            return self.make_factorial(args[0], func)
        if name == "root":
            if not (args[1].is_Integer and args[1] != 0):
                raise _fail(self.text, "root(x, n) needs a whole number n other than 0")
            return self.make_power(args[0], sp.Rational(1, args[1]))
        if name == "exp":
            return self.make_power(sp.E, args[0])
        if name == "sqrt":
            return self.make_power(args[0], sp.Rational(1, 2))
        return func(*args)

    # -- bounded constructors ---------------------------------------------------------------
    def make_power(self, base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
        """``base**exponent`` after checking that SymPy will not build a gigantic number."""
        check_power(base, exponent, self.text)
        return sp.Pow(base, exponent)

    def make_factorial(self, arg: sp.Expr, func: Callable[..., sp.Expr]) -> sp.Expr:
        if arg.is_Rational and abs(arg) > limits.MAX_FACTORIAL:
            raise _too_big(
                self.text,
                f"factorials and gamma are limited to arguments up to {limits.MAX_FACTORIAL}",
            )
        return func(arg)


def check_power(base: sp.Expr, exponent: sp.Expr, text: str = "") -> None:
    """Raise LimitError when ``base**exponent`` would be a huge number or a huge polynomial."""
    if not exponent.is_Rational:
        return
    if not base.is_number:
        if (
            abs(exponent.p) > limits.MAX_SYMBOLIC_EXPONENT
            or exponent.q > limits.MAX_SYMBOLIC_EXPONENT
        ):
            raise _too_big(
                text,
                f"exponents of variables are limited to ±{limits.MAX_SYMBOLIC_EXPONENT} "
                f"(got {_short(exponent)})",
            )
        return
    bits = _bits(base)
    if bits is not None and bits * abs(exponent) > limits.MAX_RESULT_BITS:
        raise _too_big(
            text,
            f"the power {_short(base)}^{_short(exponent)} is too large to compute (results are "
            f"limited to about {limits.MAX_RESULT_BITS * 3 // 10:,} digits)",
        )


def _bits(base: sp.Expr) -> float | None:
    """Bits SymPy would spend per unit of exponent when it expands ``base**n``.

    Rationals, ``I`` and products/powers of them are expanded eagerly by SymPy; anything else
    (``pi``, ``E``, sums) stays an unevaluated power, which costs nothing, so None.
    """
    if base in (sp.S.Zero, sp.S.One, sp.S.NegativeOne) or base == sp.I or base == -sp.I:
        return 0.0
    if base.is_Rational:
        return float(abs(base.p).bit_length() + base.q.bit_length())
    if base.is_Pow:
        inner = _bits(base.base)
        if inner is None or not base.exp.is_Rational:
            return None
        return inner * float(abs(base.exp))
    if base.is_Mul:
        total = 0.0
        for factor in base.args:
            bits = _bits(factor)
            if bits is None:
                return None
            total += bits
        return total
    return None


def _short(value: sp.Expr) -> str:
    text = sp.sstr(value)
    return text if len(text) <= 20 else text[:17] + "..."


# ---------------------------------------------------------------------------------------------
# Public entry points


def _check_text(text: object, what: str) -> str:
    if not isinstance(text, str):
        raise ParseError(f"{what} must be text, not {type(text).__name__}.")
    problem = limits.check_text_length(text, what)
    if problem:
        raise LimitError(problem)
    if not text.strip():
        raise ParseError(f"{what} is empty: give some math to work with.")
    return text


def parse(text: str, keep_whole: Iterable[str] = (), what: str = "The input") -> Parsed:
    """Read an expression or an equation; drop a leading ``f(x) =`` definition."""
    text = _check_text(text, what)
    tokens = tokenize(text, keep_whole)
    try:
        return _parse_tokens(text, tokens)
    except (ParseError, LimitError):
        raise
    except RecursionError:
        raise _too_big(text, "it is nested too deeply") from None
    except MemoryError:
        raise _too_big(text, "it is too large to build") from None
    except Exception as exc:  # SymPy refusing to build something (e.g. a TypeError)
        detail = " ".join(str(exc).split())[:120] or type(exc).__name__
        raise _fail(text, f"SymPy cannot build it ({detail})") from None


def _parse_tokens(text: str, tokens: list[Token]) -> Parsed:
    definition = _leading_definition(tokens)
    if definition is not None:
        label, start = definition
        body = _Parser(text, tokens)
        body.i = start
        rhs = body.expr()
        body.expect_end()
        name = str(tokens[0].value)
        arg_names = {str(t.value) for t in tokens[2 : start - 2] if t.kind == "name"}
        free = {s.name for s in rhs.free_symbols}
        if name not in free and arg_names <= free:
            return Parsed(lhs=rhs, definition=label)
    lhs, rhs = _Parser(text, tokens).equation()
    return Parsed(lhs=lhs, rhs=rhs)


def _leading_definition(tokens: list[Token]) -> tuple[str, int] | None:
    """``f(x) =`` / ``g(t, u) =`` at the start: the label and where the right side starts."""
    if len(tokens) < 6 or tokens[0].kind != "name" or tokens[1].kind != "(":
        return None
    i = 2
    names: list[str] = []
    while True:
        if tokens[i].kind != "name":
            return None
        names.append(tokens[i].text)
        i += 1
        if tokens[i].kind == ",":
            i += 1
            continue
        if tokens[i].kind == ")":
            break
        return None
    if tokens[i + 1].kind != "=":
        return None
    return f"{tokens[0].text}({', '.join(names)})", i + 2


def parse_expression(text: str, keep_whole: Iterable[str] = (), what: str = "The input") -> sp.Expr:
    """Read one expression; an equation is an error here (e.g. for bounds and values)."""
    parsed = parse(text, keep_whole, what)
    if parsed.rhs is not None:
        raise ParseError(f"Could not read '{_shown(text)}': expected a value, not an equation.")
    return parsed.lhs


def parse_assignments(
    text: str, keep_whole: Iterable[str] = (), what: str = "The values"
) -> list[tuple[str, sp.Expr]]:
    """Read ``x=1, y=2`` into ``[("x", 1), ("y", 2)]``."""
    text = _check_text(text, what)
    pairs: list[tuple[str, sp.Expr]] = []
    for part in _split_top_level(text):
        if "=" not in part:
            raise ParseError(
                f"Could not read '{_shown(text)}': each value needs the form name=value, "
                f"as in 'x=1, y=2'."
            )
        name_text, _, value_text = part.partition("=")
        name = parse_name(name_text.strip(), keep_whole)
        value = parse_expression(value_text, keep_whole, what)
        pairs.append((name, value))
    return pairs


def _split_top_level(text: str) -> list[str]:
    """Split at commas that are not inside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch in ",;" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def parse_name(text: str, keep_whole: Iterable[str] = ()) -> str:
    """Read a variable name (``x``, ``theta``, ``θ``, ``x_1``, ``rate``) and return it."""
    if not isinstance(text, str):
        raise ParseError(f"A variable name must be text, not {type(text).__name__}.")
    stripped = text.strip()
    if len(stripped) > 50:
        raise LimitError(f"The variable name '{_shown(stripped)}' is too long (50 characters max).")
    if not stripped:
        raise ParseError("The variable name is empty: say which variable to use, e.g. 'x'.")
    if stripped in GREEK_LETTERS:
        return GREEK_LETTERS[stripped]
    if not _WORD_RE.fullmatch(stripped):
        raise ParseError(
            f"'{_shown(stripped)}' is not a variable name: use letters, e.g. 'x', 't' or 'theta'."
        )
    if stripped in _CODE_WORDS:
        raise ParseError(f"'{stripped}' looks like program code, not a variable name.")
    if stripped in FUNCTIONS and stripped not in _BRACKET_ONLY_FUNCTIONS:
        raise ParseError(f"'{stripped}' is a function name, not a variable: pick another letter.")
    if stripped in CONSTANTS and stripped not in {"e", "E", "I"}:
        raise ParseError(f"'{stripped}' is a constant, not a variable: pick another letter.")
    return stripped
