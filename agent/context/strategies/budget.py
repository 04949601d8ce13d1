"""`budget`: keep every LLM call under a token budget, whatever the tasks' status.

Two mechanisms, both without an LLM call:

1. compaction (after a turn): when the next prompt, counted exactly (system prompt and schema
   included, see `prompt_tokens`) plus the room reserved for the reply, would exceed the
   budget of one call, the oldest finished tasks are folded structurally (request + final
   answer + any tool value the answer did not quote) into the leading summary until the
   prompt is under the target. The most recent `keep_recent_tasks` finished tasks stay
   verbatim, tool calls included, and the open task is never touched: after a turn that ended
   mid-task (a clarification, the step cap) nothing is compacted.
2. a bounded view (before each call): the summary keeps every exchange in the working
   context (so `/strategy`, `/undo-compact` and saved sessions lose nothing), but the model
   is shown only the lines that fit the target: first the ones the current request refers to,
   by a distinctive fact it repeats ("the roots of x^2 - 7x + 12 = 0 from before") or, failing
   that, by the kind of result it names after "the/that/those" ("the roots": the latest
   solve; "that derivative": the latest derivative), then the `recent_exchanges` latest lines,
   then older lines while the target allows. This keeps the prompt flat in a long session:
   the working context grows by one short line per task, the prompt does not.

Defaults (tokens as the provider counts them; the MathChat system prompt with its schema is
the largest part of a short prompt, a finished task costs several times more verbatim than
as a summary line). They are a
per-call cost budget, deliberately far below any model's context window: a math chat needs
the current task, the previous one and whatever the request refers back to.

- `window_tokens` 1536 with `reserve_output_tokens` 256: compact once the prompt passes
  1280, the system prompt (1069 tokens with the tools of issue 29) plus ~211 tokens of
  history, i.e. about one finished task; a MathChat reply is one JSON object of 20-80
  tokens, so 256 is ample. (Both sizes grow with the prompt.)
- `target_tokens` 1216: fold down to the system prompt plus room for the open task; in
  practice that folds everything but the last task, which `keep_recent_tasks` 1 keeps
  verbatim even above the target.
- `recalled_exchanges` 2: the most lines a request may recall; `recent_exchanges` 0: no line
  is shown just for being recent, since the most recent task is there verbatim. Raise
  `target_tokens` (older lines then fill the room) or `recent_exchanges` to show more.

The arithmetic behind them: to send about a third of `none`'s input tokens on a 30-task
session, the history may add only a little above what no strategy can avoid (system prompt,
the open task, the facts it needs): one verbatim task plus a recalled line or two. What the
defaults achieve is measured by `math-agent bench` (the README has the figures).

Limits, stated plainly: recall is lexical. A reference the request neither repeats nor names
by kind ("the third one") finds only what fits; the model then sees fewer tasks than with
`structural`, and the transcript still has them all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from agent import wire
from agent.accounting.prompt_meter import meter
from agent.context.base import Compaction, CompactionInput, ContextStrategy
from agent.context.common import checked, fold_task, merged_summary
from agent.context.math_facts import extract_facts, is_distinctive
from agent.context.tasks import HistorySplit, split_history
from agent.messages import (
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    UserMessage,
    to_chat_list,
)

# Words that say which kind of earlier result a request refers to.
TOPICS: dict[str, str] = {
    **dict.fromkeys(("solve", "solved", "root", "roots", "solution", "solutions", "zero", "zeros"),
                    "solve"),
    **dict.fromkeys(("derivative", "derivatives", "differentiate", "differentiated", "slope"),
                    "derivative"),
    **dict.fromkeys(("integral", "integrals", "integrate", "integrated", "antiderivative",
                     "area"), "integral"),
    **dict.fromkeys(("evaluate", "evaluated", "value", "values", "square", "squares", "cube",
                     "cubes"), "evaluate"),
}  # fmt: skip
DETERMINERS = frozenset(
    {"the", "that", "those", "these", "this", "its", "their", "previous", "last", "earlier"}
)
_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class BudgetConfig:
    """Thresholds of the budget strategy (see the module docstring for the defaults)."""

    window_tokens: int = 1536
    reserve_output_tokens: int = 256
    target_tokens: int = 1216
    keep_recent_tasks: int = 1
    recent_exchanges: int = 0
    recalled_exchanges: int = 2

    @property
    def limit_tokens(self) -> int:
        """The largest prompt that still leaves the reserved room for the reply."""
        return self.window_tokens - self.reserve_output_tokens


@lru_cache(maxsize=8192)
def _topic_uses(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """(topics a text asks for, topics it refers back to).

    A topic word right after a determiner and not followed by "of" points back ("the roots",
    "that derivative", "those roots"); any other use names the task itself ("solve ...",
    "the derivative of ...", "what is the square of the roots": square is asked, roots are
    referred to).
    """
    words = _WORD.findall(text.lower())
    asked: set[str] = set()
    referred: set[str] = set()
    for i, word in enumerate(words):
        topic = TOPICS.get(word)
        if topic is None:
            continue
        after = words[i + 1] if i + 1 < len(words) else ""
        if i > 0 and words[i - 1] in DETERMINERS and after != "of":
            referred.add(topic)
        else:
            asked.add(topic)
    return frozenset(asked), frozenset(referred)


def asked_topics(text: str) -> frozenset[str]:
    return _topic_uses(text)[0]


def referenced_topics(text: str) -> frozenset[str]:
    return _topic_uses(text)[1]


@lru_cache(maxsize=8192)
def _distinctive(text: str) -> frozenset[str]:
    return frozenset(f for f in extract_facts(text) if is_distinctive(f))


def recalled(
    exchanges: tuple[SummaryExchangeRecord, ...], focus: list[str], limit: int
) -> list[int]:
    """Indexes of the exchanges the focus texts refer to, best first.

    An exchange that shares a distinctive fact with the request (an expression, a number that
    is not a small integer) is certainly meant, the more so the longer the shared facts
    ("x**2-7*x+12" names a task, "x**3" hardly); failing that, the latest exchanges of each
    kind the request refers to ("square the roots": the latest solves) probably are.
    """
    wanted_facts = frozenset().union(*(_distinctive(t) for t in focus))
    wanted_topics = referenced_topics_of(focus)
    by_fact: list[tuple[int, int]] = []  # (score, index)
    by_topic: dict[str, list[int]] = {topic: [] for topic in wanted_topics}
    for index in range(len(exchanges) - 1, -1, -1):
        exchange = exchanges[index]
        shared = wanted_facts & (_distinctive(exchange.question) | _distinctive(exchange.answer))
        if shared:
            by_fact.append((sum(len(f) for f in shared), index))
            continue
        for topic in wanted_topics & asked_topics(exchange.question):
            by_topic[topic].append(index)
    if by_fact:
        # A repeated fact names the task for certain; topics are only a fallback.
        by_fact.sort(key=lambda pair: (-pair[0], -pair[1]))
        return [index for _, index in by_fact[:limit]]
    # The latest task of each kind referred to, then the one before it (when "that derivative"
    # could mean either of the last two, both are shown), newest first within each round.
    ranked: list[int] = []
    for rank in range(limit):
        round_ = sorted(
            (found[rank] for found in by_topic.values() if rank < len(found)), reverse=True
        )
        ranked.extend(i for i in round_ if i not in ranked)
    return ranked[:limit]


def referenced_topics_of(focus: list[str]) -> frozenset[str]:
    return frozenset().union(*(referenced_topics(t) for t in focus))


class BudgetStrategy(ContextStrategy):
    name = "budget"

    def __init__(self, config: BudgetConfig | None = None) -> None:
        self.config = config or BudgetConfig()

    # -- before each call -------------------------------------------------------------------

    def view(self, working: list[Message], incoming: UserMessage | None) -> list[Message]:
        split = split_history(working)
        exchanges = tuple(e for s in split.summaries for e in s.exchanges)
        if not exchanges:
            return working
        rest = working[len(split.summaries) :]
        chosen = self._choose(exchanges, rest, self._focus(split, incoming))
        if len(chosen) == len(exchanges):
            return working
        if not chosen:
            return rest
        strategy = split.summaries[-1].strategy
        return [SummaryMessage(exchanges=chosen, strategy=strategy), *rest]

    @staticmethod
    def _focus(split: HistorySplit, incoming: UserMessage | None) -> list[str]:
        texts = [m.text for m in split.open_tail if isinstance(m, UserMessage)]
        if incoming is not None and incoming.text not in texts:
            texts.append(incoming.text)
        return texts

    def _choose(
        self,
        exchanges: tuple[SummaryExchangeRecord, ...],
        rest: list[Message],
        focus: list[str],
    ) -> tuple[SummaryExchangeRecord, ...]:
        """Recalled and recent lines first, then older lines while the target allows."""
        measure = meter()
        config = self.config
        count = len(exchanges)
        picked: list[int] = []
        for index in recalled(exchanges, focus, config.recalled_exchanges):
            picked.append(index)
        for index in range(count - 1, max(count - config.recent_exchanges, 0) - 1, -1):
            if index not in picked:
                picked.append(index)
        used = measure.estimate(to_chat_list(rest)) + measure.text(" " + _header())
        used += sum(measure.text(_line(exchanges[i])) + 1 for i in picked)
        for index in range(count - 1, -1, -1):
            if index in picked:
                continue
            cost = measure.text(_line(exchanges[index])) + 1
            if used + cost > config.target_tokens:
                break
            picked.append(index)
            used += cost
        return tuple(exchanges[i] for i in sorted(picked))

    # -- after each turn --------------------------------------------------------------------

    def compact(self, request: CompactionInput) -> Compaction:
        config = self.config
        working = request.working
        split = split_history(working)
        if split.open_tail and request.trigger == "turn_end":
            return Compaction(None, "the current task is not finished")
        measure = meter()
        prompt = measure.exact(self.view(working, None))
        if request.trigger == "turn_end" and prompt <= config.limit_tokens:
            return Compaction(
                None, f"prompt {prompt} tokens, within the limit of {config.limit_tokens}"
            )
        movable = len(split.finished) - config.keep_recent_tasks
        if movable <= 0:
            return Compaction(
                None,
                f"prompt {prompt} tokens, but only the {config.keep_recent_tasks} most recent "
                "task(s) are left and they stay verbatim",
            )
        folded = 0
        candidate = working
        estimate = prompt
        while folded < movable:
            folded += 1
            candidate = self._fold(split, folded)
            estimate = measure.estimate(to_chat_list(self.view(candidate, None)))
            if request.trigger == "turn_end" and estimate <= config.target_tokens:
                break
        why = (
            f"prompt {prompt} > {config.limit_tokens} tokens"
            if prompt > config.limit_tokens
            else f"asked to compact (prompt {prompt} tokens)"
        )
        return checked(
            working,
            candidate,
            f"{why}: folded the {folded} oldest task(s) into summary lines; next prompt "
            f"~{estimate} tokens (target {config.target_tokens})",
        )

    def _fold(self, split: HistorySplit, count: int) -> list[Message]:
        folded = [fold_task(task) for task in split.finished[:count]]
        kept = [m for task in split.finished[count:] for m in task]
        return [merged_summary(split.summaries, folded, self.name), *kept, *split.open_tail]


@lru_cache(maxsize=1)
def _header() -> str:
    """The first line of SummaryMessage.text, counted once per summary."""
    return wire.SUMMARY_HEADER


def _line(exchange: SummaryExchangeRecord) -> str:
    return wire.summary_line(exchange.question, exchange.answer)
