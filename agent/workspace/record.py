"""The workspace: every math object of a chat, numbered, in one append-only record.

Why: a small model points back badly in English ("the first one", "that") and copies
numbers wrongly; given short ids it only has to point, and code does the exact work
(`agent.workspace.resolve`). Items come from two places only: the math a person wrote
(`agent.workspace.capture`) and every successful tool result. The record is rebuilt from the
conversation (the transcript's messages), so it needs no storage of its own, survives every
compaction and a restart, and gives the same ids every time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from agent import wire
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.workspace.capture import capture

ItemKind = Literal["equation", "expression", "function", "roots", "value", "values"]
# Newest items shown in the prompt; functions are always shown, notes too.
SHOWN_ITEMS = 12
MAX_NOTES = 8
_ID = re.compile(r"#(\d+)")


@dataclass(frozen=True)
class Item:
    """One math object. `body`: SymPy text (an equation as `lhs = rhs`, a function's right
    side); `values`: each value of a roots/values item; `name`: a function's name."""

    number: int
    kind: ItemKind
    origin: str  # "you" for the person's math, else what made it ("roots of #1", "d/dx #3")
    body: str
    values: tuple[str, ...] = ()
    variable: str | None = None
    name: str | None = None
    params: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return f"#{self.number}"

    @property
    def shown(self) -> str:
        """The math as the line shows it (`^` for powers: the notation people type)."""
        if self.kind == "function":
            head = f"{self.name}({', '.join(self.params)})" if self.params else str(self.name)
            return _plain(f"{head} = {self.body}")
        if self.values and self.variable and self.kind == "roots":
            return ", ".join(f"{self.variable} = {_plain(v)}" for v in self.values)
        if self.values:
            return ", ".join(_plain(v) for v in self.values)
        return _plain(self.body)

    def line(self) -> str:
        label = self.origin
        if self.origin == "you":
            label = f"{f'function {self.name}' if self.name else self.kind} (you)"
        return f"{self.id} {label}: {self.shown}"


def _plain(text: str) -> str:
    return text.replace("**", "^")


@dataclass
class Workspace:
    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def next_number(self) -> int:
        return self.items[-1].number + 1 if self.items else 1

    def get(self, number: int) -> Item | None:
        return next((item for item in self.items if item.number == number), None)

    @property
    def names(self) -> dict[str, Item]:
        named: dict[str, Item] = {}
        for item in self.items:
            if item.name is not None:
                named[item.name] = item
        return named

    def add(self, item: Item) -> Item:
        self.items.append(item)
        return item

    def add_captured(self, text: str) -> list[Item]:
        """The person's math of one message, each piece once (math already held is kept)."""
        known = {name: item.body for name, item in self.names.items()}
        added = []
        for piece in capture(text, known):
            if any(
                i.origin == "you" and i.body == piece.body and i.name == piece.name
                for i in self.items
            ):
                continue
            added.append(
                self.add(
                    Item(
                        number=self.next_number,
                        kind=piece.kind,
                        origin="you",
                        body=piece.body,
                        name=piece.name,
                        params=piece.params,
                    )
                )
            )
        return added

    def summary(self) -> str:
        """`#1-#12, h, P`: what exists, for an error about an unknown id."""
        if not self.items:
            return "the workspace is empty"
        names = sorted(self.names)
        span = f"#1-#{self.items[-1].number}" if len(self.items) > 1 else "#1"
        return span + (f" (functions: {', '.join(names)})" if names else "")

    def render(self, shown: int = SHOWN_ITEMS) -> str | None:
        """The block the model reads before a request: notes, then one line per item, the
        newest last; older items are counted (recall brings them back)."""
        if not self.items and not self.notes:
            return None
        recent = self.items[-shown:]
        names = self.names
        older_functions = [i for i in names.values() if i not in recent]
        hidden = len(self.items) - len(recent) - len(older_functions)
        lines = [wire.WORKSPACE_HEADER]
        if self.notes:
            lines.append("About the user: " + "; ".join(self.notes[-MAX_NOTES:]))
        if hidden > 0:
            lines.append(f"({hidden} older items not shown; their ids still work)")
        lines += [item.line() for item in sorted(older_functions + recent, key=_number)]
        return "\n".join(lines)


def _number(item: Item) -> int:
    return item.number


def _variable_of(result: ToolResultMessage) -> str | None:
    match = re.search(r"\bfor ([A-Za-z]\w*)$", result.subject)
    if match:
        return match.group(1)
    match = re.match(r"\s*([A-Za-z]\w*)\s*=", result.text)
    return match.group(1) if match else None


def _origin(call: ToolCall | None, result: ToolResultMessage) -> str:
    """What made a result, short: `roots of #1`, `d/dx #3`, `∫ #4 from 0 to 1`, `h(2)`."""
    subject = result.subject or result.tool
    if call is not None:
        args = call.arguments
        main = str(args.get("equation") or args.get("expression") or "").strip()
        if main and len(main) <= 40:
            subject = main
        if call.tool == "solve":
            return f"roots of {subject}"
        if call.tool == "derivative":
            order = args.get("order") or 1
            return f"d{'' if order == 1 else f'^{order}'}/d{args.get('variable') or ''} {subject}"
        if call.tool == "integral":
            lower, upper = args.get("lower"), args.get("upper")
            bounds = f" from {lower} to {upper}" if lower is not None and upper is not None else ""
            return f"∫ {subject}{bounds}"
        if call.tool == "evaluate":
            at = args.get("at") or []
            return f"{subject} at {', '.join(map(str, at))}" if at else subject
    return subject


def _result_item(number: int, call: ToolCall | None, result: ToolResultMessage) -> Item:
    values = result.values
    if result.tool == "solve":
        kind: ItemKind = "roots"
    elif len(values) > 1:
        kind = "values"
    elif result.tool == "evaluate" or (
        result.tool == "integral" and call is not None and call.arguments.get("lower") is not None
    ):
        kind = "value"
    else:
        kind = "expression"
    body = values[0] if len(values) == 1 and kind != "roots" else ", ".join(values)
    return Item(
        number=number,
        kind=kind,
        origin=_origin(call, result),
        body=body,
        values=values if kind in ("roots", "values") else (),
        variable=_variable_of(result) if kind == "roots" else None,
    )


def build(conversation: Iterable[Message]) -> Workspace:
    """The workspace of a conversation, in its order (the same messages give the same ids)."""
    workspace = Workspace()
    calls: dict[str, ToolCall] = {}
    for message in conversation:
        if isinstance(message, UserMessage):
            workspace.add_captured(message.text)
        elif isinstance(message, ToolCall):
            calls[message.call_id] = message
        elif isinstance(message, ToolResultMessage) and message.item is not None:
            number = int(message.item.lstrip("#"))
            if number >= workspace.next_number and message.values:
                workspace.add(_result_item(number, calls.get(message.call_id), message))
        elif (
            isinstance(message, AssistantMessage)
            and message.note
            and message.note not in workspace.notes
        ):
            workspace.notes.append(message.note)
    return workspace


def ids_in(text: str) -> list[int]:
    """The item numbers a text cites (`#3`, `#2[1]`)."""
    return [int(n) for n in _ID.findall(text)]
