"""The default session store: one SQLite file, for one machine.

WAL mode keeps readers (`/sessions` in another terminal) from blocking the writer; calls from
the threads of one process take turns on one connection. A session's lock is its owner's pid
and host in the row (so a second REPL is refused by name and pid, and a lock left by a
process that died is taken over), plus a set of the sessions this process holds, since two
requests of one `serve` process share its pid.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from agent.processes import pid_alive
from agent.storage.records import SessionBusy, SessionInUse, StoreUnavailable
from agent.storage.schema import LEGACY_COLUMNS
from agent.storage.sql_store import SessionLock, SessionStore, Tx

# (database file, session) pairs locked by this process.
_HELD: set[tuple[str, str]] = set()
_HELD_GUARD = threading.Lock()


class SqliteSessionStore(SessionStore):
    dialect = "sqlite"
    kind = "SQLite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._mutex = threading.RLock()
        self._db = sqlite3.connect(path, timeout=10, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self.transaction() as tx:
                self._migrate(tx)
        except BaseException:
            self._db.close()
            raise
        self._host = socket.gethostname()

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        with self._mutex:
            try:
                self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreUnavailable(self._unusable(exc)) from None
            try:
                yield self._db
            except sqlite3.Error as exc:
                self._db.execute("ROLLBACK")
                raise StoreUnavailable(self._unusable(exc)) from None
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _unusable(self, exc: sqlite3.Error) -> str:
        return f"Could not use the session database {self.path} ({str(exc).rstrip('.')})."

    def _before_first_migration(self, tx: Tx) -> None:
        """A file from before numbered migrations: add the columns its release added later."""
        columns = {row[1] for row in tx.execute("PRAGMA table_info(sessions)").fetchall()}
        if not columns:
            return
        for name, declaration in LEGACY_COLUMNS:
            if name not in columns:
                tx.execute(f"ALTER TABLE sessions ADD COLUMN {name} {declaration}")

    def lock(self, name: str) -> SessionLock:
        key = (str(self.path.resolve()), name)
        with _HELD_GUARD:
            if key in _HELD:
                raise SessionBusy(f"Session '{name}' is answering another message here.")
            _HELD.add(key)
        try:
            with self.transaction() as tx:
                row = tx.execute(
                    "SELECT owner_pid, owner_host FROM sessions WHERE name = ?", (name,)
                ).fetchone()
                if row is not None and self._alive_elsewhere(row[0], row[1]):
                    raise SessionInUse(
                        f"Session '{name}' is open in another math-agent process (pid {row[0]}); "
                        "close it there, or pick another name with --session."
                    )
                tx.execute(
                    "UPDATE sessions SET owner_pid = ?, owner_host = ? WHERE name = ?",
                    (os.getpid(), self._host, name),
                )
        except BaseException:
            with _HELD_GUARD:
                _HELD.discard(key)
            raise
        return SessionLock(name, lambda: self._release(key))

    def _release(self, key: tuple[str, str]) -> None:
        try:
            with self.transaction() as tx:
                tx.execute(
                    "UPDATE sessions SET owner_pid = NULL, owner_host = NULL"
                    " WHERE name = ? AND owner_pid = ?",
                    (key[1], os.getpid()),
                )
        except StoreUnavailable:
            pass  # the row keeps our pid: this process may go on using it, others wait
        finally:
            with _HELD_GUARD:
                _HELD.discard(key)

    def create(self, name: str, strategy: str, *args: Any, **kwargs: Any) -> bool:
        created = super().create(name, strategy, *args, **kwargs)
        key = (str(self.path.resolve()), name)
        with _HELD_GUARD:
            held = key in _HELD
        if created and held:  # created under our lock (a REPL's new session): mark it ours
            with self.transaction() as tx:
                tx.execute(
                    "UPDATE sessions SET owner_pid = ?, owner_host = ? WHERE name = ?",
                    (os.getpid(), self._host, name),
                )
        return created

    def _alive_elsewhere(self, pid: int | None, host: str | None) -> bool:
        return bool(pid) and pid != os.getpid() and host == self._host and pid_alive(int(pid))

    def _held_elsewhere(self, rows: list[tuple[Any, ...]]) -> set[str]:
        return {name for name, pid, host in rows if self._alive_elsewhere(pid, host)}

    def integrity_check(self) -> str:
        with self._mutex:
            return str(self._db.execute("PRAGMA integrity_check").fetchone()[0])

    def close(self) -> None:
        with self._mutex:
            self._db.close()
