"""`brief`: the ledger, its shown lines held to a small token budget; `recall` for the rest.

Every finished task is folded after each turn as `ledger` does (no LLM call, the shared
safety check), but the model is shown only the newest lines that fit `BRIEF_TOKENS`, the
oldest archived a few at a time, plus what the person said of themselves (kept in view
whatever is archived). A request about an older task finds it with `recall` ("task N", an
id, its math, a word of it): one more call, which appends to a prompt the cache already
holds. The cheapest strategy that still reaches every earlier task, and flat in any session
length.
"""

from __future__ import annotations

from agent.context.strategies.ledger import LedgerStrategy

# In o200k tokens: about five lines of a math chat.
BRIEF_TOKENS = 192
BRIEF_BLOCK = 4


class BriefStrategy(LedgerStrategy):
    name = "brief"

    def __init__(self, max_tokens: int = BRIEF_TOKENS, block: int = BRIEF_BLOCK) -> None:
        super().__init__(archive_after=10_000, block=block, max_tokens=max_tokens)
