"""The app in this test process (real runtime, store and agent loop) against the scripted
model in its own process (baml-py's sync streaming stalls against an in-process server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from agent.runtime.options import RuntimeOptions
from agent.runtime.process import ProcessRuntime
from agent.service.app import create_app
from agent.service.auth import Users, parse_tokens
from agent.service.hub import SessionHub
from tests.support.service import TOKENS, ModelProcess


@pytest.fixture(scope="session")
def seed_model() -> Iterator[ModelProcess]:
    model = ModelProcess("seed")
    yield model
    model.stop()


class Service:
    def __init__(self, client: TestClient, hub: SessionHub, runtime: ProcessRuntime) -> None:
        self.client = client
        self.hub = hub
        self.runtime = runtime


def make_service(
    model_url: str,
    db: Path,
    tokens: bool = True,
    rate: str = "1000/minute",
    cors: tuple[str, ...] = (),
    database_url: str | None = None,
    max_body_bytes: int = 64 * 1024,
) -> tuple[Service, ProcessRuntime, SessionHub]:
    runtime = ProcessRuntime.start(RuntimeOptions(base_url=model_url, db=db, tool_workers=2))
    if database_url is not None:
        from agent.storage.opening import open_store

        runtime.store.close()
        runtime.store = open_store(url=database_url)
    hub = SessionHub(runtime, max_turns=4, save_retry_seconds=2)
    users = Users(parse_tokens([f"{n}:{t}" for n, t in TOKENS.items()]) if tokens else {})
    app = create_app(hub, users, rate, max_body_bytes, cors)
    return Service(TestClient(app), hub, runtime), runtime, hub


@pytest.fixture
def service(seed_model: ModelProcess, tmp_path: Path) -> Iterator[Service]:
    made, runtime, hub = make_service(seed_model.base_url, tmp_path / "s.sqlite3")
    with made.client:
        yield made
    hub.close()
    runtime.close()


@pytest.fixture
def local_service(seed_model: ModelProcess, tmp_path: Path) -> Iterator[Service]:
    """No tokens: the machine's own user, who owns the REPL's sessions."""
    made, runtime, hub = make_service(seed_model.base_url, tmp_path / "s.sqlite3", tokens=False)
    with made.client:
        yield made
    hub.close()
    runtime.close()
