"""The full, append-only record of a session.

Compaction changes only the working context (what the LLM sees); the transcript keeps every
message, tool call, result, summary, compaction and error with its timestamp, so nothing a
person said or the tools computed is ever lost.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Literal

from pydantic import BaseModel, Field, TypeAdapter

from agent.messages import (
    AssistantMessage,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def _now() -> datetime:
    return datetime.now(timezone.utc)


class CompactionRecord(BaseModel):
    """A compaction: what it replaced in the working context, or why it did not."""

    model_config = {"frozen": True}
    kind: Literal["compaction"] = "compaction"
    at: datetime = Field(default_factory=_now)
    strategy: str
    applied: bool
    messages_before: int
    messages_after: int
    tokens_before: int
    tokens_after: int
    reason: str = ""
    # True when the strategy rejected its own result (e.g. a summary missing a fact) and kept
    # the history or fell back to a safer compaction; `reason` says which.
    failed: bool = False

    def describe(self) -> str:
        if not self.applied:
            return f"not compacted: {self.reason}"
        return (
            f"compacted ({self.strategy}): {self.messages_before}→{self.messages_after} "
            f"messages, {self.tokens_before}→{self.tokens_after} tokens"
        )

    def terminal_row(self) -> tuple[str, str]:
        return "compaction", self.describe()

    def markdown(self, stamp: str) -> list[str]:
        return [f"_{stamp}: {self.describe()}_", ""]


class ErrorRecord(BaseModel):
    """A turn that failed (LLM fault, cancellation); the working context was rolled back."""

    model_config = {"frozen": True}
    kind: Literal["error"] = "error"
    at: datetime = Field(default_factory=_now)
    text: str

    def terminal_row(self) -> tuple[str, str]:
        return "error", self.text

    def markdown(self, stamp: str) -> list[str]:
        return [f"_{stamp}: {self.text}_", ""]


Entry = Annotated[
    UserMessage
    | ToolCall
    | ToolResultMessage
    | AssistantMessage
    | SummaryMessage
    | CompactionRecord
    | ErrorRecord,
    Field(discriminator="kind"),
]
ENTRY_ADAPTER: TypeAdapter[Entry] = TypeAdapter(Entry)
ENTRIES_ADAPTER: TypeAdapter[list[Entry]] = TypeAdapter(list[Entry])


class Transcript:
    """Append-only list of entries; there is deliberately no way to remove one."""

    def __init__(self, entries: list[Entry] | None = None) -> None:
        self._entries: list[Entry] = list(entries or [])

    def append(self, entry: Entry) -> None:
        self._entries.append(entry)

    def extend(self, entries: list[Entry]) -> None:
        self._entries.extend(entries)

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
