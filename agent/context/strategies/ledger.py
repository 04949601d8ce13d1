"""`ledger` (the default): every finished task is one numbered line, and the model sees them.

Compaction is `structural`'s (no LLM call, the shared safety check): a finished task becomes
one line, the user's request(s) and the final answer as written, plus any tool value the
answer did not quote; line N is the user's N-th task.

The view is the numbered ledger, every line in order, so any way a person points back
("question 5", "the second problem I sent", "two tasks back", "the gradient function", "the
one with roots 5 and -1", "the very first result") resolves by reading it: no rule has to
guess what was meant. Only a very long session archives its oldest lines, a block at a time,
to keep the prompt flat:
- an archived line leaves the prompt, and a header line says which numbers are archived and
  that `recall` searches them (`agent.core.recall`, over the full transcript);
- the user's own statements in archived lines (a name, a subject, "always give decimals":
  sentences with a first-person cue and no math) stay, as notes;
- archived lines a request refers to (`agent.context.references`: numbers, ordinals,
  positions, results, kinds in other words, and a request leaning on the previous one) are
  shown just before that request's task, and stay there while the task is not folded yet
  (they change with each request: moved or dropped, everything after them would be re-read).

Prompt cache: between archive steps the ledger only grows at its end, so consecutive prompts
share everything up to the newest line (llama.cpp re-reads only what follows; providers bill
the repeated prefix at 10-50%). Archived or not, nothing leaves the working context or the
transcript.
"""

from __future__ import annotations

import re
from typing import Any

from agent import wire
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.math_facts import extract_facts
from agent.context.references import LedgerLine, RequestFocus
from agent.context.strategies.structural import fold
from agent.context.tasks import split_history
from agent.messages import Message, SummaryMessage, UserMessage

# A statement about the user or their wishes: a first-person cue, a standing instruction.
FIRST_PERSON = re.compile(
    r"\b(i|i'm|im|i've|i'd|i'll|my|me|mine|call\s+me|always|never|prefer|please|"
    r"from\s+now|your\s+answers?|answer\s+format)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+")


def personal_sentences(text: str) -> list[str]:
    """The sentences of a request that speak about the user and hold no math."""
    return [
        s.strip()
        for s in _SENTENCE_END.split(text)
        if FIRST_PERSON.search(s) and not extract_facts(s)
    ]


class LedgerView(SummaryMessage):
    """The ledger one call is shown (only ever in a view, never in the working history):
    the lines from `first` on, after a note on the archived ones."""

    first: int
    notes: tuple[str, ...] = ()

    @property
    def text(self) -> str:  # type: ignore[override]
        head = [wire.LEDGER_HEADER]
        if self.first > 1:
            head.append(wire.LEDGER_ARCHIVED.format(last=self.first - 1))
            if self.notes:
                head.append(wire.LEDGER_NOTES)
                head += [wire.LEDGER_NOTE_PREFIX + note for note in self.notes]
        lines = [
            wire.ledger_line(n, e.question, e.answer)
            for n, e in enumerate(self.exchanges, self.first)
        ]
        return "\n".join([*head, *lines])


class RecalledLines(SummaryMessage):
    """Archived lines the request refers to, shown just before the open task."""

    numbers: tuple[int, ...]

    @property
    def text(self) -> str:  # type: ignore[override]
        lines = [
            wire.ledger_line(n, e.question, e.answer)
            for n, e in zip(self.numbers, self.exchanges, strict=True)
        ]
        return "\n".join([wire.LEDGER_RECALLED, *lines])


class LedgerStrategy(ContextStrategy):
    name = "ledger"

    def __init__(self, archive_after: int = 40, block: int = 16, notes: int = 12) -> None:
        if not 0 < block <= archive_after:
            raise ValueError("block must be positive and at most archive_after")
        self.archive_after = archive_after
        self.block = block
        self.notes = notes
        self._focus = RequestFocus()
        # Task number -> the archived lines shown before that task, kept while it is unfolded.
        self._recalled_for: dict[int, tuple[int, ...]] = {}

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
        said = [s for e in exchanges[:archived] for s in personal_sentences(e.question)]
        # The earliest (an introduction, as a rule) and the latest statements.
        early = self.notes // 3
        notes = said if len(said) <= self.notes else said[:early] + said[early - self.notes :]
        view: list[Message] = [
            LedgerView(
                exchanges=tuple(exchanges[archived:]),
                first=archived + 1,
                notes=tuple(notes),
                strategy=self.name,
            )
        ]
        folded = len(exchanges)
        self._recalled_for = {n: r for n, r in self._recalled_for.items() if n > folded}
        rest: list[Message] = []
        for number, task in enumerate(split.finished, folded + 1):
            rest += [*self._recalled_lines(exchanges, number), *task]
        # With no request to read (window sizing its next prompt after a turn) nothing new is
        # recalled, and the focus memory of requests is left as it is.
        asked = incoming is not None or bool(split.open_tail)
        if archived and asked:
            lines = [LedgerLine.of(i, e) for i, e in enumerate(exchanges, 1)]
            current = folded + len(split.finished) + 1
            wanted = self._focus.of(lines, current, split.open_tail, incoming)
            self._recalled_for[current] = tuple(n for n in wanted if n <= archived)
            # Just before the open task, and kept before it once it is finished: they change
            # with each request, and whatever follows them is re-read (measured: shown after
            # the ledger, `window` re-read its unfolded tasks on every turn, up to 1,450
            # tokens, ~30 s a turn; shown only for the open task, the previous task was
            # re-read whenever it had recalled lines of its own).
            rest += self._recalled_lines(exchanges, current)
        return [*view, *rest, *split.open_tail]

    def _recalled_lines(self, exchanges: list[Any], task: int) -> list[Message]:
        numbers = self._recalled_for.get(task, ())
        if not numbers:
            return []
        picked = tuple(exchanges[n - 1] for n in numbers)
        return [RecalledLines(exchanges=picked, numbers=numbers, strategy=self.name)]

    def to_state(self) -> dict[str, Any]:
        recalled = {str(task): list(numbers) for task, numbers in self._recalled_for.items()}
        return {**self._focus.to_state(), "recalled_for": recalled}

    def from_state(self, state: dict[str, Any]) -> None:
        self._focus.from_state(state)
        recalled = state.get("recalled_for", {})
        self._recalled_for = {int(task): tuple(numbers) for task, numbers in recalled.items()}
