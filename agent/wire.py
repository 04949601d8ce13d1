"""The wire format: how messages read in the prompt text the model sees.

Defined once, here, and used by both sides: the renderers that write prompts
(`agent.messages`, the strategies' summary lines) and everything that reads prompt text back
(the scripted model in `agent.testing`, the benchmark's checks). The system-prompt markers are
sentences of the BAML prompts in `baml_src/`; a test checks they are still there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

# Chat roles (OpenAI-compatible servers without native tool calling accept only these three).
SYSTEM, USER, ASSISTANT = "system", "user", "assistant"

# A tool's outcome goes back to the model as a user message starting with one of these labels.
TOOL_RESULT_LABEL = "Tool result"
TOOL_ERROR_LABEL = "Tool error"
TOOL_PREFIXES = (f"{TOOL_RESULT_LABEL} (", f"{TOOL_ERROR_LABEL} (")
# The one tool that computes nothing: it looks up earlier tasks (`agent.core.recall`).
RECALL_TOOL = "recall"

# Finished tasks folded into one system message: a header, then one line per task.
SUMMARY_HEADER = "Summary of earlier tasks in this conversation (exact results):"
SUMMARY_LINE_PREFIX = "- "
SUMMARY_ARROW = " -> "

# When a MathChat reply does not parse, the model sees its reply and this, once, before the
# user is told (a small model sometimes writes prose or a half object).
REPAIR_REQUEST = (
    "That reply was not one JSON object of the schema. Answer again with exactly one JSON "
    'object: a tool call, or {"response": ..., "tool": "message_to_user", "task_status": ...}.'
)
# When the model repeats a tool call it already made in this turn, the call is not run again;
# the model is asked for its answer instead (and, where decoding is constrained, can only
# write a message_to_user). Not kept in the history.
ANSWER_NOW = (
    "That tool call was already made above; its result is there. Answer the user now with a "
    "message_to_user that quotes the results."
)


def unverified_request(numbers: list[str]) -> str:
    """Sent once, after an answer that states numbers no tool computed (not kept in history)."""
    return (
        f"No tool computed {', '.join(numbers[:6])}. Write what the user gave as math and "
        "call the tool that computes the answer (evaluate for arithmetic, solve or "
        "solve_system for unknowns, extrema for a largest or smallest value), then answer "
        "with its exact results."
    )


def untooled_request(ids: list[str]) -> str:
    """Sent once, after an answer to new math that no tool worked on (not kept in history)."""
    return (
        f"No tool has worked on {', '.join(ids[:4])} yet. Call the tool the request needs "
        "on it, then answer with its exact results."
    )


# Sent for one step after a result the chat already had (roots solved again): what the
# person asks of it is more than the result itself.
HELD_BEFORE_REQUEST = (
    "{new} repeats {old}, which the user already had. Answer exactly what the request asks of"
    " those values, not the list again."
)

# Sent once, after an answer that repeats a failed tool's error (not kept in history).
REPEATED_ERROR_REQUEST = (
    "That answer repeats the tool's error. Fix the call as the error says and call the tool again."
)


# What the person reads instead of a tool's error repeated again after that request: the
# error is written for the model (fields, ids), and the task stays open for their rephrasing.
COULD_NOT_FINISH = (
    "I could not work that out with the tools. Could you say it another way, or write out "
    "the math you mean?"
)


# The sentences of the loop's own requests to the model (`without_requests`).
_REQUEST_SENTENCES = tuple(
    sentence
    for request in (ANSWER_NOW, REPEATED_ERROR_REQUEST, REPAIR_REQUEST)
    for sentence in re.split(r"(?<=\.) ", request)
)


def without_requests(answer: str) -> str:
    """An answer without the loop's own requests to the model, which a small model sometimes
    copies into its answer ("... That tool call was already made above; ..."): they are for
    the model, never for the person."""
    for sentence in _REQUEST_SENTENCES:
        answer = answer.replace(sentence, "")
    return re.sub(r"[ \t]{2,}", " ", answer).strip()


# The tools whose `at` is a list of points, each run on its own (an id of roots is each root).
POINT_LIST_TOOLS = ("evaluate", "derivative")

# The tools whose `lower`/`upper` are left out when nobody gave them (`Agent._unsaid_bounds`).
BOUNDED_TOOLS = ("integral", "extrema")


def unsaid_bounds_note(
    bounds: Sequence[str], tool: str = "integral", kept: Sequence[str] = ()
) -> str:
    """Appended to an integral or extremum run without the bounds the model made up (`kept`:
    an extremum's bound the person gave, which stays); an answer quoting the result shows it
    to the person, so it speaks to them."""
    said = "the bound {} was" if len(bounds) == 1 else "the bounds {} were"
    given = f"{said.format(', '.join(bounds))} not given in this request"
    if tool == "extrema" and kept:
        return f"{given}, so only {', '.join(kept)} bounds the range"
    if tool == "extrema":
        return f"{given}, so it is taken without a range; say one to restrict it"
    return f"{given}, so this is the antiderivative; say the bounds for a definite integral"


# At most this much of the bad reply goes back to the model; an empty one is shown as this.
REPAIR_QUOTE_CHARS = 1500
EMPTY_REPLY = "(an empty reply)"

# Sentences of the BAML prompts that tell the three LLM functions apart.
SUMMARIZER_MARK = "You compact the history of a math chat"
FACTS_MARK = "You keep a short list of durable facts about the user"
COMPACT_INSTRUCTION = "Compact the conversation above."

LlmFunction = Literal["MathChat", "SummarizeContext", "ExtractUserFacts"]


def tool_outcome_text(tool: str, ok: bool, text: str, item: str | None = None) -> str:
    """`Tool result (solve) #2: x = -3, x = -2` or `Tool error (solve): ...`."""
    label = TOOL_RESULT_LABEL if ok else TOOL_ERROR_LABEL
    return f"{label} ({tool}){' ' + item if item else ''}: {text}"


def is_tool_outcome(content: str) -> bool:
    return content.startswith(TOOL_PREFIXES)


def tool_outcome_body(content: str) -> str:
    """What a tool said, without its `Tool result (name) #N: ` label."""
    if not is_tool_outcome(content):
        return ""
    head, _, body = content.partition(": ")
    return body if head.endswith(")") or " #" in head else content


def summary_line(question: str, answer: str) -> str:
    """One folded task: `- solve x^2 - 1 = 0 -> x = -1, x = 1`."""
    return f"{SUMMARY_LINE_PREFIX}{question}{SUMMARY_ARROW}{answer}"


def summary_text(lines: Sequence[tuple[str, str]]) -> str:
    return "\n".join([SUMMARY_HEADER, *(summary_line(q, a) for q, a in lines)])


def function_of(messages: Sequence[Mapping[str, Any]]) -> LlmFunction:
    """Which BAML function a rendered request belongs to, from its system prompt."""
    first = str(messages[0].get("content", "")) if messages else ""
    if SUMMARIZER_MARK in first:
        return "SummarizeContext"
    if FACTS_MARK in first:
        return "ExtractUserFacts"
    return "MathChat"


# The numbered ledger of finished tasks (strategy `ledger`): a fixed header, a line on the
# archived tasks of a long session, then one `N. question -> answer [#ids]` line per task,
# growing at its end so consecutive prompts share their start.
LEDGER_HEADER = "Finished tasks, numbered in the order asked:"
LEDGER_ARCHIVED = (
    '(tasks 1 to {last} are archived: recall brings one back by "task N", an id or its math.)'
)
LEDGER_OTHERS = (
    "(the other tasks up to {last} are archived: recall brings one back by "
    '"task N", an id or its math.)'
)


def ledger_line(number: int, question: str, answer: str) -> str:
    """`4. solve x^2 - x - 6 = 0 -> x = -2, x = 3 [#7]` (ids are the workspace's)."""
    return f"{number}. {question}{SUMMARY_ARROW}{answer}"


# What an id of several values (roots) can be combined by in a tool field: `sum(#2)`, `max(#2)`;
# `len`/`length` count them, as code spells it.
COMBINATIONS = (
    "sum",
    "product",
    "prod",
    "mean",
    "average",
    "min",
    "max",
    "count",
    "len",
    "length",
)
# The workspace (`agent.workspace.shown`): each item is shown once, where it enters the chat:
# the person's new math on lines before their request, which comes last under its label
# (never stored: the message stays as typed), a result's id and origin in its tool-result
# label; what a fold hid is listed after the summaries under a header.
ANNOUNCED = "Workspace: "
REQUEST_LABEL = "Request: "
ABOUT_USER = "About the user: "
HIDDEN_HEADER = "Workspace items of the folded tasks (their ids still work):"
HIDDEN_COUNT = "({count} older items not shown: recall finds them)"
# The last line of a recall's result: what it found is for the next call, not the answer.
AFTER_RECALL = "Use the id the request means in the tool call the request needs."
PICK_AFTER_RECALL = (
    "Pick the item the request means by its line and use its id in the tool call the request needs."
)


def shown_request(request: str, item_lines: Sequence[str]) -> str:
    """A person's message as the model reads it: the items it added, then the request
    under its label, read last (the words alone when it added none)."""
    if not item_lines:
        return request
    return "\n".join([*(ANNOUNCED + line for line in item_lines), REQUEST_LABEL + request])


def _split_shown(content: str) -> tuple[list[str], str]:
    """A shown user message's announced lines and its request (`shown_request` read back)."""
    if content.startswith(ANNOUNCED) and f"\n{REQUEST_LABEL}" in content:
        announced, request = content.split(f"\n{REQUEST_LABEL}", 1)
        return announced.splitlines(), request
    return [], content


def request_of(content: str) -> str:
    """The person's request in a shown user message (without the workspace lines before it)."""
    return _split_shown(content)[1]


def announced_of(content: str) -> list[str]:
    """The workspace lines a shown user message announced (`Workspace: #N ...`)."""
    return _split_shown(content)[0]


def with_note(answer: str, note: str) -> str:
    """An answer's JSON with the note the model wrote in it, as it wrote it."""
    return answer[:-1] + ", " + json.dumps({"note": note}, ensure_ascii=False)[1:]
