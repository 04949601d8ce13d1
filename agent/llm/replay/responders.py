"""Responders: what the replay server answers a chat-completions request with.

- `ReplayResponder` serves completions recorded in a `Cassette`; a miss fails loudly.
- `RecordResponder` replays hits and forwards misses to a real endpoint, recording them.
- `ScriptedResponder` asks a Python function (a deterministic scripted LLM).
- `FaultyResponder` injects HTTP errors, delays and dropped connections for reliability tests.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agent.llm.replay.cassette import Cassette

logger = logging.getLogger(__name__)

DEFAULT_MODEL_NAME = "replay-model"


@dataclass(frozen=True)
class Fault:
    """An injected failure a responder returns instead of content.

    The server waits `delay_s`, then drops the connection without answering
    (`drop_connection`) or sends `status` with `headers` and `body` (default: an OpenAI-style
    error object). A fault with neither status nor drop only delays: `FaultyResponder` then
    answers normally; returned by any other responder it is served as a 500.
    """

    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    drop_connection: bool = False
    body: str | dict[str, Any] | None = None


class Responder(Protocol):
    """Turns a chat-completions request body into the assistant's content (or a `Fault`)."""

    def respond(self, request_body: dict[str, Any]) -> str | Fault: ...


class ScriptedResponder:
    """A deterministic stand-in LLM: `fn(messages)` returns the assistant content."""

    def __init__(self, fn: Callable[[list[dict[str, Any]]], str | Fault]) -> None:
        self.fn = fn

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        # A copy, so a script that edits its argument cannot alter `server.requests`.
        return self.fn(copy.deepcopy(request_body.get("messages", [])))


class ReplayResponder:
    """Serves completions recorded in a cassette, any number of times; a miss raises."""

    def __init__(self, cassette: Cassette) -> None:
        self.cassette = cassette

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        entry = self.cassette.lookup(request_body)
        if entry is None:
            raise self.cassette.miss(request_body)
        return entry.response


class RecordResponder:
    """Replays recorded hits; forwards misses to a real endpoint and records the answer.

    The API key lives only in the upstream client: cassettes hold request bodies, content,
    usage and a timestamp, never headers.
    """

    def __init__(
        self,
        cassette: Cassette,
        upstream_base_url: str,
        upstream_api_key: str,
        upstream_model: str | None = None,
        *,
        timeout_s: float = 120.0,
    ) -> None:
        self.cassette = cassette
        self.upstream_base_url = upstream_base_url
        self.upstream_model = upstream_model
        self._api_key = upstream_api_key
        self._timeout_s = timeout_s
        self._client: Any = None
        self._client_lock = threading.Lock()

    def __repr__(self) -> str:
        # Never show the key, even in logs or test failure output.
        return f"RecordResponder(upstream_base_url={self.upstream_base_url!r}, key=<hidden>)"

    def _upstream(self) -> Any:
        """Create the OpenAI client on first use, so replay-only runs never import it."""
        with self._client_lock:
            if self._client is None:
                from openai import OpenAI

                self._client = OpenAI(
                    base_url=self.upstream_base_url,
                    api_key=self._api_key,
                    timeout=self._timeout_s,
                    max_retries=0,  # BAML's retry policy retries; two layers would multiply
                )
            return self._client

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        entry = self.cassette.lookup(request_body)
        if entry is not None:
            return entry.response
        body = {k: v for k, v in request_body.items() if k not in ("stream", "stream_options")}
        if self.upstream_model:
            body["model"] = self.upstream_model
        model = body.pop("model", None) or DEFAULT_MODEL_NAME
        messages = body.pop("messages")
        # Everything else goes through verbatim, so the upstream sees the same JSON BAML sent.
        try:
            completion = self._upstream().chat.completions.create(
                model=model, messages=messages, extra_body=body or None
            )
        except Exception as exc:
            return self._upstream_fault(exc)
        content = completion.choices[0].message.content or ""
        usage = completion.usage.model_dump(exclude_none=True) if completion.usage else None
        recorded = {**body, "model": model, "messages": messages}
        self.cassette.add(recorded, content, usage)
        self.cassette.save()
        return content

    def _upstream_fault(self, exc: Exception) -> Fault:
        """The upstream's failure, passed on with its HTTP status and without the key.

        Why: a refused key must reach BAML as a 401 (so the user is told to fix the key, not
        to "try again"), and upstream error texts may echo the key, which must not end up in
        BAML's logs or on stderr.
        """
        status = getattr(exc, "status_code", None)
        detail = " ".join(f"upstream {type(exc).__name__}: {exc}".split())
        if self._api_key:
            detail = detail.replace(self._api_key, "[redacted]")
        logger.warning("%s", detail[:500])
        if not isinstance(status, int) or not 400 <= status < 600:
            status = 502
        return Fault(status=status, body={"error": {"message": detail, "type": "upstream_error"}})


class FaultyResponder:
    """Applies `faults[i]` to the i-th request (None, or past the end: ask `inner`).

    `injected` counts the faults applied and `arrivals` holds (monotonic time, fault or None)
    per request, so a test can check how often and how far apart a client retried.
    """

    def __init__(self, inner: Responder, faults: list[Fault | None]) -> None:
        self.inner = inner
        self.faults = list(faults)
        self.injected = 0
        self.arrivals: list[tuple[float, Fault | None]] = []
        self._count = 0
        self._lock = threading.Lock()
        self._released = threading.Event()

    def release(self) -> None:
        """End pending delays at once (the server calls this when it stops)."""
        self._released.set()

    def respond(self, request_body: dict[str, Any]) -> str | Fault:
        with self._lock:
            index = self._count
            self._count += 1
            fault = self.faults[index] if index < len(self.faults) else None
            self.arrivals.append((time.monotonic(), fault))
            if fault is not None:
                self.injected += 1
        if fault is None:
            return self.inner.respond(request_body)
        if fault.status is None and not fault.drop_connection:
            self._released.wait(fault.delay_s)  # a slow answer, not a failure
            return self.inner.respond(request_body)
        return fault
