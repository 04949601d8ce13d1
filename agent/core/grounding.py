"""Refuse tool calls on math nobody wrote.

Small models, asked "integrate this" with nothing to integrate, tend to invent an expression
(often one from the prompt's examples) instead of asking. A tool call is grounded when its
math shares a variable or a number with what the user said or the tools returned anywhere in
the conversation — the full transcript, not only what the model was shown, so a result a
strategy folded away still grounds a call on it (the model's own tool calls do not count). An ungrounded call is not run: the model gets a tool
error telling it to ask, and decides again.
"""

from __future__ import annotations

import re
from functools import lru_cache

import sympy

from agent.llm.model import ToolStep
from agent.messages import AssistantMessage, Message, ToolCall, to_chat
from tools.errors import ToolError
from tools.parsing import parse_expression

# A call's own math: one equation or expression, or a system's equations.
_MATH_FIELDS = ("equation", "expression", "equations")
_VARIABLE = re.compile(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Single letters that are constants, not variables.
_CONSTANTS = frozenset({"e", "E", "I"})


def _features(text: str) -> tuple[set[str], set[str]]:
    variables = {v for v in _VARIABLE.findall(text) if v not in _CONSTANTS}
    return variables, set(_NUMBER.findall(text))


@lru_cache(maxsize=16384)
def _said_features(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """`_features` of one message's text, read once (a call is checked against every message
    of a long chat)."""
    variables, numbers = _features(text)
    return frozenset(variables), frozenset(numbers)


def _texts(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value or "")


def ungrounded_reason(step: ToolStep, context: list[Message]) -> str | None:
    """Why `step` looks invented, or None when its math appears in the conversation."""
    math = " ".join(_texts(getattr(step, name, None)) for name in _MATH_FIELDS).strip()
    variables, numbers = _features(math)
    if not variables and not numbers:
        return None
    for message in context:
        if isinstance(message, ToolCall):
            continue
        said_variables, said_numbers = _said_features(to_chat(message).content)
        if variables & said_variables or numbers & said_numbers:
            return None
    return (
        f"Not run: '{math}' appears nowhere in the conversation. Do not invent math: ask the "
        "user which expression they mean (message_to_user, PROCESSING)."
    )


# A number as written in an answer: digits with an optional decimal part, not an exponent
# (restating "x^3" states no result).
_STATED_NUMBER = re.compile(r"(?<![A-Za-z_\d.^])(?<!\*\*)\d+(?:\.\d+)?")
# "t³" as the user may type it: the same number as "t^3".
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def stated_numbers(answer: str, request: str) -> list[str]:
    """The numbers an answer states that the request did not write (signs ignored)."""
    written = set(_NUMBER.findall(request.translate(_SUPERSCRIPTS)))
    return list(dict.fromkeys(n for n in _STATED_NUMBER.findall(answer) if n not in written))


# A workspace id cited in an answer ("the roots (#2)", "#2[1]") is a label, not a result.
_ITEM_ID = re.compile(r"#\d+(?:\s*\[\s*-?\d+\s*\])?")


def without_ids(text: str) -> str:
    return _ITEM_ID.sub(" ", text)


def unverified_numbers(answer: str, context: list[Message]) -> list[str]:
    """Numbers an answer states that no tool computed, no call used and the user never wrote.

    A small model often answers "the square of the roots" by itself (9 + 4 = 13) instead of
    calling a tool; every number of a right answer comes from a tool result, the user's own
    words, or the math of a call it made ("5r - 35 = 0" for "the roots of 5r - 35"), so a number
    from nowhere else is the model's arithmetic. The loop then asks it once to compute with a
    tool. Compared as written (7.0 and 7 differ), signs ignored."""
    said = " ".join(
        to_chat(m).content for m in context if not isinstance(m, AssistantMessage)
    ).translate(_SUPERSCRIPTS)
    known = set(_NUMBER.findall(said))
    stated = _STATED_NUMBER.findall(without_ids(answer))
    return list(dict.fromkeys(n for n in stated if n not in known and not _rounded(n, known)))


def _rounded(stated: str, known: set[str]) -> bool:
    """A decimal that rounds a known one to fewer places (0.333 from 0.3333): a person may
    ask for a number of decimals, and the answer is still the tool's."""
    places = len(stated.partition(".")[2])
    if not places:
        return False
    return any(
        len(k.partition(".")[2]) > places and abs(float(k) - float(stated)) <= 0.5 * 10.0**-places
        for k in known
    )


# Arithmetic as an answer writes it out: numbers, operators and brackets, then "= number".
_WRITTEN_ARITHMETIC = re.compile(
    r"(?P<lhs>[-+−(\s\d.)*/^×·]*\d[-+−(\s\d.)*/^×·]*?)\s*=\s*"
    r"(?P<rhs>[-−]?\s*\d+(?:\.\d+)?(?:\s*/\s*\d+)?)(?![\d.]*[A-Za-z(^*])"
)
# An operator between two numbers: "2*3", "(-4) * (-2)", "3^2", "1 + 1".
_OPERATION = re.compile(r"\d\)*\s*(?:[-+−*/^×·]|\*\*)\s*[-−(]*\s*\d")
_WORD = re.compile(r"[A-Za-z]+$")


def miscalculations(answer: str) -> list[str]:
    """Results of arithmetic an answer writes out that SymPy disagrees with.

    A small model shows its own arithmetic ("(-4)*(-2)*(-1)*3 = 24") when it skips the tool,
    and the result it states may still be a number the chat holds (24 was the polynomial's
    constant), so `unverified_numbers` lets it through. Only all-number arithmetic after prose
    or punctuation is checked: "3x + 2*4 = 11" is algebra, not a sum to redo."""
    wrong: list[str] = []
    answer = without_ids(answer)
    for match in _WRITTEN_ARITHMETIC.finditer(answer.replace("**", "^")):
        lhs, rhs = match.group("lhs").strip(), "".join(match.group("rhs").split())
        if not _OPERATION.search(lhs) or not _after_prose(answer.replace("**", "^"), match):
            continue
        shown, stated = _value(lhs), _value(rhs)
        if shown is None or stated is None:
            continue
        decimals = len(rhs.partition(".")[2])
        if abs(shown - stated) > 1e-9 + (0.5 * 10.0**-decimals if decimals else 0.0):
            wrong.append(rhs.replace("−", "-"))
    return list(dict.fromkeys(wrong))


def _after_prose(text: str, match: re.Match[str]) -> bool:
    """The arithmetic starts the text, or follows punctuation or a word (not a variable)."""
    lhs = match.group("lhs")
    before = text[: match.start("lhs") + len(lhs) - len(lhs.lstrip())]
    stripped = before.rstrip()
    if not stripped or stripped[-1] in ":,;(=":
        return True
    word = _WORD.search(stripped)
    return word is not None and len(word.group(0)) >= 2 and before != stripped


def _value(text: str) -> float | None:
    """The number arithmetic on numbers comes to, or None when it is not that."""
    cleaned = text.replace("−", "-").replace("×", "*").replace("·", "*").replace("^", "**")
    if not re.fullmatch(r"[-+*/().\d\s]+", cleaned) or cleaned.count("**") > 3:
        return None
    try:
        value = sympy.sympify(cleaned, evaluate=True)
    except (sympy.SympifyError, SyntaxError, TypeError, ValueError, ZeroDivisionError):
        return None
    if not value.is_number or not value.is_real or value.has(sympy.zoo, sympy.nan):
        return None
    return float(value)


# Words a note must share with what the person wrote: names, and words of four letters or more.
_NOTE_WORD = re.compile(r"[^\W\d_][\w'-]*")


def note_is_grounded(note: str, said: str) -> bool:
    """A note about the person restates their own words: every capitalised word of it (a
    name) and at least one longer word appear in what they wrote. A small model copies the
    prompt's example note ("The user is called Sam") into chats where nobody said so."""
    heard = {w.lower() for w in _NOTE_WORD.findall(said)}
    words = _NOTE_WORD.findall(note)
    names = [w for i, w in enumerate(words) if w[0].isupper() and i > 0]
    if any(name.lower() not in heard for name in names):
        return False
    return any(len(w) >= 4 and w.lower() in heard for w in words)


# Numbers people write as words in a request ("from zero to two"), read as numerals.
_NUMBER_WORDS = {
    word: str(n)
    for n, word in enumerate(
        (
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        )
    )
}


def _numerals(text: str) -> str:
    """`text` with number words from zero to twelve written as digits."""
    return re.sub(r"[A-Za-z]+", lambda m: _NUMBER_WORDS.get(m.group(0).lower(), m.group(0)), text)


def is_number(text: str) -> bool:
    """Text the tools' parser reads as a number (`1`, `-1/2`, `pi`, `sqrt(2)`)."""
    try:
        return not parse_expression(text).free_symbols
    except (ToolError, ValueError, TypeError, RecursionError):
        return False


def unwritten_values(values: list[str], said: str, known: set[str]) -> list[str]:
    """The numbers of a call's bounds or points that the person did not write in this task
    (in digits or as a word) and no result holds ("integrate this" answered with bounds 0
    and 1 nobody gave)."""
    written = set(_NUMBER.findall(_numerals(said).translate(_SUPERSCRIPTS))) | known
    found = [n for v in values for n in _NUMBER.findall(v)]
    return list(dict.fromkeys(n for n in found if n not in written))
