"""The workspace read from a conversation, message by message.

Why apart from the record: reading costs SymPy work (what a result was made from, whether a
call restated the person's math), and a long chat is read before every LLM call, so a
conversation read before is continued from where it was left.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable

from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.math_values import math_key
from agent.workspace.record import Item, ItemRef, Workspace, has_math, ids_in
from agent.workspace.results import origin, result_kind, worked_on
from tools.errors import ToolError


def _variable_of(result: ToolResultMessage) -> str | None:
    match = re.search(r"\bfor ([A-Za-z]\w*)$", result.subject)
    if match:
        return match.group(1)
    match = re.match(r"\s*([A-Za-z]\w*)\s*=", result.text)
    return match.group(1) if match else None


def _source(call: ToolCall | None, workspace: Workspace) -> Item | None:
    """The item a call worked on: the first id or name it cites, else the person's item
    whose math its main field restates (the model copied it instead of pointing)."""
    if call is None:
        return None
    main = str(call.arguments.get("equation") or call.arguments.get("expression") or "")
    try:
        main = workspace.cite_places(main)
    except IndexError:
        return None
    if cited := ids_in(main):
        return workspace.get(cited[0])
    if named := _names_in(main, workspace):
        return named[0]
    return _restated(main, workspace)


def _restated(math: str, workspace: Workspace) -> Item | None:
    """The person's item whose math `math` restates (the newest such)."""
    try:
        key = math_key(math)
    except (ToolError, ValueError, TypeError, RecursionError):
        return None
    for item in reversed(workspace.items):
        if item.origin == "you" and has_math(item, key):
            return item
    return None


def _names_in(text: str, workspace: Workspace) -> list[Item]:
    """The named items (functions, labelled equations) a piece of math cites by name."""
    return [
        item
        for name, item in workspace.named.items()
        if re.search(rf"(?<![\w#]){re.escape(name)}(?![\w])", text)
    ]


def _origin(
    call: ToolCall | None, result: ToolResultMessage, source: Item | None, workspace: Workspace
) -> tuple[str, int | None]:
    """What made a result, in words (`agent.workspace.results.origin`): the math the call
    worked on is named by the person's item it restates, else as the call wrote it; and the
    item that math was exactly, by its id (`#4`), when it was one."""
    subject = result.subject or result.tool
    if call is None:
        return subject, None
    args = call.arguments
    main = str(args.get("equation") or args.get("expression") or "").strip()
    cited = bool(ids_in(main)) or any(_names_in(main, workspace))
    if main and (cited or source is None) and len(main) <= 40:
        subject = main  # what the call pointed at, as it wrote it: `q = 0`, `f(3)`, `#4`
    elif source is not None:
        subject = source.name or source.id  # the math was copied: say whose it is
    if isinstance(args.get("equations"), list):  # a system's equations, each by its id
        args = {**args, "equations": [_named(str(e), workspace) for e in args["equations"]]}
    exactly = ItemRef.parse(worked_on(call.tool, subject))
    return origin(call.tool, args, subject, result), exactly.number if exactly else None


def _named(math: str, workspace: Workspace) -> str:
    """An equation as its id when it restates the person's, else as written."""
    item = None if ids_in(math) else _restated(math, workspace)
    return (item.name or item.id) if item is not None else math


def _result_item(
    number: int,
    call: ToolCall | None,
    result: ToolResultMessage,
    workspace: Workspace,
    message: int,
) -> Item:
    values = result.values
    kind = result_kind(result.tool, call.arguments if call is not None else {}, values)
    several = kind in ("roots", "solutions", "values")
    body = values[0] if len(values) == 1 and kind != "roots" else ", ".join(values)
    if kind == "solutions":
        body = "; ".join(values)
    source = _source(call, workspace)
    words, of = _origin(call, result, source, workspace)
    return Item(
        number=number,
        kind=kind,
        origin=words,
        body=body,
        values=values if several else (),
        variable=_variable_of(result) if kind in ("roots", "solution set") else None,
        source=source.number if source is not None and source.origin == "you" else None,
        message=message,
        of=of,
    )


class _Builder:
    """The workspace of one conversation, read message by message; `seen` are the messages
    read so far (the same objects: a transcript only grows, so the next build reads only
    what was appended since)."""

    def __init__(self) -> None:
        self.workspace = Workspace()
        self.calls: dict[str, ToolCall] = {}
        self.seen: list[Message] = []

    def continues(self, conversation: list[Message]) -> bool:
        """Does `conversation` start with every message read so far (the very objects)?"""
        return len(conversation) >= len(self.seen) and all(
            a is b for a, b in zip(self.seen, conversation, strict=False)
        )

    def read(self, conversation: list[Message]) -> Workspace:
        workspace = self.workspace
        for place in range(len(self.seen), len(conversation)):
            message = conversation[place]
            if isinstance(message, UserMessage):
                workspace.add_captured(message.text, place, message.at)
            elif isinstance(message, ToolCall):
                self.calls[message.call_id] = message
            elif isinstance(message, ToolResultMessage) and message.item is not None:
                ref = ItemRef.parse(message.item)
                if ref is not None and ref.number >= workspace.next_number and message.values:
                    call = self.calls.get(message.call_id)
                    workspace.add(_result_item(ref.number, call, message, workspace, place))
            elif isinstance(message, AssistantMessage):
                workspace.add_answer_names(message.text)
                if message.note and message.note not in workspace.notes:
                    workspace.notes.append(message.note)
            self.seen.append(message)
        # A copy: what a caller holds does not change when the conversation grows.
        return Workspace(
            items=list(workspace.items), notes=list(workspace.notes), given=dict(workspace.given)
        )


# The conversations read most recently (the agent rebuilds its workspace before each call):
# a conversation that grew is read from where it was left, not from its start.
_BUILDERS: list[_Builder] = []
_BUILDERS_KEPT = 4
_BUILDERS_LOCK = threading.Lock()


def build(conversation: Iterable[Message]) -> Workspace:
    """The workspace of a conversation, in its order (the same messages give the same ids).

    Reading a message can cost SymPy work (capture parses the person's math; a result is
    compared with the person's items), so a conversation read before is continued, not read
    again: the agent calls this before every LLM call of a long chat."""
    messages = list(conversation)
    if not messages:
        return Workspace()
    with _BUILDERS_LOCK:
        builder = next((b for b in _BUILDERS if b.seen and b.continues(messages)), None)
        if builder is None:
            builder = _Builder()
        else:
            _BUILDERS.remove(builder)
        _BUILDERS.insert(0, builder)
        del _BUILDERS[_BUILDERS_KEPT:]
        return builder.read(messages)
