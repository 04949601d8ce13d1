"""One tool call on its way from the model's reply to the tools: the pending-call record.

Why one record: a call is rewritten (what it says twice said once, bounds nobody gave left
out), resolved (ids and names to exact math), maybe refused, run, and annotated before it
is stored. Held as one typed object, every guard reads and writes the same call, and what
each one changed is kept with the reason (`changes`), instead of a dict and a BAML object
kept in step by hand. The call stays a BAML object throughout (`step`, its fields typed);
the dict the history stores is derived from it once, when the call is stored.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from agent.llm.model import ToolStep
from agent.messages import ToolCall, ToolResultMessage
from agent.workspace.record import ItemRef
from baml_client.types import ExtremaFinder, QuadraticSolver, SystemSolver, TaskRecall
from tools.systems import one_equation_with_conditions

# A call the model can make: a math tool, or a search of the workspace and earlier tasks.
Call = ToolStep | TaskRecall


def tool_arguments(step: Call) -> dict[str, Any]:
    """The call's fields without the `tool` discriminator, for the history."""
    return step.model_dump(exclude={"tool"})


def with_fields(step: Call, fields: Mapping[str, Any]) -> Call:
    """The call with these fields (those it has) set: the one way a guard's change reaches
    the typed call."""
    declared = type(step).model_fields
    return step.model_copy(update={k: v for k, v in fields.items() if k in declared})


# The extrema class's literals that name one extreme, and the kind each runs as.
_EXTREME_KIND = {"maximum": "max", "minimum": "min"}


def as_run(step: Call, single: bool = False) -> Call:
    """The call to make for a step. `maximum` and `minimum` (the schema offers the words a
    person asks with) run, and are kept, as `extrema` of that kind. A "system" of one
    equation and conditions on its solutions (`["2x^2 - 2x - 4 = 0", "1 <= x <= 5"]`) is that
    equation solved on a domain: it runs, and is kept in the history, as that `solve` call.
    `single`: so does a system of one equation (what is left of two once a restated
    definition is dropped)."""
    if isinstance(step, ExtremaFinder) and step.tool != "extrema":  # a kind written wins
        kind = step.kind or _EXTREME_KIND[step.tool]
        return step.model_copy(update={"tool": "extrema", "kind": kind})
    if isinstance(step, SystemSolver):
        split = one_equation_with_conditions(step.equations)
        if split is None and single and len(step.equations) == 1:
            split = step.equations[0], []
        if split is not None:
            equation, conditions = split
            variables = step.variables or []
            return QuadraticSolver(
                tool="solve",
                equation=equation,
                variable=variables[0] if len(variables) == 1 else None,
                domain=", ".join(conditions) or None,
            )
    return step


@dataclass(frozen=True)
class Change:
    """What one guard did to a call, and why (for tests, logs and a reader of the code)."""

    guard: str
    what: str


@dataclass(frozen=True)
class Note:
    """A sentence added to the call's result; `if_ran`: only when the tool succeeded."""

    text: str
    if_ran: bool = False


def _now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class PendingCall:
    """A call from the model's reply until it is stored with its result.

    `step`: the call as it stands, typed (rewrites applied): what is stored and what the tools
    run once resolved; `written`: as the model wrote it; `resolved`: its fields with ids and
    names replaced by exact math (what the tools read); `refusal`: the sentence that stops it;
    `result`: what the tools (or the recall search) returned; `item`: the id that result gets
    when it is a workspace item; `pointed`: the call as the model reads it back, its copied
    math written as ids (None when it copied nothing)."""

    written: Call
    step: Call = field(init=False)
    call_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    resolved: dict[str, Any] | None = None
    refusal: str | None = None
    result: ToolResultMessage | None = None
    item: ItemRef | None = None
    pointed: dict[str, Any] | None = None
    notes: list[Note] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    at: datetime = field(default_factory=_now)

    def __post_init__(self) -> None:
        self.written = as_run(self.written)
        self.step = self.written

    @property
    def tool(self) -> str:
        return self.step.tool

    @property
    def arguments(self) -> dict[str, Any]:
        """The call's fields as the history stores them."""
        return tool_arguments(self.step)

    @property
    def call_text(self) -> str:
        """`solve(equation='x^2 = 4')`: the call as it stands, as a person reads it (a call
        made twice in a turn reads the same)."""
        return self.stored().call_text

    def rewrite(self, guard: str, arguments: Mapping[str, Any], what: str) -> None:
        """The call says this now (stored so: the workspace and the history show what ran)."""
        if dict(arguments) != self.arguments:
            self.step = with_fields(self.step, arguments)
            self.changes.append(Change(guard, what))

    def recast(self, guard: str, step: Call, what: str) -> None:
        """The call is another tool's now (stored so), as `as_run` makes a system of one
        equation a solve."""
        self.step = step
        self.changes.append(Change(guard, what))

    def resolve(self, guard: str, arguments: dict[str, Any], what: str) -> None:
        """What the tools read of the call (the stored call keeps its ids)."""
        if arguments != (self.resolved if self.resolved is not None else self.arguments):
            self.changes.append(Change(guard, what))
        self.resolved = arguments

    def refuse(self, guard: str, sentence: str) -> None:
        """Not run: the model reads `sentence` as the tool's error."""
        self.refusal = sentence
        self.changes.append(Change(guard, "refused"))

    def note(self, guard: str, text: str, if_ran: bool = False) -> None:
        self.notes.append(Note(text, if_ran))
        self.changes.append(Change(guard, "noted"))

    @property
    def runnable(self) -> Call:
        """The call the tools run: its resolved fields, and a system left with one equation
        (a restated definition dropped) run as that equation's solve."""
        if self.resolved is None or self.resolved == self.arguments:
            return self.step
        written = self.arguments.get("equations") or []
        single = len(self.resolved.get("equations") or []) < len(written)
        return as_run(with_fields(self.step, self.resolved), single=single)

    def failed(self, text: str) -> ToolResultMessage:
        return ToolResultMessage(call_id=self.call_id, tool=self.tool, ok=False, text=text)

    def outcome(self) -> ToolResultMessage:
        """The result as the history keeps it: the refusal as a tool error, or what ran with
        its notes."""
        if self.refusal is not None:
            return self.failed(self.refusal)
        if self.result is None:
            raise ValueError("a pending call has no outcome before it is run or refused")
        text = self.result.text
        for note in self.notes:
            if self.result.ok or not note.if_ran:
                text = f"{text} ({note.text})"
        return (
            self.result
            if text == self.result.text
            else self.result.model_copy(update={"text": text})
        )

    def stored(self) -> ToolCall:
        """The call as the history keeps it (what the model reads back is `pointed`)."""
        return ToolCall(
            call_id=self.call_id,
            tool=self.tool,
            arguments=self.arguments,
            pointed=self.pointed,
            at=self.at,
        )
