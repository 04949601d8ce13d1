"""Facts: the numbers, roots and expressions a piece of chat text states.

One extractor serves two purposes, so they can never disagree:

- the safety check of every strategy (a compacted history must still state every fact of the
  final answers and tool results it replaced; a summary that drops one is rejected), and
- the benchmark's retention measure (are the facts a back-referring question needs present in
  the context actually sent to the LLM?).

Text is cut into segments at prose and separators (`=`, `,`, `;`, `:`, `≈`, brackets of
lists, English words, a space between two operands); a segment that holds a digit outside a
name, or an operator between names, is a fact. Facts are normalised so spelling does not
matter: no spaces, `^` and `**` both become `**`, implicit products made explicit (`5x` ->
`5*x`), a leading `+` and wrapping parentheses dropped, Unicode minus/times/roots/superscripts
folded to ASCII, and the terms of a sum put in a fixed order (SymPy prints "9 - x**2" for what
the user typed as "-x^2 + 9"). Matching is by whole segment: "-3" is found in "x = -3" and "[-3, -2]", never
inside "x - 3" or "13", so a retention check cannot pass by accident.

Decimal approximations after `≈` are skipped: tools add them next to the exact value, and a
summary that keeps "1/3" but not "≈ 0.3333" has lost nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

# Names that belong to math, not prose; any other word of two or more letters is prose.
MATH_WORDS = frozenset(
    {
        "sqrt", "cbrt", "pi", "oo", "inf", "sin", "cos", "tan", "cot", "sec", "csc",
        "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "ln", "log10", "log2",
        "abs", "factorial", "gamma", "theta", "alpha", "beta", "lambda", "mu", "sigma",
        "phi", "omega", "tau", "zoo",
    }
)  # fmt: skip

_UNICODE = str.maketrans(
    {
        "−": "-", "–": "-", "—": "-", "×": "*", "·": "*", "⋅": "*", "÷": "/",
        "²": "^2", "³": "^3", "⁴": "^4", "π": "pi", "∞": "oo",
    }
)  # fmt: skip
_TOKEN = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<op>\*\*|[-+*/^])"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<approx>≈)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.DOTALL,
)
_FUNCTIONS = MATH_WORDS - {
    "pi",
    "oo",
    "inf",
    "zoo",
    "theta",
    "alpha",
    "beta",
    "lambda",
    "mu",
    "sigma",
    "phi",
    "omega",
    "tau",
}
_VARIABLE = re.compile(r"[A-Za-z]\d*|[A-Za-z]_[A-Za-z0-9]+")
_IMPLICIT = re.compile(r"(?<=[\d)])(?=[A-Za-z(])")
_ROOT_SIGN = re.compile(r"√(\d+(?:\.\d+)?|[A-Za-z])")
_NAME_RUN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def _is_math_name(name: str) -> bool:
    return name in MATH_WORDS or _VARIABLE.fullmatch(name) is not None


def _strip_parens(segment: str) -> str:
    """Drop unmatched brackets at the ends and brackets that wrap the whole segment."""
    while segment.startswith("(") and segment.count("(") > segment.count(")"):
        segment = segment[1:]
    while segment.endswith(")") and segment.count(")") > segment.count("("):
        segment = segment[:-1]
    while segment.startswith("(") and segment.endswith(")") and _wraps(segment):
        segment = segment[1:-1]
    return segment


def _wraps(segment: str) -> bool:
    depth = 0
    for i, ch in enumerate(segment):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(segment) - 1:
            return False
    return depth == 0


@lru_cache(maxsize=8192)
def normalize(segment: str) -> str:
    """Canonical spelling of one math segment (spacing, powers, implicit products)."""
    text = segment.translate(_UNICODE).replace("√", "sqrt")
    text = re.sub(r"\s+", "", text).replace("^", "**")
    text = _IMPLICIT.sub("*", text)
    text = text.strip("*/")
    while text.endswith(("+", "-")):
        text = text[:-1]
    text = text.lstrip("+")
    return _sorted_terms(_strip_parens(text))


def _sorted_terms(text: str) -> str:
    """Order the top-level terms of a sum, so "9 - x^2" and "-x^2 + 9" are one fact."""
    terms: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and ch in "+-" and i > 0 and text[i - 1] not in "*/(":
            terms.append(text[start:i])
            start = i
    if not terms:
        return text
    terms.append(text[start:])
    signed = sorted(t if t.startswith(("+", "-")) else "+" + t for t in terms)
    return "".join(signed).removeprefix("+")


def _is_fact(segment: str) -> bool:
    """A digit outside names (3, x**2, 4*x+4), or an operation on names (a*b, sqrt(x))."""
    if not segment:
        return False
    bare = _NAME_RUN.sub("", segment)
    if any(ch.isdigit() for ch in bare):
        return True
    return any(op in bare for op in "+-*/(") and _NAME_RUN.search(segment) is not None


def _segments(text: str) -> list[str]:
    """Raw math runs of `text`, cut at prose, separators and spaces between operands."""
    segments: list[str] = []
    current: list[str] = []
    last = ""  # kind of the previous meaningful token in the current run
    pending_space = False
    skip_number = False

    def flush() -> None:
        nonlocal last, pending_space
        if current:
            segments.append("".join(current))
            current.clear()
        last = ""
        pending_space = False

    text = _ROOT_SIGN.sub(r"sqrt(\1)", text.translate(_UNICODE)).replace("√", "sqrt ")
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup or "other"
        value = match.group()
        if kind == "space":
            pending_space = bool(current)
            continue
        if kind == "approx":
            flush()
            skip_number = True
            continue
        if skip_number:
            # The decimal right after "≈" (and a sign before it) is an approximation.
            if kind == "op" and value == "-":
                continue
            skip_number = False
            if kind == "num":
                continue
        if kind == "name" and not _is_math_name(value):
            flush()
            continue
        if kind == "other":
            flush()
            continue
        operand = kind in ("num", "name", "open")
        if operand and pending_space and last in ("num", "name", "close"):
            flush()
        current.append(value)
        last = "function" if kind == "name" and value in _FUNCTIONS else kind
        pending_space = False
    flush()
    return segments


@lru_cache(maxsize=8192)
def extract_facts(text: str) -> frozenset[str]:
    """Normalised facts stated in `text` (cached: strategies check the same texts often)."""
    facts = set()
    for raw in _segments(text):
        segment = normalize(raw)
        if _is_fact(segment):
            facts.add(segment)
    return frozenset(facts)


def facts_of(texts: Iterable[str]) -> frozenset[str]:
    """Union of the facts of several texts (each extracted on its own)."""
    found: set[str] = set()
    for text in texts:
        found |= extract_facts(text)
    return frozenset(found)


def missing_facts(required: Iterable[str], texts: Iterable[str]) -> list[str]:
    """Facts of `required` that none of `texts` states, in order (each listed once)."""
    present = facts_of(texts)
    seen: set[str] = set()
    missing = []
    for fact in required:
        if normalize(fact) not in present and fact not in seen:
            missing.append(fact)
            seen.add(fact)
    return missing


def is_distinctive(fact: str) -> bool:
    """Worth matching a question against: an expression with a name, or a number that is not
    a small integer (small integers appear everywhere and would recall everything)."""
    if _NAME_RUN.search(fact):
        return True
    digits = fact.lstrip("-")
    return not (digits.isdigit() and len(digits) == 1)
