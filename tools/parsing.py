"""Chat text -> SymPy objects, without ever calling ``eval``.

Why a parser of our own: ``sympify`` and ``parse_expr`` run Python's ``eval`` on (transformed)
input, so a crafted string can reach Python. Here the text is first cut into a whitelist of
tokens (numbers, known names, single identifiers, operators, round brackets, ``|``, ``√``,
superscript digits); any other character is rejected with its position. A small
recursive-descent parser then builds the expression by calling SymPy constructors directly
(``Add``, ``Mul``, ``Pow``, ``sin``...). No string is ever executed, so there is nothing to
escape from: ``__import__('os')`` fails at the ``_``, ``x.real`` at the ``.``, ``lambda: 1`` at
the ``:``, quotes, ``[``, ``;`` are unexpected characters, Python keywords are refused as words.
LaTeX is read as this notation first (`tools.latex`: ``\\frac{1}{2x}`` is ``1/(2x)``).

How text is read (documented choices):

* ``^`` and ``**`` are powers, right-associative (``2^3^2 = 2^9``); ``-x^2 = -(x^2)``;
  superscripts ``x²``, ``x³``, ``x⁻¹`` are powers; ``n!`` is a factorial; ``15%`` is 15/100;
  ``30°`` and ``30 degrees`` are an angle in radians (``pi/6``); ``7 mod 3`` and ``7 % 3``
  (``%`` before a number) are ``mod(7, 3)``; ``10 choose 3`` is ``binomial(10, 3)``.
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
  ``log(x, b)`` and ``log_b x`` have base ``b``, ``log10``/``log2`` exist. ``gamma`` is the gamma function only
  when followed by ``(``; otherwise it is the Greek letter.
* Names: a known function, constant or Greek letter (``theta``) stays whole; any other word is
  split into letters, as SymPy's implicit multiplication does (``xy = x*y``, ``2xsinx =
  2*x*sin(x)``); ``x1``, ``t0``, ``x_1``, ``v_max`` are whole names.
  Words passed in ``keep_whole`` (e.g. the variable the user named, ``rate``) are never split.
  ``f(x)`` inside an expression is ``f*x``; an unknown word of three or more letters directly
  followed by ``(`` is reported as an unknown function instead of being split.
* ``d/dx (E)``, ``d²/dt² E`` are derivatives of E (`tools.operators`); else ``d`` is a letter.
* A leading definition ``f(x) =`` (or ``g(t, u) =``) is recognised and dropped when the name
  does not appear on the right and its arguments do; ``y = ...`` is left to the tools, which
  know whether ``y`` is the unknown. A chain ``h(t) = body = value`` is ``body = value``.

Cost is bounded while building (see ``tools.limits``): nesting depth, digits per number, the
size of numeric powers and factorials are checked *before* SymPy evaluates them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import sympy as sp

from tools import limits
from tools.bounds import check_power
from tools.errors import LimitError, ParseError
from tools.latex import plain_math
from tools.operators import read_leibniz
from tools.tokens import (
    Token,
    _fail,
    _shown,
    _too_big,
    split_top_level,
    tokenize,
)
from tools.vocabulary import (
    _BRACKET_ONLY_FUNCTIONS,
    _CODE_WORDS,
    _WORD_RE,
    CONSTANTS,
    FUNCTIONS,
    GREEK_LETTERS,
    INFIX_FUNCTIONS,
    log_to_base,
)

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
            elif token.kind == "%" or (token.kind == "func" and token.value in INFIX_FUNCTIONS):
                self.take()  # `17 % 5` (a number after %, as code writes a remainder), `7 mod 3`
                name = "mod" if token.kind == "%" else str(token.value)
                value = self.call(name, token, [value, self.unary()])
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
            elif token.kind == "°" or (token.kind == "%" and self.peek(1).kind != "num"):
                value = value * sp.pi / 180 if self.take().kind == "°" else value / 100  # 30°, 15%
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
            if token.value == "d" and (derivative := read_leibniz(self, token)) is not None:
                return derivative
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
        func, low, high = FUNCTIONS.get(name) or log_to_base(name) or FUNCTIONS[name]
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
    return plain_math(text)  # LaTeX (`\\frac{1}{x}`, `e^{2x}`) read as the notation below


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
        # `h(t) = body = value`: the definition, then the equation on it
        value = body.take() and body.expr() if body.peek().kind == "=" else None
        body.expect_end()
        name = str(tokens[0].value)
        arg_names = {str(t.value) for t in tokens[2 : start - 2] if t.kind == "name"}
        free = {s.name for s in rhs.free_symbols}
        if name not in free and arg_names <= free:
            return Parsed(lhs=rhs, rhs=value, definition=label)
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
    for part in split_top_level(text):
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
    names = [n for n in re.split(r"[\s,;]+", stripped) if n]
    if len(names) > 1 and all(_WORD_RE.fullmatch(n) for n in names):
        raise ParseError(
            f"'{_shown(stripped)}' names {len(names)} variables; give one (unknowns solved "
            "together go to solve_system, with all the equations)."
        )
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
