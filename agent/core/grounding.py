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

from agent.llm.model import ToolStep
from agent.messages import AssistantMessage, Message, ToolCall, to_chat

_MATH_FIELDS = ("equation", "expression")
_VARIABLE = re.compile(r"(?<![A-Za-z])([A-Za-z])(?![A-Za-z])")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Single letters that are constants, not variables.
_CONSTANTS = frozenset({"e", "E", "I"})


def _features(text: str) -> tuple[set[str], set[str]]:
    variables = {v for v in _VARIABLE.findall(text) if v not in _CONSTANTS}
    return variables, set(_NUMBER.findall(text))


def ungrounded_reason(step: ToolStep, context: list[Message]) -> str | None:
    """Why `step` looks invented, or None when its math appears in the conversation."""
    math = " ".join(str(getattr(step, name, "") or "") for name in _MATH_FIELDS).strip()
    variables, numbers = _features(math)
    if not variables and not numbers:
        return None
    said = " ".join(to_chat(m).content for m in context if not isinstance(m, ToolCall))
    said_variables, said_numbers = _features(said)
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
    return list(dict.fromkeys(n for n in _STATED_NUMBER.findall(answer) if n not in known))
