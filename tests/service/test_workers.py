"""Two real `serve` workers on one PostgreSQL: one session's turns never interleave (a
second message while one runs is 409 on either worker), and a worker SIGKILLed mid-turn
leaves the session resumable on the other with nothing lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.support.service import ServeProcess, auth, events, model_process, named, tokens_setting

ALICE = auth("alice")


@pytest.fixture
def workers(postgres_url: str, tmp_path: Path):
    # The model takes 0.4 s a reply, so a turn is long enough to be caught mid-way.
    with model_process("seed", delay_ms=400) as model:
        env = {"MATH_AGENT_DATABASE_URL": postgres_url, "MATH_AGENT_TOKENS": tokens_setting()}
        started = [ServeProcess(model.base_url, tmp_path / f"w{i}.log", **env) for i in (1, 2)]
        try:
            yield started
        finally:
            for worker in started:
                worker.stop()


def post_message(url: str, session: str, text: str, **headers: str) -> httpx.Response:
    return httpx.post(
        f"{url}/api/sessions/{session}/messages",
        json={"text": text},
        headers={**ALICE, **headers},
        timeout=60,
    )


def test_one_sessions_turns_never_interleave_across_workers(workers):
    one, two = workers
    session = httpx.post(
        f"{one.url}/api/sessions", json={"strategy": "none"}, headers=ALICE
    ).json()["id"]
    first: dict[str, httpx.Response] = {}
    running = threading.Thread(
        target=lambda: first.setdefault("r", post_message(one.url, session, "solve x^2 - 4 = 0"))
    )
    running.start()
    time.sleep(0.2)  # the turn has its lock and waits for the model
    refused = [post_message(w.url, session, "solve x^2 - 9 = 0") for w in (two, one)]
    running.join(30)
    assert [r.status_code for r in refused] == [409, 409]
    assert refused[0].json()["error"]["code"] == "session_busy"
    assert named(events(first["r"].text), "answer")[0]["text"] == "The roots are x = -2 and x = 2."
    # Now the other worker takes the next turn, over what the first one saved.
    after = events(post_message(two.url, session, "solve x^2 - 9 = 0").text)
    assert named(after, "answer")[0]["text"] == "The roots are x = -3 and x = 3."
    entries = httpx.get(f"{one.url}/api/sessions/{session}/transcript", headers=ALICE).json()[
        "entries"
    ]
    assert [e["kind"] for e in entries] == ["user", "tool_call", "tool_result", "assistant"] * 2


def test_a_worker_killed_mid_turn_leaves_the_session_whole_on_the_other(workers):
    one, two = workers
    session = httpx.post(
        f"{one.url}/api/sessions", json={"strategy": "none"}, headers=ALICE
    ).json()["id"]
    assert named(events(post_message(two.url, session, "solve x^2 - 1 = 0").text), "done")[0]["ok"]
    with httpx.stream(
        "POST", f"{one.url}/api/sessions/{session}/messages", json={"text": "solve x^2 - 16 = 0"},
        headers={**ALICE, "Idempotency-Key": "turn-2"}, timeout=60,
    ) as response:  # fmt: skip
        lines = response.iter_lines()
        assert next(lines) == "event: tool_call"  # the tool step is saved; the answer is not yet
        one.kill()
    # The lock died with the worker's connection; the other worker answers the retry.
    deadline = time.monotonic() + 20
    while True:
        retry = post_message(
            two.url, session, "solve x^2 - 16 = 0", **{"Idempotency-Key": "turn-2"}
        )
        if retry.status_code != 409 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert retry.status_code == 200, retry.text
    assert named(events(retry.text), "answer")[0]["text"] == "The roots are x = -4 and x = 4."
    entries = httpx.get(f"{two.url}/api/sessions/{session}/transcript", headers=ALICE).json()[
        "entries"
    ]
    kinds = [e["kind"] for e in entries]
    # First turn whole; the killed attempt's saved steps and a note that it was cut; the retry.
    assert kinds[:4] == ["user", "tool_call", "tool_result", "assistant"]
    assert kinds[4:7] == ["user", "tool_call", "tool_result"]
    assert kinds[7] == "error" and "interrupted" in entries[7]["text"]
    assert kinds[8:] == ["user", "tool_call", "tool_result", "assistant"]
    answers = [e["text"] for e in entries if e["kind"] == "assistant"]
    assert answers == ["The roots are x = -1 and x = 1.", "The roots are x = -4 and x = 4."]
    # A second retry is answered from the transcript, not run again.
    again = events(
        post_message(two.url, session, "solve x^2 - 16 = 0", **{"Idempotency-Key": "turn-2"}).text
    )
    assert named(again, "done")[0]["replayed"] is True
    assert "Traceback" not in (two.log.read_text() + one.log.read_text())
