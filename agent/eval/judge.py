"""Judge the agent's final answer text with SymPy, the way a reader checks it.

The reply is free text from a small model ("The roots of x^2 + 5x + 6 = 0 are x = -3 and
x = -2.", "x = -5/2 ± √13/2", "∫₀¹ x² dx = 1/3 ≈ 0.333", leftover `\\frac{1}{3}`), so string
matching would fail right answers written differently and pass wrong ones that merely restate
the question. Instead the text is normalised to SymPy syntax, cut into math spans that each
get a role, and each expectation kind compares the spans that state something with the
expected answer by value.

Roles. A math run is split on "=" and "≈": its first part is what the sentence talks about
(`g(-2)` in `g(-2) = 18`, a restated equation) and is never an answer; after a lone letter
(`x = -3`) the next part is "assigned" (a root, or a point as in `at x = 3`); the last part
after an "=" is the "result" (`18`, also the `0` of a restated equation), parts between are
working (`h(4) = 4^2 - 3*4 = 4`) and parts after it approximate it (`≈ 0.333`). A run without
"=" is "stated" when a marker ("is", "are", "gives", "roots", ":", an assignment...) came
before it in its sentence, unless the word just before it makes it an input ("of", "at",
"from", "to"...); otherwise it is "bare". Kinds look at what states something; when a reply
states nothing that way (a lone "6·o − 48·o²"), its bare spans count instead.

Workspace ids (`#2`, `#2[1]`) name objects of the chat and are dropped before anything else.

Roots: the offered roots are the assigned and the stated numbers, or failing both the bare
ones; so the numbers of a restated equation (`x^2 + 5x + 6 = 0`) are never offered roots.
Every expected root must be offered, and every offered number must be an expected root.
Values: every expected number is a result or stated; other numbers may be there too.
"""

from __future__ import annotations

import math
import random
import re
import string
from dataclasses import dataclass
from typing import Any

import sympy as sp
from sympy.parsing.sympy_parser import (
    convert_xor,
    implicit_multiplication_application,
    parse_expr,
    standard_transformations,
)

from agent.eval.cases import Expected

MAX_SPAN = 200  # characters; longer runs are prose or noise, and parsing them costs time
MAX_POWER = 10_000  # product of nested exponents: `9^9^9` would never finish evaluating
_TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)
_FUNCTIONS = {"sqrt", "cbrt", "sin", "cos", "tan", "exp", "log", "ln", "pi", "oo", "abs"}
_MARKERS = {"is", "are", "equals", "equal", "gives", "give", "get", "gets", "yields", "be"}
_MARKERS |= {"becomes", "was", "were", "obtain", "root", "roots", "solution", "solutions"}
_MARKERS |= {"zero", "zeros", "zeroes", "answer", "result", "value", "values"}
_INPUT_WORDS = {"of", "at", "from", "to", "for", "when", "if", "where", "with", "between", "in"}
_INPUT_WORDS |= {"on", "integral", "derivative", "integrate", "differentiate", "solve", "plug"}
# "evaluates to 0", "adds up to -4": a "to" after one of these states a result (in "from 0 to
# 1" it reads a bound).
_RESULT_VERBS = {"evaluates", "comes", "simplifies", "amounts", "reduces", "equal", "up", "out"}
_RESULT_VERBS |= {"sums", "adds", "works", "goes", "totals"}
# Words a run of math may contain that are not single letters: function names, and in
# expression answers products written as one word ("2xy"), except these common words.
_ENGLISH = {"at", "as", "an", "in", "is", "it", "of", "on", "or", "to", "be", "by", "so", "we"}
_ENGLISH |= {"no", "do", "if", "up", "us", "am", "and", "the", "its", "has", "was", "are"}
_TOKEN = re.compile(
    r"(?P<num>\d+(?:\.\d+)?)|(?P<word>[A-Za-z]+)|(?P<op>\*\*|[-+*/^()])|(?P<eq>[=≈])"
    r"|(?P<space>[ \t]+)|(?P<other>.)",
    re.S,
)
_SAFE = re.compile(r"[0-9A-Za-z.+\-*/^() ]+")
_DECIMAL = re.compile(r"[-+]?\d*\.(\d+)")
_LONE_LETTER = re.compile(r"\(?[A-Za-z]\)?")
_ASSIGNMENT = re.compile(r"\(?[A-Za-z]\)?\s*[=≈]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")


