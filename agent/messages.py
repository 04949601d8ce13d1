"""Typed messages of a conversation and how each renders for BAML.

Every message the agent keeps is one of these pydantic records, told apart by its literal
`kind` field (so a saved session reloads into the right classes). Rendering to BAML's
`ChatMessage` happens in one place, `to_chat`, so the prompt sees real chat roles:

- user request                -> role "user"
- tool call by the model      -> role "assistant", the JSON the model produced
- tool result                 -> role "user", prefixed "Tool result (<tool>):"
- message to the user         -> role "assistant", the JSON the model produced
- summary of compacted tasks  -> role "system"

Tool results use the user role because OpenAI-compatible servers without native tool
calling accept only system / user / assistant.
"""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter

from agent import wire
from baml_client.types import ChatMessage

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
    model_config = {"frozen": True}
    at: datetime = Field(default_factory=_now)


class UserMessage(_Base):
    kind: Literal["user"] = "user"
    text: Text


class ToolCall(_Base):
    """A tool call the model asked for; `arguments` are its fields without `tool`."""

    kind: Literal["tool_call"] = "tool_call"
    call_id: str
    tool: str
    arguments: Annotated[dict[str, Any], AfterValidator(_valid_unicode_values)]


class ToolResultMessage(_Base):
    """What a tool returned, paired with its call by `call_id`."""

    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    tool: str
    ok: bool
    text: Text


class AssistantMessage(_Base):
    """A `MessageToUser`: an answer (COMPLETED) or a question back (PROCESSING)."""

    kind: Literal["assistant"] = "assistant"
    text: Text
    task_status: TaskStatusName


class SummaryExchangeRecord(BaseModel):
    model_config = {"frozen": True}
    question: Text
    answer: Text


class SummaryMessage(_Base):
    """Stands in the working context for tasks that were compacted away."""

    kind: Literal["summary"] = "summary"
    exchanges: tuple[SummaryExchangeRecord, ...]
    strategy: str

    @property
    def text(self) -> str:
        return wire.summary_text([(e.question, e.answer) for e in self.exchanges])


Message = Annotated[
    UserMessage | ToolCall | ToolResultMessage | AssistantMessage | SummaryMessage,
    Field(discriminator="kind"),
]
MESSAGE_ADAPTER: TypeAdapter[Message] = TypeAdapter(Message)
MESSAGES_ADAPTER: TypeAdapter[list[Message]] = TypeAdapter(list[Message])


def _compact_json(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(", ", ": "))


def to_chat(message: Message) -> ChatMessage:
    """Render one message for the BAML prompt."""
    if isinstance(message, UserMessage):
        return ChatMessage(role="user", content=message.text)
    if isinstance(message, ToolCall):
        args = {k: v for k, v in message.arguments.items() if v is not None}
        return ChatMessage(role="assistant", content=_compact_json({"tool": message.tool, **args}))
    if isinstance(message, ToolResultMessage):
        content = wire.tool_outcome_text(message.tool, message.ok, message.text)
        return ChatMessage(role=wire.USER, content=content)
    if isinstance(message, AssistantMessage):
        payload = {
            "tool": "message_to_user",
            "response": message.text,
            "task_status": message.task_status,
        }
        return ChatMessage(role="assistant", content=_compact_json(payload))
    return ChatMessage(role="system", content=message.text)


def to_chat_list(messages: list[Message]) -> list[ChatMessage]:
    return [to_chat(m) for m in messages]


def as_openai_dicts(messages: list[ChatMessage]) -> list[dict[str, str]]:
    """Plain role/content dicts, for token counting."""
    return [{"role": m.role, "content": m.content} for m in messages]
