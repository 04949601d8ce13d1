"""Hostile input through the whole stack: user -> agent loop -> BAML -> tools -> model -> user.

The scripted model is obedient: whatever the user asks it to pass to a tool, it passes (see
tests/support/hostile_inputs.py). For every input: the turn ends within the tool time limit plus a
margin, no payload runs (the marker files it would create never appear), the tool answers
with a clear sentence or a correct result, and the agent answers the next message normally.
Most cases run in-process against one shared local server; one CLI session pipes them all
through the REPL to show it stays responsive.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import tools
from agent.context.registry import make_strategy
from agent.context.tasks import unpaired_tool_messages
from agent.core.loop import Agent
from agent.core.tool_calls import run_tool
from agent.core.transcript import ENTRIES_ADAPTER
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import ReplayServer, ScriptedResponder, serve
from agent.testing.replies import answer, summary, tool_call
from agent.testing.scripted import ScriptedModel, ScriptedRequest
from baml_client.types import QuadraticEvaluator
from tests.support.hostile_inputs import CASES, USER_MESSAGES, Hostile

TOOL_TIMEOUT_S = 3.0
BOUND_S = TOOL_TIMEOUT_S + 5.0  # per turn: the tool limit plus generous room for the rest
ROOT = Path(__file__).parents[2]
# Sentences from code paths that mean an input got further than it should have.
UNEXPECTED = ("Traceback", "Internal error", "SymPy could not", "crashed", "<", "object at 0x")


class Obedient(ScriptedModel):
    """The scripted model, doing what the user says (stateless).

    `staged` maps a user message to the tool call the model makes of it; a tool result is
    reported back as `<name>: <tool text>` so the CLI test can match answers to inputs.
    """

    def __init__(self) -> None:
        self.staged: dict[str, str] = {}
        self.names: dict[str, str] = {}
        super().__init__(chat=self._chat, summaries=self._summary)

    def _summary(self, _request: ScriptedRequest) -> str:
        return summary(("a hostile request", "refused by the tools"))

    def _chat(self, request: ScriptedRequest) -> str:
        if request.after_tool_call:
            name = self.names.get(request.question or "", "tool")
            return answer(f"{name}: {request.tool_text[:300]}")
        if request.last in self.staged:
            return self.staged[request.last]
        if request.last == "ping":
            return answer("pong")
        return answer("I can only help with math.")


@pytest.fixture(scope="module")
def obedient() -> Iterator[tuple[ReplayServer, Obedient]]:
    """One local server for the module, a short tool limit, and a warm math worker."""
    tools.set_timeout(TOOL_TIMEOUT_S)
    tools.warm_up(wait=True)
    script = Obedient()
    try:
        with serve(ScriptedResponder(script)) as server:
            yield server, script
    finally:
        tools.set_timeout(None)


def new_agent(server: ReplayServer) -> Agent:
    """A fresh agent on the shared server (cheap: a registry and a client)."""
    provider = Provider("hostile", server.base_url, "scripted", None, "test", retries=False)
    return Agent(BamlMathModel(provider.client_registry(), server.base_url), make_strategy("none"))


def assert_clear_sentence(text: str) -> None:
    """A tool refusal a person (and the model) can act on."""
    assert text.strip() and "\n" not in text and len(text) < 700, text
    assert not any(bad in text for bad in UNEXPECTED), text


def refused_for_size(text: str, error: str | None) -> bool:
    """A huge message may be refused up front, with one sentence about its length."""
    if error is None or len(text) < 10_000:
        return False
    assert "\n" not in error and "characters" in error, error
    return True


def assert_usable(agent: Agent) -> None:
    after = agent.run_turn("ping")
    assert after.ok and after.reply is not None and after.reply.text == "pong", after.error
    assert unpaired_tool_messages(agent.session.working) == []


# -- hostile tool calls, in-process --------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_tool_call(
    case: Hostile, obedient: tuple[ReplayServer, Obedient], tmp_path: Path
) -> None:
    server, script = obedient
    marker = tmp_path / "pwned"
    hostile = case.with_marker(str(marker))
    script.staged[hostile.message] = tool_call(hostile.tool, **hostile.args)
    script.names[hostile.message] = hostile.name
    agent = new_agent(server)

    started = time.monotonic()
    result = agent.run_turn(hostile.message)
    elapsed = time.monotonic() - started

    assert elapsed < BOUND_S, f"{hostile.name} took {elapsed:.1f} s"
    assert result.ok, result.error  # a refused tool call is a tool error, not a failed turn
    ((call, outcome),) = result.tool_runs
    assert call.tool == hostile.tool
    if hostile.expect == "error":
        assert not outcome.ok, outcome.text
    elif hostile.expect == "answer":
        assert outcome.ok, outcome.text
    if outcome.ok:
        assert hostile.contains in outcome.text.replace(" ", "")
    else:
        assert_clear_sentence(outcome.text)
    assert result.reply is not None and result.reply.text.startswith(f"{hostile.name}: ")
    assert not marker.exists(), f"{hostile.name} executed code"
    assert_usable(agent)


def test_the_data_has_enough_cases() -> None:
    assert len(CASES) + len(USER_MESSAGES) >= 50
    assert len({c.name for c in CASES}) == len(CASES)


# -- hostile user messages the model answers in words --------------------------------------


@pytest.mark.parametrize(("name", "text"), USER_MESSAGES, ids=[n for n, _ in USER_MESSAGES])
def test_hostile_user_message(
    name: str, text: str, obedient: tuple[ReplayServer, Obedient]
) -> None:
    server, _ = obedient
    agent = new_agent(server)
    started = time.monotonic()
    sent = len(server.requests)
    result = agent.run_turn(text)
    assert time.monotonic() - started < BOUND_S
    if refused_for_size(text, result.error):
        assert len(server.requests) == sent  # refused before any model call
    else:
        assert result.ok and result.reply.text == "I can only help with math.", result.error
        # What the user typed reached the model verbatim (no template expansion, no cut).
        assert server.requests[-1]["messages"][-1]["content"] == text
    assert_usable(agent)


def test_one_agent_survives_every_case_in_a_row(
    obedient: tuple[ReplayServer, Obedient], tmp_path: Path
) -> None:
    """The same conversation takes all the (small) hostile inputs and stays consistent."""
    server, script = obedient
    marker = tmp_path / "pwned"
    agent = new_agent(server)
    small = [c.with_marker(str(marker)) for c in CASES if "big" not in c.tags]
    small = [c for c in small if c.name != "high-degree-solve"]  # its 3 s are paid above
    started = time.monotonic()
    for case in small:
        script.staged[case.message] = tool_call(case.tool, **case.args)
        script.names[case.message] = case.name
        result = agent.run_turn(case.message)
        assert result.ok, (case.name, result.error)
    assert time.monotonic() - started < 30
    assert unpaired_tool_messages(agent.session.working) == []
    assert len(agent.session.working) == 4 * len(small)
    json.loads(
        ENTRIES_ADAPTER.dump_json(list(agent.session.transcript.entries))
    )  # the transcript still serializes
    assert not marker.exists()
    assert_usable(agent)


@pytest.mark.parametrize("strategy", ["summarize", "budget", "structural"])
def test_run_turn_never_raises_on_a_1mb_message(
    strategy: str, obedient: tuple[ReplayServer, Obedient]
) -> None:
    server, _ = obedient
    provider = Provider("hostile", server.base_url, "scripted", None, "test", retries=False)
    model = BamlMathModel(provider.client_registry(), server.base_url)
    agent = Agent(model, make_strategy(strategy))
    big = next(text for name, text in USER_MESSAGES if name == "1MB-message")
    result = agent.run_turn(big)  # the strategies count its tokens when they compact
    assert result.ok or refused_for_size(big, result.error), result.error
    assert_usable(agent)


# -- regressions: each of these once hung, crashed or corrupted the session ----------------


def test_many_evaluation_points_are_capped() -> None:
    """Each point is a worker call: 20,000 of them once took 40 s and made a 400 kB result."""
    step = QuadraticEvaluator(tool="evaluate", expression="x^2", at=[str(i) for i in range(2000)])
    started = time.monotonic()
    outcome = run_tool(step)
    assert time.monotonic() - started < 1.0
    assert not outcome.ok and len(outcome.text) < 500
    assert_clear_sentence(outcome.text)


def test_lone_surrogates_in_a_user_message(obedient: tuple[ReplayServer, Obedient]) -> None:
    """Undecodable input once reached BAML (a misleading error) and poisoned the transcript."""
    server, _ = obedient
    agent = new_agent(server)
    result = agent.run_turn("solve x = 1 \udcff\udcfe")
    assert result.ok, result.error
    assert (
        "\ufffd"
        in json.loads(ENTRIES_ADAPTER.dump_json(list(agent.session.transcript.entries)))[0]["text"]
    )
    assert_usable(agent)


def test_a_1mb_message_does_not_grow_the_session_on_every_later_turn(
    obedient: tuple[ReplayServer, Obedient],
) -> None:
    server, _ = obedient
    provider = Provider("hostile", server.base_url, "scripted", None, "test", retries=False)
    model = BamlMathModel(provider.client_registry(), server.base_url)
    agent = Agent(model, make_strategy("structural"))
    big = next(text for name, text in USER_MESSAGES if name == "1MB-message")
    agent.run_turn(big)
    agent.run_turn("ping")
    before = len(ENTRIES_ADAPTER.dump_json(list(agent.session.transcript.entries)))
    for _ in range(3):
        assert agent.run_turn("ping").ok
    assert len(ENTRIES_ADAPTER.dump_json(list(agent.session.transcript.entries))) - before < 100_000
    assert sum(len(str(m)) for m in agent.session.working) < 100_000


# -- the CLI: one REPL session takes every hostile input ------------------------------------


def cli_env(home: Path) -> dict[str, str]:
    """A hermetic environment for the CLI: no provider keys, temp HOME and XDG dirs."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MATH_AGENT", "OPENAI", "OPENROUTER", "BAML", "XDG_"))
    }
    env.update(
        MATH_AGENT_ENV_FILE=os.devnull,
        MATH_AGENT_TOOL_TIMEOUT=str(TOOL_TIMEOUT_S),
        BAML_LOG="error",
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
    )
    return env


