"""The one value every tool returns, so callers never need try/except around math."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToolResult:
    """Outcome of one tool call.

    ``value`` holds exact SymPy objects (None on failure); ``text`` is what the LLM reads and
    also carries the error sentence on failure; ``error`` is that sentence alone; ``tool``
    and ``input`` say what was asked, as read by the parser, for display.
    """

    ok: bool
    value: Any
    text: str
    error: str | None = None
    tool: str = ""
    input: str = ""

    @classmethod
    def success(cls, tool: str, input: str, value: Any, text: str) -> ToolResult:
        """A computed answer."""
        return cls(ok=True, value=value, text=text, error=None, tool=tool, input=input)

    @classmethod
    def failure(cls, tool: str, input: str, error: str) -> ToolResult:
        """A clear refusal or failure; the sentence goes in both ``error`` and ``text``."""
        return cls(ok=False, value=None, text=error, error=error, tool=tool, input=input)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form (value as SymPy's text), for logs and transcripts."""
        value = self.value
        if isinstance(value, (list, tuple)):
            shown: Any = [str(v) for v in value]
        else:
            shown = None if value is None else str(value)
        return {
            "tool": self.tool,
            "input": self.input,
            "ok": self.ok,
            "value": shown,
            "text": self.text,
            "error": self.error,
        }

    def __str__(self) -> str:
        return self.text
