"""`recall`: the model's look-up of the workspace items and finished tasks out of view.

Strategies keep what the model sees small, and a long session shows only the newest
workspace items; what is left out is one look-up away, as with Letta's conversation search.
A query names items by id (`#3`, `#3 #7`) or by name (`h`), or writes math that an item or a
finished task holds; nothing is guessed from its words.
"""

from __future__ import annotations

import re

from agent import wire
from agent.context.common import fold_task
from agent.context.math_facts import extract_facts
from agent.context.tasks import split_history
from agent.messages import Message
from agent.workspace.record import Item, Workspace, ids_in

MAX_HITS = 5
_NAME = re.compile(r"(?<![\w#'])([A-Za-z]\w*)(?![\w(])")


def _items_named(query: str, workspace: Workspace) -> list[Item]:
    numbered = [workspace.get(n) for n in ids_in(query)]
    named = [workspace.named[n] for n in _NAME.findall(query) if n in workspace.named]
    return list(dict.fromkeys(i for i in [*numbered, *named] if i is not None))


def _holds(facts: frozenset[str], text: str) -> bool:
    """Whether `text` holds math of the query (an expression, not just a number like 0)."""
    shared = facts & extract_facts(text)
    return any(any(c.isalpha() for c in fact) for fact in shared) or len(shared) >= 2


def recall(conversation: list[Message], workspace: Workspace, query: str) -> str:
    """Workspace lines and task lines `query` points to (by id, name or math), newest first."""
    items = _items_named(query, workspace)
    facts = extract_facts(query)
    if not items and facts:
        items = [i for i in reversed(workspace.items) if _holds(facts, i.line())][:MAX_HITS]
    tasks = split_history(conversation).finished
    lines = [wire.ledger_line(n, *_qa(task)) for n, task in enumerate(tasks, 1)]
    task_hits = [line for line in reversed(lines) if facts and _holds(facts, line)]
    found = [item.line() for item in items] + task_hits[: MAX_HITS - len(items)]
    if found:  # a look-up is no answer: the call the request needs comes next
        return "\n".join([*found[:MAX_HITS], wire.AFTER_RECALL])
    # Not found by id, name or math: the request's words point somewhere in the record, so
    # the model is shown all of it to pick from.
    listing = workspace.render(shown=len(workspace.items)) or "The workspace is empty."
    return f"Nothing matches {query!r} by id, name or math. {listing}\n{wire.PICK_AFTER_RECALL}"


def _qa(task: list[Message]) -> tuple[str, str]:
    folded = fold_task(task)
    return folded.question, folded.answer
