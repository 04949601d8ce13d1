"""Math in answers as people write it, for the terminal only: `5*x**2 - 1` shows as `5x² − 1`.

An answer is stored (and shown to the model) as the model wrote it: SymPy-style text such as
`x**3/3 + C`, `sqrt(13)/2`, `2*x + 5`. A person reads `x³/3 + C`, `√13/2`, `2x + 5` faster, so
the REPL prints this form, and `/raw` (or `math-agent chat --raw`) brings back the stored text
to copy. Only the display changes: nothing here is written back.

What changes, and only where it is math: powers with an integer exponent become superscripts
(`x**10` -> `x¹⁰`, `x^-1` -> `x⁻¹`; any other exponent keeps a caret: `x^(n+1)`), `sqrt(...)`
becomes `√` (`√2`, `√(x + 1)`), `pi` `π`, `oo` `∞`, `>=` `<=` `!=` `≥ ≤ ≠`, a minus sign
`−`, and `*` is dropped between a number and a letter (`3x`) and is `·` elsewhere. Fractions
stay `a/b`. Prose (its hyphens: "second-to-last", "x-axis"), ids (`#3`, `#2[1]`), function
names and decimals are kept. Markdown bold (`**Answer:**`) loses its asterisks. LaTeX is first
made plain by `tools.latex`, so `\\(`, `\\[` and `\\frac` never reach the screen.

Why hand-written: SymPy's `pretty(..., use_unicode=True)` draws a 2-D picture over several
lines (the exponent on the line above), needs each math span cut out of the prose and parsed
first, and reorders what it prints (`5 + 2*x` -> `2⋅x + 5`), so it would change the answer's
words, not only their look. pylatexenc reads LaTeX, which answers here are not (plain_math's
docstring says why it was dropped there too). A small token scanner does the job, keeps every
character it does not need to change, and is idempotent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tools.latex import plain_math
from tools.vocabulary import FUNCTIONS

_SUPERSCRIPT = str.maketrans("0123456789-−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁻")
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
# Words that are math on their own (besides single letters and functions before "(").
_CONSTANT_WORDS = {"pi": "π", "oo": "∞"}
_MATH_WORDS = {"pi", "oo", "π", "inf", "dx", "dt", "dy"}
_ROOT_SIGNS = {"sqrt": "√", "cbrt": "∛"}
_COMPARISONS = {">=": "≥", "<=": "≤", "!=": "≠", "->": "→"}
# Symbols that are a number or the end of a power: operands like a digit.
_OPERAND_SYMBOLS = set("π∞" + SUPERSCRIPTS)
_BRACKETS_AND_SYMBOLS = {"(", ")", "[", "]", "√", "∛", *_OPERAND_SYMBOLS}

_TOKEN = re.compile(
    r"""
    (?P<num>[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)
   |(?P<id>\#[0-9]+)
   |(?P<word>[A-Za-z\u0370-\u03ff][A-Za-z0-9_\u0370-\u03ff]*)
   |(?P<op>\*\*|>=|<=|!=|->|[-+*/^=<>()\[\]{},])
   |(?P<space>\s+)
   |(?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_STARS = re.compile(r"\*{2,}")
_ATOMIC = re.compile(r"[A-Za-z0-9.π∞\u0370-\u03ff]+")
_FORBIDDEN = re.compile(r"\\(?=\(|\[|frac)")
# What a rendered answer must never show: Python powers and LaTeX delimiters or fractions.
RAW_MARKERS = ("**", "\\(", "\\[", "\\frac")


@dataclass(frozen=True)
class _Token:
    kind: str  # num, id, word, op, space, other
    text: str


def _root_sign(token: _Token) -> str | None:
    """`sqrt`/`cbrt` (a word) or `√`/`∛` already written: the sign a root is shown with."""
    if token.kind == "word":
        return _ROOT_SIGNS.get(token.text)
    return token.text if token.text in ("√", "∛") else None


def pretty(text: str) -> str:
    """`text` with its math written as people write it (idempotent: pretty(pretty(t)) is
    pretty(t)); prose, ids and decimals are unchanged."""
    text = plain_math(text)
    if not text:
        return text
    # A power kept by _unbold is written `^`, which plain_math reads: `2**{x}` is `2^x` now,
    # not on the next pass.
    text = plain_math(_unbold(text).replace("**", "^"))
    shown = _Writer(_tokenize(text)).write()
    # A backslash that lost its neighbour to a rewrite must not spell `\(` or `\frac`.
    while any(mark in shown for mark in RAW_MARKERS):
        shown = _FORBIDDEN.sub("", shown).replace("**", "^")
    return shown


def _tokenize(text: str) -> list[_Token]:
    return [_Token(m.lastgroup or "other", m.group()) for m in _TOKEN.finditer(text)]


def _ends_operand_char(char: str) -> bool:
    return char.isalnum() or char in ")]}!'" or char in _OPERAND_SYMBOLS


def _starts_operand_char(char: str) -> bool:
    return char.isalnum() or char in "(-{√∛" or char in "π∞"


def _unbold(text: str) -> str:
    """Markdown bold markers dropped; `**` kept where it is a power (`x**2`, `2 ** 3`)."""

    def replace(match: re.Match[str]) -> str:
        stars = match.group()
        if len(stars) != 2:
            return ""
        before = text[: match.start()]
        after = text[match.end() :]
        spaced = before.endswith(" ") and after.startswith(" ")
        if spaced:
            before, after = before.rstrip(" "), after.lstrip(" ")
        elif before.endswith((" ", "\n")) or after.startswith((" ", "\n")):
            return ""
        power = before and after and _ends_operand_char(before[-1])
        return stars if power and _starts_operand_char(after[0]) else ""

    return _STARS.sub(replace, text)


class _Writer:
    """One pass over the tokens; `write` returns the shown text."""

    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens

    # -- neighbours -------------------------------------------------------------------------

    def _prev(self, i: int) -> int | None:
        """The index of the nearest non-space token before i on the same line."""
        j = i - 1
        while j >= 0 and self.tokens[j].kind == "space":
            if "\n" in self.tokens[j].text:
                return None
            j -= 1
        return j if j >= 0 else None

    def _next(self, i: int) -> int | None:
        j = i + 1
        while j < len(self.tokens) and self.tokens[j].kind == "space":
            if "\n" in self.tokens[j].text:
                return None
            j += 1
        return j if j < len(self.tokens) else None

    def _ends_operand(self, j: int | None) -> bool:
        if j is None or j < 0:
            return False
        token = self.tokens[j]
        if token.kind in ("num", "id", "word"):
            return True
        return token.text in (")", "]", "}", "!", "'") or token.text in _OPERAND_SYMBOLS

    def _starts_operand(self, j: int | None) -> bool:
        if j is None or j >= len(self.tokens):
            return False
        token = self.tokens[j]
        if token.kind in ("num", "id", "word"):
            return True
        if token.text in ("(", "√", "∛", "π", "∞"):
            return True
        # `2*-3`: a sign right before an operand
        return token.text in ("-", "−") and self._starts_operand(j + 1)

    def _mathy(self, j: int | None) -> bool:
        """Math rather than prose: a number, an id, a bracket, a symbol, or a word that is a
        single letter, a constant, `x1`/`x_1`, or a function name before `(`."""
        if j is None or j >= len(self.tokens):
            return False
        token = self.tokens[j]
        if token.text in ("-", "−"):  # a sign is as mathy as what it signs
            return self._mathy(j + 1)
        if token.kind != "word":
            return token.kind in ("num", "id") or token.text in _BRACKETS_AND_SYMBOLS
        word = token.text
        if len(word) == 1 or word in _MATH_WORDS or re.fullmatch(r"[A-Za-z]_?[0-9]+", word):
            return True
        called = j + 1 < len(self.tokens) and self.tokens[j + 1].text == "("
        return called and (word in FUNCTIONS or len(word) <= 2)

    def _matching(self, i: int) -> int | None:
        """The index of the `)` closing the `(` at i."""
        depth = 0
        for j in range(i, len(self.tokens)):
            if self.tokens[j].text == "(":
                depth += 1
            elif self.tokens[j].text == ")":
                depth -= 1
                if depth == 0:
                    return j
        return None

    # -- pieces -----------------------------------------------------------------------------

    def _superscript(self, i: int) -> tuple[str, int] | None:
        """An integer exponent starting at token i (`2`, `-1`, `(-1)`, `(10)`), as
        superscript digits, and the index after it."""
        j = i
        while j < len(self.tokens) and self.tokens[j].kind == "space":
            j += 1
        wrapped = j < len(self.tokens) and self.tokens[j].text == "("
        k = j + 1 if wrapped else j
        sign = ""
        if k < len(self.tokens) and self.tokens[k].text in ("-", "−"):
            sign, k = "-", k + 1
        if k >= len(self.tokens) or not self.tokens[k].text.isdigit():
            return None
        digits = self.tokens[k].text
        k += 1
        if wrapped:
            if k >= len(self.tokens) or self.tokens[k].text != ")":
                return None
            k += 1
        return (sign + digits).translate(_SUPERSCRIPT), k

    def _root(self, sign: str, i: int) -> tuple[str, int] | None:
        """`sqrt(` or `√(` with its `(` at i: `√2`, `√(x + 1)`, and the index after `)`."""
        close = self._matching(i)
        if close is None:
            return None
        inner = _Writer(self.tokens[i + 1 : close]).write().strip()
        if not inner:
            return None
        return sign + (inner if _ATOMIC.fullmatch(inner) else f"({inner})"), close + 1

    def _minus(self, i: int) -> bool:
        """Is the `-` at i a minus sign (not a hyphen, a dash or a bullet)?"""
        before, after = self._prev(i), self._next(i)
        if not (self._starts_operand(after) and self._mathy(after)):
            return False
        if self._ends_operand(before) and self._mathy(before):
            return True  # x - 1, (x+1)-2, f(x) - g(x)
        if i + 1 < len(self.tokens) and self.tokens[i + 1].kind == "space":
            return False  # "- x = 3" as a list item, "roots - both"
        if before is None:
            return True  # -3 at the start of a line
        if self.tokens[before].kind == "word":  # "are -3"; never "non-negative"
            return self.tokens[i - 1].kind == "space"
        return True  # after (, [, =, a comma, ±, :

    def _times(self, i: int, out: list[str]) -> tuple[str, int] | None:
        """A `*` between operands: dropped after a number before a letter (`3x`), else `·`.
        Returns what to write and the index to go on from; None leaves the `*` as it is."""
        before, after = self._prev(i), self._next(i)
        if not (self._ends_operand(before) and self._starts_operand(after)):
            return None
        spaced = before != i - 1 or after != i + 1
        if spaced and not (self._mathy(before) and self._mathy(after)):
            return None  # "the *only* root"
        assert before is not None and after is not None
        left, right = self.tokens[before], self.tokens[after]
        if left.kind == "num" and (
            (right.kind == "word" and right.text[0].isalpha()) or right.text in ("√", "∛", "π")
        ):
            while out and out[-1].isspace():
                out.pop()
            return "", after
        return "·", i + 1

    # -- the pass ---------------------------------------------------------------------------

    def write(self) -> str:
        out: list[str] = []
        tokens = self.tokens
        i = 0
        while i < len(tokens):
            token = tokens[i]
            text = token.text
            if text in ("**", "^"):
                if self._ends_operand(self._prev(i)):
                    power = self._superscript(i + 1)
                    if power is not None:
                        while out and out[-1].isspace():
                            out.pop()
                        out.append(power[0])
                        i = power[1]
                        continue
                    out.append("^")
                    i += 1
                    continue
                out.append(text)
            elif (sign := _root_sign(token)) is not None and self._at(i + 1, "("):
                root = self._root(sign, i + 1)
                if root is None:
                    out.append(text)
                else:
                    out.append(root[0])
                    i = root[1]
                    continue
            elif token.kind == "word" and text in _CONSTANT_WORDS:
                out.append(_CONSTANT_WORDS[text])
            elif text in _COMPARISONS:
                out.append(_COMPARISONS[text])
            elif text == "-":
                out.append("−" if self._minus(i) else "-")
            elif text == "*":
                times = self._times(i, out)
                if times is None:
                    out.append(text)
                else:
                    out.append(times[0])
                    i = times[1]
                    continue
            else:
                out.append(text)
            i += 1
        return "".join(out)

    def _at(self, i: int, text: str) -> bool:
        return i < len(self.tokens) and self.tokens[i].text == text
