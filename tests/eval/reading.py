"""Reading eval questions back, independently of the generator and of the judge's normaliser.

The tests recompute every expected answer from the question text: a template of the part's
family is turned into a regular expression, the formulas it captures are read by SymPy here.
"""

from __future__ import annotations

import re
import string

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

LETTERS = {c: sp.Symbol(c) for c in string.ascii_letters if c not in "EI"}
_CHAT = (*standard_transformations, implicit_multiplication_application, convert_xor)
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# What each placeholder may capture (anything else: a formula, `.+?`).
_SLOTS = {
    "g": r"[A-Za-z]",
    "v": r"[A-Za-z]",
    "name": r"[A-Za-z]",
    "a": r"-?[\w/.]+",
    "b": r"-?[\w/.]+",
    "k": r"-?\d+",
    "n": r"\d",
    "d": r"\d",
    "ordinal": r"first|second|third",
    "kind": r"quadratic|cubic|quartic",
    "prop": r"larger|smaller|largest|smallest|positive|negative",
    "person": r"\w+",
    "roots": r"-?\d+(?:(?:, | and )-?\d+)*",
}


def read(text: str) -> sp.Expr:
    """SymPy's reading of dataset notation (`-3*j**2 + 9*j`), letters never constants."""
    return sp.sympify(text, locals=LETTERS)


def read_chat(text: str) -> sp.Expr:
    """A chat formula (`3x^2 y`, `t³`, `e^x`, `5 × 3`)."""
    text = re.sub(r"([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", lambda m: "^" + m.group().translate(_SUPER), text)
    text = text.replace("×", "*")
    return parse_expr(text, local_dict={**LETTERS, "e": sp.E}, transformations=_CHAT)


def read_any(text: str) -> sp.Expr:
    return read(text) if "**" in text else read_chat(text)


def pattern(template: str) -> re.Pattern[str]:
    """A template as a regular expression; a placeholder used twice must match the same text."""
    out, seen = "", set()
    for literal, name, _spec, _conversion in string.Formatter().parse(template):
        out += re.escape(literal)
        if name is None:
            continue
        if name in seen:
            out += f"(?P={name})"
        else:
            out += f"(?P<{name}>{_SLOTS.get(name, '.+?')})"
            seen.add(name)
    return re.compile(out)


def matches(templates: tuple[str, ...] | list[str], text: str) -> list[dict[str, str]]:
    """The slots of every template that reads `text` whole."""
    return [m.groupdict() for t in templates if (m := pattern(t).fullmatch(text))]


def equation(text: str) -> sp.Expr:
    """`lhs = rhs` (or a lone polynomial) as one expression equal to zero."""
    lhs, _, rhs = text.partition("=")
    return read_any(lhs) - (read_any(rhs) if rhs.strip() else 0)


def masked(template: str) -> str:
    """A template with its placeholders, numbers and lone letters masked, in lower case."""
    text = re.sub(r"\{[^}]*\}", "□", template)
    text = re.sub(r"\d+", "0", text)
    text = re.sub(r"\b[A-Za-z]\b", "L", text)
    return " ".join(text.lower().split())


def words(template: str) -> list[str]:
    return re.findall(r"[\w'□]+|[^\w\s□]", masked(template))


def edit_distance(a: list[str], b: list[str]) -> int:
    """Words inserted, removed or swapped to turn `a` into `b`."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]
