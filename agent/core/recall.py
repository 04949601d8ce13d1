"""`recall`: the model's search over every finished task of the conversation.

Strategies keep what the model sees small; what they leave out is one lookup away, as with
Letta's conversation search. The search reads the full conversation (the transcript's
messages, compacted away or not), numbers its finished tasks the way the ledger does (task 1
is the first thing the user asked), and answers with the matching tasks as ledger lines:
the ones a request names (a number, an ordinal, a position, a result, a kind in other words,
see `agent.context.references`) first, newest first, then those sharing numbers or rarer
words with it.
"""

from __future__ import annotations

from agent import wire
from agent.context.common import fold_task
from agent.context.math_facts import extract_facts
from agent.context.references import LedgerLine, content_words, referenced
from agent.context.tasks import split_history
from agent.messages import Message

MAX_HITS = 5


def finished_lines(conversation: list[Message]) -> list[LedgerLine]:
    """Every finished task of `conversation` as a numbered ledger line."""
    tasks = split_history(conversation).finished
    return [LedgerLine.of(n, fold_task(task)) for n, task in enumerate(tasks, 1)]


def _overlap(query: str, line: LedgerLine) -> int:
    """How much a line shares with the query: math facts weigh more than words."""
    text = f"{line.question} {line.answer}"
    facts = len(extract_facts(query) & extract_facts(text))
    words = len(content_words(query) & content_words(text))
    return 2 * facts + words


def _shared_math(query: str, line: LedgerLine) -> bool:
    """Whether the line holds an expression of the query (not just a number such as 0)."""
    shared = extract_facts(query) & extract_facts(f"{line.question} {line.answer}")
    return any(any(c.isalpha() for c in fact) for fact in shared)


def recall(conversation: list[Message], query: str, limit: int = MAX_HITS) -> str:
    """The tasks `query` points to, as `#N question -> answer` lines (or why there are none).

    A query that writes math some task holds ("roots of m^2 - 2m - 15 = 0") gets those tasks
    only: lines that share just words ("roots") came after the right one, and the 1.5B model
    answered from one of them (seen with `ledger`, `focus` and `window`)."""
    lines = finished_lines(conversation)
    if not lines:
        return "No task has been finished yet in this conversation."
    named = referenced(query, lines, len(lines) + 1)
    candidates = [line for line in lines if line.number not in named]
    if any(_shared_math(query, line) for line in lines):
        candidates = [line for line in candidates if _shared_math(query, line)]
    scored = sorted(
        ((_overlap(query, line), line.number) for line in candidates),
        key=lambda pair: (-pair[0], -pair[1]),
    )
    # Newest first: "the roots of the equation" names every solved equation, and the model
    # answered from the first line listed (an older equation's roots, seen with `ledger`).
    numbers = sorted(named, reverse=True)[:limit] + [n for score, n in scored if score > 0]
    hits = [lines[n - 1] for n in numbers[:limit]]
    if not hits:
        return (
            f"No finished task matches {query!r}; the tasks are numbered #1 to #{len(lines)}: "
            "ask for one by its number."
        )
    return "\n".join(wire.ledger_line(h.number, h.question, h.answer) for h in hits)
