"""Where a tool call from the model's reply becomes a stored call and its result.

The loop hands over each call here and gets back what to store; everything between (the
guards in their order, the run, the notes, what the model reads back) happens in `settle`.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.calls.guards import AFTER_RUN, Facts, Guard
from agent.calls.pending import PendingCall
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.results import result_values
from baml_client.types import TaskRecall


def settle(
    call: PendingCall, facts: Facts, before: Sequence[Guard]
) -> tuple[ToolCall, ToolResultMessage]:
    """The call as stored and its result: a `recall` answered by the look-up; a math call
    through `before` (until one refuses it), then run; then the guards after a run."""
    if isinstance(call.step, TaskRecall):
        found = facts.look_up(call.step.query)
        call.result = ToolResultMessage(call_id=call.call_id, tool=call.tool, ok=True, text=found)
    else:
        for guard in before:
            if call.refusal is not None:
                break
            guard(call, facts)
        if call.refusal is None:
            _run(call, facts)
    for guard in AFTER_RUN:
        guard(call, facts)
    return call.stored(), call.outcome()


def _run(call: PendingCall, facts: Facts) -> None:
    """The tools' answer; a result with values is the workspace's next item."""
    outcome = facts.run_tool(call.runnable)  # type: ignore[arg-type]
    values = result_values(outcome.value) if outcome.ok else ()
    call.item = facts.workspace.next_ref if values else None
    call.result = ToolResultMessage(
        call_id=call.call_id,
        tool=call.tool,
        ok=outcome.ok,
        text=outcome.text,
        item=str(call.item) if call.item is not None else None,
        values=values,
        subject=outcome.input,
    )


def task_text(conversation: Sequence[Message]) -> str:
    """What the person wrote in the open task: their messages since the last answer."""
    said: list[str] = []
    for message in reversed(conversation):
        if isinstance(message, AssistantMessage) and message.task_status == "COMPLETED":
            break
        if isinstance(message, UserMessage):
            said.append(message.text)
    return "\n".join(reversed(said))
