"""Chat text -> a whitelist of tokens; any other character is refused with its position
(see `tools.parsing`)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import sympy as sp

from tools import limits
from tools.errors import LimitError, ParseError
from tools.vocabulary import (
    _CHAR_TOKENS,
    _CODE_WORDS,
    _INFINITY_WORDS,
    _NUMBER_RE,
    _PREFIX_NAMES,
    _SUPERSCRIPTS,
    _WHY_REJECTED,
    _WORD_RE,
    CONSTANTS,
    DEGREE_WORDS,
    FUNCTIONS,
    GREEK_LETTERS,
    GREEK_NAMES,
    LOG_BASE,
)

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
            after_number = bool(tokens) and tokens[-1].kind in ("num", ")")
            if after_number and match.group(0) in DEGREE_WORDS:  # `30 degrees` is `30°`
                tokens.append(Token("°", match.group(0), i, "°"))
            else:
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
    _check_degree_signs(text, tokens)
    return tokens


def _check_degree_signs(text: str, tokens: list[Token]) -> None:
    """``30°C`` is refused: a temperature, not an angle."""
    for sign, after in itertools.pairwise(tokens):
        if sign.kind == "°" and after.kind == "name" and after.pos == sign.pos + 1:
            raise _fail(
                text,
                f"'°{after.text}' at position {sign.pos} is not an angle ('°' alone is degrees)",
            )


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
    if LOG_BASE.fullmatch(word):
        return [Token("func", word, pos, word)]
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


def split_top_level(text: str) -> list[str]:
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
