"""The wire format: how messages read in the prompt text the model sees.

Defined once, here, and used by both sides: the renderers that write prompts
(`agent.messages`, the strategies' summary lines) and everything that reads prompt text back
(the scripted model in `agent.testing`, the benchmark's checks). The system-prompt markers are
sentences of the BAML prompts in `baml_src/`; a test checks they are still there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

# Chat roles (OpenAI-compatible servers without native tool calling accept only these three).
SYSTEM, USER, ASSISTANT = "system", "user", "assistant"

# A tool's outcome goes back to the model as a user message starting with one of these labels.
TOOL_RESULT_LABEL = "Tool result"
TOOL_ERROR_LABEL = "Tool error"
TOOL_PREFIXES = (f"{TOOL_RESULT_LABEL} (", f"{TOOL_ERROR_LABEL} (")

# Finished tasks folded into one system message: a header, then one line per task.
SUMMARY_HEADER = "Summary of earlier tasks in this conversation (exact results):"
SUMMARY_LINE_PREFIX = "- "
SUMMARY_ARROW = " -> "

# Sentences of the BAML prompts that tell the three LLM functions apart.
SUMMARIZER_MARK = "You compact the history of a math chat"
FACTS_MARK = "You keep a short list of durable facts about the user"
COMPACT_INSTRUCTION = "Compact the conversation above."

LlmFunction = Literal["MathChat", "SummarizeContext", "ExtractUserFacts"]


def tool_outcome_text(tool: str, ok: bool, text: str) -> str:
    """`Tool result (solve): x = -3, x = -2` or `Tool error (solve): ...`."""
    label = TOOL_RESULT_LABEL if ok else TOOL_ERROR_LABEL
    return f"{label} ({tool}): {text}"


def is_tool_outcome(content: str) -> bool:
    return content.startswith(TOOL_PREFIXES)


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


# The numbered ledger of finished tasks (strategy `ledger`): a fixed header, `#N question ->
# answer` lines, then what changes every turn last, so consecutive prompts share their start.
LEDGER_HEADER = "Finished tasks, numbered in the order asked:"
LEDGER_FOOTER = "(This request is #{current}; {hidden} earlier task(s) not listed.)"


def ledger_line(number: int, question: str, answer: str) -> str:
    return f"#{number} {question}{SUMMARY_ARROW}{answer}"