@dataclass(frozen=True)
class Verdict:
    ok: bool
    why: str


@dataclass(frozen=True)
class _Span:
    text: str
    value: sp.Expr
    role: str  # "assigned", "result", "stated" or "bare" (module docstring)


# --- normalising the text --------------------------------------------------------------------

_LATEX_WORDS = {
    r"\cdots": " ", r"\ldots": " ", r"\dots": " ", r"\cdot": "*", r"\times": "*",
    r"\ast": "*", r"\div": "/", r"\pi": " pi ", r"\infty": " oo ", r"\pm": "±", r"\mp": "±", r"\approx": "≈", r"\int": "∫",
    r"\left": "", r"\right": "", r"\displaystyle": "", r"\,": " ", r"\;": " ", r"\!": "",
}  # fmt: skip
_UNICODE = {
    "−": "-", "–": "-", "﹣": "-", "－": "-", "·": "*", "×": "*", "⋅": "*", "∙": "*", "∗": "*",
    "÷": "/", "π": " pi ", "∞": " oo ", "≃": "≈", "≅": "≈", "∓": "±", "+/-": "±", "+-": "±",
    "->": "=", "=>": "=", "→": "=", "⇒": "=", "⟹": "=", "½": "(1/2)", "⅓": "(1/3)",
    "⅔": "(2/3)", "¼": "(1/4)", "¾": "(3/4)", "∂": "d", "\u00a0": " ",
}  # fmt: skip


