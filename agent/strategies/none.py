"""`none`: the full working history, never compacted (the baseline)."""

from __future__ import annotations

from agent.messages import Message, UserMessage
from agent.strategies.base import Compaction, CompactionInput


class NoCompaction:
    name = "none"

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        return working

    def compact(self, request: CompactionInput) -> Compaction:
        return Compaction(working=None, reason="strategy 'none' never compacts")
