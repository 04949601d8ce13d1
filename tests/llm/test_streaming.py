"""Streamed answers: the real agent loop and BAML client stream each MathChat reply, and the
observer sees the call being decoded and the answer growing.

baml-py's sync streaming stalls against a server thread in the same process, so the replies
are recorded first (in-process, not streamed) and then served by the replay server in its own
process, as the CLI's `--replay` does.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agent.context.registry import make_strategy
from agent.core.loop import Agent, SmallModelAids
from agent.llm.model import BamlMathModel, StepProgress
from agent.llm.providers import Provider
from agent.llm.replay import Cassette, RecordResponder, ScriptedResponder, serve

REPO_ROOT = Path(__file__).resolve().parents[2]
REPLAY_SERVER = (sys.executable, "-m", "agent.llm.replay")
ANSWER = "The roots are x = -3 and x = -2, so the equation factors as (x + 3)(x + 2)."
REPLIES = [
    json.dumps({"tool": "solve", "equation": "x^2 + 5x + 6 = 0"}),
    json.dumps({"response": ANSWER, "tool": "message_to_user", "task_status": "COMPLETED"}),
]


@contextmanager
def replay_server(cassette: Path, delay_ms: int) -> Iterator[str]:
    """The replay server in its own process, each streamed piece `delay_ms` apart: its URL."""
    process = subprocess.Popen(
        [*REPLAY_SERVER, "--cassette", str(cassette), "--stream-delay-ms", str(delay_ms)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 20)
        assert ready, "the replay server printed no URL"
        yield process.stdout.readline().strip()
    finally:
        process.terminate()
        process.wait(timeout=10)


def agent_at(base_url: str) -> Agent:
    provider = Provider("test", base_url, "test", None, "test", retries=False)
    return Agent(
        BamlMathModel(provider.client_registry(), provider.base_url), make_strategy("none")
    )


def record(path: Path) -> None:
    replies = list(REPLIES)
    with serve(ScriptedResponder(lambda messages: replies.pop(0))) as upstream:
        recorder = RecordResponder(Cassette.load(path), upstream.base_url, "sk-test-not-a-key")
        with serve(recorder) as server:
            assert agent_at(server.base_url).run_turn("solve x^2 + 5x + 6 = 0").ok


def test_the_answer_streams_in_and_the_tool_call_is_seen_while_decoded(tmp_path: Path) -> None:
    path = tmp_path / "stream.json"
    record(path)
    with replay_server(path, delay_ms=30) as base_url:
        seen: list[StepProgress] = []
        agent = agent_at(base_url)
        result = agent.run_turn("solve x^2 + 5x + 6 = 0", on_progress=seen.append)

    assert result.ok and result.reply is not None and result.reply.text == ANSWER
    tool_steps = [p for p in seen if p.tool == "solve"]
    assert tool_steps and tool_steps[-1].arguments == {"equation": "x^2 + 5x + 6 = 0"}
    answers = [p.response for p in seen if p.answering]
    assert len(answers) >= 3  # it grew in several pieces, not all at once
    assert all(ANSWER.startswith(a) for a in answers)
    assert answers == sorted(answers, key=len) and answers[-1] == ANSWER
    # The tool call was decoded before the answer began, and usage was still counted.
    assert seen.index(tool_steps[-1]) < seen.index(next(p for p in seen if p.response))
    assert agent.model.ledger.count("MathChat") == 2 and result.input_tokens > 0


def test_a_call_with_no_reported_usage_is_counted_offline() -> None:
    """Hosted APIs report no usage on a plain stream: the ledger then counts the request and
    the reply with the offline tokenizer instead of recording zero."""
    model = agent_at("http://127.0.0.1:9/v1").model
    reply = {"tool": "message_to_user", "response": "x = 2", "task_status": "COMPLETED"}
    step = model._call("MathChat", lambda: reply, estimate=lambda r: (len(str(r)), 5))
    assert step == reply
    (call,) = model.ledger.calls
    assert (call.input_tokens, call.output_tokens) == (len(str(reply)), 5)


def test_an_answer_the_loop_will_write_is_cut_where_it_begins(tmp_path: Path) -> None:
    """`decide_only`: once the reply is plainly a message, the call is aborted (a CPU model
    would spend seconds restating the result) and the loop writes the answer itself."""
    path = tmp_path / "stream.json"
    record(path)
    with replay_server(path, delay_ms=200) as base_url:
        agent = agent_at(base_url)
        agent.aids = SmallModelAids(answer_from_results=True)
        seen: list[StepProgress] = []
        result = agent.run_turn("solve x^2 + 5x + 6 = 0", on_progress=seen.append)

    assert result.ok and result.reply is not None
    assert result.reply.text == "x = -3, x = -2 (#2)"  # the tool's result and its id
    # Nothing of the model's own answer reached the screen, and both calls were counted.
    assert not any(p.answering for p in seen)
    assert agent.model.ledger.count("MathChat") == 2
