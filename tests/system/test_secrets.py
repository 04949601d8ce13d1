"""The API key never shows up where people or tools can read it later.

A recognisable fake key is used for real sessions against a local upstream that checks it is
sent (so the scans below are not vacuous), then every artefact is scanned for it: the
cassette, the CLI's stdout and stderr at several BAML_LOG levels (BAML logs prompts, request
options and failed responses), the transcript JSON, error sentences, Python logging, and every
file written under a temporary HOME and XDG directories (the session database, its WAL, the
/export file, REPL history). Upstreams that refuse the key run the error paths too, one of
them careless enough to echo the key back in its error body.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from baml_py.errors import BamlClientHttpError, BamlTimeoutError

from agent import wire
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.core.transcript import ENTRIES_ADAPTER, ErrorRecord
from agent.errors import explain_llm_error
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import Fault, FaultyResponder, ReplayServer, ScriptedResponder, serve
from agent.testing.replies import answer, summary, tool_call
from agent.testing.scripted import ScriptedModel, ScriptedRequest

KEY = "sk-test-FAKEKEY-0123456789abcdef0123"
# Pieces that would betray a partly masked or re-encoded key.
FRAGMENTS = (KEY, "FAKEKEY-0123456789", "0123456789abcdef0123")
ROOT = Path(__file__).parents[2]
HAS_STORE = importlib.util.find_spec("agent.storage.sqlite_store") is not None
HAS_EXPORT = importlib.util.find_spec("agent.display.export") is not None

MASKED_401 = {
    "error": {
        "message": "Incorrect API key provided: sk-test-************0123.",
        "type": "invalid_request_error",
        "code": "invalid_api_key",
    }
}
ECHOING_401 = {"error": {"message": f"Incorrect API key provided: {KEY}.", "code": "bad_key"}}


def leaks(text: str | bytes) -> list[str]:
    """The key fragments found in `text` (empty: clean)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return [f for f in FRAGMENTS if f in text]


def scan_tree(root: Path) -> dict[str, list[str]]:
    """Every file under `root` that holds a key fragment (binary files included)."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and (hits := leaks(path.read_bytes())):
            found[str(path.relative_to(root))] = hits
    return found


def upstream_model() -> ScriptedModel:
    """An upstream model: solve, then report; summaries for the summarize strategy."""

    def chat(request: ScriptedRequest) -> str:
        if request.last.startswith(wire.TOOL_RESULT_LABEL):
            return answer("Done: " + request.tool_text)
        if request.last.startswith("solve"):
            return tool_call("solve", equation=request.last.removeprefix("solve "))
        return answer("pong")

    return ScriptedModel(
        chat=chat, summaries=lambda _request: summary(("solve x^2 - 4 = 0", "x = -2, x = 2"))
    )


@contextmanager
def upstream_server() -> Iterator[ReplayServer]:
    """A local 'real provider' that records the Authorization header of every request."""
    with serve(FaultyResponder(ScriptedResponder(upstream_model()), [])) as server:
        seen: list[str | None] = []
        base = server.RequestHandlerClass

        class Recording(base):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:
                seen.append(self.headers.get("Authorization"))
                super().do_POST()

        server.RequestHandlerClass = Recording
        server.authorizations = seen  # type: ignore[attr-defined]
        yield server


@pytest.fixture
def upstream() -> Iterator[ReplayServer]:
    with upstream_server() as server:
        yield server


def fail_from_now(server: ReplayServer, fault: Fault) -> None:
    """From now on the upstream answers every request with `fault`."""
    responder: FaultyResponder = server.responder  # type: ignore[assignment]
    responder.faults = [fault] * (len(responder.arrivals) + 100)


def refuse_key(server: ReplayServer, body: dict[str, Any]) -> None:
    fail_from_now(server, Fault(status=401, body=body))


def chat_env(home: Path, baml_log: str) -> dict[str, str]:
    """The fake key in the environment, a throwaway HOME, nothing from the developer's."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MATH_AGENT", "OPENAI", "OPENROUTER", "BAML", "XDG_"))
    }
    env.update(
        MATH_AGENT_ENV_FILE=os.devnull,
        MATH_AGENT_API_KEY=KEY,
        BAML_LOG=baml_log,
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    return env


def session_lines(home: Path, refused: bool) -> str:
    """Messages and the commands that print or write the session."""
    lines = ["solve x^2 - 4 = 0", *([] if refused else ["ping"]), "/history", "/tokens"]
    if HAS_EXPORT:
        lines.append(f"/export {home / 'export.md'}")
    return "\n".join(lines) + "\n"


# -- the CLI, recording and direct, with working and refusing upstreams ----------------------

# id -> (mode, what the upstream does with the key, BAML_LOG)
RUNS: dict[str, tuple[str, dict[str, Any] | None, str]] = {
    "record-ok-info": ("record", None, "info"),
    "record-ok-warn": ("record", None, "warn"),
    "record-401-echo-info": ("record", ECHOING_401, "info"),
    "direct-ok-info": ("direct", None, "info"),
    "direct-ok-trace": ("direct", None, "trace"),
    "direct-401-warn": ("direct", MASKED_401, "warn"),
    "direct-401-info": ("direct", MASKED_401, "info"),
}


@dataclass
class ChatRun:
    """One finished `math-agent chat` process and what it could have left behind."""

    refused: bool
    record: bool
    returncode: int
    stdout: str
    stderr: str
    home: Path
    cassette: Path
    authorizations: list[str | None]


@pytest.fixture(scope="module")
def chat_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ChatRun]:
    """Every run of RUNS at once (each with its own upstream), so the module stays quick."""
    runs: dict[str, ChatRun] = {}
    with ExitStack() as stack:
        pending = []
        for run_id, (mode, refusal, baml_log) in RUNS.items():
            server = stack.enter_context(upstream_server())
            if refusal is not None:
                refuse_key(server, refusal)
            base = tmp_path_factory.mktemp(run_id)
            home = base / "home"
            home.mkdir()
            cassette = home / "cassette.json"
            args = ["--base-url", server.base_url, *(["--session", "s"] if HAS_STORE else [])]
            if mode == "record":
                args += ["--record", str(cassette)]
            out, err = base / "stdout", base / "stderr"
            with out.open("w") as stdout, err.open("w") as stderr:
                process = subprocess.Popen(
                    [sys.executable, "-m", "agent.app.cli", "chat", *args],
                    stdin=subprocess.PIPE,
                    stdout=stdout,
                    stderr=stderr,
                    text=True,
                    env=chat_env(home, baml_log),
                    cwd=ROOT,
                )
            assert process.stdin is not None
            process.stdin.write(session_lines(home, refusal is not None))
            process.stdin.close()
            pending.append((run_id, process, server, home, cassette, out, err, refusal, mode))
        for run_id, process, server, home, cassette, out, err, refusal, mode in pending:
            try:
                returncode = process.wait(timeout=120)
            finally:
                if process.poll() is None:
                    process.kill()
            runs[run_id] = ChatRun(
                refused=refusal is not None,
                record=mode == "record",
                returncode=returncode,
                stdout=out.read_text(encoding="utf-8", errors="replace"),
                stderr=err.read_text(encoding="utf-8", errors="replace"),
                home=home,
                cassette=cassette,
                authorizations=list(server.authorizations),  # type: ignore[attr-defined]
            )
    return runs


