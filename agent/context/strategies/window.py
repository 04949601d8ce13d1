"""`window` (the embedded model's default): fold finished tasks only when the prompt is large.

Between folds the working history only grows at its end, exactly as with `none`, so a prompt
cache (llama.cpp's, or a hosted provider's) serves all of it and the model reads only what is
new. When the next prompt (system prompt and schema counted exactly) passes `fold_at_tokens`,
every finished task is folded at once, as `structural` does: one re-read, then the prompt
appends again from a smaller start. Compaction that rewrites the middle of the prompt after
every task makes the model re-read the tail each time; this one pays that price rarely.

What is folded is shown as `ledger` shows it (it is a ledger with another moment to fold):
numbered lines, every result exact, every fold through the shared safety check. The shown
lines are kept under a quarter of the fold budget (the oldest archived a block at a time):
after a fold the prompt starts well under the budget and appends for several tasks, so a
long session's turns cost what its first ones did, instead of every turn refolding a ledger
that has grown to the budget.
"""

from __future__ import annotations

from agent.accounting.prompt_meter import meter
from agent.context.base import Compaction, CompactionInput
from agent.context.common import unfinished_reason
from agent.context.strategies.ledger import LedgerStrategy
from agent.context.strategies.structural import fold
from agent.context.tasks import split_history
from agent.messages import to_chat_list

# In o200k tokens (the meter's). The embedded model's own tokenizer counts math about twice
# as many (it splits every digit): measured, a prompt the meter put at 4,096 was 8,421 tokens
# for llama.cpp, past its 8,192 context. 3,072 folds at about 6,300 of them, leaving room for
# the open task and the reply.
DEFAULT_FOLD_AT_TOKENS = 3072
# The shown ledger's share of the fold budget, and the lines archived at a time.
LEDGER_SHARE = 8
LEDGER_BLOCK = 8
# Below this share of the size, the estimated count decides (no exact count needed).
ESTIMATE_MARGIN = 0.9


class WindowStrategy(LedgerStrategy):
    name = "window"

    def __init__(self, fold_at_tokens: int = DEFAULT_FOLD_AT_TOKENS) -> None:
        if fold_at_tokens <= 0:
            raise ValueError("fold_at_tokens must be positive")
        super().__init__(block=LEDGER_BLOCK, max_tokens=max(1, fold_at_tokens // LEDGER_SHARE))
        self.fold_at_tokens = fold_at_tokens

    def compact(self, request: CompactionInput) -> Compaction:
        if request.trigger == "turn_end":
            if reason := unfinished_reason(split_history(request.working), request.trigger):
                return Compaction(None, reason)
            # The prompt the next call would send: the view, so archived ledger lines (still
            # in the working history, out of the prompt) do not make every turn fold.
            view = self.view(request.working, None)
            # Counting exactly builds the request (a few ms per turn); well under the size,
            # the estimate (the same layout, counted without building it) says as much.
            estimate = meter().estimate(to_chat_list(view))
            tokens = estimate if estimate < self.fold_at_tokens * ESTIMATE_MARGIN else None
            if tokens is None:
                tokens = meter().exact(view)
            if tokens < self.fold_at_tokens:
                return Compaction(
                    None,
                    f"the prompt ({tokens} tokens) is under {self.fold_at_tokens}: "
                    "kept as it is, so the prompt cache serves it",
                )
        return fold(request, self.name)
