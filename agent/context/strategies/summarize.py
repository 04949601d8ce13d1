"""`summarize` (the reference design): on a COMPLETED answer, replace the finished tasks with
SummarizeContext's question/answer pairs.

Only newly finished tasks are sent to the summarizer; earlier exchanges are carried over from
the existing summary, so its cost stays proportional to the task just finished.

The summarizer's output is checked before it replaces anything, because a summary that drops
a root is worse than no summary. What happens when it fails:

- the call raises (endpoint down, timeout, cancelled): the history is kept as it was; the
  next turn tries again with everything still unsummarised;
- the reply could not be parsed, was empty, is not shorter than what it replaces (tokens), or
  misses a number or expression of the final answers and tool results it replaces: the LLM
  result is rejected and the finished tasks are folded by `structural` instead (no LLM, no
  loss), since asking the same model again would likely fail the same way.

Either way `Compaction.failed` is True and the reason says what was wrong; the history is
never replaced by an error text.
"""

from __future__ import annotations

from baml_py.errors import BamlValidationError

from agent import wire
from agent.accounting.tokenizer import count_messages, count_text
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import (
    MAX_LISTED_FACTS,
    checked,
    merged_summary,
    required_facts,
    structural_history,
    unfinished_reason,
)
from agent.context.math_facts import missing_facts
from agent.context.tasks import HistorySplit, split_history
from agent.errors import AgentError
from agent.messages import (
    Message,
    SummaryExchangeRecord,
    as_openai_dicts,
    to_chat_list,
)
from baml_client.types import ContextSummary


def summary_problem(summary: ContextSummary, finished: list[list[Message]]) -> str | None:
    """Why the summarizer's output may not replace `finished`, or None if it may."""
    exchanges = summary.exchanges or []
    if not exchanges:
        return "it returned no exchanges"
    if any(not (e.question or "").strip() or not (e.answer or "").strip() for e in exchanges):
        return "an exchange has an empty question or answer"
    lines = "\n".join(wire.summary_line(e.question, e.answer) for e in exchanges)
    replaced = [m for task in finished for m in task]
    before = count_messages(as_openai_dicts(to_chat_list(replaced)))
    after = count_text(lines)
    if after >= before:
        return f"it is not shorter than what it replaces ({after} vs {before} tokens)"
    required = [fact for task in finished for fact in required_facts(task)]
    texts = [text for e in exchanges for text in (e.question, e.answer)]
    if missing := missing_facts(required, texts):
        shown = ", ".join(missing[:MAX_LISTED_FACTS])
        return f"it dropped {len(missing)} fact(s) of the answers and tool results: {shown}"
    return None


class SummarizeStrategy(ContextStrategy):
    name = "summarize"

    def compact(self, request: CompactionInput) -> Compaction:
        split = split_history(request.working)
        if reason := unfinished_reason(split, request.trigger):
            return Compaction(None, reason)
        finished = [m for task in split.finished for m in task]
        try:
            summary = request.model.summarize(to_chat_list(finished))
        except AgentError as exc:
            if isinstance(exc.__cause__, BamlValidationError):
                return self._fallback(request.working, split, "its reply could not be parsed")
            return Compaction(None, f"summarizer failed, history kept: {exc.message}", failed=True)
        except Exception as exc:  # a compaction must never break the turn
            return Compaction(
                None, f"summarizer failed, history kept: {type(exc).__name__}: {exc}", failed=True
            )
        if problem := summary_problem(summary, split.finished):
            return self._fallback(request.working, split, problem)
        new = [
            SummaryExchangeRecord(question=e.question, answer=e.answer) for e in summary.exchanges
        ]
        merged = merged_summary(split.summaries, new, self.name)
        return checked(
            request.working,
            [merged, *split.open_tail],
            f"summarized {len(split.finished)} task(s)",
        )

    def _fallback(self, working: list[Message], split: HistorySplit, problem: str) -> Compaction:
        """Reject the LLM result and fold the tasks structurally instead (failed=True)."""
        new = structural_history(split, self.name)
        reason = f"summarizer output rejected ({problem}); folded structurally instead"
        return checked(working, new, reason, failed=True)