@pytest.mark.parametrize("run_id", list(RUNS))
def test_cli_session_leaves_no_key_behind(run_id: str, chat_runs: dict[str, ChatRun]) -> None:
    run = chat_runs[run_id]
    # The key really went to the upstream (so the scans mean something), and only there.
    assert run.authorizations, run.stderr[-3000:]
    assert set(run.authorizations) == {f"Bearer {KEY}"}
    assert leaks(run.stdout) == [], run.stdout[-3000:]
    assert leaks(run.stderr) == [], run.stderr[-3000:]
    assert scan_tree(run.home) == {}
    assert "Traceback" not in run.stdout + run.stderr, run.stderr[-3000:]
    if run.refused:
        assert run.returncode == 1
        assert "refused the API key" in run.stdout  # not "failed (HTTP 500)" in record mode
    else:
        assert run.returncode == 0, run.stderr[-3000:]
        assert "Done: x = -2, x = 2" in run.stdout
        if run.record:
            assert len(json.loads(run.cassette.read_text(encoding="utf-8"))["entries"]) >= 2
    if HAS_EXPORT:
        assert (run.home / "export.md").is_file()
    if HAS_STORE:
        assert list((run.home / "data").rglob("*.sqlite3")), "no session database was written"


# -- in-process: transcript, error sentences, Python logging --------------------------------


def test_transcript_errors_and_logs_hold_no_key(
    upstream: ReplayServer, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    caplog.set_level(logging.DEBUG)
    provider = Provider("keyed", upstream.base_url, "m", KEY, "test", retries=False)
    agent = Agent(
        BamlMathModel(provider.client_registry(), provider.base_url), make_strategy("none")
    )

    ok = agent.run_turn("solve x^2 - 4 = 0")
    assert ok.ok, ok.error
    refuse_key(upstream, ECHOING_401)
    refused = agent.run_turn("solve x^2 - 9 = 0")
    fail_from_now(upstream, Fault(status=400, body={"error": {"message": f"bad key {KEY}"}}))
    rejected = agent.run_turn("solve x^2 - 16 = 0")

    assert upstream.authorizations[0] == f"Bearer {KEY}"  # type: ignore[attr-defined]
    assert refused.error and "refused the API key" in refused.error
    assert rejected.error and "rejected the request (HTTP 400" in rejected.error
    errors = [e.text for e in agent.session.transcript.entries if isinstance(e, ErrorRecord)]
    assert len(errors) == 2
    for text in [*errors, refused.error, rejected.error]:
        assert leaks(text) == [], text
    assert leaks(ENTRIES_ADAPTER.dump_json(list(agent.session.transcript.entries))) == []
    assert leaks(caplog.text) == []
    captured = capsys.readouterr()
    assert leaks(captured.out + captured.err) == []


def test_provider_repr_hides_the_key() -> None:
    """Anything that prints a Provider (a log, a traceback, a test failure) must not print it."""
    provider = Provider("keyed", "http://127.0.0.1:9/v1", "m", KEY, "test")
    assert leaks(repr(provider)) == []


def test_error_sentences_hide_credentials_in_the_endpoint_url() -> None:
    """A base URL may carry user:password@ (proxies); error sentences are shown and saved."""
    url = f"https://user:{KEY}@proxy.example/v1"
    for exc in (
        BamlTimeoutError("MathAgentLLM", "Request timed out"),
        BamlClientHttpError("MathAgentLLM", "Request failed with status code: 401", 401, ""),
        BamlClientHttpError("MathAgentLLM", f"Request failed: 400. {ECHOING_401}", 400, ""),
    ):
        message = explain_llm_error(exc, url).message
        assert leaks(message) == [] and "proxy.example" in message, message
