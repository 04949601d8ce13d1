"""Context strategies, selectable by name (`--strategy`, `/strategy`).

`NAME+facts` wraps any of them in `FactsMemory` (durable user facts in every call).
"""

from __future__ import annotations

from collections.abc import Callable

from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.strategies.brief import BriefStrategy
from agent.context.strategies.budget import BudgetStrategy
from agent.context.strategies.ledger import LedgerStrategy
from agent.context.strategies.none import NoCompaction
from agent.context.strategies.scored import ScoredStrategy
from agent.context.strategies.semantic import SemanticStrategy
from agent.context.strategies.structural import StructuralStrategy
from agent.context.strategies.summarize import SummarizeStrategy
from agent.context.strategies.window import WindowStrategy

STRATEGIES: dict[str, Callable[[], ContextStrategy]] = {
    "none": NoCompaction,
    "summarize": SummarizeStrategy,
    "structural": StructuralStrategy,
    "budget": BudgetStrategy,
    "ledger": LedgerStrategy,
    "brief": BriefStrategy,
    "window": WindowStrategy,
    "semantic": SemanticStrategy,
    "scored": ScoredStrategy,
}
FACTS_SUFFIX = "+facts"
# ledger: no extra LLM call, every finished task one exact numbered line in view (so any
# wording of a back-reference resolves), append-only for the prompt cache, flat in very long
# sessions (old lines archived, searchable with `recall`).
DEFAULT_STRATEGY = "ledger"


def make_strategy(name: str) -> ContextStrategy:
    """A strategy by name; `semantic` without the embeddings extra raises a ValueError that
    says what to install; `NAME+facts` adds the user-facts memory to NAME."""
    if name.endswith(FACTS_SUFFIX):
        from agent.context.user_facts import FactsMemory

        return FactsMemory(make_strategy(name.removesuffix(FACTS_SUFFIX)))
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"Unknown strategy '{name}'; choose one of: {known}.") from None


__all__ = [
    "DEFAULT_STRATEGY",
    "FACTS_SUFFIX",
    "STRATEGIES",
    "Compaction",
    "CompactionInput",
    "ContextStrategy",
    "make_strategy",
]
