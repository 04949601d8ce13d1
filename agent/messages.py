"""Typed messages of a conversation and how each renders for BAML.

Every message the agent keeps is one of these pydantic records, told apart by its literal
`kind` field (so a saved session reloads into the right classes). Each type renders itself
(for the model, the terminal and the Markdown export); for the model, with real chat roles:

- user request                -> role "user"
- tool call by the model      -> role "assistant", the JSON the model produced
- tool result                 -> role "user", prefixed "Tool result (<tool>):" (see `wire`)
- message to the user         -> role "assistant", the JSON the model produced
- summary of compacted tasks  -> role "system"

Tool results use the user role because OpenAI-compatible servers without native tool
calling accept only system / user / assistant.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter

from agent import wire
from baml_client.types import ChatMessage
from tools.latex import plain_latex

TaskStatusName = Literal["COMPLETED", "PROCESSING"]
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def valid_unicode(text: str) -> str:
    """Replace lone surrogates (undecodable input) so every message can be saved and sent."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def _valid_unicode_values(value: Any) -> Any:
    if isinstance(value, str):
        return valid_unicode(value)
    if isinstance(value, list):
        return [_valid_unicode_values(v) for v in value]
    if isinstance(value, dict):
        return {k: _valid_unicode_values(v) for k, v in value.items()}
    return value


Text = Annotated[str, AfterValidator(valid_unicode)]


def _now() -> datetime:
    return datetime.now(timezone.utc)


class _Base(BaseModel):
    """Every message renders itself three ways (one place per type, no isinstance chains):
    `to_chat` (what the model sees), `terminal_row` (the REPL's /history: a label and plain
    text) and `markdown` (the /export transcript); `fact_texts` are the texts fact checks read.
    """

    model_config = {"frozen": True}
    at: datetime = Field(default_factory=_now)

    def to_chat(self) -> ChatMessage:
        raise NotImplementedError

    def terminal_row(self) -> tuple[str, str]:
        raise NotImplementedError

    def markdown(self, stamp: str) -> list[str]:
        raise NotImplementedError

    def fact_texts(self) -> list[str]:
        return [self.to_chat().content]


class UserMessage(_Base):
    kind: Literal["user"] = "user"
    # What the agent reads: the message with its LaTeX written as plain math (`\frac{1}{x}`
    # as `1/x`), so that capture, the checks of a call and the model read one notation.
    text: Text
    # The message as the person typed it, where that differs from `text`.
    typed: Text | None = None

    @classmethod
    def from_person(cls, typed: str) -> UserMessage:
        text = plain_latex(typed)
        return cls(text=text, typed=typed if text != typed else None)

    @property
    def as_typed(self) -> str:
        return self.typed if self.typed is not None else self.text

    def to_chat(self) -> ChatMessage:
        return ChatMessage(role=wire.USER, content=self.text)

    def terminal_row(self) -> tuple[str, str]:
        return "user", self.as_typed

    def markdown(self, stamp: str) -> list[str]:
        return [f"## You ({stamp})", "", self.as_typed, ""]

    def fact_texts(self) -> list[str]:
        return [self.text]


def written_call(tool: str, arguments: dict[str, Any]) -> str:
    """A tool call as the model writes one: `{"tool":"solve","equation":"x^2 = 4"}`."""
    args = {k: v for k, v in arguments.items() if v is not None}
    return _compact_json({"tool": tool, **args})


