"""Record/replay OpenAI-compatible server for offline, deterministic LLM tests.

baml-py makes its HTTP calls from Rust, so Python-level interceptors (vcrpy, respx) never see
them. Instead, BAML is pointed at this local server, which speaks just enough of the OpenAI
chat-completions API and delegates each request to a *responder*:

- `ReplayResponder` serves completions recorded in a `Cassette`; a miss fails loudly.
- `RecordResponder` replays hits and forwards misses to a real endpoint, recording them.
- `ScriptedResponder` asks a Python function (a deterministic scripted LLM).
- `FaultyResponder` injects HTTP errors, delays and dropped connections for reliability tests.

Usage is counted with `agent.tokens`, so every mode reports stable, realistic token counts.
The server itself is stdlib only. Run it in a subprocess with
`python -m agent.replay --cassette FILE`: baml-py's sync streaming against a server thread in
the same process stalls.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import json
import logging
import os
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol

from agent.tokens import count_messages, count_text

logger = logging.getLogger(__name__)

CASSETTE_VERSION = 1
# Fields that do not change what the model answers: the model is chosen per run, and streaming
# and non-streaming calls must share a recording.
KEY_EXCLUDED_FIELDS = ("model", "stream", "stream_options")
DEFAULT_MODEL_NAME = "replay-model"
_STREAM_PIECE_CHARS = 16
_EXCERPT_CHARS = 60


# --------------------------------------------------------------------------------------------
# Responders
# --------------------------------------------------------------------------------------------


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


class ReplayMiss(LookupError):
    """No recorded completion matches a request; `message` says what differs and where."""

    def __init__(self, key: str, message: str, request: dict[str, Any]) -> None:
        super().__init__(message)
        self.key = key
        self.message = message
        self.request = request


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


# --------------------------------------------------------------------------------------------
# Cassette
# --------------------------------------------------------------------------------------------


def request_key(body: dict[str, Any]) -> str:
    """sha256 of the canonical JSON body without model/stream fields; stable across runs."""
    relevant = {k: v for k, v in body.items() if k not in KEY_EXCLUDED_FIELDS}
    canonical = json.dumps(relevant, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass
class CassetteEntry:
    """One recorded exchange; `usage` is the upstream's own count, kept for reference."""

    key: str
    request: dict[str, Any]
    response: str
    usage: dict[str, Any] | None
    recorded_at: str

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "request": self.request,
            "response": self.response,
            "usage": self.usage,
            "recorded_at": self.recorded_at,
        }


class Cassette:
    """Recorded completions keyed by `request_key`, stored as human-readable JSON."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, CassetteEntry] = {}
        self._lock = threading.RLock()

    @classmethod
    def load(cls, path: str | Path) -> Cassette:
        """Read a cassette; a missing file gives an empty one that `save()` will create."""
        cassette = cls(path)
        if not cassette.path or not cassette.path.exists():
            return cassette
        data = json.loads(cassette.path.read_text(encoding="utf-8"))
        if data.get("version") != CASSETTE_VERSION:
            raise ValueError(f"{path}: unsupported cassette version {data.get('version')!r}")
        for raw in data.get("entries", []):
            # Re-derive the key so a hand-edited request is still found.
            key = request_key(raw["request"])
            cassette._entries[key] = CassetteEntry(
                key=key,
                request=raw["request"],
                response=raw["response"],
                usage=raw.get("usage"),
                recorded_at=raw.get("recorded_at", ""),
            )
        return cassette

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def entries(self) -> list[CassetteEntry]:
        with self._lock:
            return list(self._entries.values())

    def lookup(self, body: dict[str, Any]) -> CassetteEntry | None:
        return self._entries.get(request_key(body))

    def add(
        self, body: dict[str, Any], content: str, usage: dict[str, Any] | None = None
    ) -> CassetteEntry:
        """Record (or re-record) the completion for `body`; call `save()` to persist it."""
        recorded_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
        entry = CassetteEntry(request_key(body), copy.deepcopy(body), content, usage, recorded_at)
        with self._lock:
            self._entries[entry.key] = entry
        return entry

    def save(self, path: str | Path | None = None) -> None:
        """Write atomically (temp file + os.replace) so a crash never leaves half a cassette."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("cassette has no path; pass one to save()")
        target.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            data = {
                "version": CASSETTE_VERSION,
                "entries": [e.to_json() for e in self._entries.values()],
            }
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(data, f, indent=2, ensure_ascii=False)
                    f.write("\n")
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, target)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                raise

    def closest(self, body: dict[str, Any]) -> tuple[CassetteEntry, int] | None:
        """The entry sharing the longest run of leading messages with `body`, and that length."""
        messages = body.get("messages") or []
        best: tuple[CassetteEntry, int] | None = None
        for entry in self.entries:
            common = _common_prefix(entry.request.get("messages") or [], messages)
            if best is None or common > best[1]:
                best = (entry, common)
        return best

    def miss(self, body: dict[str, Any]) -> ReplayMiss:
        """Build the loud error for an unrecorded request: key, closest entry, first difference."""
        key = request_key(body)
        where = f" in {self.path}" if self.path else ""
        message = f"replay miss: no recorded completion for key {key}{where}"
        found = self.closest(body)
        if found is None:
            message += "; the cassette is empty (record it with RecordResponder / --record)"
        else:
            entry, common = found
            message += (
                f"; closest recorded request {entry.key[:12]} shares {common} leading "
                f"message(s); {describe_difference(entry.request, body)}"
            )
        return ReplayMiss(key, message, body)


