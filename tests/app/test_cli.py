"""The `math-agent` command as a person or a script meets it, in subprocesses."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from agent.eval.cases import Expected
from agent.eval.judge import judge
from tests.support.reference_llm import REFERENCE_QUESTIONS

CASSETTE = Path(__file__).parents[1] / "cassettes" / "reference_session.json"
ROOT = Path(__file__).parents[2]


def run_cli(*args: str, stdin: str = "", env: dict[str, str] | None = None, cwd: Path = ROOT):
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MATH_AGENT", "OPENAI", "OPENROUTER"))
    }
    clean.update({"MATH_AGENT_ENV_FILE": os.devnull, "BAML_LOG": "error", **(env or {})})
    return subprocess.run(
        [sys.executable, "-m", "agent.app.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=clean,
        cwd=cwd,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# What each reply of the reference session must say, judged by the eval's SymPy judge, not by
# its wording. The cassette's replies come from the rule-based stand-in (its provenance says so;
# tests/cassettes/README.md says why); judged this way, a recording from the embedded model,
# whose wording is its own, can replace it unchanged.
REFERENCE_EXPECTED = [
    Expected("roots", ("-3", "-2"), "x"),
    Expected("expression", ("4*x + 4",), "x"),
    Expected("values", ("9", "4")),
    Expected("asks", ()),
    Expected("value", ("1/3",)),
]


def test_scripted_chat_replays_the_reference_session(tmp_path: Path) -> None:
    cassette = tmp_path / "session.json"
    shutil.copy(CASSETTE, cassette)
    before = cassette.read_bytes()
    done = run_cli("chat", "--replay", str(cassette), stdin="\n".join(REFERENCE_QUESTIONS) + "\n")
    assert done.returncode == 0, done.stderr
    replies = done.stdout.strip().splitlines()
    assert len(replies) == len(REFERENCE_EXPECTED), done.stdout
    for reply, expected in zip(replies, REFERENCE_EXPECTED, strict=True):
        asked_back = expected.kind == "asks" and reply.rstrip().endswith("?")
        verdict = judge(reply, asked_back, expected)
        assert verdict.ok, f"{reply!r}: {verdict.why}"
    # Plain output: no colour codes, no spinner, no token footer.
    assert "\x1b[" not in done.stdout and "tokens in" not in done.stdout
    assert cassette.read_bytes() == before  # replay never writes


def test_ask_answers_one_message() -> None:
    done = run_cli("ask", "--replay", str(CASSETTE), REFERENCE_QUESTIONS[0])
    assert done.returncode == 0, done.stderr
    assert judge(done.stdout.strip(), False, REFERENCE_EXPECTED[0]).ok, done.stdout


def test_ask_with_a_replay_miss_fails_with_one_sentence() -> None:
    done = run_cli("ask", "--replay", str(CASSETTE), "solve x^3 = 8")
    assert done.returncode == 1
    assert "no recording of this request" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_no_provider_says_what_to_set(tmp_path: Path) -> None:
    # run_cli drops MATH_AGENT_* variables: turn the embedded-model fallback off explicitly.
    done = run_cli("ask", "hello", cwd=tmp_path, env={"MATH_AGENT_LOCAL": "0"})
    assert done.returncode == 2
    assert done.stderr.strip().startswith(
        "No model endpoint is configured: set MATH_AGENT_BASE_URL"
    )
    assert len(done.stderr.strip().splitlines()) == 1


def test_unreachable_endpoint_is_one_clear_sentence() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = run_cli("ask", "solve x = 1", env={"MATH_AGENT_BASE_URL": url})
    assert done.returncode == 1
    out = done.stdout.strip()
    assert out.startswith(f"Could not reach the model endpoint {url}")
    assert len(out.splitlines()) == 1


@pytest.mark.parametrize("command", ["/help", "/tokens", "/history", "/strategy", "/compact"])
def test_slash_commands_work_in_scripts(command: str) -> None:
    done = run_cli(
        "chat", "--replay", str(CASSETTE), stdin=f"{REFERENCE_QUESTIONS[0]}\n{command}\n"
    )
    assert done.returncode == 0, done.stderr
    assert "Unknown command" not in done.stdout


def test_history_shows_working_context_and_transcript() -> None:
    stdin = "\n".join([*REFERENCE_QUESTIONS[:2], "/history", "/undo-compact", "/history"]) + "\n"
    done = run_cli("chat", "--replay", str(CASSETTE), stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert "Working context: 1 messages" in done.stdout
    assert "Full transcript" in done.stdout
    assert "Restored the working context" in done.stdout
