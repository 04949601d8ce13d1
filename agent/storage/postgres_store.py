"""Sessions in PostgreSQL, shared by several `serve` workers (MATH_AGENT_DATABASE_URL).

psycopg 3 with its connection pool (`psycopg[binary]`, `psycopg_pool`: the `postgres` extra).
A session's lock is a PostgreSQL advisory lock held on a connection of its own for as long as
the turn (or the REPL) runs: the database keeps it, every worker sees it, and it goes away by
itself when its holder dies, since a SIGKILLed process's connection closes with it. Pooled
connections are checked before use, so a restarted database costs the requests made while it
was down (StoreUnavailable: 503), not the worker.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from agent.storage.records import SessionInUse, StoreUnavailable
from agent.storage.sql_store import SessionLock, SessionStore, Tx

CONNECT_TIMEOUT_S = 5
# Locks of the session database share PostgreSQL's advisory lock space with other
# applications of the same database; the namespace makes a collision a 1-in-2^64 event.
_LOCK_NAMESPACE = b"math-agent session\0"
_MIGRATION_LOCK = 0x6D61746861676E74  # "mathagnt"


def advisory_key(name: str) -> int:
    """A session's advisory lock key: 64 bits of a hash of its name, signed as bigint is."""
    digest = hashlib.sha256(_LOCK_NAMESPACE + name.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def shown_url(url: str) -> str:
    """The URL without its password (the start-up line and errors show it)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{parts.netloc.rpartition('@')[2]}"))


class _PgTx:
    """A psycopg cursor behind the `?` placeholders the shared queries are written with."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._connection.execute(sql.replace("?", "%s"), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        cursor = self._connection.cursor()
        if rows:
            cursor.executemany(sql.replace("?", "%s"), rows)
        return cursor


class PostgresSessionStore(SessionStore):
    dialect = "postgresql"
    kind = "PostgreSQL"

    def __init__(self, url: str, pool_size: int = 8, lock_pool_size: int = 40) -> None:
        import psycopg
        from psycopg_pool import ConnectionPool, PoolTimeout

        self._errors: tuple[type[BaseException], ...] = (psycopg.OperationalError, PoolTimeout)
        self.url = url
        self.location = shown_url(url)
        options = {"autocommit": True, "connect_timeout": CONNECT_TIMEOUT_S}

        def pool(name: str, min_size: int, max_size: int) -> ConnectionPool:
            return ConnectionPool(
                url,
                min_size=min_size,
                max_size=max_size,
                kwargs=options,
                open=False,
                check=ConnectionPool.check_connection,
                timeout=CONNECT_TIMEOUT_S,
                name=name,
            )

        self._pool = pool("math-agent", 1, pool_size)
        # Each held session lock keeps one of these until the turn ends.
        self._locks = pool("math-agent-locks", 0, lock_pool_size)
        self._held: set[int] = set()
        try:  # one direct connection first: its failure says why (refused, no such database)
            with psycopg.connect(url, **options) as first, first.transaction():
                tx = _PgTx(first)
                tx.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
                self._migrate(tx)
        except psycopg.Error as exc:
            raise self._unreachable(exc) from None
        self._pool.open()
        self._locks.open()

    def _unreachable(self, exc: BaseException) -> StoreUnavailable:
        detail = " ".join(str(exc).split())[:160].rstrip(".") or type(exc).__name__
        return StoreUnavailable(
            f"The session database {self.location} is unreachable ({detail}); "
            "start it or fix MATH_AGENT_DATABASE_URL."
        )

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        try:
            with self._pool.connection() as connection, connection.transaction():
                yield _PgTx(connection)
        except self._errors as exc:
            raise self._unreachable(exc) from None

    def lock(self, name: str) -> SessionLock:
        key = advisory_key(name)
        try:
            connection = self._locks.getconn()
        except self._errors as exc:
            raise self._unreachable(exc) from None
        try:
            taken = connection.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()[0]
        except self._errors as exc:
            self._locks.putconn(connection)
            raise self._unreachable(exc) from None
        if not taken:
            self._locks.putconn(connection)
            raise SessionInUse(
                f"Session '{name}' is open in another math-agent process; close it there, "
                "or pick another name with --session."
            )
        self._held.add(key)

        def release() -> None:
            self._held.discard(key)
            try:
                connection.execute("SELECT pg_advisory_unlock(%s)", (key,))
            except self._errors:
                connection.close()  # a closed connection holds no lock
            self._locks.putconn(connection)

        return SessionLock(name, release)

    def _held_elsewhere(self, rows: list[tuple[Any, ...]]) -> set[str]:
        with self.transaction() as tx:
            held = {
                int(row[0])
                for row in tx.execute(
                    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks"
                    " WHERE locktype = 'advisory' AND objsubid = 1 AND granted"
                ).fetchall()
            }
        # The shift wraps the high half into bigint's sign, as advisory_key signs it.
        return {
            row[0]
            for row in rows
            if (key := advisory_key(row[0])) not in self._held and key in held
        }

    def close(self) -> None:
        self._locks.close()
        self._pool.close()
