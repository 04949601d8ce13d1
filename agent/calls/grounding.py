"""Refuse tool calls on math nobody wrote.

Small models, asked "integrate this" with nothing to integrate, tend to invent an expression
(often one from the prompt's examples) instead of asking. A tool call is grounded when its
math shares a variable or a number with what the user said or the tools returned anywhere in
the conversation — the full transcript, not only what the model was shown, so a result a
strategy folded away still grounds a call on it (the model's own tool calls, and the errors
that quote them, do not count). An ungrounded call is not run: the model gets a tool error
telling it to ask, and decides again. An equation to solve is held to more: each of its
numbers was given (`invented_numbers_reason`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from text_to_num import alpha2digit

from agent.llm.model import ToolStep
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage, to_chat

# A call's own math: one equation or expression, or a system's equations.
_MATH_FIELDS = ("equation", "expression", "equations")
_VARIABLE = re.compile(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")
# A number as written: digits with an optional decimal part.
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# "t³" as the user may type it: the same number as "t^3".
SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# Single letters that are constants, not variables.
_CONSTANTS = frozenset({"e", "E", "I"})


def _features(text: str) -> tuple[set[str], set[str]]:
    variables = {v for v in _VARIABLE.findall(text) if v not in _CONSTANTS}
    return variables, set(NUMBER.findall(text))


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
        if isinstance(message, ToolCall) or _refusal(message):
            continue
        said_variables, said_numbers = _said_features(to_chat(message).content)
        if variables & said_variables or numbers & said_numbers:
            return None
    return (
        f"Not run: '{math}' appears nowhere in the conversation. Do not invent math: ask the "
        "user which expression they mean (message_to_user, PROCESSING)."
    )


# Numbers an equation may hold that nobody wrote: small integers (a square, a cube, halves,
# "twice"), powers of ten, and the constants of formulas people expect a model to know (the
# hours, minutes and seconds of a day, a turn's degrees, g in m/s² and ft/s²).
_KNOWN_CONSTANTS = frozenset(
    {0.0, 1.0, 2.0, 3.0, 4.0, 10.0, 1000.0, 12.0, 24.0, 60.0, 3600.0, 180.0, 360.0, 365.0}
    | {4.9, 9.8, 9.81, 16.0, 32.0, 32.2}
)
_EQUATION_FIELDS = ("equation", "equations")
# A name with digits in it (`x1`, `log10`) holds no number; an id (`#3`, `#3[1]`) is an item.
_NAMES_AND_IDS = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|#\d+(?:\[-?\d+\])?")
# "10,780" as people write thousands.
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_PERCENT = re.compile(r"%|\bper ?cent\b", re.IGNORECASE)
_NUMBER_WORD_LANGUAGES = ("en", "fr", "es", "de")


def invented_numbers_reason(step: ToolStep, context: Sequence[Message], message: str) -> str | None:
    """Why an equation to solve holds a number nobody gave, or None.

    A small model asked for a smallest average cost solves `C(q)/q = 100`, or guesses the
    prices a system is about (`15*10 + 58*5 = 410`): the equation is grounded by its letters
    but one of its numbers comes from nowhere, and its answer is to another question. A number
    is given when the person or a tool wrote it (in digits or words), when it is one operation
    on two numbers of the person's newest message (half a perimeter), or a common constant.
    Said once: the same call again, this request, runs (the model insists on a constant it
    knows)."""
    math = " ".join(_texts(getattr(step, name, None)) for name in _EQUATION_FIELDS).strip()
    written = {n: float(n) for n in NUMBER.findall(_NAMES_AND_IDS.sub(" ", math))}
    unknown = {n: v for n, v in written.items() if v not in _KNOWN_CONSTANTS}
    if not unknown or _sent_before(step, context):
        return None
    said = _given_numbers(context)
    newest = _numbers(_digits(message)) | {2.0}
    derived = {
        value for a in newest for b in newest for value in (a + b, a - b, a * b, a / b if b else a)
    }
    nobody = [n for n, v in unknown.items() if not _among(v, said | derived)]
    if not nobody:
        return None
    side = _clipped(_other_side(math, nobody), 100)
    numbers = _clipped(", ".join(nobody), 60)
    return (
        f"Not run: {numbers} in '{_clipped(math, 200)}' is a number nobody gave (not the person, "
        f"not a tool). If the question asks for the largest or smallest value of {side}, call "
        f"extrema on {side}; if it asks for its value, call evaluate; otherwise write the "
        "equation with the problem's own numbers, or ask the user (message_to_user, PROCESSING)."
    )


def _other_side(equation: str, nobody: list[str]) -> str:
    """The side of `left = right` facing a side that is only a number nobody gave (what the
    model set to a made-up value), else "the function"."""
    sides = [side.strip() for side in equation.split("=")]
    if len(sides) == 2:
        for number, other in ((sides[1], sides[0]), (sides[0], sides[1])):
            if number in nobody and other:
                return other
    return "the function"


def _clipped(text: str, limit: int) -> str:
    """A quote short enough for one sentence (a pasted megabyte stays out of the error)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _refusal(message: Message) -> bool:
    """A failed call's error quotes the call's own math: it grounds nothing."""
    return isinstance(message, ToolResultMessage) and not message.ok


def _sent_before(step: ToolStep, context: Sequence[Message]) -> bool:
    """The same call was already made since the person's newest message."""
    arguments = step.model_dump(exclude={"tool"})
    for message in reversed(context):
        if isinstance(message, UserMessage):
            return False
        if isinstance(message, ToolCall) and (message.tool, message.arguments) == (
            step.tool,
            arguments,
        ):
            return True
    return False


def _given_numbers(context: Sequence[Message]) -> set[float]:
    """The numbers the person and the tools wrote: not the model's calls, not a refusal
    (which quotes the call)."""
    given: set[float] = set()
    for message in context:
        if isinstance(message, ToolCall) or _refusal(message):
            continue
        text = to_chat(message).content
        given |= _numbers(_digits(text))
        if _PERCENT.search(text):
            given.add(100.0)
    return given


@lru_cache(maxsize=16384)
def _digits(text: str) -> str:
    """The text with its numbers in digits: thousands without commas, number words
    (`two hundred and forty`) as digits (text2num, in the languages it reads)."""
    text = _THOUSANDS.sub("", text.translate(SUPERSCRIPTS))
    for language in _NUMBER_WORD_LANGUAGES:
        text = alpha2digit(text, language)
    return text


def _numbers(text: str) -> set[float]:
    return {float(n) for n in NUMBER.findall(text)}


def _among(value: float, known: set[float]) -> bool:
    return any(abs(value - k) <= 1e-9 * max(1.0, abs(k)) for k in known)
