"""The OpenAI-compatible HTTP server that hands each request to a responder.

Usage is counted with `agent.accounting.tokenizer`, so every mode reports stable, realistic
token counts. Stdlib only. Run it in a subprocess (`python -m agent.llm.replay --cassette FILE`)
for streaming tests: baml-py's sync streaming against a server thread in the same process stalls.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from agent.accounting.tokenizer import count_messages, count_text
from agent.llm.replay.cassette import ReplayMiss
from agent.llm.replay.responders import DEFAULT_MODEL_NAME, Fault, Responder

logger = logging.getLogger(__name__)

_STREAM_PIECE_CHARS = 16


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
            if start and self.server.stream_piece_delay_s:
                time.sleep(self.server.stream_piece_delay_s)  # a model writing at its own pace
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
        stream_piece_delay_s: float = 0.0,
    ) -> None:
        super().__init__((host, port), _Handler)
        self.responder = responder
        self.model_name = model_name
        # Pause between streamed pieces, so a client sees a reply grow as from a real model.
        self.stream_piece_delay_s = stream_piece_delay_s
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
    stream_piece_delay_s: float = 0.0,
) -> ReplayServer:
    """Start a server in a background thread; call `server.stop()` when done."""
    return ReplayServer(responder, host, port, model_name, stream_piece_delay_s).start()


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
