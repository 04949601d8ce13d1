"""`none`: the full working history, never compacted (the baseline)."""

from __future__ import annotations

from agent.context.base import Compaction, CompactionInput, ContextStrategy


class NoCompaction(ContextStrategy):
    name = "none"

    def compact(self, request: CompactionInput) -> Compaction:
        return Compaction(working=None, reason="strategy 'none' never compacts")
