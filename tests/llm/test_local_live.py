"""Live check on the embedded model: the reference questions through the real agent loop.

Needs the `local` extra and the model (`make local`, which `make live-test` runs first). It
fails, never skips, when the model cannot be set up: a live check that skips would let CI
pass without ever running the model. Timings are printed (shown with -rP).
"""

from __future__ import annotations

import re
import time

import pytest

from agent.app.runtime import RuntimeOptions, build_runtime
from agent.llm.local.launch import unavailable_reason
from agent.processes import pid_alive

pytestmark = pytest.mark.live

# The reference write-up's questions in its own wording, then a request that must be asked
# back. ("what is the square of the roots", its third question, is answered with their sum of
# squares by this model today: issue 11 tracks it; it is not asserted here.)
QUESTIONS = (
    "Solve the quadratic equation: x^2 + 5*x + 6 = 0",
    "Find the derivative of: 2*x^2 + 4*x - 6",
    "integrate this",
)


def normalise(text: str) -> str:
    """'4*x + 4', '4x + 4' and '4 x+4' all become '4x+4'."""
    return re.sub(r"[\s*·]", "", text)


@pytest.mark.timeout(900)
def test_reference_questions_on_the_local_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATH_AGENT_LOCAL", raising=False)
    reason = unavailable_reason()
    assert reason is None, f"the embedded model is unavailable: {reason} (run `make local`)"
    started = time.perf_counter()
    runtime = build_runtime(RuntimeOptions(provider="local", save=False))
    load = time.perf_counter() - started
    server = runtime.servers[0]
    pid = server.pid
    assert pid is not None and runtime.agent.strategy.name == "window"
    answers: list[str] = []
    statuses: list[str] = []
    try:
        for question in QUESTIONS:
            turn_started = time.perf_counter()
            result = runtime.agent.run_turn(question)
            seconds = time.perf_counter() - turn_started
            tools = [call.tool for call, _ in result.tool_runs]
            print(
                f"{seconds:6.1f} s  {question!r}: tools={tools} calls={result.llm_calls} "
                f"tokens in/out={result.input_tokens}/{result.output_tokens} -> "
                f"{result.reply.text if result.reply else result.error!r}"
            )
            assert result.ok, f"{question!r} failed: {result.error}"
            assert result.reply is not None
            answers.append(result.reply.text)
            statuses.append(result.reply.task_status)
    finally:
        runtime.close()
    print(f"startup (verify + {'reuse' if server.reused else 'load'}): {load:.1f} s")
    assert "-3" in answers[0] and "-2" in answers[0], answers[0]
    assert "4x+4" in normalise(answers[1]), answers[1]
    assert statuses[2] == "PROCESSING", f"'integrate this' was not asked back: {answers[2]!r}"
    assert not pid_alive(pid), "the server process is gone after close()"