def _common_prefix(a: list[Any], b: list[Any]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _as_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    return json.dumps(content, sort_keys=True, ensure_ascii=False)


def _excerpt(text: str, at: int) -> str:
    """About `_EXCERPT_CHARS` characters of `text` starting a little before position `at`."""
    start = max(0, at - 20)
    piece = text[start : start + _EXCERPT_CHARS]
    prefix = "…" if start > 0 else ""
    suffix = "…" if start + _EXCERPT_CHARS < len(text) else ""
    return repr(prefix + piece + suffix)


def _first_diff(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def describe_difference(expected: dict[str, Any], got: dict[str, Any]) -> str:
    """Say where `got` first departs from the recorded request `expected`."""
    want = expected.get("messages") or []
    have = got.get("messages") or []
    i = _common_prefix(want, have)
    if i < len(want) and i < len(have):
        w, h = want[i], have[i]
        w_text, h_text = _as_text(w.get("content", "")), _as_text(h.get("content", ""))
        if w_text == h_text and w.get("role") == h.get("role"):
            keys = sorted(k for k in set(w) | set(h) if w.get(k) != h.get(k))
            return f"first differing message: index {i}, role {h.get('role')!r}, fields {keys}"
        at = _first_diff(w_text, h_text)
        return (
            f"first differing message: index {i}; expected role {w.get('role')!r} "
            f"content {_excerpt(w_text, at)}; got role {h.get('role')!r} "
            f"content {_excerpt(h_text, at)} (first difference at character {at})"
        )
    if i < len(want):
        w = want[i]
        return (
            f"first differing message: index {i} is missing; the recording has {len(want)} "
            f"messages, the request {len(have)}; expected role {w.get('role')!r} content "
            f"{_excerpt(_as_text(w.get('content', '')), 0)}"
        )
    if i < len(have):
        h = have[i]
        return (
            f"first differing message: index {i} is extra; the recording has {len(want)} "
            f"messages, the request {len(have)}; got role {h.get('role')!r} content "
            f"{_excerpt(_as_text(h.get('content', '')), 0)}"
        )
    params = sorted(
        k
        for k in (set(expected) | set(got)) - {"messages", *KEY_EXCLUDED_FIELDS}
        if expected.get(k) != got.get(k)
    )
    details = ", ".join(f"{k}: expected {expected.get(k)!r}, got {got.get(k)!r}" for k in params)
    return f"all messages match; request parameters differ: {details}"


# --------------------------------------------------------------------------------------------
# HTTP server
# --------------------------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    # HTTP/1.1 so BAML's connection pool can keep connections alive between calls.
    protocol_version = "HTTP/1.1"
    server_version = "math-agent-replay/1"
    timeout = 60  # an idle keep-alive connection frees its thread after this long
    server: ReplayServer

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s %s", self.address_string(), format % args)

    # -- helpers ---------------------------------------------------------------------------

    def _route(self) -> str:
        path = self.path.split("?", 1)[0].rstrip("/")
        return path.removeprefix("/v1") if path.startswith("/v1/") else path

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = (payload if isinstance(payload, str) else json.dumps(payload)).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _send_error(self, status: int, message: str, kind: str, **extra: Any) -> None:
        self._send_json(
            status, {"error": {"message": message, "type": kind, "code": kind, **extra}}
        )

    def _read_body(self) -> bytes:
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            parts = []
            while True:
                size = int(self.rfile.readline().split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline().strip():  # trailers
                        pass
                    return b"".join(parts)
                parts.append(self.rfile.read(size))
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    # -- routes ----------------------------------------------------------------------------

    def do_GET(self) -> None:
        route = self._route()
        if route == "/health":
            self._send_json(200, {"status": "ok"})
        elif route == "/models":
            model = {"id": self.server.model_name, "object": "model", "created": 0}
            self._send_json(200, {"object": "list", "data": [{**model, "owned_by": "replay"}]})
        elif route == "/_replay/stats":
            misses = [{"key": m.key, "message": m.message} for m in self.server.misses]
            self._send_json(200, {"requests": len(self.server.requests), "misses": misses})
        else:
            self._send_error(404, f"no route for GET {self.path}", "not_found")

    def do_POST(self) -> None:
        if self._route() != "/chat/completions":
            self._send_error(404, f"no route for POST {self.path}", "not_found")
            return
        try:
            body = json.loads(self._read_body() or b"null")
        except (ValueError, UnicodeDecodeError) as exc:
            self._send_error(400, f"request body is not JSON: {exc}", "invalid_request_error")
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send_error(
                400, "expected a JSON object with a messages list", "invalid_request_error"
            )
            return
        self.server.record_request(body)
        try:
            result = self.server.responder.respond(body)
        except ReplayMiss as miss:
            self.server.record_miss(miss)
            self._send_error(404, miss.message, "replay_miss", key=miss.key)
            return
        except Exception as exc:
            logger.exception("responder failed")
            self.server.errors.append(exc)
            self._send_error(500, f"responder failed: {type(exc).__name__}: {exc}", "server_error")
            return
        if isinstance(result, Fault):
            self._send_fault(result)
        elif body.get("stream"):
            self._send_stream(body, result or "")
        else:
            self._send_json(200, self.server.completion(body, result or ""))

    def _send_fault(self, fault: Fault) -> None:
        if fault.delay_s > 0:
            self.server.stopping.wait(fault.delay_s)
        if fault.drop_connection:
            self.close_connection = True
            with contextlib.suppress(OSError):
                self.connection.shutdown(socket.SHUT_RDWR)
            return
        status = fault.status or 500
        body = fault.body
        if body is None:
            body = {"error": {"message": f"injected fault: HTTP {status}", "type": "fault"}}
        self._send_json(status, body, fault.headers)

    def _send_stream(self, body: dict[str, Any], content: str) -> None:
        """Server-sent events in OpenAI's chat.completion.chunk shape, then `[DONE]`."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")  # the end of the stream is the end of the body
        self.end_headers()
        self.close_connection = True
        base = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model") or self.server.model_name,
        }

        def event(choices: list[dict[str, Any]], **extra: Any) -> None:
            chunk = json.dumps({**base, "choices": choices, **extra})
            self.wfile.write(f"data: {chunk}\n\n".encode())
            self.wfile.flush()

        def choice(delta: dict[str, Any], finish: str | None = None) -> list[dict[str, Any]]:
            return [{"index": 0, "delta": delta, "finish_reason": finish}]

        event(choice({"role": "assistant", "content": ""}))
        for start in range(0, len(content), _STREAM_PIECE_CHARS):
            event(choice({"content": content[start : start + _STREAM_PIECE_CHARS]}))
        event(choice({}, "stop"))
        # Usage goes in its own final chunk with no choices, as OpenAI does with include_usage;
        # always sent, so clients that did not ask can still account for tokens.
        event([], usage=self.server.usage(body, content))
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


class ReplayServer(ThreadingHTTPServer):
    """A local OpenAI-compatible endpoint answering from a `Responder`.

    `requests` holds every chat request body received and `misses` every replay miss, so a
    test can assert on both. Use `start()`/`serve()` rather than constructing it directly.
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64

    def __init__(
        self,
        responder: Responder,
        host: str = "127.0.0.1",
        port: int = 0,
        model_name: str = DEFAULT_MODEL_NAME,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.responder = responder
        self.model_name = model_name
        self.requests: list[dict[str, Any]] = []
        self.misses: list[ReplayMiss] = []
        self.errors: list[Exception] = []
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._connections: dict[socket.socket, threading.Thread] = {}
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def base_url(self) -> str:
        """What to give an OpenAI-compatible client as `base_url`."""
        return f"{self.url}/v1"

    def record_request(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def record_miss(self, miss: ReplayMiss) -> None:
        logger.error("%s", miss.message)
        with self._lock:
            self.misses.append(miss)

    def usage(self, body: dict[str, Any], content: str) -> dict[str, int]:
        """Tokenizer counts, not upstream ones, so replayed runs report stable numbers."""
        try:
            prompt = count_messages(body.get("messages") or [])
            completion = count_text(content)
        except ValueError:
            # The tokenizer refuses a million characters; the server must still answer a
            # hostile-input test, so estimate (about four characters a token).
            prompt = len(json.dumps(body.get("messages") or [])) // 4
            completion = len(content) // 4
        return {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

    def completion(self, body: dict[str, Any], content: str) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model") or self.model_name,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": self.usage(body, content),
        }

    # -- threads: track each connection so stop() can close idle keep-alive ones -----------

    def process_request(self, request: Any, client_address: Any) -> None:
        thread = threading.Thread(
            target=self._serve_connection,
            args=(request, client_address),
            name=f"replay-conn-{client_address[1]}",
            daemon=True,
        )
        with self._lock:
            self._connections[request] = thread
        thread.start()

    def _serve_connection(self, request: Any, client_address: Any) -> None:
        try:
            self.process_request_thread(request, client_address)
        finally:
            with self._lock:
                self._connections.pop(request, None)

    def start(self) -> ReplayServer:
        """Serve in a background thread; the socket already listens, so it is ready at once."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self.serve_forever,
                kwargs={"poll_interval": 0.05},
                name=f"replay-server-{self.server_address[1]}",
                daemon=True,
            )
            self._thread.start()
        return self

    def stop(self, timeout_s: float = 5.0) -> None:
        """Stop serving, close open connections and join every thread. Idempotent."""
        if self.stopping.is_set():
            return
        self.stopping.set()
        release = getattr(self.responder, "release", None)
        if callable(release):
            release()  # a responder sleeping in an injected delay must not hold up the stop
        if self._thread is not None:
            self.shutdown()
            self._thread.join(timeout_s)
        self.server_close()
        with self._lock:
            open_connections = list(self._connections.items())
        for sock, _ in open_connections:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        deadline = time.monotonic() + timeout_s
        for _, thread in open_connections:
            thread.join(max(0.0, deadline - time.monotonic()))

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def start(
    responder: Responder,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    model_name: str = DEFAULT_MODEL_NAME,
) -> ReplayServer:
    """Start a server in a background thread; call `server.stop()` when done."""
    return ReplayServer(responder, host, port, model_name).start()


@contextlib.contextmanager
def serve(
    responder: Responder,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    model_name: str = DEFAULT_MODEL_NAME,
) -> Iterator[ReplayServer]:
    """`with serve(responder) as server:` point a client at `server.base_url`."""
    server = start(responder, host=host, port=port, model_name=model_name)
    try:
        yield server
    finally:
        server.stop()


# --------------------------------------------------------------------------------------------
# Subprocess entry point
# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Serve a cassette until SIGTERM/SIGINT; the first stdout line is the base URL."""
    parser = argparse.ArgumentParser(
        prog="python -m agent.replay", description="OpenAI-compatible record/replay server."
    )
    parser.add_argument("--cassette", required=True, type=Path, help="cassette JSON file")
    parser.add_argument("--port", type=int, default=0, help="port (0: pick a free one)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument(
        "--record",
        metavar="UPSTREAM_BASE_URL",
        help="record misses from this OpenAI-compatible endpoint instead of failing",
    )
    parser.add_argument(
        "--api-key-env",
        default="MATH_AGENT_API_KEY",
        help="environment variable holding the upstream API key (keys never go on argv)",
    )
    parser.add_argument("--upstream-model", help="model to request upstream when recording")
    args = parser.parse_args(argv)

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="replay: %(message)s")
    cassette = Cassette.load(args.cassette)
    responder: Responder
    if args.record:
        api_key = os.environ.get(args.api_key_env, "")
        if not api_key:
            parser.error(f"--record needs the API key in ${args.api_key_env}")
        responder = RecordResponder(cassette, args.record, api_key, args.upstream_model)
    else:
        responder = ReplayResponder(cassette)

    stop_requested = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop_requested.set())
    server = start(responder, host=args.host, port=args.port)
    print(server.base_url, flush=True)
    try:
        while not stop_requested.wait(0.2):
            pass
    finally:
        server.stop()
    print(
        f"replay: served {len(server.requests)} request(s), {len(server.misses)} miss(es)",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