_BRACES = (  # innermost braces first: `\frac{-5 \pm \sqrt{13}}{2}` takes two rounds
    (r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"((\1)/(\2))"),
    (r"\\sqrt\s*\[([^\]]*)\]\s*\{([^{}]*)\}", r"((\2)**(1/(\1)))"),
    (r"\\sqrt\s*\{([^{}]*)\}", r"sqrt(\1)"),
    (r"([\^_])\s*\{([^{}]*)\}", r"\1(\2)"),
)
_REWRITES: tuple[tuple[str, Any], ...] = (
    # Workspace ids are labels, not numbers offered: "(#2)", "#12", "#3's roots"; one that is
    # given a value ("#2[1] = -3") reads as a letter would ("r = -3").
    (r"#\d+(?:\[\d+\])*(?=\s*=(?!=))", " r "),
    (r"\(\s*#\d+(?:\[\d+\])*\s*\)|#\d+(?:\[\d+\])*(?:'s)?", " "),
    (r"(?m)^[ \t]*(?:[-*•]|\d+[.)])[ \t]+", ""),  # list bullets: "- x = -3", "1. x = -3"
    (r"∫[₀-₉₋]*[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]*", " integral "),  # the bounds of ∫₀¹ are no answer
    (r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+", lambda m: f"^({m.group().translate(_SUPER)})"),
    (r"√\s*(\d+(?:\.\d+)?|[A-Za-z])", r"sqrt(\1)"),
    (r"∛\s*(\d+(?:\.\d+)?|[A-Za-z])", r"cbrt(\1)"),
    ("√", "sqrt"),
    ("∛", "cbrt"),
    (r"(?<![A-Za-z])d(\^\(?\d+\)?)?\s*/\s*d[A-Za-z](\^\(?\d+\)?)?", " derivative "),  # d²/dx²
    (r"(?<![A-Za-z])[A-Za-z]('+|[′″]+)(?![a-z])\s*(\([^()]*\))?", " derivative "),  # f'(x)
    (r"[₀-₉]+|(?<=[A-Za-z])_\(?\d+\)?", ""),  # x₁ = -3, x_1 = -3: a root
    (r"\b\d+(?:st|nd|rd|th)\b", " "),  # "3rd derivative": not a number
    (r"\b\d{1,3}(?:,\d{3})+\b(?![.,]\d)", lambda m: m.group().replace(",", "")),  # 20,628
    (r"sqrt\s*(\d+)", r"sqrt(\1)"),
)


def _latex(text: str) -> str:
    """LaTeX leftovers to plain math: `\\frac{a}{b}` -> `((a)/(b))`, `x^{2}` -> `x^(2)`."""
    text = re.sub(r"\\[()\[\]]|\$", " ", text)
    text = re.sub(r"\\(?:text|mathrm|operatorname)\s*\{([^{}]*)\}", r" \1 ", text)
    for command, plain in _LATEX_WORDS.items():
        text = text.replace(command, plain)
    for _ in range(20):
        before = text
        for pattern, replacement in _BRACES:
            text = re.sub(pattern, replacement, text)
        if text == before:
            break
    text = re.sub(r"\\([A-Za-z]+)", r" \1 ", text)  # \sin -> sin; unknown commands -> words
    return text.replace("{", "(").replace("}", ")")


def normalise(text: str) -> str:
    """Unicode, LaTeX and notation for people (`d/dx`, `f'(x)`, `x₁`) to SymPy-readable text."""
    text = _latex(text)
    for symbol, plain in _UNICODE.items():
        text = text.replace(symbol, plain)
    for pattern, replacement in _REWRITES:
        text = re.sub(pattern, replacement, text)
    return text


def _variants(text: str) -> list[str]:
    """`a ± b` states two values: the text with every ± read as + and as -."""
    return [text.replace("±", "+"), text.replace("±", "-")] if "±" in text else [text]


# --- cutting it into spans -------------------------------------------------------------------


def _is_math_word(word: str, names: set[str]) -> bool:
    if len(word) == 1 or word in _FUNCTIONS:
        return True
    return len(word) <= 4 and word.lower() not in _ENGLISH and set(word) <= names


def _runs(text: str, names: set[str]) -> list[tuple[str, bool, str]]:
    """Maximal runs of math: (text, a marker came before it in the sentence, word before it)."""
    runs: list[tuple[str, bool, str]] = []
    current, marker, run_marker, previous_word, run_word = "", False, False, "", ""
    for match in _TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind != "other" and (kind != "word" or _is_math_word(token, names)):
            if not current.strip() and kind != "space":
                run_marker, run_word = marker, previous_word
            current += token
            continue
        if current.strip():
            runs.append((current.strip(), run_marker, run_word))
            marker = marker or _ASSIGNMENT.match(current.strip()) is not None  # "x = -3, -2"
        current = ""
        if kind == "word":
            word = token.lower()
            if word == "to" and previous_word in _RESULT_VERBS:
                marker, word = True, ""
            marker, previous_word = marker or word in _MARKERS, word
        else:
            marker = (marker or token == ":") and token not in ".!?\n"
            previous_word = ""
    if current.strip():
        runs.append((current.strip(), run_marker, run_word))
    return runs


def _clean(part: str) -> str:
    """Drop dangling operators and unmatched parentheses left where prose cut the math."""
    part = part.strip()
    for _ in range(10):
        before = part
        part = re.sub(r"^[*/^)]+|[-+*/^(]+$", "", part).strip()
        if part.startswith("(") and part.count("(") > part.count(")"):
            part = part[1:].strip()
        if part.endswith(")") and part.count(")") > part.count("("):
            part = part[:-1].strip()
        if part == before:
            break
    return part


def _parse(text: str, names: dict[str, sp.Expr]) -> sp.Expr | None:
    """SymPy's reading of one span, or None; never raises, refuses huge powers."""
    if not text or len(text) > MAX_SPAN or not _SAFE.fullmatch(text):
        return None
    try:
        shape = parse_expr(
            text, local_dict=dict(names), transformations=_TRANSFORMS, evaluate=False
        )
        if _power_size(shape) > MAX_POWER:
            return None
        value = parse_expr(text, local_dict=dict(names), transformations=_TRANSFORMS)
    except Exception:
        return None
    return value if isinstance(value, sp.Expr) else None


def _power_size(expr: sp.Basic) -> float:
    """How large the exponents of an unevaluated expression multiply up to (`(2^9)^9`: 81)."""
    if isinstance(expr, sp.Pow):
        exponent = _power_size(expr.exp)
        if exponent > MAX_POWER or not expr.exp.is_number:
            return exponent
        return max(_power_size(expr.base), 1.0) * max(abs(float(expr.exp)), 1.0)
    return max((_power_size(arg) for arg in expr.args), default=1.0)


def _roles(parts: list[str], signs: list[str], after_marker: bool, word_before: str) -> list[str]:
    """The role of each part of one run; `signs[i]` is the "=" or "≈" before `parts[i + 1]`."""
    if len(parts) == 1 or ("=" not in signs and not _LONE_LETTER.fullmatch(parts[0])):
        # A lone value, or one with its decimal approximation: "is -73/6 ≈ -12.17".
        stated = after_marker and word_before not in _INPUT_WORDS
        return ["stated" if stated else "bare"] * len(parts)
    # `h(4) = 4^2 - 3*4 = 4 ≈ 4.0`: the last part after "=" is the answer, the ones before it
    # are working ("step"), the ones after it approximate it.
    final = max((i + 1 for i, sign in enumerate(signs) if sign == "="), default=1)
    roles = ["subject"]
    for i in range(1, len(parts)):
        if _LONE_LETTER.fullmatch(parts[i]):
            roles.append("subject")
        elif _LONE_LETTER.fullmatch(parts[i - 1]):
            # "the smallest root is s = -3" states it; "at x = 3" gives an input
            stated = i == 1 and after_marker and word_before not in _INPUT_WORDS
            roles.append("picked" if stated else "assigned")
        else:
            roles.append("step" if i < final else "result")
    return roles


def spans(reply: str, expected: list[sp.Expr] | None = None) -> list[_Span]:
    """Every math span of the reply with its role; letters of `expected` may form words."""
    free = set().union(*(e.free_symbols for e in expected or []))
    names: dict[str, sp.Expr] = {c: sp.Symbol(c) for c in string.ascii_letters}
    names.update(e=sp.E, i=sp.I)
    if any(e.has(sp.E) or e.has(sp.exp) for e in expected or []):
        names["E"] = sp.E
    letters = {s.name for s in free if len(s.name) == 1}
    found: list[_Span] = []
    for variant in _variants(normalise(reply)):
        for sentence in _SENTENCE_END.split(variant):
            found += _sentence_spans(sentence, letters, names)
    return found


def _sentence_spans(sentence: str, letters: set[str], names: dict[str, sp.Expr]) -> list[_Span]:
    """The spans of one sentence. One value assigned after a marker ("the smallest root is
    s = -3") states it; several ("the roots are k = -4 and k = -1") list, not pick."""
    found: list[_Span] = []
    for run, after_marker, word_before in _runs(sentence, letters):
        pieces = re.split(r"([=≈])", run)
        parts, signs = [_clean(p) for p in pieces[::2]], pieces[1::2]
        roles = _roles(parts, signs, after_marker, word_before)
        for part, role in zip(parts, roles, strict=True):
            value = _parse(part, names) if role not in ("subject", "step") else None
            if value is not None:
                found.append(_Span(part, value, role))
    picked = [s for s in found if s.role == "picked"]
    role = "stated" if len({sp.sstr(s.value) for s in picked}) == 1 else "assigned"
    return [_Span(s.text, s.value, role) if s.role == "picked" else s for s in found]


def _answers(found: list[_Span], roles: tuple[str, ...]) -> list[_Span]:
    """The spans in `roles`, or the bare ones when there are none."""
    chosen = [s for s in found if s.role in roles]
    return chosen or [s for s in found if s.role == "bare"]


# --- comparing values ------------------------------------------------------------------------


def _same(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal as expressions: exactly after expansion, or numerically at a few points."""
    try:
        difference = a - b
        if difference == 0 or sp.expand(difference) == 0:
            return True
        symbols = sorted(difference.free_symbols, key=lambda s: s.name)
        rng = random.Random(0)
        checked = 0
        for _ in range(5):
            point = {s: sp.Float(rng.uniform(-2.5, 2.5)) for s in symbols}
            try:
                gap = complex(difference.evalf(30, subs=point))
                scale = complex(b.evalf(30, subs=point))
            except (TypeError, ValueError):  # a pole or a symbol left over
                continue
            if not (math.isfinite(abs(gap)) and math.isfinite(abs(scale))):
                continue
            if abs(gap) > 1e-9 * max(1.0, abs(scale)):
                return False
            checked += 1
        return checked >= 2 or (not symbols and checked == 1)
    except Exception:
        return False


def _close(span: _Span, target: sp.Expr, strict: bool) -> bool:
    """A decimal as good as its digits: 0.333 states 1/3; strict wants 3 significant digits."""
    decimal = _DECIMAL.fullmatch(span.text.replace(" ", ""))
    if decimal is None or not target.is_number:
        return False
    try:
        shown, exact = float(span.text.replace(" ", "")), float(target.evalf(30))
    except (TypeError, ValueError):
        return False
    if abs(shown - exact) <= 1e-6 * max(1.0, abs(exact)):
        return True
    places = len(decimal.group(1))
    if strict and len(decimal.group().lstrip("+-").replace(".", "").lstrip("0")) < 3:
        return False
    unit = 10.0**-places
    truncated = math.trunc(exact / unit) * unit
    return abs(shown - exact) <= unit / 2 + 1e-12 or abs(shown - truncated) <= 1e-12


def _states(found: list[_Span], target: sp.Expr, strict: bool = True) -> _Span | None:
    for span in found:
        if _same(span.value, target) or _close(span, target, strict):
            return span
    return None


# --- the kinds -------------------------------------------------------------------------------


def _judge_roots(found: list[_Span], expected: list[sp.Expr]) -> Verdict:
    offered = [s for s in _answers(found, ("assigned", "stated")) if s.value.is_number]
    if not offered:
        return Verdict(False, "no roots are stated")
    for root in expected:
        if _states(offered, root) is None:
            return Verdict(False, f"the root {root} is not stated")
    for span in offered:
        if not any(_same(span.value, r) or _close(span, r, strict=False) for r in expected):
            return Verdict(False, f"{span.text} is offered as a root but is not one")
    return Verdict(True, f"states the roots {', '.join(map(str, expected))} and no other")


def _judge_expression(found: list[_Span], target: sp.Expr) -> Verdict:
    span = _states(_answers(found, ("result", "assigned", "stated")), target)
    if span is None:
        return Verdict(False, f"no expression equal to {target} is stated")
    return Verdict(True, f"states {sp.sstr(span.value)}, equal to {target}")


def _judge_antiderivative(found: list[_Span], integrand: sp.Expr, variable: str | None) -> Verdict:
    names = sorted(s.name for s in integrand.free_symbols)
    v = sp.Symbol(variable or (names[0] if names else "x"))
    for span in _answers(found, ("result", "assigned", "stated")):
        if span.value.has(v) and _same(sp.diff(span.value, v), integrand):
            return Verdict(
                True, f"states {sp.sstr(span.value)}, whose derivative in {v} is {integrand}"
            )
    return Verdict(False, f"no expression whose derivative in {v} is {integrand} is stated")


def _judge_values(found: list[_Span], targets: list[sp.Expr]) -> Verdict:
    candidates = _answers(found, ("result", "stated"))
    for target in targets:
        if _states(candidates, target) is None:
            return Verdict(False, f"{target} is not stated")
    return Verdict(True, f"states {', '.join(map(str, targets))}")


def _expected_values(expected: Expected) -> list[sp.Expr]:
    """The expected texts as SymPy objects (E and I are SymPy's constants there)."""
    names = {c: sp.Symbol(c) for c in string.ascii_letters if c not in "EI"}
    return [sp.sympify(text, locals=names) for text in expected.answers]


def judge(reply: str, asked_back: bool, expected: Expected) -> Verdict:
    """Whether the reply a person reads answers the turn as `expected` says; never raises."""
    try:
        return _judge(reply, asked_back, expected)
    except Exception as error:  # a reply that breaks the judge is not a right answer
        return Verdict(False, f"could not judge the reply ({type(error).__name__})")


def _judge(reply: str, asked_back: bool, expected: Expected) -> Verdict:
    if not isinstance(reply, str) or not reply.strip():
        return Verdict(False, "the reply is empty")
    if expected.kind == "asks":
        if asked_back:
            return Verdict(True, "asks back what to do")
        return Verdict(False, "answers instead of asking back")
    if asked_back:
        return Verdict(False, "asks back instead of answering")
    targets = _expected_values(expected)
    if not targets:
        return Verdict(False, f"the expectation {expected.kind} lists no answer")
    found = spans(reply, targets)
    if expected.kind == "roots":
        return _judge_roots(found, targets)
    if expected.kind == "expression":
        return _judge_expression(found, targets[0])
    if expected.kind == "antiderivative":
        return _judge_antiderivative(found, targets[0], expected.variable)
    if expected.kind in ("value", "values"):
        return _judge_values(found, targets)
    return Verdict(False, f"unknown expectation kind {expected.kind!r}")
