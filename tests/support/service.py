"""Helpers for the service's tests: the scripted model in its own process, `math-agent serve`
processes, the app in this process, and reading a turn's Server-Sent Events."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from agent.testing.processes import child_env as clean_env
from agent.testing.processes import free_port

ROOT = Path(__file__).resolve().parents[2]
TOKENS = {"alice": "alice-token-0123456789abcdef", "bob": "bob-token-0123456789abcdef00"}


def auth(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {TOKENS[user]}"}


def tokens_setting() -> str:
    return ",".join(f"{name}:{token}" for name, token in TOKENS.items())


class ModelProcess:
    """`python -m agent.testing.serve` (a scripted model over HTTP)."""

    def __init__(self, script: str = "seed", delay_ms: float = 0, stream_delay_ms: float = 0):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agent.testing.serve", "--script", script,
             "--delay-ms", str(delay_ms), "--stream-delay-ms", str(stream_delay_ms)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT,
            env=clean_env(),
        )  # fmt: skip
        self.base_url = self.process.stdout.readline().strip()
        assert self.base_url.startswith("http://127.0.0.1:"), "the scripted model did not start"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class ServeProcess:
    """A real `math-agent serve` on 127.0.0.1; its stderr (start-up line, JSON logs) kept."""

    def __init__(self, model_url: str, log: Path, *args: str, **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._log_file = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "agent.app.cli", "serve", "--port", str(self.port),
             "--base-url", model_url, "--tool-workers", "2", *args],
            stdout=subprocess.DEVNULL, stderr=self._log_file, cwd=ROOT, env=clean_env(**env),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("math-agent serve did not start: " + log.read_text())

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self._log_file.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(30)
        self._log_file.close()


@contextmanager
def model_process(script: str = "seed", **kwargs: Any) -> Iterator[ModelProcess]:
    model = ModelProcess(script, **kwargs)
    try:
        yield model
    finally:
        model.stop()


def events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The events of an SSE body, in order (keep-alive comments dropped)."""
    found = []
    for frame in text.split("\n\n"):
        name, data = None, ""
        for line in frame.splitlines():
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data += line[6:]
        if name is not None:
            found.append((name, json.loads(data)))
    return found


def named(found: list[tuple[str, dict[str, Any]]], name: str) -> list[dict[str, Any]]:
    return [data for event, data in found if event == name]
