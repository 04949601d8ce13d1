"""Context strategies, selectable by name (`--strategy`, `/strategy`)."""

from __future__ import annotations

from collections.abc import Callable

from agent.strategies.base import Compaction, CompactionInput, ContextStrategy
from agent.strategies.budget import BudgetStrategy
from agent.strategies.none import NoCompaction
from agent.strategies.structural import StructuralStrategy
from agent.strategies.summarize import SummarizeStrategy

STRATEGIES: dict[str, Callable[[], ContextStrategy]] = {
    "none": NoCompaction,
    "summarize": SummarizeStrategy,
    "structural": StructuralStrategy,
    "budget": BudgetStrategy,
}
# structural: no extra LLM call, every finished task stays visible as one exact line, and the
# small local model summarizes poorly. `budget` is cheaper still on long sessions but shows
# the model only the lines a request refers to; `summarize` is the reference design.
DEFAULT_STRATEGY = "structural"


def make_strategy(name: str) -> ContextStrategy:
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"Unknown strategy '{name}'; choose one of: {known}.") from None


__all__ = [
    "DEFAULT_STRATEGY",
    "STRATEGIES",
    "Compaction",
    "CompactionInput",
    "ContextStrategy",
    "make_strategy",
]
