"""The one base every context strategy extends.

The agent loop calls `view` before every LLM call and `compact` after every turn (and on
`/compact`); it never knows which strategy runs. A strategy returns a new working history or
None; it must not mutate the list it is given. The session records every compaction in the
transcript and keeps the previous working context for `/undo-compact`.

Optional abilities are declared here with do-nothing defaults, so callers (the loop, the REPL,
the session store) call them directly instead of probing for them:
`observe_user_message` (a look at each new user message before the model answers),
`to_state`/`from_state` (what survives a restart), and the REPL's `/facts`, `/forget` and
`/pin` (`describe_facts`, `forget_fact`, `pin` return None when the strategy cannot).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Literal

from agent.llm.model import MathModel
from agent.messages import Message, UserMessage
from agent.workspace.record import Workspace

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
    # After a turn, leave the latest finished task as it happened (request, tool calls and
    # results, answer) and fold only the ones before it: a small model answers "add them up"
    # from the raw task, not from its one-line fold. Strategies that fold structurally honour
    # it; a manual `/compact` folds everything.
    keep_latest_task: bool = False
    # The conversation's workspace: folded lines give the ids of the math the person wrote
    # in each task, so a later request points at it without the messages that announced it.
    workspace: Workspace | None = None


class ContextStrategy(ABC):
    name: str

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        """The context for the next LLM call (most strategies: the working history as is)."""
        return working

    @abstractmethod
    def compact(self, request: CompactionInput) -> Compaction:
        """Compact after a turn, or on demand; never inside an unfinished task."""

    # -- optional abilities (no-op defaults) ----------------------------------------------------

    def observe_user_message(self, message: UserMessage, model: MathModel) -> None:
        """Called with each new user message before the model answers; must never raise."""
        return None

    def to_state(self) -> dict[str, Any]:
        """What this strategy needs to continue after a restart (saved with the session)."""
        return {}

    def from_state(self, state: dict[str, Any]) -> None:
        """Restore what `to_state` returned."""
        return None

    def describe_facts(self) -> str | None:
        """`/facts`: the user facts this strategy keeps, or None if it keeps none."""
        return None

    def forget_fact(self, number: int) -> str | None:
        """`/forget N`: what was forgotten, or None if this strategy keeps no facts."""
        return None

    def pin(self, working: list[Message], number: int | None = None) -> str | None:
        """`/pin [N]`: keep a finished task in view; None if this strategy cannot pin."""
        return None
