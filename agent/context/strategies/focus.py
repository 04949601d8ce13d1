"""`focus`: every finished task is a numbered line; each call sees only the lines it needs.

The cheapest strategy that keeps what people refer to, as far as a reader without an LLM can
tell what that is. Compaction is `structural`'s (no LLM call, the shared safety check): a finished task becomes
one line, request and final answer plus any tool value the answer did not quote, and the
working context keeps every line in order, so line N is the user's N-th task.

The view is what makes it cheap on long sessions: the model is shown
1. the user's own statements (a name, a subject, "always give decimals": lines with no math
   and a first-person cue), always;
2. the recent lines, in blocks of `block` tasks that only grow at their end until the next
   block starts, so consecutive prompts share their prefix (cheap to re-read, see the notes on
   prompt caching);
3. the lines the request refers to (`agent.context.references`: numbers, ordinals, positions,
   results, kinds in other words) and, for a request that leans on the previous one ("and its
   value at that time?"), the lines that one referred to.
A last line says how many tasks are not listed and which number the current request has, so
a model can resolve "question 5" itself (last, so the start of the prompt stays the same),
and that `recall` searches the rest. Lines not shown are still in the working context and in
the transcript; nothing is lost, only not re-sent. The reader is written by the people who
wrote the benchmark's wordings: a wording it does not know hides the line (the model can still
`recall` it), which is why `ledger`, which shows every line, is the default.
"""

from __future__ import annotations

from typing import Any

from agent import wire
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.math_facts import extract_facts
from agent.context.references import LedgerLine, RequestFocus
from agent.context.strategies.ledger import personal_sentences
from agent.context.strategies.structural import fold
from agent.context.tasks import split_history
from agent.messages import Message, SummaryMessage, UserMessage


class FocusView(SummaryMessage):
    """The lines one call is shown; only ever in a view, never in the working history."""

    numbers: tuple[int, ...]
    current: int

    @property
    def text(self) -> str:  # type: ignore[override]
        hidden = max(self.current - 1 - len(self.numbers), 0)
        lines = [
            wire.ledger_line(n, e.question, e.answer)
            for n, e in zip(self.numbers, self.exchanges, strict=True)
        ]
        footer = wire.FOCUS_FOOTER.format(current=self.current, hidden=hidden)
        return "\n".join([wire.LEDGER_HEADER, *lines, footer])


def is_personal(line: LedgerLine) -> bool:
    """A line about the user rather than math: a sentence with a first-person cue and no
    math, or a task no tool worked on whose request holds no math (an introduction, "Lucas
    here, physics homework"). Kept in view for good."""
    if personal_sentences(line.question):
        return True
    return not line.tools and not extract_facts(line.question)


class FocusStrategy(ContextStrategy):
    name = "focus"

    def __init__(self, block: int = 4, recent: int = 2, personal: int = 8) -> None:
        self.block = block
        self.recent = recent
        self.personal = personal
        self._focus = RequestFocus()

    def compact(self, request: CompactionInput) -> Compaction:
        return fold(request, self.name)

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        split = split_history(working)
        exchanges = [e for s in split.summaries for e in s.exchanges]
        if not exchanges:
            return working
        lines = [LedgerLine.of(i, e) for i, e in enumerate(exchanges, 1)]
        current = len(lines) + len(split.finished) + 1
        shown = self._visible(lines, current, split.open_tail, incoming)
        view = FocusView(
            exchanges=tuple(exchanges[n - 1] for n in shown),
            numbers=tuple(shown),
            current=current,
            strategy=self.name,
        )
        rest = [m for task in split.finished for m in task]
        return [view, *rest, *split.open_tail]

    def _visible(
        self,
        lines: list[LedgerLine],
        current: int,
        open_tail: list[Message],
        incoming: UserMessage | None,
    ) -> list[int]:
        count = len(lines)
        start = max(0, (count - self.recent) // self.block * self.block) + 1
        recent = list(range(start, count + 1))
        about_user = [line.number for line in lines if is_personal(line)]
        # The first (an introduction, as a rule) and the latest few.
        personal = about_user[:1] + about_user[1:][-self.personal :]
        focus = self._focus.of(lines, current, open_tail, incoming)
        ordered: list[int] = []
        for number in (*personal, *recent, *sorted(focus)):
            if 1 <= number <= count and number not in ordered:
                ordered.append(number)
        return ordered

    def to_state(self) -> dict[str, Any]:
        return self._focus.to_state()

    def from_state(self, state: dict[str, Any]) -> None:
        self._focus.from_state(state)
