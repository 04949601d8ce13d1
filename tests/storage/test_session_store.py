"""Saved sessions: round trip, ownership, interrupted turns, and kill -9 at many points."""

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

from agent.app.runtime import checkpoint_hook
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.core.transcript import ErrorRecord
from agent.llm.replay import ScriptedResponder, serve
from agent.messages import AssistantMessage, UserMessage
from agent.storage.session_store import SessionInUse, SessionStore
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, solve, summary
from tests.support import reference_llm

ROOT = Path(__file__).parents[2]


def stored_agent(db: Path, name: str, model: InProcessModel, strategy: str = "summarize"):
    store = SessionStore(db)
    loaded = store.open(name, strategy)
    model.ledger = loaded.ledger
    agent = Agent(model, make_strategy(loaded.strategy), session=loaded.session)
    agent.on_checkpoint = checkpoint_hook(store, agent)
    return store, agent, loaded


def test_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    model = InProcessModel(
        [solve("x^2 - 1 = 0"), done("x = -1, x = 1"), done("ok")],
        summaries=[summary(("solve x^2 - 1 = 0", "x = -1, x = 1")), summary(("hi", "ok"))],
    )
    store, agent, loaded = stored_agent(db, "alpha", model)
    assert not loaded.resumed
    agent.run_turn("solve x^2 - 1 = 0")
    agent.run_turn("hi")
    working, entries = list(agent.session.working), agent.session.transcript.entries
    calls, undo = list(agent.model.ledger.calls), list(agent.session.undo_stack)
    store.close()

    store2, agent2, loaded2 = stored_agent(db, "alpha", InProcessModel([]), "none")
    assert loaded2.resumed and not loaded2.interrupted
    assert loaded2.strategy == "summarize"  # the session's own strategy
    assert agent2.session.working == working
    assert agent2.session.transcript.entries == entries
    assert agent2.session.undo_stack == undo
    assert agent2.model.ledger.calls == calls and agent2.model.ledger.turn == 2
    assert store2.integrity_check() == "ok"
    (info,) = store2.sessions()
    assert (info.name, info.turns, info.entries) == ("alpha", 2, len(entries))
    store2.close()


