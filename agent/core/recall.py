"""`recall`: the model's look-up of the workspace items and finished tasks out of view.

Strategies keep what the model sees small; what is left out is one look-up away, as with
Letta's conversation search. A query names what it wants the way the prompt names things:
by id (`#3`, `#3 #7`), by name (`h`), by place (`equations[1]`), by the ledger's number
(`task 4`), or by math that an item or a finished task holds; failing those, its words are
looked for, as written, in the tasks' lines and the items' labels (`derivative`, `glider`).
Nothing is guessed from what the words mean. Each item found comes with the line of the task
that made it, so the model sees what it was asked for and what it is called now.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from agent import wire
from agent.context.common import fold_task
from agent.context.math_facts import extract_facts
from agent.context.tasks import split_history
from agent.messages import Message
from agent.workspace.record import EQUATIONS, Item, Workspace, ids_in

MAX_HITS = 5
_NAME = re.compile(r"(?<![\w#'\[])([A-Za-z]\w*)(?![\w(\[])")
_TASK = re.compile(r"\btasks?\s*(?:number\s*|#\s*|\[\s*)?(\d+)", re.IGNORECASE)
_PLACE = re.compile(rf"\b{EQUATIONS}\s*\[\s*-?\d+\s*\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")
# Words of the query's own form, not of what it looks for.
_FORM_WORDS = frozenset({"task", "tasks", "number", "equations", "the", "and", "of"})


def _items_named(query: str, workspace: Workspace) -> list[Item]:
    numbered = [workspace.get(n) for n in ids_in(query)]
    named = [workspace.named[n] for n in _NAME.findall(query) if n in workspace.named]
    placed: list[Item | None] = []
    for place in _PLACE.findall(query):
        try:
            placed += [workspace.get(n) for n in ids_in(workspace.cite_places(place))]
        except IndexError:
            continue
    return list(dict.fromkeys(i for i in [*numbered, *placed, *named] if i is not None))


def _holds(facts: frozenset[str], text: str) -> bool:
    """Whether `text` holds math of the query (an expression, not just a number like 0)."""
    shared = facts & extract_facts(text)
    return any(any(c.isalpha() for c in fact) for fact in shared) or len(shared) >= 2


def _said(words: list[str], text: str) -> int:
    """How many of the query's words `text` has, as whole words in any case."""
    return sum(re.search(rf"\b{re.escape(w)}\b", text, re.IGNORECASE) is not None for w in words)


class _Record:
    """The conversation's finished tasks as ledger lines, and which task made each item."""

    def __init__(self, conversation: list[Message], workspace: Workspace) -> None:
        tasks = split_history(conversation).finished
        self.lines = []
        self.starts = []
        place = 0
        for number, task in enumerate(tasks, 1):
            folded = fold_task(task, workspace)
            self.lines.append(wire.ledger_line(number, folded.asked, folded.answer))
            self.starts.append(place)
            place += len(task)
        self.ends = place

    def task_of(self, item: Item) -> int | None:
        """The index of the task whose messages made `item` (None: an open task's)."""
        if item.message is None or item.message >= self.ends:
            return None
        index = bisect_right(self.starts, item.message) - 1
        return index if index >= 0 else None


def recall(conversation: list[Message], workspace: Workspace, query: str) -> str:
    """Item lines and task lines `query` points to, each item with its task's line."""
    record = _Record(conversation, workspace)
    positions = workspace.positions()
    items = _items_named(query, workspace)
    tasks = [int(n) - 1 for n in _TASK.findall(query) if 0 < int(n) <= len(record.lines)]
    facts = extract_facts(_TASK.sub(" ", query))
    if not items and not tasks and facts:
        items = [i for i in reversed(workspace.items) if _holds(facts, i.line())][:MAX_HITS]
        tasks = [n for n in reversed(range(len(record.lines))) if _holds(facts, record.lines[n])]
    words = [w for w in _WORD.findall(query) if w.lower() not in _FORM_WORDS]
    words = [w for w in words if w not in workspace.names]
    if not items and not tasks and words:
        items, tasks = _by_words(words, workspace, record)
    found: list[str] = []
    for item in items[:MAX_HITS]:
        found.append(workspace.line_of(item, positions))
        task = record.task_of(item)
        if task is not None:
            found.append(record.lines[task])
    for task in tasks[:MAX_HITS]:
        found.append(record.lines[task])
        found += [
            workspace.line_of(i, positions) for i in workspace.items if record.task_of(i) == task
        ]
    found = list(dict.fromkeys(found))
    if found:  # a look-up is no answer: the call the request needs comes next
        return "\n".join([*found, wire.AFTER_RECALL])
    # Not found by id, name, place, number, math or words: the whole record to pick from.
    listing = workspace.render(shown=len(workspace.items)) or "The workspace is empty."
    return f"Nothing matches {query!r} by id, name or math. {listing}\n{wire.PICK_AFTER_RECALL}"


def _by_words(
    words: list[str], workspace: Workspace, record: _Record
) -> tuple[list[Item], list[int]]:
    """The newest items whose label has the most of the query's words (the record's own
    words for a kind of result: "derivative", "roots"); failing those, the newest tasks whose
    request has them (the person's words for a topic: "the glider")."""
    scores = {i.number: _said(words, i.line().split(": ", 1)[0]) for i in workspace.items}
    best = max(scores.values(), default=0)
    if best:
        return [i for i in reversed(workspace.items) if scores[i.number] == best][:MAX_HITS], []
    asked = [_said(words, line.split(wire.SUMMARY_ARROW, 1)[0]) for line in record.lines]
    best = max(asked, default=0)
    return [], [n for n in reversed(range(len(asked))) if best and asked[n] == best][:MAX_HITS]
