"""The one interface every context strategy implements.

The agent loop calls `view` before every LLM call and `compact` after every turn (and on
`/compact`); it never knows which strategy runs. A strategy returns a new working history or
None; it must not mutate the list it is given. The session records every compaction in the
transcript and keeps the previous working context for `/undo-compact`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from agent.messages import Message, UserMessage
from agent.model import MathModel

Trigger = Literal["turn_end", "manual"]


@dataclass(frozen=True)
class Compaction:
    """What a strategy decided: a new working history (or None to keep it) and why."""

    working: list[Message] | None
    reason: str
    failed: bool = False


@dataclass(frozen=True)
class CompactionInput:
    working: list[Message]
    trigger: Trigger
    model: MathModel


class ContextStrategy(Protocol):
    name: str

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        """The context for the next LLM call (most strategies: the working history as is)."""
        ...

    def compact(self, request: CompactionInput) -> Compaction:
        """Compact after a turn, or on demand; never inside an unfinished task."""
        ...