class ToolCall(_Base):
    """A tool call the model asked for; `arguments` are its fields without `tool`.
    `pointed`: the same call with the math it copied written as ids, which is what the model
    reads back (`agent.calls.pointing`); None when it copied nothing."""

    kind: Literal["tool_call"] = "tool_call"
    call_id: str
    tool: str
    arguments: Annotated[dict[str, Any], AfterValidator(_valid_unicode_values)]
    pointed: dict[str, Any] | None = None

    @property
    def call_text(self) -> str:
        """`solve(equation='x^2 = 4')`: how a person reads the call."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items() if v is not None)
        return f"{self.tool}({args})"

    def to_chat(self) -> ChatMessage:
        shown = self.pointed if self.pointed is not None else self.arguments
        return ChatMessage(role=wire.ASSISTANT, content=written_call(self.tool, shown))

    def terminal_row(self) -> tuple[str, str]:
        return "tool call", self.call_text

    def markdown(self, stamp: str) -> list[str]:
        return [f"- tool call: `{self.call_text}`"]


class ToolResultMessage(_Base):
    """What a tool returned, paired with its call by `call_id`. A successful result is a
    workspace item: `item` is its id (`#5`), `values` its exact values as SymPy text, and
    `subject` the math the tool read (`x**2 - 4 = 0 for x`)."""

    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    tool: str
    ok: bool
    text: Text
    item: str | None = None
    values: tuple[str, ...] = ()
    subject: str = ""

    def to_chat(self) -> ChatMessage:
        return ChatMessage(
            role=wire.USER,
            content=wire.tool_outcome_text(self.tool, self.ok, self.text, self.item),
        )

    def terminal_row(self) -> tuple[str, str]:
        return ("tool result" if self.ok else "tool error"), self.text

    def markdown(self, stamp: str) -> list[str]:
        return [f"- tool {'result' if self.ok else 'error'}: `{self.text}`", ""]

    def fact_texts(self) -> list[str]:
        return [self.text]


class Offer(BaseModel):
    """The call the model nearly made instead of the one it made (`agent.calls.runner_up`),
    shown under the answer as `1) ...`: the person's `1` (or the other item's id alone) runs
    it as written here, without asking the model again."""

    model_config = {"frozen": True}
    tool: str
    arguments: Annotated[dict[str, Any], AfterValidator(_valid_unicode_values)]
    # What the person reads: which item or tool the answer used, and the other as `1) ...`.
    text: Text
    # The other item's id (`#5`) when the model hesitated between two items.
    item: str | None = None
    # How likely the model thought the other tool or item where it wrote its choice.
    share: float | None = None

    PICK: ClassVar[str] = "1"

    def picked_by(self, message: str) -> bool:
        typed = message.strip().rstrip(").").strip()
        return typed == self.PICK or (self.item is not None and typed == self.item)


class AssistantMessage(_Base):
    """A `MessageToUser`: an answer (COMPLETED) or a question back (PROCESSING). `offer`:
    the runner-up the person can pick with one keystroke; the model never reads it."""

    kind: Literal["assistant"] = "assistant"
    text: Text
    task_status: TaskStatusName
    # What the person said about themselves in the message this answers (a name, "always 3
    # decimals"), noted by the model in the same reply: kept in the workspace.
    note: Text | None = None
    offer: Offer | None = None

    @property
    def shown(self) -> str:
        """The answer as the person reads it: with the runner-up under it."""
        return f"{self.text}\n{self.offer.text}" if self.offer is not None else self.text

    def to_chat(self) -> ChatMessage:
        payload = {
            "response": self.text,
            "tool": "message_to_user",
            "task_status": self.task_status,
        }
        return ChatMessage(role=wire.ASSISTANT, content=_compact_json(payload))

    def terminal_row(self) -> tuple[str, str]:
        return f"assistant [{self.task_status}]", self.shown

    def markdown(self, stamp: str) -> list[str]:
        waiting = " (waiting for your answer)" if self.task_status == "PROCESSING" else ""
        return [f"**math-agent**{waiting}: {self.shown}", ""]

    def fact_texts(self) -> list[str]:
        return [self.text]


class SummaryExchangeRecord(BaseModel):
    """One folded task; `tools`: the tools that ran for it successfully (not shown to the
    model: read by the strategies to tell what kind of task a line was)."""

    model_config = {"frozen": True}
    question: Text
    answer: Text
    tools: tuple[str, ...] = ()
    # The workspace ids of the math the person wrote in the task (`#7`), shown after the
    # question: a later request points at the person's equation by it.
    said: tuple[str, ...] = ()

    @property
    def asked(self) -> str:
        """The question as a line shows it: with the ids of the person's math."""
        return f"{self.question} [{', '.join(self.said)}]" if self.said else self.question


class SummaryMessage(_Base):
    """Stands in the working context for tasks that were compacted away."""

    kind: Literal["summary"] = "summary"
    exchanges: tuple[SummaryExchangeRecord, ...]
    strategy: str

    @property
    def text(self) -> str:
        return wire.summary_text([(e.asked, e.answer) for e in self.exchanges])

    def to_chat(self) -> ChatMessage:
        return ChatMessage(role=wire.SYSTEM, content=self.text)

    def terminal_row(self) -> tuple[str, str]:
        return "summary", self.text

    def markdown(self, stamp: str) -> list[str]:
        lines = [f"> summary ({self.strategy}):", ">"]
        lines += [f"> - {e.question} → {e.answer}" for e in self.exchanges]
        return [*lines, ""]

    def fact_texts(self) -> list[str]:
        # Line by line, so facts are extracted (and cached) per exchange instead of re-reading
        # the whole growing summary every turn.
        return [text for e in self.exchanges for text in (e.question, e.answer)]


Message = Annotated[
    UserMessage | ToolCall | ToolResultMessage | AssistantMessage | SummaryMessage,
    Field(discriminator="kind"),
]
MESSAGES_ADAPTER: TypeAdapter[list[Message]] = TypeAdapter(list[Message])


def _compact_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(", ", ": "))


def to_chat(message: Message) -> ChatMessage:
    """Render one message for the BAML prompt."""
    return message.to_chat()


def to_chat_list(messages: list[Message]) -> list[ChatMessage]:
    return [to_chat(m) for m in messages]


def as_openai_dicts(messages: list[ChatMessage]) -> list[dict[str, str]]:
    """Plain role/content dicts, for token counting."""
    return [{"role": m.role, "content": m.content} for m in messages]
