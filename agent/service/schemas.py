"""The API's request and response bodies (pydantic): validated on the way in, unknown fields
refused, and described in the OpenAPI schema from the same classes."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
StrategyName = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewSession(Strict):
    title: Title | None = None
    strategy: StrategyName | None = Field(None, description="a context strategy, e.g. window")


class SessionChange(Strict):
    title: Title | None = None
    strategy: StrategyName | None = None


class NewMessage(Strict):
    # The length cap (20,000 characters) is checked by the handler: 413 with a sentence.
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class SessionOut(BaseModel):
    id: str
    title: str | None
    strategy: str
    turns: int
    created_at: str
    updated_at: str
    input_tokens: int
    output_tokens: int
    busy: bool


class SessionList(BaseModel):
    sessions: list[SessionOut]


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorDetail
