"""Question a tool call whose kind the request never asked for.

A 1.5B model sometimes picks its tool by the look of the history instead of by the request:
"square each of them" became a second derivative of r^2, "add them up" the derivative of m + 5,
and derivative questions became `evaluate` calls that failed. The words of a request say
plainly when it wants a derivative or an integral, so a call that contradicts them is sent back
once with one sentence saying what the request seems to ask. It is only a question: the same
call sent again runs (the loop keeps count), so a request phrased in words not listed here
costs one extra step, never a wrong refusal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.messages import AssistantMessage, Message, UserMessage

# Words that ask for each calculus tool. Broad on purpose: a miss costs an extra step only.
_ASKS = {
    "derivative": re.compile(
        r"(?<!anti)(?<!anti-)deriv|differentia|d\S{0,3}/d|slope|rate of change|tangent|gradient|how fast"
        r"|\b[A-Za-z]'+(?![A-Za-z])|critical|stationary|extrem|maxim|minim|concav"
        r"|inflection|increasing|decreasing",
        re.IGNORECASE,
    ),
    "integral": re.compile(
        r"integra|antideriv|anti-deriv|primitive|\barea\b|∫|accumulat", re.IGNORECASE
    ),
}
_NAMES = {"derivative": "a derivative", "integral": "an integral"}
# Words that ask for a value at a point (so `evaluate` fits a derivative question too).
_VALUE_WORDS = re.compile(
    r"\bat\b|\bwhen\b|\bwhere\b|\bvalue|evaluat|plug|substitut|\bfor [A-Za-z]\s*=|[A-Za-z]\s*=",
    re.IGNORECASE,
)
# A request that points back at the previous one ("the same for 3x^3") borrows its words.
_BACK_REFERENCE = re.compile(r"\bsame\b|\bagain\b|\balso\b|\btoo\b|\blikewise\b", re.IGNORECASE)


def request_words(user: UserMessage, history: Sequence[Message]) -> str:
    """The text whose words say what this turn asks: the message, plus the previous request
    when this message answers a question the assistant asked, or points back at it."""
    text = user.text
    earlier = [m for m in history if m is not user]
    previous_request = next((m.text for m in reversed(earlier) if isinstance(m, UserMessage)), None)
    last_reply = next((m for m in reversed(earlier) if isinstance(m, AssistantMessage)), None)
    asked_back = last_reply is not None and last_reply.task_status == "PROCESSING"
    if previous_request is not None and (asked_back or _BACK_REFERENCE.search(text)):
        text = f"{previous_request}\n{text}"
    return text


def misfit_reason(tool: str, request: str, tools_run: Sequence[str]) -> str | None:
    """One sentence for the model when `tool` contradicts the request's words, else None.

    `tools_run` are the tools already run in this turn: once the asked tool has run, any
    follow-up call (evaluating the derivative it found, say) fits.
    """
    asked = [kind for kind, pattern in _ASKS.items() if pattern.search(request)]
    if tool in _ASKS and tool not in asked:
        return (
            f"Check the tool: nothing in the request asks for {_NAMES[tool]}, so {tool} "
            "looks wrong. Arithmetic on numbers or on earlier results (a sum, squares, a "
            "product, a value) is evaluate with at []. Reply with the call the request needs, "
            "or send this same call again if it is right."
        )
    wanted = [kind for kind in asked if kind not in tools_run]
    if (
        tool == "evaluate"
        and wanted
        and len(wanted) == len(asked)
        and not _VALUE_WORDS.search(request)
    ):
        kind = wanted[0]
        return (
            f"Check the tool: the request asks for {_NAMES[kind]}, which is the {kind} tool, "
            "not evaluate. Reply with the call the request needs, or send this same call "
            "again if it is right."
        )
    return None
