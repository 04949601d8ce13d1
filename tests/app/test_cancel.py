"""Ctrl-C cancels the answer in progress without ending the session."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from agent.llm.replay import Fault, FaultyResponder, ScriptedResponder, serve
from agent.testing.replies import answer

ROOT = Path(__file__).parents[2]
# The chat as a terminal runs it in the foreground: Ctrl-C at its default (KeyboardInterrupt).
# A CI job started in the background (`cmd &` in a non-interactive shell) inherits SIGINT
# ignored, and a child started plainly would ignore the test's SIGINT too: this test failed
# so in fresh-clone runs launched that way. The launcher restores the default first.
CHAT_AS_IN_A_TERMINAL = (
    "import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'math-agent'; runpy.run_module('agent.app.cli', run_name='__main__')"
)


def test_sigint_cancels_the_turn_and_the_session_goes_on() -> None:
    replies = iter([answer("second answer")])
    slow_first = FaultyResponder(
        ScriptedResponder(lambda messages: next(replies)), [Fault(delay_s=8.0)]
    )
    with serve(slow_first) as server:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("MATH_AGENT")},
            "MATH_AGENT_ENV_FILE": os.devnull,
            "BAML_LOG": "error",
        }
        process = subprocess.Popen(
            [sys.executable, "-c", CHAT_AS_IN_A_TERMINAL, "chat", "--base-url", server.base_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        process.stdin.write("first question\n")
        process.stdin.flush()
        deadline = time.monotonic() + 30
        while len(server.requests) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        started = time.monotonic()
        process.send_signal(signal.SIGINT)
        process.stdin.write("second question\n")
        process.stdin.close()
        out, err = process.stdout.read(), process.stderr.read()
        process.wait(timeout=60)
        elapsed = time.monotonic() - started
    assert process.returncode == 1, err  # one turn failed (was cancelled)
    lines = out.strip().splitlines()
    assert lines[0].startswith("Cancelled; the conversation is as it was")
    assert lines[1] == "second answer"
    assert elapsed < 6.0, "the cancelled request should not be waited for"
