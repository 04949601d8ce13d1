"""The repair round through the real BAML client: the embedded model's reply that does not
parse is asked again held to the schema (the same request, not its bad reply shown back)."""

from __future__ import annotations

import json
from typing import Any

from agent import wire
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import Fault, serve
from baml_client.types import ChatMessage, MessageToUser

# A greeting answered with a `response` and no `tool`: seen on the embedded model.
FREE_REPLY = json.dumps({"response": "I'm sorry, but I can't assist with that."})
HELD_REPLY = json.dumps(
    {
        "response": "Sure, what is the problem?",
        "tool": "message_to_user",
        "task_status": "PROCESSING",
    }
)


class HeldOrFree:
    """A stand-in endpoint that answers validly only when the request holds it to a schema."""

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        held = "grammar" in request_body or "response_format" in request_body
        return HELD_REPLY if held else FREE_REPLY


def test_the_embedded_models_bad_reply_is_asked_again_held() -> None:
    with serve(HeldOrFree()) as server:
        provider = Provider("local", server.base_url, "m", None, "test", retries=False)
        model = BamlMathModel.for_provider(provider)
        asked = [ChatMessage(role="user", content="hi! can you help me?")]
        step = model.next_step(asked)
        first, again = server.requests
    assert isinstance(step, MessageToUser) and step.response == "Sure, what is the problem?"
    assert "grammar" not in first and "response_format" not in first
    assert "grammar" in again or "response_format" in again
    assert again["messages"] == first["messages"]  # not shown its bad reply


def test_an_endpoint_that_is_never_held_is_shown_its_reply() -> None:
    with serve(HeldOrFree()) as server:
        provider = Provider("custom", server.base_url, "m", None, "test", retries=False)
        model = BamlMathModel.for_provider(provider)
        try:
            model.next_step([ChatMessage(role="user", content="hi! can you help me?")])
        except Exception as exc:  # a second free reply that does not parse: one sentence
            assert "not a valid tool call or message" in str(exc)
        else:
            raise AssertionError("a free endpoint's two bad replies did not raise")
        _, again = server.requests
    assert again["messages"][-1]["content"] == wire.REPAIR_REQUEST
    assert FREE_REPLY in again["messages"][-2]["content"]
