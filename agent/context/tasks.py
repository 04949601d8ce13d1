"""Split a working history into tasks, so compaction never cuts through one.

A task runs from a user request to the `MessageToUser` that reports it COMPLETED, with every
clarification, tool call and tool result in between. Whatever follows the last COMPLETED
answer is the open task: compaction must leave it alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.messages import AssistantMessage, Message, SummaryMessage, ToolCall, ToolResultMessage


@dataclass(frozen=True)
class HistorySplit:
    summaries: list[SummaryMessage]
    finished: list[list[Message]]
    open_tail: list[Message]


def split_history(working: list[Message]) -> HistorySplit:
    """Leading summaries, finished tasks in order, and the unfinished tail."""
    summaries: list[SummaryMessage] = []
    finished: list[list[Message]] = []
    current: list[Message] = []
    for message in working:
        if isinstance(message, SummaryMessage) and not current and not finished:
            summaries.append(message)
            continue
        current.append(message)
        if isinstance(message, AssistantMessage) and message.task_status == "COMPLETED":
            finished.append(current)
            current = []
    return HistorySplit(summaries=summaries, finished=finished, open_tail=current)


def final_answer(task: list[Message]) -> AssistantMessage | None:
    for message in reversed(task):
        if isinstance(message, AssistantMessage):
            return message
    return None


def unpaired_tool_messages(messages: list[Message]) -> list[Message]:
    """Tool calls without their result and results without their call (must be empty)."""
    calls = {m.call_id for m in messages if isinstance(m, ToolCall)}
    results = {m.call_id for m in messages if isinstance(m, ToolResultMessage)}
    return [
        m
        for m in messages
        if (isinstance(m, ToolCall) and m.call_id not in results)
        or (isinstance(m, ToolResultMessage) and m.call_id not in calls)
    ]
