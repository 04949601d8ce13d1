"""`structural`: compaction without any LLM call.

On a COMPLETED answer every finished task becomes one line of the leading summary: the user's
request(s) and the final answer; its tool calls, tool results and clarifying questions leave
the working context (the transcript keeps them, `/undo-compact` restores them).

Why a summary line rather than the original UserMessage + AssistantMessage: the answer then
costs its words only, not the JSON envelope of a `message_to_user` (~20 tokens) and two
messages' framing (~8), and the summary merges into the system message. Why the tool values:
a model's final answer may paraphrase ("two real roots"); any value a successful tool computed
that the answer does not quote is appended in the tool's own compact text, so a later "the
roots" still finds them. Deterministic, instant, and it cannot fail the way a summarizer can.
"""

from __future__ import annotations

from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import checked, structural_history, unfinished_reason
from agent.context.tasks import split_history


def fold(request: CompactionInput, strategy: str) -> Compaction:
    """Fold every finished task into summary lines, through the shared safety check; with
    `request.keep_latest_task` (after a turn only), every one but the latest."""
    split = split_history(request.working)
    if reason := unfinished_reason(split, request.trigger):
        return Compaction(None, reason)
    keep = 1 if request.keep_latest_task and request.trigger == "turn_end" else 0
    folded = len(split.finished) - keep
    if folded <= 0:
        return Compaction(None, "only the latest finished task, kept as it happened")
    new = structural_history(split, strategy, keep_last=keep, workspace=request.workspace)
    kept = " (the latest kept as it happened)" if keep else ""
    return checked(
        request.working,
        new,
        f"folded {folded} finished task(s) into summary lines (no LLM){kept}",
    )


class StructuralStrategy(ContextStrategy):
    name = "structural"

    def compact(self, request: CompactionInput) -> Compaction:
        return fold(request, self.name)
