"""The earlier item a tool call points at, asked again in a call of its own (PickReferent).

Why: the 1.5B model writing a whole MathChat step takes an earlier item by its place in the
workspace list or by the pattern of the prompt's example, not by what the request says. So
when its call points at one item from before the turn, and other items of the same family
could be meant, a short second question is asked: the candidates' workspace lines, the
person's earlier requests with the ids each made, and the request. The answered id replaces
the model's in the call. Code never reads the request's words: the model does, in a prompt
without the example chat.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agent.messages import Message, UserMessage
from agent.workspace.record import Item, Workspace, ids_in

# Families of items a field can take: values (a roots list is used as values or points) and
# math (what is solved, differentiated, evaluated).
VALUE_KINDS = frozenset({"roots", "values", "solutions", "value"})
MATH_KINDS = frozenset({"equation", "expression", "function"})
MAX_CANDIDATES = 8
MAX_REQUEST_CHARS = 300
_ANSWERED_ID = re.compile(r"#(\d+)")


@dataclass(frozen=True)
class PickQuestion:
    """What PickReferent is shown for one call, and the id the call pointed at."""

    cited: Item
    candidates: tuple[Item, ...]
    # Each candidate's workspace line and the person's message it was made for.
    lines: tuple[str, ...]
    # The person's message before the open one ("" when there is none).
    previous: str


def pick_question(
    arguments: dict[str, Any],
    workspace: Workspace,
    conversation: Sequence[Message],
    request_place: int,
) -> PickQuestion | None:
    """The question to ask for a call, or None when there is nothing to choose: the call
    points at no id, at several, at one made in this turn, or at the only one of its family.
    `request_place`: the place of the open request in `conversation`."""
    cited_numbers = {n for text in _texts(arguments) for n in ids_in(text)}
    if len(cited_numbers) != 1:
        return None
    cited = workspace.get(next(iter(cited_numbers)))
    if cited is None or cited.message is None or cited.message >= request_place:
        return None
    family = VALUE_KINDS if cited.kind in VALUE_KINDS else MATH_KINDS
    older = [
        i
        for i in workspace.items
        if i.kind in family and i.message is not None and i.message < request_place
    ]
    candidates = tuple(older[-MAX_CANDIDATES:])
    if len(candidates) < 2 or cited not in candidates:
        return None
    positions = workspace.positions()
    made_for = _made_for(workspace, conversation, request_place)
    lines = tuple(
        f'{workspace.line_of(item, positions)}   [from: "{made_for.get(item.number, "?")}"]'
        for item in candidates
    )
    said = [m for m in conversation[:request_place] if isinstance(m, UserMessage)]
    previous = _short(said[-1].text) if said else ""
    return PickQuestion(cited=cited, candidates=candidates, lines=lines, previous=previous)


def picked_item(answer: str, question: PickQuestion) -> Item | None:
    """The candidate the answer names first; None when it names none of them."""
    by_number = {item.number: item for item in question.candidates}
    for match in _ANSWERED_ID.finditer(answer):
        if (item := by_number.get(int(match.group(1)))) is not None:
            return item
    return None


def repointed(arguments: dict[str, Any], old: Item, new: Item) -> dict[str, Any]:
    """The arguments with every citation of `old` written as `new`."""
    pattern = re.compile(rf"#{old.number}(?!\d)")

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(new.id, value)
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    return {key: swap(value) for key, value in arguments.items()}


def _texts(arguments: dict[str, Any]) -> list[str]:
    texts: list[str] = []
    for value in arguments.values():
        if isinstance(value, str):
            texts.append(value)
        elif isinstance(value, list):
            texts += [v for v in value if isinstance(v, str)]
    return texts


def _made_for(
    workspace: Workspace, conversation: Sequence[Message], request_place: int
) -> dict[int, str]:
    """Each earlier item's number -> the person's message it was made for: the message it
    came from, or the last one before its tool result."""
    places = [p for p, m in enumerate(conversation[:request_place]) if isinstance(m, UserMessage)]
    made: dict[int, str] = {}
    for item in workspace.items:
        if item.message is None or item.message >= request_place:
            continue
        place = max((p for p in places if p <= item.message), default=None)
        if place is not None:
            message = conversation[place]
            assert isinstance(message, UserMessage)
            made[item.number] = _short(message.text)
    return made


def _short(text: str) -> str:
    return " ".join(text.split())[:MAX_REQUEST_CHARS]
