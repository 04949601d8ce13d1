"""What a model replies, written the way a model writes it (JSON text), for scripts.

One builder per kind of reply, used by every test and by the benchmark's scenarios, so a
reply is spelled once. `as_step` parses such text with the generated BAML parser, for the few
tests that need the typed object itself.
"""

from __future__ import annotations

import json
from typing import Any

from baml_client import b


def tool_call(name: str, **fields: Any) -> str:
    """`{"tool": "solve", "equation": "x^2 = 4"}`; None fields are left out."""
    return json.dumps({"tool": name, **{k: v for k, v in fields.items() if v is not None}})


def solve(equation: str, variable: str | None = None) -> str:
    return tool_call("solve", equation=equation, variable=variable)


def derivative(
    expression: str,
    order: int | None = None,
    variable: str | None = None,
    at: list[str] | None = None,
) -> str:
    return tool_call("derivative", expression=expression, order=order, variable=variable, at=at)


def evaluate(expression: str, *at: str, variable: str | None = None) -> str:
    return tool_call("evaluate", expression=expression, at=list(at), variable=variable)


def integral(
    expression: str, lower: str | None = None, upper: str | None = None, variable: str | None = None
) -> str:
    return tool_call("integral", expression=expression, lower=lower, upper=upper, variable=variable)


def recall(query: str) -> str:
    """A search of earlier tasks (`agent.core.recall`)."""
    return tool_call("recall", query=query)


def answer(text: str, status: str = "COMPLETED", note: str | None = None) -> str:
    """A message to the user: an answer (COMPLETED) or a question back (PROCESSING), with
    an optional note about the person."""
    reply = {"response": text, "tool": "message_to_user", "task_status": status}
    return json.dumps(reply if note is None else {**reply, "note": note})


def done(text: str) -> str:
    return answer(text, "COMPLETED")


def ask_back(text: str) -> str:
    return answer(text, "PROCESSING")


def summary(*pairs: tuple[str, str]) -> str:
    """A SummarizeContext reply: one question/answer exchange per pair."""
    return json.dumps({"exchanges": [{"question": q, "answer": a} for q, a in pairs]})


def user_facts(*operations: dict[str, Any]) -> str:
    """An ExtractUserFacts reply (no operations: nothing new about the user)."""
    return json.dumps({"operations": list(operations)})


def as_step(text: str) -> Any:
    """The typed MathChat step a reply parses to (the real BAML parser)."""
    return b.parse.MathChat(text)
