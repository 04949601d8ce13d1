"""How the workspace reaches the model: each item where it enters the chat, once.

Why: a block of the newest items re-rendered before every request changed the prompt at the
previous request, so a CPU model re-read the last task and the whole block on every turn
(about 400 tokens, over ten seconds on two cores). Here what the model is shown of an
item never changes after it appears: the person's new math is listed in the message that
wrote it, before its words (so the request is what the model reads last), a result's origin
is in its own tool-result line, a note stays in the answer that wrote it. The prompt only
grows at its end, so the prompt cache serves all of it.

A fold (a strategy that replaces finished tasks by summary lines) hides the messages that
announced items; the items they announced are listed once after the summaries instead
(every function, the notes about the person, the newest hidden items; `recall` finds the
rest). That list changes only when a fold changes what is hidden, so between folds it is
part of the cached prefix too.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from datetime import datetime

from agent import wire
from agent.messages import (
    AssistantMessage,
    Message,
    SummaryMessage,
    ToolResultMessage,
    UserMessage,
)
from agent.workspace.record import MAX_NOTES, SHOWN_ITEMS, Item, Workspace, ids_in
from baml_client.types import ChatMessage

_Key = tuple[str, datetime]


def _key(message: Message) -> _Key:
    """A message's identity across copies (a session reloaded from the store holds equal
    messages, not the same objects): its kind and the moment it was made."""
    return (message.kind, message.at)


def shown_chat(
    context: Sequence[Message], conversation: Sequence[Message], workspace: Workspace
) -> list[ChatMessage]:
    """The context as the model reads it: user messages with the items they added, tool
    results with what they came from, and what a fold hid listed after the summaries."""
    places = {_key(m): place for place, m in enumerate(conversation)}
    shown_places = sorted(p for m in context if (p := places.get(_key(m))) is not None)
    folded = any(isinstance(m, SummaryMessage) for m in context)
    announced, hidden = _announcements(workspace, shown_places, folded)
    positions = workspace.positions(from_last=False)
    chat: list[ChatMessage] = []
    summaries = sum(isinstance(m, SummaryMessage) for m in context)
    for message in context:
        place = places.get(_key(message))
        added = announced.get(place, []) if place is not None else []
        if isinstance(message, UserMessage):
            chat.append(_user(message, added, workspace, positions))
        elif isinstance(message, ToolResultMessage) and added:
            label = " ".join(_label(item, workspace, positions) for item in added)
            text = wire.tool_outcome_text(message.tool, message.ok, message.text, label)
            chat.append(ChatMessage(role=wire.USER, content=text))
        elif isinstance(message, AssistantMessage):
            chat.append(wire_answer(message))
        else:
            chat.append(message.to_chat())
        if isinstance(message, SummaryMessage):
            summaries -= 1
            if summaries == 0:
                said = "\n".join(c.content for c in chat if c.role == wire.SYSTEM)
                chat[-1] = _with_hidden(chat[-1], hidden, workspace, positions, said)
                hidden = []
    if hidden and (listing := hidden_listing(hidden, workspace, positions)):
        chat.insert(0, ChatMessage(role=wire.SYSTEM, content=listing))
    return chat


def _uncited(hidden: list[Item], summaries: str) -> list[Item]:
    """The hidden items the summaries do not give by id, newer than the oldest they do:
    a fold whose lines carry the ids of what each task made and was given (`ledger`,
    `window`, `structural`) leaves none; a summary in words (`summarize`) leaves its tasks'
    items, listed instead. Items older than the oldest cited were archived with their
    lines: `recall` brings them back."""
    cited = set(ids_in(summaries))
    oldest = min(cited, default=0)
    return [i for i in hidden if i.number not in cited and i.number > oldest]


def _announcements(
    workspace: Workspace, shown_places: list[int], folded: bool
) -> tuple[dict[int, list[Item]], list[Item]]:
    """Where each item is announced (the place of a shown message), and the items a fold
    hid. An item is announced by the message that made it; one of a turn that failed (rolled
    back, so not shown) by the next message shown after it; one made before the first shown
    message of a `folded` context was folded away, and is listed instead."""
    announced: dict[int, list[Item]] = {}
    hidden: list[Item] = []
    first = shown_places[0] if shown_places and folded else -1
    for item in workspace.items:
        if item.message is None:
            continue
        if item.message < first or not shown_places:
            hidden.append(item)
            continue
        index = bisect_left(shown_places, item.message)
        if index < len(shown_places):
            announced.setdefault(shown_places[index], []).append(item)
    return announced, hidden


def wire_answer(message: AssistantMessage) -> ChatMessage:
    """An answer as the model wrote it, its note included (the note is what it remembered
    about the person: shown where it was written)."""
    chat = message.to_chat()
    if not message.note:
        return chat
    return ChatMessage(role=chat.role, content=wire.with_note(chat.content, message.note))


def _user(
    message: UserMessage, added: list[Item], workspace: Workspace, positions: dict[int, str]
) -> ChatMessage:
    """The person's message, its new items listed before it: what the model reads last
    before it replies is the request itself."""
    lines = [workspace.line_of(item, positions) for item in added]
    return ChatMessage(role=wire.USER, content=wire.shown_request(message.text, lines))


def _label(item: Item, workspace: Workspace, positions: dict[int, str]) -> str:
    """`#2 roots of #1 (equations[1])`: a result's id and what it came from."""
    line = workspace.line_of(item, positions)
    return line.split(": ", 1)[0] if ": " in line else item.id


def hidden_listing(
    hidden: list[Item], workspace: Workspace, positions: dict[int, str], summaries: str = ""
) -> str:
    """The items a fold hid: the notes, every function, the newest of those the
    `summaries` do not give by id; a count of the rest, which `recall` brings back."""
    functions = [i for i in workspace.names.values() if i in hidden]
    others = [i for i in hidden if i not in functions]
    uncited = _uncited(others, summaries) if summaries else others
    recent = uncited[-SHOWN_ITEMS:]
    rest = len(uncited) - len(recent)
    lines = []
    if workspace.notes:
        lines.append(wire.ABOUT_USER + "; ".join(workspace.notes[-MAX_NOTES:]))
    if not functions and not recent:
        return "\n".join(lines)
    lines.append(wire.HIDDEN_HEADER)
    if rest > 0:
        lines.append(wire.HIDDEN_COUNT.format(count=rest))
    shown = sorted(functions + recent, key=lambda i: i.number)
    lines += [workspace.line_of(item, positions) for item in shown]
    return "\n".join(lines)


def _with_hidden(
    chat: ChatMessage,
    hidden: list[Item],
    workspace: Workspace,
    positions: dict[int, str],
    summaries: str,
) -> ChatMessage:
    listing = hidden_listing(hidden, workspace, positions, summaries)
    if not listing:
        return chat
    return ChatMessage(role=chat.role, content=f"{chat.content}\n{listing}")
