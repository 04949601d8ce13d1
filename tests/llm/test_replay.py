"""The record/replay server, driven by urllib and by the real generated BAML client.

Everything talks to 127.0.0.1 only; "upstream" in record mode is a second local server.
"""

from __future__ import annotations

import os

os.environ.setdefault("BAML_LOG", "warn")

import hashlib
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from baml_py import ClientRegistry, Collector
from baml_py.errors import BamlClientHttpError

from agent.accounting.tokenizer import count_messages, count_text
from agent.llm.replay import (
    Cassette,
    Fault,
    FaultyResponder,
    RecordResponder,
    ReplayResponder,
    ScriptedResponder,
    request_key,
    serve,
    start,
)
from baml_client import b
from baml_client.types import ChatMessage, QuadraticSolver

pytestmark = pytest.mark.timeout(60)

REPO_ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-test-SECRET-1234567890abcdef"
SOLVE_REPLY = '{"tool": "solve", "equation": "x^2 + 5x + 6 = 0"}'
SOLVE_REQUEST = [ChatMessage(role="user", content="solve x^2 + 5x + 6 = 0")]


# -- helpers ----------------------------------------------------------------------------------


def post(url: str, body: dict[str, Any], timeout: float = 10) -> tuple[int, Any, dict[str, Any]]:
    """POST JSON; return (status, headers, parsed body) for successes and HTTP errors alike."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer test-key"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, json.loads(error.read())


def get(url: str) -> tuple[int, dict[str, Any]]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, json.loads(response.read())


def chat(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "test-model", "messages": [{"role": "user", "content": text}], **extra}


def registry(base_url: str) -> ClientRegistry:
    cr = ClientRegistry()
    cr.add_llm_client(
        "MathAgentLLM",
        "openai-generic",
        {"base_url": base_url, "api_key": "test-key", "model": "test-model"},
    )
    cr.set_primary("MathAgentLLM")
    return cr


def script(reply: str) -> Callable[[list[dict[str, Any]]], str]:
    return lambda messages: reply


def echo(messages: list[dict[str, Any]]) -> str:
    return f"echo: {messages[-1]['content']}"


def replay_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("replay-")]


# -- keys and cassettes -----------------------------------------------------------------------


def test_request_key_is_canonical_and_ignores_model_and_stream() -> None:
    body = {"model": "a", "messages": [{"role": "user", "content": "hi"}], "temperature": 0}
    canonical = '{"messages":[{"content":"hi","role":"user"}],"temperature":0}'
    assert request_key(body) == hashlib.sha256(canonical.encode()).hexdigest()
    same = {"temperature": 0, "messages": [{"content": "hi", "role": "user"}], "model": "b"}
    streaming = {**body, "stream": True, "stream_options": {"include_usage": True}}
    assert request_key(same) == request_key(body) == request_key(streaming)
    assert request_key({**body, "temperature": 0.5}) != request_key(body)


def test_cassette_round_trip_and_file_format(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "cassette.json"
    cassette = Cassette.load(path)
    assert len(cassette) == 0 and not path.exists()
    body = chat("hello")
    cassette.add(body, "hi there", {"prompt_tokens": 9, "completion_tokens": 2})
    cassette.save()

    text = path.read_text()
    data = json.loads(text)
    assert '\n  "entries": [' in text  # indent=2, readable in review
    assert data["version"] == 1
    (entry,) = data["entries"]
    assert set(entry) == {"key", "request", "response", "usage", "recorded_at"}
    assert entry["key"] == request_key(body)
    assert entry["request"] == body and entry["response"] == "hi there"
    assert entry["usage"] == {"prompt_tokens": 9, "completion_tokens": 2}
    assert [p.name for p in path.parent.iterdir()] == ["cassette.json"]  # no temp file left

    loaded = Cassette.load(path)
    hit = loaded.lookup({**body, "model": "other", "stream": True})
    assert hit is not None and hit.response == "hi there"
    assert loaded.lookup(chat("goodbye")) is None


def test_cassette_rejects_unknown_version(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"version": 99, "entries": []}))
    with pytest.raises(ValueError, match="version"):
        Cassette.load(path)


# -- the server over urllib ---------------------------------------------------------------------


def test_completion_shape_usage_and_routes() -> None:
    with serve(ScriptedResponder(echo)) as server:
        assert server.base_url.startswith("http://127.0.0.1:") and server.base_url.endswith("/v1")
        status, _, reply = post(f"{server.base_url}/chat/completions", chat("2 + 2"))
        assert status == 200
        assert reply["object"] == "chat.completion"
        assert reply["model"] == "test-model"
        assert {"id", "created"} <= set(reply)
        (choice,) = reply["choices"]
        assert choice == {
            "index": 0,
            "message": {"role": "assistant", "content": "echo: 2 + 2"},
            "finish_reason": "stop",
        }
        prompt = count_messages(chat("2 + 2")["messages"])
        completion = count_text("echo: 2 + 2")
        assert reply["usage"] == {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }

        # The same endpoint without the /v1 prefix, as some clients call it.
        status, _, reply = post(f"{server.url}/chat/completions", chat("again"))
        assert status == 200 and reply["choices"][0]["message"]["content"] == "echo: again"
        assert server.requests == [chat("2 + 2"), chat("again")]

        assert get(f"{server.url}/health") == (200, {"status": "ok"})
        status, models = get(f"{server.base_url}/models")
        assert status == 200 and models["object"] == "list" and len(models["data"]) == 1

        assert post(f"{server.url}/v1/nowhere", chat("x"))[0] == 404
        bad = urllib.request.Request(f"{server.base_url}/chat/completions", data=b"{not json")
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(bad, timeout=10)
        assert error.value.code == 400
        error.value.close()
        assert server.misses == []


def test_responder_exception_becomes_500() -> None:
    def broken(messages: list[dict[str, Any]]) -> str:
        raise RuntimeError("script ran out of replies")

    with serve(ScriptedResponder(broken)) as server:
        status, _, reply = post(f"{server.base_url}/chat/completions", chat("hi"))
    assert status == 500
    assert "script ran out of replies" in reply["error"]["message"]
    assert len(server.errors) == 1


def test_streaming_sse_over_urllib(tmp_path: Path) -> None:
    content = "The roots are x = -2 and x = -3, found exactly by SymPy."
    cassette = Cassette(tmp_path / "c.json")
    cassette.add(chat("roots?"), content)  # recorded without streaming
    with serve(ReplayResponder(cassette)) as server:
        body = chat("roots?", stream=True, stream_options={"include_usage": True})
        request = urllib.request.Request(
            f"{server.base_url}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers["Content-Type"] == "text/event-stream"
            raw = response.read().decode()
    events = [block for block in raw.split("\n\n") if block]
    assert all(e.startswith("data: ") for e in events)
    assert events[-1] == "data: [DONE]"
    chunks = [json.loads(e.removeprefix("data: ")) for e in events[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"}
    assert len({c["id"] for c in chunks}) == 1
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
    assert text == content
    assert len(chunks) > 3  # really split into pieces
    assert [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]][-1] == "stop"
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"]["prompt_tokens"] == count_messages(body["messages"])
    assert chunks[-1]["usage"]["completion_tokens"] == count_text(content)
    assert server.misses == []


def test_concurrent_requests_are_all_answered() -> None:
    def slow_echo(messages: list[dict[str, Any]]) -> str:
        time.sleep(0.05)
        return echo(messages)

    with serve(ScriptedResponder(slow_echo)) as server:
        url = f"{server.base_url}/chat/completions"
        with ThreadPoolExecutor(max_workers=20) as pool:
            results = list(pool.map(lambda i: post(url, chat(f"question {i}")), range(20)))
    assert [status for status, _, _ in results] == [200] * 20
    contents = [reply["choices"][0]["message"]["content"] for _, _, reply in results]
    assert contents == [f"echo: question {i}" for i in range(20)]
    assert len(server.requests) == 20
    assert replay_threads() == []


def test_faults_are_observed_by_urllib() -> None:
    faults: list[Fault | None] = [
        Fault(status=500),
        Fault(status=429, headers={"Retry-After": "2"}),
        Fault(delay_s=0.3),
        Fault(drop_connection=True),
        None,
        Fault(status=503, delay_s=0.2, body={"error": {"message": "overloaded"}}),
    ]
    with serve(FaultyResponder(ScriptedResponder(echo), faults)) as server:
        url = f"{server.base_url}/chat/completions"
        status, _, reply = post(url, chat("a"))
        assert status == 500 and "injected fault" in reply["error"]["message"]

        status, headers, _ = post(url, chat("b"))
        assert status == 429 and headers["Retry-After"] == "2"

        began = time.monotonic()
        status, _, reply = post(url, chat("c"))
        assert time.monotonic() - began >= 0.3
        assert status == 200 and reply["choices"][0]["message"]["content"] == "echo: c"

        with pytest.raises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
            post(url, chat("d"))

        status, _, reply = post(url, chat("e"))
        assert status == 200 and reply["choices"][0]["message"]["content"] == "echo: e"

        began = time.monotonic()
        status, _, reply = post(url, chat("f"))
        assert time.monotonic() - began >= 0.2
        assert status == 503 and reply == {"error": {"message": "overloaded"}}

        # Past the end of the list every request passes through.
        assert post(url, chat("g"))[0] == 200
    assert len(server.requests) == 7


def test_stop_closes_idle_keep_alive_connections_and_threads() -> None:
    server = start(ScriptedResponder(echo))
    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=10)
    conn.request("POST", "/v1/chat/completions", json.dumps(chat("hi")))
    response = conn.getresponse()
    assert response.status == 200
    response.read()  # the connection stays open (HTTP/1.1 keep-alive) and idle
    assert replay_threads()
    server.stop()
    server.stop()  # idempotent
    conn.close()
    assert replay_threads() == []
    with pytest.raises(OSError):
        socket.create_connection((host, port), timeout=1).close()


# -- replay misses ------------------------------------------------------------------------------


def conversation(last_user: str) -> dict[str, Any]:
    return {
        "model": "test-model",
        "messages": [
            {"role": "system", "content": "You are a careful math assistant. " * 5},
            {"role": "user", "content": "solve x^2 + 5x + 6 = 0"},
            {"role": "assistant", "content": '{"tool": "solve", "equation": "x^2 + 5x + 6 = 0"}'},
            {"role": "user", "content": last_user},
        ],
    }


def test_replay_serves_recorded_entries_repeatedly(tmp_path: Path) -> None:
    cassette = Cassette(tmp_path / "c.json")
    cassette.add(conversation("now differentiate it"), "recorded answer")
    with serve(ReplayResponder(cassette)) as server:
        url = f"{server.base_url}/chat/completions"
        for model in ["test-model", "another-model", "test-model"]:
            status, _, reply = post(url, {**conversation("now differentiate it"), "model": model})
            assert status == 200
            assert reply["choices"][0]["message"]["content"] == "recorded answer"
    assert server.misses == []
    assert len(server.requests) == 3


def test_replay_miss_names_key_and_first_differing_message(tmp_path: Path) -> None:
    cassette = Cassette(tmp_path / "c.json")
    cassette.add(chat("something unrelated"), "unrelated")
    cassette.add(conversation("now differentiate it"), "recorded answer")
    with serve(ReplayResponder(cassette)) as server:
        url = f"{server.base_url}/chat/completions"
        changed = conversation("now integrate it")
        status, _, reply = post(url, changed)
        assert status == 404
        error = reply["error"]
        message = error["message"]
        assert error["key"] == request_key(changed)
        assert request_key(changed) in message
        assert "shares 3 leading message" in message
        assert "index 3" in message
        assert "role 'user'" in message
        assert "now differentiate it" in message and "now integrate it" in message

        longer = conversation("now differentiate it")
        longer["messages"].append({"role": "user", "content": "and evaluate at 1"})
        status, _, reply = post(url, longer)
        assert status == 404
        assert "index 4 is extra" in reply["error"]["message"]
        assert "and evaluate at 1" in reply["error"]["message"]

        hotter = {**conversation("now differentiate it"), "temperature": 0.7}
        status, _, reply = post(url, hotter)
        assert status == 404 and "temperature: expected None, got 0.7" in reply["error"]["message"]

    assert [miss.key for miss in server.misses] == [
        request_key(changed),
        request_key(longer),
        request_key(hotter),
    ]


def test_replay_miss_excerpt_points_at_the_change_in_a_long_message(tmp_path: Path) -> None:
    long_prompt = "You are a careful math assistant. " * 40
    recorded = {"messages": [{"role": "system", "content": long_prompt + "Use tools."}]}
    cassette = Cassette(tmp_path / "c.json")
    cassette.add(recorded, "ok")
    with serve(ReplayResponder(cassette)) as server:
        got = {"messages": [{"role": "system", "content": long_prompt + "Use SymPy."}]}
        _, _, reply = post(f"{server.base_url}/chat/completions", got)
    message = reply["error"]["message"]
    assert "index 0" in message and "Use tools." in message and "Use SymPy." in message
    assert len(message) < 800


def test_replay_miss_on_empty_cassette(tmp_path: Path) -> None:
    with serve(ReplayResponder(Cassette(tmp_path / "none.json"))) as server:
        status, _, reply = post(f"{server.base_url}/chat/completions", chat("hi"))
    assert status == 404 and "cassette is empty" in reply["error"]["message"]
    assert len(server.misses) == 1


# -- the real BAML client ---------------------------------------------------------------------


def test_baml_math_chat_against_scripted_server_reports_token_usage() -> None:
    with serve(ScriptedResponder(script(SOLVE_REPLY))) as server:
        collector = Collector(name="t")
        client = b.with_options(client_registry=registry(server.base_url), collector=collector)
        result = client.MathChat(SOLVE_REQUEST)
    assert result == QuadraticSolver(tool="solve", equation="x^2 + 5x + 6 = 0", variable=None)
    (request,) = server.requests
    assert request["model"] == "test-model"
    assert request["messages"][-1] == {"role": "user", "content": "solve x^2 + 5x + 6 = 0"}
    usage = collector.last.usage
    assert usage.input_tokens == count_messages(request["messages"])
    assert usage.output_tokens == count_text(SOLVE_REPLY)
    assert replay_threads() == []  # BAML's pooled keep-alive connection was closed too


def test_baml_sees_injected_http_errors() -> None:
    responder = FaultyResponder(ScriptedResponder(script(SOLVE_REPLY)), [Fault(status=500)])
    with serve(responder) as server:
        client = b.with_options(client_registry=registry(server.base_url))
        with pytest.raises(BamlClientHttpError) as error:
            client.MathChat(SOLVE_REQUEST)
        assert error.value.status_code == 500
        assert client.MathChat(SOLVE_REQUEST).tool == "solve"


def test_record_then_replay_without_upstream(tmp_path: Path) -> None:
    path = tmp_path / "cassettes" / "math.json"
    with serve(ScriptedResponder(script(SOLVE_REPLY))) as upstream:
        cassette = Cassette.load(path)
        recorder = RecordResponder(cassette, upstream.base_url, SECRET, "upstream-model")
        assert SECRET not in repr(recorder)
        with serve(recorder) as server:
            collector = Collector(name="record")
            client = b.with_options(client_registry=registry(server.base_url), collector=collector)
            recorded = client.MathChat(SOLVE_REQUEST)
            again = client.MathChat(SOLVE_REQUEST)  # a hit: not forwarded a second time
        recorded_usage = collector.last.usage
        assert len(upstream.requests) == 1
        assert upstream.requests[0]["model"] == "upstream-model"
        assert upstream.requests[0]["messages"] == server.requests[0]["messages"]
    assert recorded == again == QuadraticSolver(tool="solve", equation="x^2 + 5x + 6 = 0")

    text = path.read_text()
    for secret in [SECRET, "SECRET", "Bearer", "authorization", "api_key", "test-key"]:
        assert secret.lower() not in text.lower()
    data = json.loads(text)
    (entry,) = data["entries"]
    assert entry["response"] == SOLVE_REPLY
    assert entry["request"]["model"] == "upstream-model"
    assert entry["request"]["messages"] == server.requests[0]["messages"]
    assert entry["key"] == request_key(server.requests[0])
    assert entry["usage"]["prompt_tokens"] == count_messages(entry["request"]["messages"])
    assert entry["recorded_at"]

    # Parameters other than model/stream reach the upstream verbatim and are part of the key.
    with serve(ScriptedResponder(echo)) as upstream:
        extra = Cassette.load(tmp_path / "extra.json")
        with serve(RecordResponder(extra, upstream.base_url, SECRET)) as server:
            body = chat("hi", temperature=0, max_tokens=50, stream=False)
            assert post(f"{server.base_url}/chat/completions", body)[0] == 200
        assert upstream.requests == [{k: v for k, v in body.items() if k != "stream"}]
    assert extra.lookup(body) is not None
    assert extra.lookup({**body, "temperature": 1}) is None

    # The upstream is stopped: replay must answer everything from the saved file.
    with serve(ReplayResponder(Cassette.load(path))) as replay:
        collector = Collector(name="replay")
        client = b.with_options(client_registry=registry(replay.base_url), collector=collector)
        replayed = client.MathChat(SOLVE_REQUEST)
    assert replayed == recorded
    assert replay.misses == []
    assert collector.last.usage.input_tokens == recorded_usage.input_tokens
    assert collector.last.usage.output_tokens == recorded_usage.output_tokens
