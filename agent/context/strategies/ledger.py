"""`ledger`: every finished task is one numbered line, and the model sees them.

Compaction is `structural`'s (no LLM call, the shared safety check): a finished task becomes
one line, the user's request(s) and the final answer as written, plus any tool value the
answer did not quote and the workspace ids of its results; line N is the user's N-th task.
Which earlier result a request means is not guessed here: the workspace shown with every
request gives each result an id the model points at (`agent.workspace`).

A long ledger archives its oldest lines, a block at a time, to keep the prompt flat: past
`archive_after` lines or, with `max_tokens`, once the shown lines would pass that many
tokens (lines carry ids and exact results, so their length varies a lot). An archived line
leaves the prompt, and a header line says which are archived and how `recall` brings one
back ("task N", an id, its math). Lines of what the person said that is neither math nor a
request for a tool (a name, a course, how answers should look) stay in view when archived,
with their numbers: what a person says about themselves at turn 1 is known at turn 100,
whether or not the model noted it. Between archive steps the ledger only grows at its end, so consecutive prompts share
everything up to the newest line (llama.cpp re-reads only what follows; providers bill the
repeated prefix at 10-50%). Nothing leaves the transcript.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.math_facts import extract_facts
from agent.context.strategies.structural import fold
from agent.context.tasks import split_history
from agent.messages import Message, SummaryExchangeRecord, SummaryMessage, UserMessage

# Archived statements of the person kept in view: this many of the first, and of the newest.
PINNED_EACH_END = 3


class LedgerView(SummaryMessage):
    """The ledger one call is shown (only ever in a view, never in the working history):
    the lines numbered `numbers` (the person's own statements among the archived ones, then
    every line from `first` on), after a note on the archived ones."""

    first: int
    numbers: tuple[int, ...] = ()

    @property
    def text(self) -> str:  # type: ignore[override]
        head = [wire.LEDGER_HEADER]
        numbers = self.numbers or tuple(range(self.first, self.first + len(self.exchanges)))
        if self.first > 1:
            kept = any(n < self.first for n in numbers)
            head.append(
                (wire.LEDGER_OTHERS if kept else wire.LEDGER_ARCHIVED).format(last=self.first - 1)
            )
        lines = [
            wire.ledger_line(n, e.asked, e.answer)
            for n, e in zip(numbers, self.exchanges, strict=True)
        ]
        return "\n".join([*head, *lines])


def personal(exchange: SummaryExchangeRecord) -> bool:
    """A task in which the person said something that is neither math nor a request for a
    tool: no tool ran, no math was written ("Hi, I'm Dana, revising for a physics exam",
    "always give decimals"). What people say about themselves comes in such messages; the
    ledger keeps them in view when their neighbours are archived."""
    return not exchange.tools and not exchange.said and not extract_facts(exchange.question)


def pinned(exchanges: Sequence[SummaryExchangeRecord], archived: int) -> list[int]:
    """Indexes of the archived lines kept in view: the person's statements, the first and
    the newest few (a name given at the start; a preference changed since)."""
    found = [i for i in range(archived) if personal(exchanges[i])]
    if len(found) <= 2 * PINNED_EACH_END:
        return found
    return [*found[:PINNED_EACH_END], *found[-PINNED_EACH_END:]]


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
        lines = [wire.ledger_line(n, e.asked, e.answer) for n, e in enumerate(exchanges, 1)]
        archived = self.archived(lines)
        shown = [*pinned(exchanges, archived), *range(archived, len(exchanges))]
        view: list[Message] = [
            LedgerView(
                exchanges=tuple(exchanges[i] for i in shown),
                first=archived + 1,
                numbers=tuple(i + 1 for i in shown),
                strategy=self.name,
            )
        ]
        rest: list[Message] = [m for task in split.finished for m in task]
        return [*view, *rest, *split.open_tail]
