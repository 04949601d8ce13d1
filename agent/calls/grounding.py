"""Refuse tool calls on math nobody wrote.

Small models, asked "integrate this" with nothing to integrate, tend to invent an expression
(often one from the prompt's examples) instead of asking. A tool call is grounded when its
math shares a variable or a number with what the user said or the tools returned anywhere in
the conversation — the full transcript, not only what the model was shown, so a result a
strategy folded away still grounds a call on it (the model's own tool calls, and the errors
that quote them, do not count). An ungrounded call is not run: the model gets a tool error
telling it to ask, and decides again.
"""

from __future__ import annotations

import re
from functools import lru_cache

from agent.llm.model import ToolStep
from agent.messages import Message, ToolCall, ToolResultMessage, to_chat

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


def _refusal(message: Message) -> bool:
    """A failed call's error quotes the call's own math: it grounds nothing."""
    return isinstance(message, ToolResultMessage) and not message.ok