def test_second_process_is_refused_and_a_dead_owner_is_taken_over(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store = SessionStore(db)
    store.open("shared", "none")
    store.close()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with sqlite3.connect(db) as raw:
            raw.execute(
                "UPDATE sessions SET owner_pid = ?, owner_host = ? WHERE name = 'shared'",
                (holder.pid, os.uname().nodename),
            )
        with pytest.raises(
            SessionInUse, match=f"open in another math-agent process \\(pid {holder.pid}\\)"
        ):
            SessionStore(db).open("shared", "none")
    finally:
        holder.kill()
        holder.wait()
    # The owner is gone: its lock is stale and the session opens.
    loaded = SessionStore(db).open("shared", "none")
    assert loaded.resumed


def test_interrupted_turn_is_detected_and_recorded(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    store, agent, _ = stored_agent(db, "cut", InProcessModel([done("fine")]), "none")
    agent.run_turn("first")
    # A turn that got as far as its user message and a tool step, then died.
    agent.session.append(UserMessage(text="second"))
    store.save(agent.session, agent.model.ledger, "none", turn_complete=False)
    store.close()
    _, agent2, loaded = stored_agent(db, "cut", InProcessModel([]), "none")
    assert loaded.interrupted
    assert [m.kind for m in agent2.session.working] == ["user", "assistant"]
    assert isinstance(agent2.session.transcript.entries[-1], ErrorRecord)


def _chat_process(db: Path, base_url: str, name: str) -> subprocess.Popen:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("MATH_AGENT")},
        "MATH_AGENT_ENV_FILE": os.devnull,
        "MATH_AGENT_DB": str(db),
        "BAML_LOG": "error",
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
def test_kill_9_at_many_points_loses_at_most_the_step_in_flight(tmp_path: Path) -> None:
    rng = random.Random(7)
    survived = 0
    with serve(ScriptedResponder(reference_llm.reference_model())) as server:
        # The points cover every request of the script: played through, it makes exactly these.
        whole = _chat_process(tmp_path / "whole.sqlite3", server.base_url, "whole")
        _, err = whole.communicate("\n".join(QUESTIONS) + "\n", timeout=120)
        assert whole.returncode == 0, err
        assert len(server.requests) == SCRIPT_REQUESTS == KILL_AFTER_REQUESTS[-1]
        for point in KILL_AFTER_REQUESTS:
            db = tmp_path / f"kill-{point}.sqlite3"
            process = _chat_process(db, server.base_url, "k")
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

            store = SessionStore(db)
            assert store.integrity_check() == "ok"
            loaded = store.open("k", "summarize")  # the dead owner's lock is taken over
            entries = loaded.session.transcript.entries
            answers = [e.text for e in entries if isinstance(e, AssistantMessage)]
            users = [e.text for e in entries if isinstance(e, UserMessage)]
            # Every answer that reached the screen was saved first; nothing twice.
            assert printed == answers[: len(printed)], (point, printed, answers)
            assert users == QUESTIONS[: len(users)]
            assert len(answers) <= len(users)
            survived += len(answers)
            store.close()

            # The session resumes and works.
            again = _chat_process(db, server.base_url, "k")
            out, err = again.communicate("solve x^2 - 16 = 0\n", timeout=60)
            assert again.returncode == 0, err
            assert out.strip().splitlines()[-1] == "Done: x = -4, x = 4"
    assert survived > 0
    print(f"kill points tested: {len(KILL_AFTER_REQUESTS)}; completed turns kept: {survived}")


def test_strategy_state_survives_a_restart(tmp_path: Path) -> None:
    from agent.context.user_facts import UserFactStore

    db = tmp_path / "s.sqlite3"
    store, agent, _ = stored_agent(db, "facts", InProcessModel([done("ok")]), "structural+facts")
    agent.strategy.store = UserFactStore.from_state(
        {"facts": [{"kind": "NAME", "text": "Is called Dana"}]}
    )
    agent.run_turn("hello")
    store.close()
    store2 = SessionStore(db)
    loaded = store2.open("facts", "none")
    assert loaded.strategy == "structural+facts"
    strategy = make_strategy(loaded.strategy)
    strategy.from_state(loaded.strategy_state)
    assert "Is called Dana" in strategy.describe_facts()
    store2.close()


def test_a_database_from_an_earlier_version_is_migrated(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as raw:  # the first release's sessions table
        raw.execute(
            "CREATE TABLE sessions (name TEXT PRIMARY KEY, created_at TEXT NOT NULL,"
            " updated_at TEXT NOT NULL, strategy TEXT NOT NULL, working TEXT NOT NULL"
            " DEFAULT '[]', undo TEXT NOT NULL DEFAULT '[]', turns INTEGER NOT NULL DEFAULT 0,"
            " owner_pid INTEGER, owner_host TEXT)"
        )
        raw.execute(
            "INSERT INTO sessions (name, created_at, updated_at, strategy)"
            " VALUES ('old', 'x', 'x', 'summarize')"
        )
    store = SessionStore(db)
    loaded = store.open("old", "none")
    assert loaded.resumed and loaded.strategy == "summarize" and loaded.strategy_state == {}
    store.close()


def test_an_unusable_database_is_one_sentence(tmp_path: Path) -> None:
    from agent.app.runtime import RuntimeOptions, build_runtime
    from agent.errors import AgentError

    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(AgentError, match="Could not use the session database"):
        build_runtime(RuntimeOptions(base_url="http://127.0.0.1:9/v1", db=bad))


def test_a_second_repl_on_the_same_session_is_refused_and_the_first_goes_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "two.sqlite3"
    with serve(ScriptedResponder(reference_llm.reference_model())) as server:
        first = _chat_process(db, server.base_url, "shared")
        first.stdin.write("solve x^2 - 1 = 0\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "Done: x = -1, x = 1"
        second = _chat_process(db, server.base_url, "shared")
        out, err = second.communicate("solve x^2 - 4 = 0\n", timeout=60)
        assert second.returncode == 2
        assert f"open in another math-agent process (pid {first.pid})" in err
        assert out == ""
        out, err = first.communicate("solve x^2 - 9 = 0\n", timeout=60)
        assert first.returncode == 0, err
        assert out.strip() == "Done: x = -3, x = 3"
    store = SessionStore(db)
    assert store.integrity_check() == "ok"
    loaded = store.open("shared", "none")
    users = [e.text for e in loaded.session.transcript.entries if isinstance(e, UserMessage)]
    assert users == ["solve x^2 - 1 = 0", "solve x^2 - 9 = 0"]
    store.close()
