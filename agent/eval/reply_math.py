"""The math a reply states: its text normalised to SymPy syntax, cut into spans with roles.

Why a module of its own: the judge's kinds (`agent.eval.judge`) all read a reply the same
way, and some need more than numbers: a letter a value is assigned to (`x = 2, y = 1`), the
form an expression was written in (`(x + 2)(x + 3)`, not `x^2 + 5x + 6`), or the equations a
reply states (`y - 4 = 10(x - 2)`).

Roles. A math run is split on "=" and "≈": its first part is what the sentence talks about
(`g(-2)` in `g(-2) = 18`, a restated equation) and is never an answer; after a lone letter
(`x = -3`) the next part is "assigned" (a root, or a point as in `at x = 3`); the last part
after an "=" is the "result" (`18`, also the `0` of a restated equation), parts between are
working (`h(4) = 4^2 - 3*4 = 4`) and parts after it approximate it (`≈ 0.333`). A run without
"=" is "stated" when a marker ("is", "are", "gives", "roots", ":", an assignment...) came
before it in its sentence, unless the word just before it makes it an input ("of", "at",
"from", "to"...); otherwise it is "bare". A run that a word such as "outside", "rejected" or
"discard" is nearest to in its clause (`t = -1 is outside it`, `discarding t = -1`) is
"excluded": a value the reply turns down, not one it offers, and so are the runs listed with
it (`x = -6, x = -3 are outside it`). An interval after "in", "on", "over" (`in [0, 5]`) and a
condition on a letter (`for x > 0`, `2 <= x <= 4`, `x ≠ 3`) give bounds, never answers, and
are dropped; so is a series' `+ O(x^4)`. An expression in a letter approximated by another
(`sin(2x) ≈ 2x - 4x^3/3`) is a subject and its result, like `=`.
`(x, y) = (2, 1)` reads as `x = 2, y = 1`.

Workspace ids (`#2`, `#2[1]`) name objects of the chat and are dropped before anything else.
"""

from __future__ import annotations

import itertools
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

