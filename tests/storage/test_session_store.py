"""Saved sessions on both stores (SQLite, PostgreSQL): round trip, ownership, interrupted
turns, kill -9 at many points, a second REPL refused."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.llm.replay import ScriptedResponder, serve
from agent.messages import AssistantMessage, UserMessage
from agent.runtime.process import checkpoint_hook
from agent.storage.records import SessionInUse
from agent.storage.sql_store import SessionStore
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, solve, summary
from tests.support import reference_llm
from tests.support.databases import Backend

ROOT = Path(__file__).parents[2]


class Stored:
    """An agent on an opened session, as the REPL builds one."""

    def __init__(self, store: SessionStore, name: str, model: InProcessModel, strategy: str):
        self.opened = store.open(name, strategy)
        self.loaded = self.opened.loaded
        model.ledger = self.loaded.ledger
        self.agent = Agent(model, make_strategy(self.loaded.strategy), session=self.loaded.session)
        self.agent.on_checkpoint = checkpoint_hook(self.opened.writer, self.agent)

    def close(self) -> None:
        self.opened.close()


def stored_agent(
    store: SessionStore, name: str, model: InProcessModel, strategy: str = "summarize"
):
    stored = Stored(store, name, model, strategy)
    return stored, stored.agent, stored.loaded


def test_round_trip(backend: Backend) -> None:
    model = InProcessModel(
        [solve("x^2 - 1 = 0"), done("x = -1, x = 1"), done("ok")],
        summaries=[summary(("solve x^2 - 1 = 0", "x = -1, x = 1")), summary(("hi", "ok"))],
    )
    store, agent, loaded = stored_agent(backend.store(), "alpha", model)
    assert not loaded.resumed
    agent.run_turn("solve x^2 - 1 = 0")
    agent.run_turn("hi")
    working, entries = list(agent.session.working), agent.session.transcript.entries
    calls, undo = list(agent.model.ledger.calls), list(agent.session.undo_stack)
    store.close()

    second = backend.store()
    store2, agent2, loaded2 = stored_agent(second, "alpha", InProcessModel([]), "none")
    assert loaded2.resumed and not loaded2.interrupted
    assert loaded2.strategy == "summarize"  # the session's own strategy
    assert agent2.session.working == working
    assert agent2.session.transcript.entries == entries
    assert agent2.session.undo_stack == undo
    assert agent2.model.ledger.calls == calls and agent2.model.ledger.turn == 2
    (info,) = second.sessions()
    assert (info.name, info.turns, info.entries) == ("alpha", 2, len(entries))
    store2.close()


def test_second_process_is_refused_and_a_dead_owner_is_taken_over(backend: Backend) -> None:
    backend.store().open("shared", "none").close()
    if backend.kind == "sqlite":
        holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with sqlite3.connect(backend.db) as raw:
            raw.execute(
                "UPDATE sessions SET owner_pid = ?, owner_host = ? WHERE name = 'shared'",
                (holder.pid, os.uname().nodename),
            )
        refusal = f"open in another math-agent process \\(pid {holder.pid}\\)"
    else:  # another process holds the session's advisory lock on its own connection
        code = (
            "import sys, time, psycopg; from agent.storage.postgres_store import advisory_key\n"
            "c = psycopg.connect(sys.argv[1], autocommit=True)\n"
            "c.execute('SELECT pg_advisory_lock(%s)', (advisory_key('shared'),))\n"
            "print('held', flush=True); time.sleep(60)"
        )
        holder = subprocess.Popen(
            [sys.executable, "-c", code, backend.url], stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        assert holder.stdout.readline().strip() == "held"
        refusal = "open in another math-agent process"
    try:
        with pytest.raises(SessionInUse, match=refusal):
            backend.store().open("shared", "none")
        assert [i.open_elsewhere for i in backend.store().sessions()] == [True]
    finally:
        holder.kill()
        holder.wait()
    # The owner is gone (its pid dead, or its connection closed with it): the session opens.
    deadline = time.monotonic() + 10
    while True:
        try:
            opened = backend.store().open("shared", "none")
            break
        except SessionInUse:
            assert time.monotonic() < deadline, "a dead holder's lock was never released"
            time.sleep(0.05)
    assert not opened.loaded.interrupted
    opened.close()


def test_interrupted_turn_is_detected_and_recorded(backend: Backend) -> None:
    store, agent, _ = stored_agent(backend.store(), "cut", InProcessModel([done("fine")]), "none")
    agent.run_turn("first")
    # A turn that got as far as its user message and a tool step, then died.
    agent.session.append(UserMessage(text="second"))
    agent.checkpoint(turn_complete=False)
    store.close()
    _, agent2, loaded = stored_agent(backend.store(), "cut", InProcessModel([]), "none")
    assert loaded.interrupted
    kinds = [e.kind for e in agent2.session.transcript.entries]
    assert kinds == ["user", "assistant", "user", "error"]
    assert [m.kind for m in agent2.session.working] == ["user", "assistant"]


def _chat_process(backend: Backend, base_url: str, name: str, db: Path | None = None):
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MATH_AGENT")},
        "MATH_AGENT_ENV_FILE": os.devnull,
        "BAML_LOG": "error",
        **backend.env(db),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "agent.app.cli", "chat", "--session", name, "--base-url", base_url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )


QUESTIONS = [
    "solve x^2 + 5*x + 6 = 0",
    "derivative of 2*x^2 + 4*x - 6",
    "what is the square of the roots",
    "solve x^2 - 9 = 0",
    "integrate this",
    "x^3 from 0 to 2",
]
# The script makes 11 LLM requests (two per question, one for "integrate this", which is asked
# back); the REPL is killed after each of them. A point past the last request would wait for
# a request that never comes and kill an idle REPL, so every point is asserted reached.
SCRIPT_REQUESTS = 11
KILL_AFTER_REQUESTS = list(range(1, SCRIPT_REQUESTS + 1))


@pytest.mark.slow
def test_kill_9_at_many_points_loses_at_most_the_step_in_flight(
    backend: Backend, tmp_path: Path
) -> None:
    rng = random.Random(7)
    survived = 0
    with serve(ScriptedResponder(reference_llm.reference_model())) as server:
        # The points cover every request of the script: played through, it makes exactly these.
        whole = _chat_process(backend, server.base_url, "whole", tmp_path / "whole.sqlite3")
        _, err = whole.communicate("\n".join(QUESTIONS) + "\n", timeout=120)
        assert whole.returncode == 0, err
        assert len(server.requests) == SCRIPT_REQUESTS == KILL_AFTER_REQUESTS[-1]
        for point in KILL_AFTER_REQUESTS:
            db = tmp_path / f"kill-{point}.sqlite3"
            name = f"k{point}"
            process = _chat_process(backend, server.base_url, name, db)
            already = len(server.requests)
            process.stdin.write("\n".join(QUESTIONS) + "\n")
            process.stdin.flush()
            deadline = time.monotonic() + 60
            while len(server.requests) - already < point and time.monotonic() < deadline:
                time.sleep(0.002)
            assert len(server.requests) - already >= point, f"kill point {point} not reached"
            time.sleep(rng.uniform(0, 0.03))
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
            printed = [line for line in process.stdout.read().splitlines() if line.strip()]
            process.stdin.close()

            store = backend.store(db)
            assert backend.integrity(store) == "ok"
            opened = open_when_released(store, name)  # the dead owner's lock is taken over
            entries = opened.loaded.session.transcript.entries
            answers = [e.text for e in entries if isinstance(e, AssistantMessage)]
            users = [e.text for e in entries if isinstance(e, UserMessage)]
            # Every answer that reached the screen was saved first; nothing twice.
            assert printed == answers[: len(printed)], (point, printed, answers)
            assert users == QUESTIONS[: len(users)]
            assert len(answers) <= len(users)
            survived += len(answers)
            opened.close()

            # The session resumes and works.
            again = _chat_process(backend, server.base_url, name, db)
            out, err = again.communicate("solve x^2 - 16 = 0\n", timeout=60)
            assert again.returncode == 0, err
            assert out.strip().splitlines()[-1] == "Done: x = -4, x = 4"
    assert survived > 0
    print(f"kill points tested: {len(KILL_AFTER_REQUESTS)}; completed turns kept: {survived}")


def open_when_released(store: SessionStore, name: str, seconds: float = 10):
    """PostgreSQL notices a killed client's closed connection a moment later."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return store.open(name, "summarize")
        except SessionInUse:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_strategy_state_survives_a_restart(backend: Backend) -> None:
    from agent.context.user_facts import UserFactStore

    store, agent, _ = stored_agent(
        backend.store(), "facts", InProcessModel([done("ok")]), "structural+facts"
    )
    agent.strategy.store = UserFactStore.from_state(
        {"facts": [{"kind": "NAME", "text": "Is called Dana"}]}
    )
    agent.run_turn("hello")
    store.close()
    opened = backend.store().open("facts", "none")
    assert opened.loaded.strategy == "structural+facts"
    strategy = make_strategy(opened.loaded.strategy)
    strategy.from_state(opened.loaded.strategy_state)
    assert "Is called Dana" in strategy.describe_facts()
    opened.close()


def test_a_second_repl_on_the_same_session_is_refused_and_the_first_goes_on(
    backend: Backend,
) -> None:
    with serve(ScriptedResponder(reference_llm.reference_model())) as server:
        first = _chat_process(backend, server.base_url, "shared")
        first.stdin.write("solve x^2 - 1 = 0\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "Done: x = -1, x = 1"
        second = _chat_process(backend, server.base_url, "shared")
        out, err = second.communicate("solve x^2 - 4 = 0\n", timeout=60)
        assert second.returncode == 2
        pid = f" (pid {first.pid})" if backend.kind == "sqlite" else ""
        assert f"open in another math-agent process{pid}" in err
        assert out == ""
        out, err = first.communicate("solve x^2 - 9 = 0\n", timeout=60)
        assert first.returncode == 0, err
        assert out.strip() == "Done: x = -3, x = 3"
    store = backend.store()
    assert backend.integrity(store) == "ok"
    opened = store.open("shared", "none")
    entries = opened.loaded.session.transcript.entries
    users = [e.text for e in entries if isinstance(e, UserMessage)]
    assert users == ["solve x^2 - 1 = 0", "solve x^2 - 9 = 0"]
    opened.close()
