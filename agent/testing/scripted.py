"""The one scripted model: a stand-in LLM that tests and the benchmark talk to.

It answers a rendered request (the chat messages the real BAML client built) per LLM
function — MathChat, SummarizeContext, ExtractUserFacts, told apart by `agent.wire` — from a
queue of replies or from a handler that looks at the request, and keeps every request it saw.
Two ways to reach it, so the same script serves every kind of test:

- over HTTP: it is a responder function for `agent.llm.replay.ScriptedResponder`;
  `scripted_agent` runs the real agent loop and BAML client against it;
- in process: `agent.testing.in_process.InProcessModel` asks it directly and parses its
  replies with the generated BAML parser, for fast loop and strategy tests.

Prefer this over writing a new fake: a reply no model would give is still just a reply.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent import wire
from agent.errors import AgentError
from agent.llm.replay import Fault, ScriptedResponder, serve
from agent.testing.replies import user_facts

if TYPE_CHECKING:
    from agent.core.loop import Agent
    from agent.llm.replay import ReplayServer

# A reply: the text the model writes, a Fault for the HTTP server to inject, or (in process
# only) an exception to raise as the model call's failure.
Reply = str | Fault | BaseException


@dataclass(frozen=True)
class ScriptedRequest:
    """One rendered request, with the questions a script usually asks of it."""

    messages: list[dict[str, Any]]

    @property
    def function(self) -> wire.LlmFunction:
        return wire.function_of(self.messages)

    @property
    def system(self) -> str:
        return str(self.messages[0].get("content", "")) if self.messages else ""

    @property
    def last(self) -> str:
        """The content of the last message (the user's message or a tool's outcome)."""
        return wire.request_of(str(self.messages[-1].get("content", ""))) if self.messages else ""

    def _user_texts(self) -> list[tuple[int, str]]:
        return [
            (i, wire.request_of(str(m.get("content", ""))))
            for i, m in enumerate(self.messages)
            if m.get("role") == wire.USER
            and not wire.is_tool_outcome(str(m.get("content", "")))
            and m.get("content") != wire.REPAIR_REQUEST
        ]

    @property
    def repairing(self) -> bool:
        """Is this the repair round after a reply that did not parse?"""
        return self.last == wire.REPAIR_REQUEST

    @property
    def question(self) -> str | None:
        """The latest user message that is neither a tool's outcome nor a repair request."""
        users = self._user_texts()
        return users[-1][1] if users else None

    @property
    def tool_outcomes(self) -> int:
        """Tool results and errors after the latest question (where in its task we are)."""
        users = self._user_texts()
        start = users[-1][0] + 1 if users else 0
        return sum(
            1
            for m in self.messages[start:]
            if m.get("role") == wire.USER and wire.is_tool_outcome(str(m.get("content", "")))
        )

    @property
    def after_tool_call(self) -> bool:
        """The last message is a tool's outcome that follows the model's own tool call (a
        user can type the `Tool result (` prefix too)."""
        if not wire.is_tool_outcome(self.last) or len(self.messages) < 2:
            return False
        previous = self.messages[-2]
        if previous.get("role") != wire.ASSISTANT:
            return False
        try:
            return json.loads(str(previous.get("content"))).get("tool") != "message_to_user"
        except (ValueError, AttributeError):
            return False

    @property
    def tool_text(self) -> str:
        """What the tool said, without its `Tool result (name): ` label."""
        return wire.tool_outcome_body(self.last)


Handler = Callable[[ScriptedRequest], Reply]
Script = Sequence[Reply] | Handler


class _Source:
    """Replies for one function: a queue (popped in order) or a handler."""

    def __init__(self, script: Script, function: str) -> None:
        self.function = function
        self.handler = script if callable(script) else None
        self.queue = [] if callable(script) else list(script)

    def next(self, request: ScriptedRequest) -> Reply:
        if self.handler is not None:
            return self.handler(request)
        if not self.queue:
            # As a model that stopped answering: the agent reports it like any LLM failure.
            raise AgentError(f"The script has no {self.function} reply left.")
        return self.queue.pop(0)


class ScriptedModel:
    """Replies per LLM function from queues or handlers; records every request.

    `chat` answers MathChat, `summaries` SummarizeContext, `facts` ExtractUserFacts (by
    default: nothing new about the user). Thread-safe: the HTTP server answers on threads.
    """

    def __init__(
        self,
        chat: Script = (),
        summaries: Script = (),
        facts: Script | None = None,
    ) -> None:
        self._sources = {
            "MathChat": _Source(chat, "MathChat"),
            "SummarizeContext": _Source(summaries, "SummarizeContext"),
            "ExtractUserFacts": _Source(
                facts if facts is not None else (lambda _request: user_facts()),
                "ExtractUserFacts",
            ),
        }
        self.requests: list[ScriptedRequest] = []
        self._lock = threading.Lock()

    def reply(self, request: ScriptedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            return self._sources[request.function].next(request)

    def __call__(self, messages: list[dict[str, Any]]) -> str | Fault:
        """The HTTP side (`ScriptedResponder(model)`): exceptions are bugs in a script."""
        reply = self.reply(ScriptedRequest(messages))
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def prompts(self, function: str) -> list[list[dict[str, Any]]]:
        """The messages of every request made to `function`, in order."""
        return [r.messages for r in self.requests if r.function == function]

    @property
    def chat_prompts(self) -> list[list[dict[str, Any]]]:
        return self.prompts("MathChat")

    @property
    def summary_prompts(self) -> list[list[dict[str, Any]]]:
        return self.prompts("SummarizeContext")


@contextmanager
def scripted_server(model: ScriptedModel) -> Iterator[ReplayServer]:
    """The model behind a local OpenAI-compatible server (127.0.0.1, a free port)."""
    with serve(ScriptedResponder(model)) as server:
        yield server


@contextmanager
def scripted_agent(
    model: ScriptedModel, strategy: str = "none"
) -> Iterator[tuple[Agent, ReplayServer]]:
    """The real agent loop and BAML client, talking to `model` over HTTP."""
    from agent.context.registry import make_strategy
    from agent.core.loop import Agent
    from agent.llm.model import BamlMathModel
    from agent.llm.providers import Provider

    with scripted_server(model) as server:
        provider = Provider("scripted", server.base_url, "scripted", None, "test", retries=False)
        llm = BamlMathModel(provider.client_registry(), provider.base_url)
        yield Agent(llm, make_strategy(strategy)), server
