"""`window`: fold finished tasks into lines only when the prompt would pass a size.

Between folds the working history only grows at its end, exactly as with `none`, so a prompt
cache (llama.cpp's, or a hosted provider's) serves all of it and the model reads only what is
new. When the next prompt (system prompt and schema counted exactly) passes `fold_at_tokens`,
every finished task is folded at once, as `structural` does: one re-read, then the prompt
appends again from a smaller start. Compaction that rewrites the middle of the prompt after
every task makes the model re-read the tail each time; this one pays that price rarely.

Retention is `structural`'s: every result stays visible, verbatim or as a line, and every
fold passes the shared safety check. The default size leaves most of the embedded model's
context free, so a long session stays inside the window.
"""

from __future__ import annotations

from agent.accounting.prompt_meter import meter
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import unfinished_reason
from agent.context.strategies.structural import compact_structurally
from agent.context.tasks import split_history

DEFAULT_FOLD_AT_TOKENS = 4096


class WindowStrategy(ContextStrategy):
    name = "window"

    def __init__(self, fold_at_tokens: int = DEFAULT_FOLD_AT_TOKENS) -> None:
        if fold_at_tokens <= 0:
            raise ValueError("fold_at_tokens must be positive")
        self.fold_at_tokens = fold_at_tokens

    def compact(self, request: CompactionInput) -> Compaction:
        if request.trigger == "turn_end":
            if reason := unfinished_reason(split_history(request.working), request.trigger):
                return Compaction(None, reason)
            tokens = meter().exact(request.working)
            if tokens < self.fold_at_tokens:
                return Compaction(
                    None,
                    f"the prompt ({tokens} tokens) is under {self.fold_at_tokens}: "
                    "kept as it is, so the prompt cache serves it",
                )
        return compact_structurally(request.working, request.trigger, self.name)
