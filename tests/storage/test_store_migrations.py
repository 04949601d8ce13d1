"""Versioned migrations: a database of the first release and one made by main at 5b5876e
open unchanged with today's code; one that cannot be used is one sentence."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from agent.errors import AgentError
from agent.storage.opening import open_store
from agent.storage.records import StoreUnavailable
from agent.storage.schema import LATEST

FIXTURES = Path(__file__).parent / "fixtures"


def _shown(entry) -> str:
    return (
        entry.kind + ": " + (getattr(entry, "text", None) or getattr(entry, "call_text", "") or "")
    )


def test_a_database_made_by_main_at_5b5876e_opens_unchanged(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(FIXTURES / "sessions-5b5876e.sqlite3", db)
    expected = json.loads((FIXTURES / "sessions-5b5876e.json").read_text())
    store = open_store(db)
    assert store.schema_version() == LATEST
    opened = store.open(expected["name"], "none")
    loaded = opened.loaded
    assert [_shown(e) for e in loaded.session.transcript.entries] == expected["entries"]
    assert len(loaded.session.working) == expected["working"]
    assert len(loaded.ledger.calls) == expected["llm_calls"]
    assert loaded.ledger.turn == expected["turns"] and loaded.strategy == expected["strategy"]
    assert loaded.resumed and not loaded.interrupted and loaded.owner is None
    opened.close()
    (info,) = store.sessions()
    assert (info.name, info.turns, info.title) == ("old-session", 2, None)
    assert store.integrity_check() == "ok"  # type: ignore[attr-defined]
    store.close()
    # Opening again applies nothing twice.
    again = open_store(db)
    assert again.schema_version() == LATEST
    again.close()


def test_a_database_from_the_first_release_is_migrated(tmp_path: Path) -> None:
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
    store = open_store(db)
    loaded = store.load("old")
    assert loaded.strategy == "summarize" and loaded.strategy_state == {}
    assert store.schema_version() == LATEST
    store.close()


def test_postgresql_migrates_once_whoever_starts_first(postgres_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _i: open_store(url=postgres_url), range(4)))
    assert {s.schema_version() for s in stores} == {LATEST}
    with stores[0].transaction() as tx:
        versions = [r[0] for r in tx.execute("SELECT version FROM schema_migrations").fetchall()]
    assert sorted(versions) == list(range(1, LATEST + 1))
    for store in stores:
        store.close()


def test_an_unusable_sqlite_file_is_one_sentence(tmp_path: Path) -> None:
    from agent.runtime.single import RuntimeOptions, build_runtime

    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(AgentError, match="Could not use the session database") as caught:
        build_runtime(RuntimeOptions(base_url="http://127.0.0.1:9/v1", db=bad))
    assert caught.value.message.count(". ") == 0  # one sentence


def test_an_unreachable_postgresql_is_one_sentence() -> None:
    with pytest.raises(StoreUnavailable) as caught:
        open_store(url="postgresql://nobody:hunter2-secret@127.0.0.1:9/none")
    message = str(caught.value)
    assert message.startswith("The session database postgresql://nobody:***@127.0.0.1:9/none")
    assert "unreachable" in message and "hunter2" not in message
    assert message.endswith("fix MATH_AGENT_DATABASE_URL.")


def test_a_missing_driver_and_a_wrong_url_are_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(StoreUnavailable, match="must be a postgresql:// URL"):
        open_store(url="mysql://x@127.0.0.1/db")
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a)
    )
    with pytest.raises(StoreUnavailable, match=r"pip install -e '\.\[postgres\]'"):
        open_store(url="postgresql://x@127.0.0.1:9/db")
