"""Which session store a process uses: PostgreSQL when MATH_AGENT_DATABASE_URL says so,
else the SQLite file (MATH_AGENT_DB, `--db`, or the XDG default). Every failure to open one is
one sentence: a missing driver, an unreachable server, an unusable file."""

from __future__ import annotations

import importlib.util
import os
import sqlite3
from pathlib import Path

from agent.storage.records import StoreUnavailable, default_db_path
from agent.storage.sql_store import SessionStore

DATABASE_URL_ENV = "MATH_AGENT_DATABASE_URL"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def database_url() -> str | None:
    return os.environ.get(DATABASE_URL_ENV, "").strip() or None


def open_store(db: Path | None = None, url: str | None = None) -> SessionStore:
    """The store for `url` (default: MATH_AGENT_DATABASE_URL), else the SQLite file `db`."""
    url = url or database_url()
    if url is not None:
        return _postgres(url)
    path = db or default_db_path()
    from agent.storage.sqlite_store import SqliteSessionStore

    try:
        return SqliteSessionStore(path)
    except sqlite3.Error as exc:
        raise StoreUnavailable(
            f"Could not use the session database {path} ({str(exc).rstrip('.')}); "
            "point --db or MATH_AGENT_DB elsewhere, or run with --no-save."
        ) from None


def _postgres(url: str) -> SessionStore:
    if not url.startswith(POSTGRES_SCHEMES):
        raise StoreUnavailable(
            f"{DATABASE_URL_ENV} must be a postgresql:// URL; unset it to use the SQLite file."
        )
    if (
        importlib.util.find_spec("psycopg") is None
        or importlib.util.find_spec("psycopg_pool") is None
    ):
        raise StoreUnavailable(
            f"{DATABASE_URL_ENV} names PostgreSQL but its driver is not installed: "
            "pip install -e '.[postgres]'."
        )
    from agent.storage.postgres_store import PostgresSessionStore

    return PostgresSessionStore(url)
