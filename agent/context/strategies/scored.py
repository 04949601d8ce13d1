"""`scored`: choose past units by a weighted score under a token budget; archive the rest.

The history is cut into units: each finished task (request, clarifications, tool calls and
results, answer; a call never leaves without its result) and each line of the leading
archive summary. Every unit gets a score against the new user message:

| factor      | weight | what it measures                                                        |
|-------------|--------|-------------------------------------------------------------------------|
| relevance   | 0.40   | cosine similarity of sentence embeddings (MiniLM; without the           |
|             |        | `embeddings` extra, a hashed bag of words, i.e. lexical similarity)     |
| recency     | 0.20   | 0.5 ** (units since / `recency_half_life`, 6): the last task scores 1   |
| role        | 0.15   | user requests with values, confirmations 1.0; requests answered by a    |
|             |        | tool 0.7; archive lines 0.5; other math 0.6; talk without math 0.3      |
| key terms   | 0.25   | share of the request's distinctive math facts ("x**2-7*x+12", "0.05")   |
|             |        | the unit also states; if it has none, share of its content words        |
|             |        | ("fleet", "route")                                                      |

(`ScoreWeights`; they need not sum to 1, only their ratios matter.)

Before each call (`view`) the open task, the `keep_recent_tasks` latest tasks and every key
event are always shown verbatim; then units are taken by score, best first, while they fit
the history budget (a unit that does not fit is skipped and smaller ones may still fit), and
the result is put back in chronological order. The budget is the model's window minus a
reserve for the prompt template (system prompt + output schema, measured) and the reply:
`reserve_fraction` (0.2-0.3) of the window, or more if the measured template and
`output_tokens` need more. Archive lines that were not chosen are not dropped silently: they
are folded into one running archive line ("Earlier: solve x^2 - 7x + 12 = 0 -> 3, 4; ..."),
newest first, bounded by `archive_line_tokens`; what does not fit is counted.

After each turn (`compact`) the finished tasks the same selection would leave out are folded
into the leading summary (the shared structural fold: request + final answer + tool values,
through the shared safety check, so no fact is lost): the archive grows by one line per task
as the conversation outgrows the budget.

Key events, never folded and always shown verbatim:

- values the user gave: a user message stating a value ("my fleet has 12 vans", "let a = 3",
  "assume r = 0.05"); a clarification's values need no rule, the fold keeps every user
  message of a task in its question;
- results the user confirmed: the task right before a reply like "yes, that's right";
- anything pinned with `/pin` (the latest finished task, or the N-th shown by `describe`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import TOKENS_PER_MESSAGE
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import (
    checked,
    fold_task,
    latest_request,
    merged_summary,
    unfinished_reason,
)
from agent.context.embeddings import Embedder, content_words, cosine, embedder_or_fallback
from agent.context.math_facts import extract_facts, is_distinctive
from agent.context.tasks import final_answer, split_history
from agent.messages import (
    AssistantMessage,
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolResultMessage,
    UserMessage,
    to_chat,
)

ARCHIVE_QUESTION = "Earlier tasks, not shown in full (ask to see one again)"
_GIVEN = re.compile(
    r"\b(let|assume|assuming|suppose|given|my|our|we have|i have|there are|remember|"
    r"use)\b|^\s*[A-Za-z]\w*\s*=",
    re.IGNORECASE,
)
_CONFIRM = re.compile(
    r"^\s*(yes|yep|yeah|correct|right|exactly|confirmed?|that'?s (right|correct)|"
    r"perfect|agreed|ok(ay)?,? (that'?s|looks) (right|good))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ScoreWeights:
    relevance: float = 0.40
    recency: float = 0.20
    role: float = 0.15
    key_terms: float = 0.25


@dataclass(frozen=True)
class ScoredConfig:
    """The budget of one call and how units are scored (defaults in the module docstring)."""

    window_tokens: int = 4096
    reserve_fraction: float = 0.25
    output_tokens: int = 256
    keep_recent_tasks: int = 1
    recency_half_life: float = 6.0
    archive_line_tokens: int = 160
    weights: ScoreWeights = field(default_factory=ScoreWeights)

    def __post_init__(self) -> None:
        if not 0.2 <= self.reserve_fraction <= 0.3:
            raise ValueError("reserve_fraction must be between 0.2 and 0.3 of the window")

    def history_budget(self, template_tokens: int) -> int:
        """Tokens left for the history once the template and the reply are reserved."""
        reserve = max(int(self.window_tokens * self.reserve_fraction),
                      template_tokens + self.output_tokens)  # fmt: skip
        return max(0, self.window_tokens - reserve)


@dataclass(frozen=True)
class Unit:
    position: int  # chronological among units (archive lines first)
    messages: tuple[Message, ...]  # a finished task; empty for an archive line
    exchange: SummaryExchangeRecord | None
    text: str
    cost: int
    key: bool
    role: float


def message_key(message: Message) -> str:
    """A stable id for pinning (messages are frozen and timestamped)."""
    text = to_chat(message).content
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    return f"{message.kind}:{message.at.isoformat()}:{digest}"


def _chat_cost(messages: Iterable[Message]) -> int:
    measure = meter()
    total = 0
    for message in messages:
        chat = to_chat(message)
        total += TOKENS_PER_MESSAGE + measure.text(chat.role) + measure.text(chat.content)
    return total


def _line(exchange: SummaryExchangeRecord) -> str:
    return wire.summary_line(exchange.question, exchange.answer)


def _math_terms(text: str) -> frozenset[str]:
    return frozenset(f for f in extract_facts(text) if is_distinctive(f))


def _word_terms(text: str) -> frozenset[str]:
    return frozenset(content_words(text))


def key_term_overlap(query: str, text: str) -> float:
    """Share of the query's distinctive facts in `text`, else of its content words.

    A repeated expression names a task for certain, so when the request has one, shared
    words ("solve", "x") must not dilute it.
    """
    wanted = _math_terms(query)
    if wanted:
        return len(wanted & _math_terms(text)) / len(wanted)
    words = _word_terms(query)
    return len(words & _word_terms(text)) / len(words) if words else 0.0


def states_value(text: str) -> bool:
    """A user message that gives a value ("my fleet has 12 vans", "let a = 3")."""
    return bool(extract_facts(text)) and _GIVEN.search(text) is not None


def is_confirmation(text: str) -> bool:
    return _CONFIRM.match(text) is not None


def _task_text(task: Iterable[Message]) -> str:
    parts = []
    for message in task:
        if isinstance(message, (UserMessage, AssistantMessage, ToolResultMessage)):
            parts.append(message.text)
    return " ".join(parts)


class ScoredStrategy(ContextStrategy):
    name = "scored"

    def __init__(self, config: ScoredConfig | None = None, embedder: Embedder | None = None):
        self.config = config or ScoredConfig()
        self.embedder = embedder if embedder is not None else embedder_or_fallback()
        self.pins: set[str] = set()

    # -- units --------------------------------------------------------------------------------

    def units(self, working: list[Message]) -> tuple[list[Unit], list[Message]]:
        """(units in chronological order, the open task)."""
        split = split_history(working)
        found: list[Unit] = []
        for summary in split.summaries:
            for exchange in summary.exchanges:
                line = _line(exchange)
                found.append(
                    Unit(len(found), (), exchange, line, meter().text(line) + 1, False, 0.5)
                )
        finished = split.finished
        for index, task in enumerate(finished):
            following = finished[index + 1] if index + 1 < len(finished) else split.open_tail
            found.append(
                Unit(
                    len(found),
                    tuple(task),
                    None,
                    _task_text(task),
                    _chat_cost(task),
                    self._is_key(task, following),
                    self._role(task),
                )
            )
        return found, split.open_tail

    def _is_key(self, task: list[Message], following: list[Message]) -> bool:
        if any(message_key(m) in self.pins for m in task):
            return True
        if any(isinstance(m, UserMessage) and states_value(m.text) for m in task):
            return True
        opening = next((m for m in task if isinstance(m, UserMessage)), None)
        if opening is not None and is_confirmation(opening.text):
            return True  # kept too, or the confirmed task would lose its mark once it folds
        first = next((m for m in following if isinstance(m, UserMessage)), None)
        return first is not None and is_confirmation(first.text)

    @staticmethod
    def _role(task: list[Message]) -> float:
        users = [m for m in task if isinstance(m, UserMessage)]
        if any(states_value(m.text) or is_confirmation(m.text) for m in users):
            return 1.0
        if any(isinstance(m, ToolResultMessage) and m.ok for m in task):
            return 0.7
        answer = final_answer(task)
        texts = [m.text for m in users] + ([answer.text] if answer else [])
        return 0.6 if any(extract_facts(t) for t in texts) else 0.3

    # -- scoring and selection ----------------------------------------------------------------

    def scores(self, units: list[Unit], query: str) -> list[float]:
        config = self.config
        weights = config.weights
        vectors = self.embedder.embed([query, *(u.text for u in units)])
        target = vectors[0]
        last = len(units) - 1
        result: list[float] = []
        for unit, vector in zip(units, vectors[1:], strict=True):
            relevance = max(0.0, cosine(target, vector))
            recency = 0.5 ** ((last - unit.position) / config.recency_half_life)
            overlap = key_term_overlap(query, unit.text)
            result.append(
                weights.relevance * relevance
                + weights.recency * recency
                + weights.role * unit.role
                + weights.key_terms * overlap
            )
        return result

    def select(self, units: list[Unit], open_tail: list[Message], query: str | None) -> set[int]:
        """Positions of the units to show: mandatory ones, then by score within the budget."""
        config = self.config
        budget = config.history_budget(meter().system_tokens) - config.archive_line_tokens
        tasks = [u for u in units if u.messages]
        recent = {u.position for u in tasks[len(tasks) - config.keep_recent_tasks :]}
        if config.keep_recent_tasks <= 0:
            recent = set()
        chosen = {u.position for u in units if u.key or u.position in recent}
        used = _chat_cost(open_tail) + sum(u.cost for u in units if u.position in chosen)
        rest = [u for u in units if u.position not in chosen]
        if not rest or query is None:
            return chosen | {u.position for u in rest if query is None}
        ranked = sorted(
            zip(rest, self.scores(rest, query), strict=True),
            key=lambda pair: (pair[1], pair[0].position),
            reverse=True,
        )
        for unit, _score in ranked:
            if used + unit.cost <= budget:
                chosen.add(unit.position)
                used += unit.cost
        return chosen

    # -- before each call ---------------------------------------------------------------------

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        units, open_tail = self.units(working)
        if not units:
            return working
        chosen = self.select(units, open_tail, latest_request(working, incoming))
        if len(chosen) == len(units):
            return working
        lines = [u.exchange for u in units if u.exchange is not None and u.position in chosen]
        dropped = [u for u in units if u.position not in chosen]
        if archive := self.archive_line(dropped):
            lines.append(archive)
        shown: list[Message] = []
        if lines:
            shown.append(SummaryMessage(exchanges=tuple(lines), strategy=self.name))
        shown.extend(m for u in units if u.position in chosen for m in u.messages)
        return [*shown, *open_tail]

    def archive_line(self, dropped: list[Unit]) -> SummaryExchangeRecord | None:
        """The dropped units as one bounded line: newest first, each request -> its values."""
        if not dropped:
            return None
        measure = meter()
        parts: list[str] = []
        used = measure.text(ARCHIVE_QUESTION)
        for unit in reversed(dropped):
            part = self._brief(unit)
            cost = measure.text(part) + 1
            if used + cost > self.config.archive_line_tokens:
                break
            parts.append(part)
            used += cost
        left = len(dropped) - len(parts)
        if left:
            parts.append(f"{left} older in the transcript")
        return SummaryExchangeRecord(question=ARCHIVE_QUESTION, answer="; ".join(parts))

    @staticmethod
    def _brief(unit: Unit) -> str:
        if unit.exchange is not None:
            question, answer = unit.exchange.question, unit.exchange.answer
        else:
            record = fold_task(list(unit.messages))
            question, answer = record.question, record.answer
        values = sorted(extract_facts(answer) - extract_facts(question))
        words = question.split()
        short = " ".join(words[:12]) + (" …" if len(words) > 12 else "")
        return f"{short} -> {', '.join(values)}" if values else short

    # -- after each turn ----------------------------------------------------------------------

    def compact(self, request: CompactionInput) -> Compaction:
        working = request.working
        split = split_history(working)
        if reason := unfinished_reason(split, request.trigger):
            return Compaction(None, reason)
        units, open_tail = self.units(working)
        chosen = self.select(units, open_tail, latest_request(working, None))
        folded = [u for u in units if u.messages and u.position not in chosen]
        if not folded:
            return Compaction(None, "every finished task fits the budget or is a key event")
        kept = [m for u in units if u.messages and u.position in chosen for m in u.messages]
        lines = [fold_task(list(u.messages)) for u in folded]
        new = [merged_summary(split.summaries, lines, self.name), *kept, *open_tail]
        budget = self.config.history_budget(meter().system_tokens)
        return checked(
            working,
            new,
            f"archived {len(folded)} low-scoring task(s) into summary lines "
            f"(history budget {budget} tokens)",
        )

    # -- pins and state -----------------------------------------------------------------------

    def pin(self, working: list[Message], number: int | None = None) -> str:
        """Pin the latest finished task (or the `number`-th, 1-based) so it stays verbatim."""
        finished = split_history(working).finished
        if not finished:
            return "Nothing to pin yet: no finished task in the working context."
        if number is not None and not 1 <= number <= len(finished):
            return f"No task {number}; there are {len(finished)} finished task(s) to pin."
        task = finished[-1] if number is None else finished[number - 1]
        self.pins.add(message_key(task[0]))
        return f"Pinned: {task[0].text if isinstance(task[0], UserMessage) else task[0].kind}"

    def to_state(self) -> dict[str, Any]:
        return {"pins": sorted(self.pins)}

    def from_state(self, state: dict[str, Any]) -> None:
        self.pins = set(state.get("pins", []))