def run_chat(server: ReplayServer, stdin: bytes, home: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "agent.app.cli", "chat", "--base-url", server.base_url],
        input=stdin,
        capture_output=True,
        timeout=120,
        env=cli_env(home),
        cwd=ROOT,
    )


def test_cli_repl_stays_responsive_through_every_hostile_input(
    obedient: tuple[ReplayServer, Obedient], tmp_path: Path
) -> None:
    server, script = obedient
    marker = tmp_path / "pwned"
    lines: list[str] = []
    # Megabyte inputs go last: every later turn re-sends and re-saves them (see the report).
    for case in sorted(CASES, key=lambda c: "big" in c.tags):
        hostile = case.with_marker(str(marker))
        line = f"hostile {hostile.name}"
        script.staged[line] = tool_call(hostile.tool, **hostile.args)
        script.names[line] = hostile.name
        lines.append(line)
    raw = sorted((t for _, t in USER_MESSAGES if "\n" not in t), key=len)  # the 1 MB one last
    stdin = "\n".join([*lines, *raw, "/history", "/tokens", "ping"]) + "\n"

    started = time.monotonic()
    done = run_chat(server, stdin.encode(), tmp_path / "home")
    elapsed = time.monotonic() - started

    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    assert "Traceback" not in out + err, err[-2000:]
    assert "\x1b" not in out  # tool errors quote the ANSI payload; the terminal never gets it
    answered = [line.split(": ", 1)[0] for line in out.splitlines()]
    for case in CASES:
        assert case.name in answered, f"no answer for {case.name}"
    words = answered.count("I can only help with math.")
    # Every message is answered; only the 1 MB one may instead be refused for its size.
    names = {f"{case.name}: " for case in CASES}
    size_refusals = [
        line
        for line in out.splitlines()
        if "characters" in line
        and not any(line.startswith(n) for n in names)
        and not ("\u2500" <= line[:1] <= "\u257f" or line[:1].isspace())  # /history tables
    ]
    assert words == len(raw) or (words == len(raw) - 1 and len(size_refusals) == 1), out[-3000:]
    assert done.returncode == (1 if size_refusals else 0), err[-2000:]
    assert out.rstrip().endswith("pong")
    assert not marker.exists()
    # ~80 turns, one of them at the tool limit: well under a minute even on a loaded machine
    assert elapsed < 60, f"the session took {elapsed:.1f} s"


def test_cli_survives_undecodable_input(
    obedient: tuple[ReplayServer, Obedient], tmp_path: Path
) -> None:
    """Bad bytes on stdin once killed the REPL (KeyError: 'result' after a failed save)."""
    server, _ = obedient
    done = run_chat(server, b"solve x = 1 \xff\xfe\xc3\nping\n", tmp_path / "home")
    out = done.stdout.decode("utf-8", "replace")
    assert "Traceback" not in done.stderr.decode("utf-8", "replace")
    assert out.rstrip().endswith("pong")


def test_cli_output_carries_no_terminal_control_sequences(
    obedient: tuple[ReplayServer, Obedient], tmp_path: Path
) -> None:
    """A reply could clear the screen, set the clipboard (OSC 52) or retitle the terminal."""
    server, script = obedient
    script.staged["ansi please"] = answer("done \x1b[2J\x1b]52;c;cHduZWQ=\x1b\\ \x9b31m")
    done = run_chat(server, b"ansi please\nping\n", tmp_path / "home")
    out = done.stdout.decode("utf-8", "replace")
    assert out.rstrip().endswith("pong")
    assert "\x1b" not in out and "\x9b" not in out
