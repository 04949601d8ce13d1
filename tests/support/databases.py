"""The test PostgreSQL server, started once per test run with `agent.testing.postgres`.

MATH_AGENT_TEST_DATABASE_URL names a server to use instead (one `.ci/run` started). Without
PostgreSQL's binaries the tests that need it skip with the reason, except on CI (CI=true),
where they fail: CI installs the server, so a skip there would hide a broken setup.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent.storage.opening import open_store
from agent.storage.sql_store import SessionStore
from agent.testing.postgres import PostgresServer, unavailable_reason

TEST_URL_ENV = "MATH_AGENT_TEST_DATABASE_URL"


def need_postgres() -> None:
    reason = unavailable_reason()
    if reason is None or os.environ.get(TEST_URL_ENV):
        return
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
    pytest.skip(reason)


class SharedServer:
    """A server (ours or CI's) that hands each test a fresh database."""

    def __init__(self, server: PostgresServer | None, url: str | None) -> None:
        self.server = server
        self.url = url

    def new_database(self) -> str:
        if self.server is not None:
            return self.server.create_database()
        import uuid

        import psycopg

        assert self.url is not None
        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[SharedServer]:
    need_postgres()
    if url := os.environ.get(TEST_URL_ENV):
        yield SharedServer(None, url)
        return
    server = PostgresServer(Path(tempfile.mkdtemp(prefix="math-agent-test-pg-"))).start()
    try:
        yield SharedServer(server, None)
    finally:
        server.remove()


@pytest.fixture
def postgres_url(postgres_server: SharedServer) -> str:
    """A new, empty database of the test server."""
    return postgres_server.new_database()


BACKENDS = ["sqlite", "postgresql"]


class Backend:
    """Where a test's sessions live: a SQLite file or a fresh PostgreSQL database."""

    def __init__(self, kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
        self.kind = kind
        self.url = request.getfixturevalue("postgres_url") if kind == "postgresql" else None
        self.db = tmp_path / "s.sqlite3"
        self._opened: list[SessionStore] = []

    def store(self, db: Path | None = None) -> SessionStore:
        store = open_store(db or self.db, self.url)
        self._opened.append(store)
        return store

    def env(self, db: Path | None = None) -> dict[str, str]:
        """What a REPL process needs to use these sessions."""
        if self.url is not None:
            return {"MATH_AGENT_DATABASE_URL": self.url}
        return {"MATH_AGENT_DB": str(db or self.db)}

    def close(self) -> None:
        for store in self._opened:
            store.close()

    def integrity(self, store: SessionStore) -> str:
        return store.integrity_check() if self.kind == "sqlite" else "ok"  # type: ignore[attr-defined]
