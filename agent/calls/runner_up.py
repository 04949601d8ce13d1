"""The runner-up: the call the model nearly made, from its own token probabilities.

Where the model wrote a tool's name or an item's id, the endpoint says how likely each other
token was there. When another tool or another existing item came close, the call it would
have made is rebuilt from the model's own reply (that one name or id written the other way)
and offered beside the answer, so the person's one keystroke runs it without asking the
model again. Reads tokens, tool names and ids only: never the request's words.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from agent.calls.pending import Call, tool_arguments
from agent.llm.salvage import math_fields
from agent.llm.step_schema import literal_tools, step_members
from agent.llm.token_choices import TokenChoice, reply_text
from agent.messages import Offer
from agent.workspace.record import Item, Workspace
from baml_client import b
from baml_client.types import MessageToUser, SystemSolver, TaskRecall

# The other tool or item is offered when the model gave it at least this probability where
# it wrote its choice: the lowest that kept offers under at most 25% of right answers on the
# `sessions` dev part (19% there; docs/experiments.md).
OFFER_SHARE = float(os.environ.get("MATH_AGENT_RUNNER_UP_SHARE", "") or 0.05)

_TOOL_VALUE = re.compile(r'"tool"\s*:\s*"')
_ID = re.compile(r"#(\d+)")
_LEADING_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class RunnerUp:
    """The call the model nearly made: `call`, written with `instead` where the model wrote
    `chosen` (a tool's name, or an id like `#3`), which it gave probability `share`
    (`chosen_share` for what it wrote)."""

    call: Call
    kind: str  # "tool" or "item"
    chosen: str
    instead: str
    share: float
    chosen_share: float


@cache
def _offerable_tools() -> tuple[str, ...]:
    """Tools a runner-up may name: every math tool but systems (their math is a list)."""
    skipped = (MessageToUser, TaskRecall, SystemSolver)
    return tuple(t for m in step_members() if m not in skipped for t in literal_tools(m))


def runner_up(
    step: Call, choices: Sequence[TokenChoice], workspace: Workspace, least: float = OFFER_SHARE
) -> RunnerUp | None:
    """The likeliest other call the reply's tokens nearly wrote, if the model gave it at
    least `least`; None when it did not hesitate (or the endpoint sent no probabilities)."""
    if isinstance(step, TaskRecall | SystemSolver) or not choices:
        return None
    text = reply_text(choices)
    # Only the alternatives likely enough are rebuilt (each is parsed).
    close = [
        TokenChoice(c.start, c.token, c.share, tuple(o for o in c.others if o[1] >= least))
        for c in choices
    ]
    found = [*_other_tools(step, text, close), *_other_items(step, text, close, workspace)]
    return max(found, key=lambda r: r.share, default=None)


def _other_tools(step: Call, text: str, choices: Sequence[TokenChoice]) -> Iterator[RunnerUp]:
    match = _TOOL_VALUE.search(text)
    if match is None:
        return
    start = match.end()
    end = text.find('"', start)
    if end < 0 or text[start:end] != step.tool:
        return
    for choice in choices:
        if not start <= choice.start <= end:
            continue
        for token, share in choice.others:
            written = text[start : choice.start] + token
            if '"' in written:  # the name ends here
                name = written.split('"')[0]
                named = [t for t in _offerable_tools() if t == name]
            else:
                named = [t for t in _offerable_tools() if t.startswith(written)]
            if len(named) != 1 or named[0] == step.tool:
                continue
            call = retargeted(step, named[0])
            if call is not None:
                yield RunnerUp(call, "tool", step.tool, named[0], share, choice.share)


def retargeted(step: Call, tool: str) -> Call | None:
    """The same call made with `tool`: its math in that tool's math field (an equation
    becomes `lhs - (rhs)` for a tool that reads an expression), its other fields where the
    tool has them. None when that call does not parse."""
    if tool not in _offerable_tools():
        return None
    fields = math_fields()
    source, target = fields.get(step.tool), fields.get(tool)
    arguments = {k: v for k, v in tool_arguments(step).items() if v is not None}
    if source is None or target is None or not isinstance(arguments.get(source), str):
        return None
    math = arguments.pop(source)
    sides = math.split("=")
    if source == "equation" and target != "equation" and len(sides) == 2:
        left, right = (side.strip() for side in sides)
        math = left if right == "0" else f"{left} - ({right})"
    written = {"tool": tool, target: math, **arguments}
    return _parsed(written, tool)


def _other_items(
    step: Call, text: str, choices: Sequence[TokenChoice], workspace: Workspace
) -> Iterator[RunnerUp]:
    tool_at = _TOOL_VALUE.search(text)
    for match in _ID.finditer(text):
        first, last = match.span(1)
        if tool_at is not None and first < tool_at.end():
            continue
        chosen = int(match.group(1))
        for choice in choices:
            if not first <= choice.start < last:
                continue
            for token, share in choice.others:
                number = _other_number(text, choice, token, last, workspace)
                if number is None or number == chosen:
                    continue
                rewritten = text[:first] + str(number) + text[last:]
                call = _parsed_reply(rewritten, step.tool)
                if call is not None:
                    yield RunnerUp(call, "item", f"#{chosen}", f"#{number}", share, choice.share)


def _other_number(
    text: str, choice: TokenChoice, token: str, last: int, workspace: Workspace
) -> int | None:
    """The one existing item the other token would have named (its digits, and the rest of
    the written id's digits when the token is only digits): None if none or several."""
    digits = _LEADING_DIGITS.match(token)
    if digits is None:
        return None
    head = text[: choice.start]
    head = head[head.rfind("#") + 1 :]
    options = {int(head + digits.group())}
    if digits.group() == token:
        options.add(int(head + token + text[choice.end : last]))
    existing = [n for n in options if workspace.get(n) is not None]
    return existing[0] if len(existing) == 1 else None


def _parsed(written: dict[str, Any], tool: str) -> Call | None:
    return _parsed_reply(json.dumps(written, ensure_ascii=False), tool)


def _parsed_reply(reply: str, tool: str) -> Call | None:
    """The reply as BAML parses it, if it is a call of `tool`."""
    try:
        step = b.parse.MathChat(reply)
    except Exception:  # a reply the parser refuses is no call to offer
        return None
    return step if getattr(step, "tool", None) == tool else None  # type: ignore[return-value]


def described(item: Item) -> str:
    """An item in the person's terms: its id, what it is, its math."""
    what = f"your {item.kind}" if item.origin == "you" else item.origin
    if item.name and item.kind == "function":
        what = f"your function {item.name}"
    return f"{item.id} ({what}: {item.shown})"


def offer_of(other: RunnerUp, workspace: Workspace) -> Offer:
    """The offer a person reads under the answer: which item (or tool) the answer used, and
    the other as `1) ...`."""
    arguments = tool_arguments(other.call)
    if other.kind == "item":
        used = _item_named(other.chosen, workspace)
        instead = _item_named(other.instead, workspace)
        text = f"Used {used}.\n{Offer.PICK}) {other.call.tool} with {instead} instead"
    else:
        math = ", ".join(str(v) for v in arguments.values() if v not in (None, [], ""))
        text = f"{Offer.PICK}) {other.instead} instead of {other.chosen}: {other.instead}({math})"
    return Offer(
        tool=other.call.tool,
        arguments=arguments,
        text=text,
        item=other.instead if other.kind == "item" else None,
        share=round(other.share, 3),
    )


def offered_call(offer: Offer) -> Call | None:
    """The offered call as the tools take it (None if it no longer parses)."""
    return _parsed({"tool": offer.tool, **offer.arguments}, offer.tool)


def _item_named(written: str, workspace: Workspace) -> str:
    item = workspace.get(int(written.lstrip("#")))
    return described(item) if item is not None else written
