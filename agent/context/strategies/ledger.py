"""`ledger`: every finished task is one numbered line, and the model sees them.

Compaction is `structural`'s (no LLM call, the shared safety check): a finished task becomes
one line, the user's request(s) and the final answer as written, plus any tool value the
answer did not quote and the workspace ids of its results; line N is the user's N-th task.
Which earlier result a request means is not guessed here: the workspace shown with every
request gives each result an id the model points at (`agent.workspace`).

A long ledger archives its oldest lines, a block at a time, to keep the prompt flat: past
`archive_after` lines or, with `max_tokens`, once the shown lines would pass that many
tokens (lines carry ids and exact results, so their length varies a lot). An archived line
leaves the prompt, and a header line says which are archived and that `recall` searches
them. Between archive steps the ledger only grows at its end, so consecutive prompts share
everything up to the newest line (llama.cpp re-reads only what follows; providers bill the
repeated prefix at 10-50%). Nothing leaves the transcript.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent import wire
from agent.accounting.prompt_meter import meter
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

    def __init__(
        self, archive_after: int = 40, block: int = 16, max_tokens: int | None = None
    ) -> None:
        if not 0 < block <= archive_after:
            raise ValueError("block must be positive and at most archive_after")
        if max_tokens is not None and max_tokens <= 0:
            raise ValueError("max_tokens must be positive")
        self.archive_after = archive_after
        self.block = block
        self.max_tokens = max_tokens

    def compact(self, request: CompactionInput) -> Compaction:
        return fold(request, self.name)

    def archived(self, lines: Sequence[str]) -> int:
        """How many of the ledger's `lines` (oldest first) are archived: whole blocks, once
        past `archive_after` lines or past `max_tokens` shown. Lines are only appended, so the
        count only grows, and prompts share their start between archive steps."""
        over = len(lines) - self.archive_after
        count = 0 if over <= 0 else -(-over // self.block) * self.block
        if self.max_tokens is not None:
            sizes = [meter().text(line) for line in lines]
            shown = sum(sizes[count:])
            while count < len(lines) and shown > self.max_tokens:
                shown -= sum(sizes[count : count + self.block])
                count += self.block
        return min(count, len(lines))

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        split = split_history(working)
        exchanges = [e for s in split.summaries for e in s.exchanges]
        if not exchanges:
            return working
        lines = [wire.ledger_line(n, e.question, e.answer) for n, e in enumerate(exchanges, 1)]
        archived = self.archived(lines)
        view: list[Message] = [
            LedgerView(
                exchanges=tuple(exchanges[archived:]), first=archived + 1, strategy=self.name
            )
        ]
        rest: list[Message] = [m for task in split.finished for m in task]
        return [*view, *rest, *split.open_tail]