MAX_SPAN = 200  # characters; longer runs are prose or noise, and parsing them costs time
MAX_POWER = 10_000  # product of nested exponents: `9^9^9` would never finish evaluating
_TRANSFORMS = (*standard_transformations, implicit_multiplication_application, convert_xor)
_FUNCTIONS = {"sqrt", "cbrt", "sin", "cos", "tan", "exp", "log", "ln", "pi", "oo", "abs"}
_MARKERS = {"is", "are", "equals", "equal", "gives", "give", "get", "gets", "yields", "be"}
_MARKERS |= {"becomes", "was", "were", "obtain", "root", "roots", "solution", "solutions"}
_MARKERS |= {"zero", "zeros", "zeroes", "answer", "result", "value", "values"}
_MARKERS |= {"maximum", "minimum", "max", "min"}
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
_LONE_LETTER = re.compile(r"\(?[A-Za-z]\)?")
_ASSIGNMENT = re.compile(r"\(?[A-Za-z]\)?\s*[=≈]")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n")
_SUPER = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# Words that turn down the value nearest to them in their clause: "t = -1 is outside it".
_EXCLUDING = re.compile(
    r"\b(?:outside|exclud\w*|reject\w*|discard\w*|extraneous|invalid|unphysical|ignor\w*"
    r"|not (?:valid|physical|allowed|admissible|in the (?:domain|interval)))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Span:
    text: str
    value: sp.Expr
    role: str  # "assigned", "result", "stated", "bare" or "excluded" (module docstring)
    subject: str | None = None  # the letter an assigned value is given to: `x` in `x = 2`


@dataclass(frozen=True)
class _Run:
    """A maximal run of math in a sentence, where it is, and what came before it."""

    text: str
    after_marker: bool
    word_before: str
    start: int
    end: int


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


def _tuple_assignment(match: re.Match[str]) -> str:
    letters, values = match.group(1).split(","), match.group(2).split(",")
    if len(letters) != len(values):
        return match.group()
    return ", ".join(f"{c.strip()} = {v.strip()}" for c, v in zip(letters, values, strict=True))


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
    # "in [0, 5]", "on (0, 2]", "x ∈ [1, oo)": bounds, not answers
    (
        r"(?i)(\b(?:in|on|over|within|interval|domain)\b|∈)\s*"
        r"(?:\[[^\[\]()]*,[^\[\]()]*[\])]|\([^\[\]()]*,[^\[\]()]*\])",
        r" \1 interval ",
    ),
    (r"\+\s*O\s*\((?:[^()]|\([^()]*\))*\)", " "),  # a series' "+ O(x^4)"
    # "for x > 0", "2 <= x <= 4", "x ≠ 3": a condition on a letter, no value of it
    (
        r"(?:-?\d+(?:\.\d+)?\s*(?:<=?|≤)\s*)?(?<![A-Za-z])[A-Za-z]\s*(?:[<>]=?|[≤≥≠]|!=)"
        r"\s*-?\d+(?:\.\d+)?",
        " condition ",
    ),
    # "(x, y) = (2, 1)" gives each letter its value: "x = 2, y = 1"
    (r"\(\s*([A-Za-z](?:\s*,\s*[A-Za-z])+)\s*\)\s*=\s*\(([^()]*)\)", _tuple_assignment),
    # "t = 5 (t = -1 is not physical)": an aside in brackets is a clause of its own
    (r"\s\((?=\s*[A-Za-z]\s*=)", " ; ("),
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


def _runs(text: str, names: set[str]) -> list[_Run]:
    """Maximal runs of math, each with whether a marker came before it and the word before."""
    runs: list[_Run] = []
    current, marker, run_marker, previous_word, run_word = "", False, False, "", ""
    start = 0
    for match in _TOKEN.finditer(text):
        kind, token = match.lastgroup, match.group()
        if kind != "other" and (kind != "word" or _is_math_word(token, names)):
            if not current.strip() and kind != "space":
                run_marker, run_word, start = marker, previous_word, match.start()
                current = ""
            current += token
            continue
        if current.strip():
            runs.append(_Run(current.strip(), run_marker, run_word, start, match.start()))
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
        runs.append(_Run(current.strip(), run_marker, run_word, start, len(text)))
    return runs


_LISTED = re.compile(r"\s*(?:,|,?\s*and|,?\s*or)\s*")


def _excluded(sentence: str, runs: list[_Run]) -> set[int]:
    """The runs a turning-down word is nearest to in its clause (no ";" between them), with
    the runs listed beside that one (`x = -6, x = -3 are outside it`)."""
    out = set()
    for word in _EXCLUDING.finditer(sentence):
        gaps = []
        for i, run in enumerate(runs):
            if not re.search(r"[0-9A-Za-z]", run.text):  # a bracket left over
                continue
            if run.end <= word.start():
                between = sentence[run.end : word.start()]
            elif run.start >= word.end():
                between = sentence[word.end() : run.start]
            else:
                continue
            if ";" not in between:
                gaps.append((len(between), run.start > word.start(), i))
        if not gaps:
            continue
        _, after, nearest = min(gaps)
        step = 1 if after else -1
        out.add(nearest)
        i = nearest
        while 0 <= i + step < len(runs):
            left, right = sorted((runs[i], runs[i + step]), key=lambda r: r.start)
            if not _LISTED.fullmatch(sentence[left.end : right.start]):
                break
            i += step
            out.add(i)
    return out


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


def _names(expected: list[sp.Expr] | None) -> dict[str, sp.Expr]:
    """Letters are symbols, `e` and `i` SymPy's constants, `E` too when an answer has it."""
    names: dict[str, sp.Expr] = {c: sp.Symbol(c) for c in string.ascii_letters}
    names.update(e=sp.E, i=sp.I)
    if any(e.has(sp.E) or e.has(sp.exp) for e in expected or []):
        names["E"] = sp.E
    return names


def _sentences(reply: str) -> list[str]:
    """The normalised reply's sentences, `±` read both ways."""
    return [
        sentence
        for variant in _variants(normalise(reply))
        for sentence in _SENTENCE_END.split(variant)
    ]


def _letters(expected: list[sp.Expr] | None) -> set[str]:
    free = set().union(*(e.free_symbols for e in expected or []))
    return {s.name for s in free if len(s.name) == 1}


def spans(reply: str, expected: list[sp.Expr] | None = None, request: str = "") -> list[Span]:
    """Every math span of the reply with its role; letters of `expected` may form words.
    Math the reply copies from the `request` with the word before it ("the equation that had
    solutions 1 and 4") restates the question: it gives no span, so it is never an answer."""
    names, letters = _names(expected), _letters(expected)
    asked = _phrases(request, letters)
    found: list[Span] = []
    for sentence in _sentences(reply):
        found += _sentence_spans(sentence, letters, names, asked)
    return found


def _phrases(request: str, letters: set[str]) -> set[tuple[str, str]]:
    """The request's runs of math with the word before each (`("solutions", "1")`)."""
    return {
        (run.word_before, run.text)
        for sentence in _sentences(request)
        for run in _runs(sentence, letters)
        if run.word_before
    }


def _sentence_spans(
    sentence: str, letters: set[str], names: dict[str, sp.Expr], asked: set[tuple[str, str]]
) -> list[Span]:
    """The spans of one sentence. One value assigned after a marker ("the smallest root is
    s = -3") states it; several ("the roots are k = -4 and k = -1") list, not pick."""
    found: list[Span] = []
    runs = _runs(sentence, letters)
    excluded = _excluded(sentence, runs)
    echoed = {i for i, run in enumerate(runs) if (run.word_before, run.text) in asked}
    for index, run in enumerate(runs):
        if index in echoed:
            continue
        pieces = re.split(r"([=≈])", run.text)
        parts, signs = [_clean(p) for p in pieces[::2]], pieces[1::2]
        if "=" not in signs and len(parts) > 1 and _has_letters(parts[0], names):
            signs = ["=" if sign == "≈" else sign for sign in signs]  # `sin(2x) ≈ 2x - ...`
        roles = _roles(parts, signs, run.after_marker, run.word_before)
        for i, (part, role) in enumerate(zip(parts, roles, strict=True)):
            value = _parse(part, names) if role not in ("subject", "step") else None
            if value is None:
                continue
            subject = _subject(parts, i, role)
            found.append(Span(part, value, "excluded" if index in excluded else role, subject))
    picked = [s for s in found if s.role == "picked"]
    role = "stated" if len({sp.sstr(s.value) for s in picked}) == 1 else "assigned"
    return [Span(s.text, s.value, role, s.subject) if s.role == "picked" else s for s in found]


def _subject(parts: list[str], i: int, role: str) -> str | None:
    """The letter part `i` is a value of: `x` in `x = 2`, and in `y = 3 - x = 1` for the 1."""
    if role in ("assigned", "picked"):
        return parts[i - 1].strip("()")
    if role == "result" and _LONE_LETTER.fullmatch(parts[0]):
        return parts[0].strip("()")
    return None


def _has_letters(part: str, names: dict[str, sp.Expr]) -> bool:
    """Whether a part is an expression in some letter (`exp(2*x)`), not a number."""
    value = _parse(part, names)
    return value is not None and bool(value.free_symbols)


def relations(reply: str, expected: list[sp.Expr] | None = None) -> list[tuple[sp.Expr, sp.Expr]]:
    """The equations a reply states, as (left, right) pairs of neighbouring sides of an "="
    (`y - 4 = 10(x - 2)`); runs a turning-down word points at are left out."""
    names, letters = _names(expected), _letters(expected)
    pairs = []
    for sentence in _sentences(reply):
        runs = _runs(sentence, letters)
        excluded = _excluded(sentence, runs)
        for index, run in enumerate(runs):
            if index in excluded:
                continue
            sides = [_parse(_clean(side), names) for side in re.split(r"[=≈]", run.text)]
            pairs += [
                (left, right)
                for left, right in itertools.pairwise(sides)
                if left is not None and right is not None
            ]
    return pairs


def written(text: str, expected: list[sp.Expr] | None = None) -> sp.Expr | None:
    """A span as it was written, unevaluated: `(x + 2)(x + 3)` stays a product."""
    if _parse(text, _names(expected)) is None:  # the checks on size and characters
        return None
    try:
        shape = parse_expr(
            text, local_dict=_names(expected), transformations=_TRANSFORMS, evaluate=False
        )
    except Exception:
        return None
    return shape if isinstance(shape, sp.Expr) else None


def answers(found: list[Span], roles: tuple[str, ...]) -> list[Span]:
    """The spans in `roles`, or the bare ones when there are none."""
    chosen = [s for s in found if s.role in roles]
    return chosen or [s for s in found if s.role == "bare"]
