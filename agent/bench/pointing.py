"""How the scripted model finds, in the prompt it was sent, the id of what a request means.

It reads the prompt's text the way the prompt is written for a model (`agent.wire`), never
the agent's own records: it knows which earlier task the person means (the scenario says),
and looks for it where a prompt can show it:

- a folded task's line (`13. solve x^2 + 6*x + 5 = 0 [#20] -> ... [#21]`, in a ledger, a
  summary or a recall's result): the ids after the request are the person's math, the ids at
  the end its results, in order;
- the task as it happened: the person's message with the `Workspace: #N` lines under it,
  then its tool results, each labelled with its id;
- an item's own line (`#21 roots of #20 (equations[5]): x = -5, x = -1`, after a fold or in
  a recall's result), told apart by its label and its math.

What it finds is exactly what a reader of that prompt could find; what is not there is not
found, and the model recalls it or restates it (`agent.bench.responder`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from agent import wire
from agent.bench.references import Pointer

_IDS = re.compile(r"\[(#\d+(?:, #\d+)*)\]\s*$")
_ITEM_LINE = re.compile(r"^(?:" + re.escape(wire.ANNOUNCED) + r")?(#\d+) ([^:]*): (.*)$")
_RESULT_LABEL = re.compile(r"^" + re.escape(wire.TOOL_RESULT_LABEL) + r" \((\w+)\) (#\d+)")
_ID = re.compile(r"#\d+")
RECALL_LABEL = f"{wire.TOOL_RESULT_LABEL} ({wire.RECALL_TOOL})"


def _plain(math: str) -> str:
    return math.replace("**", "^").replace(" ", "")


def _contents(messages: Iterable[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(str(m.get("role", "")), str(m.get("content", ""))) for m in messages]


def recall_results(messages: list[dict[str, Any]], question_index: int) -> list[str]:
    """The recalls' results the model got since the request at `question_index`."""
    return [
        str(m.get("content", ""))
        for m in messages[question_index + 1 :]
        if str(m.get("content", "")).startswith(RECALL_LABEL)
    ]


def _from_lines(text: str, pointer: Pointer) -> str | None:
    """The id from a folded task's line holding the pointer's request."""
    for line in text.splitlines():
        head, arrow, tail = line.partition(wire.SUMMARY_ARROW)
        if not arrow or pointer.question not in head:
            continue
        ids = _IDS.search(head if pointer.result is None else tail)
        if ids is None:
            continue
        found = ids.group(1).split(", ")
        index = 0 if pointer.result is None else pointer.result
        if index < len(found):
            return found[index]
    return None


def _from_task(contents: list[tuple[str, str]], pointer: Pointer) -> str | None:
    """The id from the task as it happened: what was announced with the request (the
    person's math) or its tool results in order (until its answer)."""
    for start, (role, content) in enumerate(contents):
        if role != wire.USER or wire.request_of(content) != pointer.question:
            continue
        if pointer.result is None:
            said = _ID.findall("\n".join(wire.announced_of(content)))
            return said[0] if said else None
        results: list[str] = []
        for later_role, later in contents[start + 1 :]:
            if later_role == wire.ASSISTANT and '"COMPLETED"' in later:
                break
            label = _RESULT_LABEL.match(later)
            if label is not None and label.group(1) != wire.RECALL_TOOL:
                results.append(label.group(2))
        return results[pointer.result] if pointer.result < len(results) else None
    return None


def _matches(pointer: Pointer, label: str, math: str) -> bool:
    if pointer.label not in label:
        return False
    if pointer.label == "roots":
        values = {v.split("=")[-1].strip() for v in math.split(",")}
        return values == set(pointer.math)
    return _plain(math) in {_plain(m) for m in pointer.math}


def _from_items(text: str, pointer: Pointer) -> str | None:
    """The id from an item's own line, told apart by its label and its math."""
    for line in text.splitlines():
        match = _ITEM_LINE.match(line.strip())
        if match is not None and _matches(pointer, match.group(2), match.group(3)):
            return match.group(1)
    return None


def find_id(messages: list[dict[str, Any]], pointer: Pointer, by_task: bool = False) -> str | None:
    """The id of what `pointer` means, as the prompt `messages` shows it, or None. With
    `by_task` (the person named the task by its number or place, not by its math or kind)
    an item's own line is no proof of which task made it: only the task's line or the task
    as it happened are."""
    contents = _contents(messages)
    for _role, content in contents:
        if (found := _from_lines(content, pointer)) is not None:
            return found
    if (found := _from_task(contents, pointer)) is not None:
        return found
    if by_task:
        return None
    for _role, content in contents:
        if (found := _from_items(content, pointer)) is not None:
            return found
    return None


def in_view(messages: list[dict[str, Any]], pointer: Pointer, by_task: bool = False) -> bool:
    """Is the pointer's math shown at all (without an id, a model restates it)? With
    `by_task`, only where the task's request is shown with it."""
    if by_task and not any(pointer.question in c for _r, c in _contents(messages)):
        return False
    text = _plain("\n".join(content for _role, content in _contents(messages)))
    return all(
        re.search(rf"(?<![\w^*/.-]){re.escape(_plain(math))}(?![\w^*/.])", text) is not None
        for math in pointer.math
    )


def pointed_call(call: str, ids: list[str]) -> str:
    """The call with the ids where its `@0`, `@1`... stand."""
    for index, found in enumerate(ids):
        call = call.replace(f"@{index}", found)
    return call
