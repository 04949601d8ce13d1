"""Versioned migrations of the session database, one list for SQLite and PostgreSQL.

Each migration is applied once, in order, inside one transaction that also records it in
`schema_migrations`; a database made before this table existed (main up to 5b5876e) has
migration 1's tables already and gets the later ones. Hand-written rather than Alembic: the
schema is four tables, and SQLAlchemy would become a dependency of the REPL's default path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Dialect = Literal["sqlite", "postgresql"]


@dataclass(frozen=True)
class Migration:
    version: int
    why: str
    sqlite: tuple[str, ...]
    postgresql: tuple[str, ...]

    def statements(self, dialect: Dialect) -> tuple[str, ...]:
        return self.sqlite if dialect == "sqlite" else self.postgresql


_V1_COMMON = (
    """CREATE TABLE IF NOT EXISTS sessions (
        name TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        strategy TEXT NOT NULL,
        working TEXT NOT NULL DEFAULT '[]',
        undo TEXT NOT NULL DEFAULT '[]',
        turns INTEGER NOT NULL DEFAULT 0,
        strategy_state TEXT NOT NULL DEFAULT '{}',
        owner_pid INTEGER,
        owner_host TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS entries (
        session TEXT NOT NULL REFERENCES sessions(name),
        seq INTEGER NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (session, seq)
    )""",
)
_USAGE = """CREATE TABLE IF NOT EXISTS usage (
    session TEXT NOT NULL REFERENCES sessions(name),
    seq INTEGER NOT NULL,
    function TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    duration_ms {real} NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (session, seq)
)"""
_V2_COLUMNS = (
    "ALTER TABLE sessions ADD COLUMN owner TEXT",
    "ALTER TABLE sessions ADD COLUMN title TEXT",
    "ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX IF NOT EXISTS sessions_by_owner ON sessions (owner, updated_at)",
    """CREATE TABLE IF NOT EXISTS turn_keys (
        session TEXT NOT NULL REFERENCES sessions(name),
        key TEXT NOT NULL,
        turn INTEGER NOT NULL,
        first_seq INTEGER NOT NULL,
        end_seq INTEGER NOT NULL,
        PRIMARY KEY (session, key)
    )""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "sessions, their transcript entries and token usage (the first release's schema)",
        (*_V1_COMMON, _USAGE.format(real="REAL")),
        (*_V1_COMMON, _USAGE.format(real="DOUBLE PRECISION")),
    ),
    Migration(
        2,
        "a session's owner (the token's user), title and version for versioned writes; the "
        "idempotency keys of finished turns",
        _V2_COLUMNS,
        _V2_COLUMNS,
    ),
)
LATEST = MIGRATIONS[-1].version
# Columns the first release added to `sessions` before migrations were numbered (SQLite only).
LEGACY_COLUMNS = (("strategy_state", "TEXT NOT NULL DEFAULT '{}'"),)
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
    "applied_at TEXT NOT NULL)"
)
