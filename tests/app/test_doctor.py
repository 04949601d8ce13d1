"""`math-agent doctor` against a scripted endpoint, an unreachable one, and none at all."""

from __future__ import annotations

import socket

import pytest

from agent.app import doctor
from agent.llm.local import launch
from agent.llm.local.settings import LOCAL_MODEL
from agent.llm.replay import ScriptedResponder, serve
from agent.testing.replies import answer
from agent.testing.scripted import ScriptedModel


@pytest.fixture(autouse=True)
def no_local(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(launch, "unavailable_reason", lambda spec=LOCAL_MODEL: "off in tests")


def test_doctor_reports_a_healthy_endpoint(capsys: pytest.CaptureFixture[str]) -> None:
    queue = ScriptedModel([answer("5")])
    with serve(ScriptedResponder(queue)) as server:
        status = doctor.main(["--base-url", server.base_url, "--model", "m"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "custom · m" in out and "--base-url" in out
    assert "yes: MathChat('what is 2 + 3?') -> message_to_user" in out
    assert "latency" in out and "context" in out and "strategy" in out
    assert len(queue.chat_prompts) == 1  # exactly one tiny call


def test_doctor_says_when_the_endpoint_does_not_answer(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert doctor.main(["--base-url", f"http://127.0.0.1:{port}/v1"]) == 1
    assert "answers    no: Could not reach" in capsys.readouterr().out


def test_doctor_without_a_provider(capsys: pytest.CaptureFixture[str]) -> None:
    assert doctor.main([]) == 2
    captured = capsys.readouterr()
    assert "provider   none" in captured.out and "make chat" in captured.err
