"""The replay server in its own process (`python -m agent.llm.replay`), as the CLI and the
streaming tests run it."""

from __future__ import annotations

import select
import subprocess
import sys
from pathlib import Path

import pytest
from baml_py import Collector

from agent.accounting.tokenizer import count_text
from agent.llm.replay import Cassette, RecordResponder, ScriptedResponder, serve
from baml_client import b
from baml_client.types import QuadraticSolver
from tests.llm.test_replay import (
    REPO_ROOT,
    SECRET,
    SOLVE_REPLY,
    SOLVE_REQUEST,
    chat,
    get,
    post,
    registry,
    script,
)

pytestmark = pytest.mark.timeout(60)


# -- subprocess entry point -------------------------------------------------------------------


def read_line(process: subprocess.Popen[str], timeout: float = 20) -> str:
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    assert ready, "the replay subprocess printed nothing"
    return process.stdout.readline().strip()


def test_subprocess_entry_point_serves_and_terminates(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cassette = Cassette(path)
    cassette.add(chat("recorded question"), "recorded answer")
    cassette.save()
    process = subprocess.Popen(
        [sys.executable, "-m", "agent.llm.replay", "--cassette", str(path), "--port", "0"],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base_url = read_line(process)
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        assert get(base_url.removesuffix("/v1") + "/health")[0] == 200

        status, _, reply = post(f"{base_url}/chat/completions", chat("recorded question"))
        assert status == 200 and reply["choices"][0]["message"]["content"] == "recorded answer"
        status, _, reply = post(f"{base_url}/chat/completions", chat("new question"))
        assert status == 404 and "first differing message: index 0" in reply["error"]["message"]

        _, stats = get(base_url.removesuffix("/v1") + "/_replay/stats")
        assert stats["requests"] == 2 and len(stats["misses"]) == 1
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=10)
    assert process.returncode == 0
    assert "served 2 request(s), 1 miss(es)" in stderr


def test_baml_streaming_against_subprocess_server(tmp_path: Path) -> None:
    """baml-py's sync streaming works against an out-of-process server (the CLI's setup)."""
    path = tmp_path / "c.json"
    with serve(ScriptedResponder(script(SOLVE_REPLY))) as upstream:
        recorder = RecordResponder(Cassette.load(path), upstream.base_url, SECRET)
        with serve(recorder) as server:
            b.with_options(client_registry=registry(server.base_url)).MathChat(SOLVE_REQUEST)
    process = subprocess.Popen(
        [sys.executable, "-m", "agent.llm.replay", "--cassette", str(path)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        base_url = read_line(process)
        collector = Collector(name="stream")
        client = b.with_options(client_registry=registry(base_url), collector=collector)
        stream = client.stream.MathChat(SOLVE_REQUEST)
        partials = list(stream)
        final = stream.get_final_response()
        _, stats = get(base_url.removesuffix("/v1") + "/_replay/stats")
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert partials
    assert final == QuadraticSolver(tool="solve", equation="x^2 + 5x + 6 = 0")
    assert stats == {"requests": 1, "misses": []}
    assert collector.last.usage.output_tokens == count_text(SOLVE_REPLY)
