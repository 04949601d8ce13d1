"""Answers grounded in what the tools computed and the person wrote.

A small model answers "the square of the roots" by itself, writes its own arithmetic out
wrongly, or copies the prompt's example note about the person into a chat where nobody said
it. These read an answer's numbers and words against the conversation (math and names, never
what a request asks for); the loop sends a doubtful answer back once
(`SmallModelAids.verify_answers`). What refuses or corrects a tool call is in `agent.calls`.
"""

from __future__ import annotations

import re

import sympy

from agent.calls.grounding import NUMBER as _NUMBER
from agent.calls.grounding import SUPERSCRIPTS as _SUPERSCRIPTS
from agent.messages import AssistantMessage, Message, to_chat

# A number as written in an answer: digits with an optional decimal part, not an exponent
# (restating "x^3" states no result).
_STATED_NUMBER = re.compile(r"(?<![A-Za-z_\d.^])(?<!\*\*)\d+(?:\.\d+)?")


def stated_numbers(answer: str, request: str) -> list[str]:
    """The numbers an answer states that the request did not write (signs ignored)."""
    written = set(_NUMBER.findall(request.translate(_SUPERSCRIPTS)))
    return list(dict.fromkeys(n for n in _STATED_NUMBER.findall(answer) if n not in written))


def repeats_tool_error(answer: str, errors: list[str]) -> bool:
    """The answer repeats a failed tool's error text, word for word (a long stretch of it,
    not a shared word or number): the person would read the tool's complaint, not an
    answer."""
    shown = " ".join(answer.split()).lower()
    for error in errors:
        flat = " ".join(error.split()).lower()
        if len(flat) >= 24 and flat[:60] in shown:
            return True
    return False


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
