"""`ledger`: every finished task is one numbered line, and the model sees them.

Compaction is `structural`'s (no LLM call, the shared safety check): a finished task becomes
one line, the user's request(s) and the final answer as written, plus any tool value the
answer did not quote and the workspace ids of its results; line N is the user's N-th task.
Which earlier result a request means is not guessed here: the workspace shown with every
request gives each result an id the model points at (`agent.workspace`).

Only a very long session archives its oldest lines, a block at a time, to keep the prompt
flat: an archived line leaves the prompt, and a header line says which are archived and that
`recall` searches them. Between archive steps the ledger only grows at its end, so
consecutive prompts share everything up to the newest line (llama.cpp re-reads only what
follows; providers bill the repeated prefix at 10-50%). Nothing leaves the transcript.
"""

from __future__ import annotations

from agent import wire
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.strategies.structural import fold
from agent.context.tasks import split_history
from agent.messages import Message, SummaryMessage, UserMessage


class LedgerView(SummaryMessage):
    """The ledger one call is shown (only ever in a view, never in the working history):
    the lines from `first` on, after a note on the archived ones."""

    first: int

    @property
    def text(self) -> str:  # type: ignore[override]
        head = [wire.LEDGER_HEADER]
        if self.first > 1:
            head.append(wire.LEDGER_ARCHIVED.format(last=self.first - 1))
        lines = [
            wire.ledger_line(n, e.question, e.answer)
            for n, e in enumerate(self.exchanges, self.first)
        ]
        return "\n".join([*head, *lines])


class LedgerStrategy(ContextStrategy):
    name = "ledger"

    def __init__(self, archive_after: int = 40, block: int = 16) -> None:
        if not 0 < block <= archive_after:
            raise ValueError("block must be positive and at most archive_after")
        self.archive_after = archive_after
        self.block = block

    def compact(self, request: CompactionInput) -> Compaction:
        return fold(request, self.name)

    def archived(self, count: int) -> int:
        """How many of `count` lines are archived: whole blocks, once past `archive_after`."""
        over = count - self.archive_after
        return 0 if over <= 0 else -(-over // self.block) * self.block

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        split = split_history(working)
        exchanges = [e for s in split.summaries for e in s.exchanges]
        if not exchanges:
            return working
        archived = self.archived(len(exchanges))
        view: list[Message] = [
            LedgerView(
                exchanges=tuple(exchanges[archived:]), first=archived + 1, strategy=self.name
            )
        ]
        rest: list[Message] = [m for task in split.finished for m in task]
        return [*view, *rest, *split.open_tail]
