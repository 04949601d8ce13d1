"""Sessions saved in a SQL database, so a conversation survives a crash, a kill -9 or a reboot.

One transaction per completed step: after every tool step the new transcript entries and
usage records are committed; at the end of every turn the working context, undo stack and
strategy are committed too. A kill at any moment therefore loses at most the step in flight,
and because entries are keyed by (session, seq) nothing can be written twice.

`SessionStore` holds the queries, written once for both databases (`?` placeholders); the
backends (`sqlite_store`, `postgres_store`) supply a transaction and a lock per session. Every
write is versioned: a `SessionWriter` saves only over the version it loaded, so a worker that
lost its lock (a database restart dropped it) cannot overwrite what another worker wrote.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from agent.accounting.ledger import CallUsage, UsageLedger
from agent.core.session import Session
from agent.core.transcript import ENTRY_ADAPTER, ErrorRecord, Transcript
from agent.messages import MESSAGES_ADAPTER
from agent.storage.records import (
    LoadedSession,
    NoSuchSession,
    SessionInfo,
    StaleSession,
    StoreError,
    interrupted,
    now,
)
from agent.storage.schema import LATEST, MIGRATIONS, MIGRATIONS_TABLE, Dialect

INTERRUPTED = (
    "The last turn was interrupted before it finished; its steps are in the transcript, the "
    "working context is as of the turn before."
)


class AnyOwner:
    """`sessions(owner=ANY_OWNER)`: every session, whoever owns it (the REPL's listing)."""


ANY_OWNER = AnyOwner()


class Tx(Protocol):
    """One open transaction: `execute` returns a cursor (fetchone, fetchall, rowcount)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any: ...


class SessionLock(AbstractContextManager["SessionLock"]):
    """A session's lock, held until `release` (or the end of a `with` block)."""

    def __init__(self, name: str, release: Any) -> None:
        self.name = name
        self._release = release

    def release(self) -> None:
        if self._release is not None:
            release, self._release = self._release, None
            release()

    def __exit__(self, *_exc: object) -> None:
        self.release()


@dataclass
class OpenedSession:
    """A session opened by a REPL: loaded, with its writer, and locked until closed."""

    loaded: LoadedSession
    writer: SessionWriter
    lock: SessionLock

    def close(self) -> None:
        self.lock.release()


class SessionStore(ABC):
    """Every session of one database; many sessions may be open at once."""

    dialect: Dialect
    kind: str  # "SQLite" or "PostgreSQL", for the start-up line
    location: str  # a path, or a URL with no password in it

    # -- what a backend provides ----------------------------------------------------------

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Tx]:
        """A transaction; raises StoreUnavailable when the database cannot be used."""

    @abstractmethod
    def lock(self, name: str) -> SessionLock:
        """Take `name`'s lock now or raise SessionBusy (SessionInUse when another REPL or
        worker process holds it)."""

    @abstractmethod
    def _held_elsewhere(self, rows: list[tuple[Any, ...]]) -> set[str]:
        """Of the listed sessions (name, owner_pid, owner_host), those locked by another."""

    @abstractmethod
    def close(self) -> None: ...

    def describe(self) -> str:
        return f"{self.kind} {self.location}"

    # -- schema -----------------------------------------------------------------------------

    def _migrate(self, tx: Tx) -> None:
        """Apply the migrations this database lacks (caller holds an exclusive transaction)."""
        tx.execute(MIGRATIONS_TABLE)
        applied = {row[0] for row in tx.execute("SELECT version FROM schema_migrations").fetchall()}
        if not applied:
            self._before_first_migration(tx)
        for migration in MIGRATIONS:
            if migration.version in applied:
                continue
            for statement in migration.statements(self.dialect):
                tx.execute(statement)
            tx.execute(
                "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
                (migration.version, now()),
            )

    def _before_first_migration(self, tx: Tx) -> None:  # noqa: B027 (an optional hook)
        """A database older than numbered migrations is brought to migration 1's shape."""

    def schema_version(self) -> int:
        with self.transaction() as tx:
            row = tx.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        return int(row[0] or 0)

    # -- sessions ---------------------------------------------------------------------------

    def create(
        self,
        name: str,
        strategy: str,
        owner: str | None = None,
        title: str | None = None,
        tx: Tx | None = None,
    ) -> bool:
        """Create `name`; False when it exists already (nothing is changed then)."""
        with _within(self, tx) as t:
            cursor = t.execute(
                "INSERT INTO sessions (name, created_at, updated_at, strategy, owner, title)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
                (name, now(), now(), strategy, owner, title),
            )
            return bool(cursor.rowcount == 1)

    def open(self, name: str, strategy: str) -> OpenedSession:
        """A REPL's session: lock it (SessionInUse if another process has it), then create
        or resume it; the lock is held until `close()`."""
        lock = self.lock(name)
        try:
            self.create(name, strategy)
            loaded = self.load(name)
        except BaseException:
            lock.release()
            raise
        return OpenedSession(loaded, self.writer(name, loaded), lock)

    def load(self, name: str) -> LoadedSession:
        """The session as saved; a turn cut short is recorded as interrupted."""
        with self.transaction() as tx:
            row = tx.execute(
                "SELECT strategy, working, undo, strategy_state, version, owner, title, turns"
                " FROM sessions WHERE name = ?",
                (name,),
            ).fetchone()
            if row is None:
                raise NoSuchSession(f"There is no session named '{name}'.")
            entries = tx.execute(
                "SELECT entry FROM entries WHERE session = ? ORDER BY seq", (name,)
            ).fetchall()
            calls = tx.execute(
                "SELECT function, input_tokens, output_tokens, duration_ms, turn FROM usage"
                " WHERE session = ? ORDER BY seq",
                (name,),
            ).fetchall()
        strategy, working, undo, state, version, owner, title, turns = row
        session = Session(
            working=list(MESSAGES_ADAPTER.validate_json(working)),
            transcript=Transcript([ENTRY_ADAPTER.validate_json(e[0]) for e in entries]),
            undo_stack=[MESSAGES_ADAPTER.validate_python(u) for u in json.loads(undo)],
        )
        usage = [CallUsage(*c) for c in calls]
        ledger = UsageLedger(calls=usage, turn=max((c.turn for c in usage), default=0))
        cut = interrupted(session)
        loaded = LoadedSession(
            session,
            ledger,
            strategy,
            resumed=bool(entries) or turns > 0,
            interrupted=cut,
            strategy_state=json.loads(state),
            version=version,
            owner=owner,
            title=title,
            saved_entries=len(entries),
        )
        if cut:
            session.record(ErrorRecord(text=INTERRUPTED))
        return loaded

    def version(self, name: str) -> int | None:
        """The session's saved version (None: no such session): a loaded copy whose version
        differs is stale."""
        with self.transaction() as tx:
            row = tx.execute("SELECT version FROM sessions WHERE name = ?", (name,)).fetchone()
        return None if row is None else int(row[0])

    def writer(self, name: str, loaded: LoadedSession) -> SessionWriter:
        return SessionWriter(
            self, name, loaded.saved_entries, len(loaded.ledger.calls), loaded.version
        )

    def info(self, name: str) -> SessionInfo | None:
        found = self._infos("WHERE s.name = ?", (name,))
        return found[0] if found else None

    def sessions(self, owner: str | AnyOwner | None = ANY_OWNER) -> list[SessionInfo]:
        """Newest first; `owner` None: the sessions nobody owns (the REPL's, a local serve)."""
        if isinstance(owner, AnyOwner):
            return self._infos("", ())
        if owner is None:
            return self._infos("WHERE s.owner IS NULL", ())
        return self._infos("WHERE s.owner = ?", (owner,))

    def _infos(self, where: str, params: tuple[Any, ...]) -> list[SessionInfo]:
        with self.transaction() as tx:
            rows = tx.execute(
                f"""
                SELECT s.name, s.owner_pid, s.owner_host, s.updated_at, s.turns, s.title,
                       s.owner, s.strategy, s.created_at,
                       (SELECT COUNT(*) FROM entries e WHERE e.session = s.name),
                       (SELECT COALESCE(SUM(input_tokens), 0) FROM usage u
                         WHERE u.session = s.name),
                       (SELECT COALESCE(SUM(output_tokens), 0) FROM usage u
                         WHERE u.session = s.name)
                FROM sessions s {where} ORDER BY s.updated_at DESC, s.name
                """,
                params,
            ).fetchall()
        busy = self._held_elsewhere([tuple(r[:3]) for r in rows])
        return [
            SessionInfo(
                name=r[0],
                updated_at=r[3],
                turns=r[4],
                title=r[5],
                owner=r[6],
                strategy=r[7],
                created_at=r[8],
                entries=int(r[9]),
                input_tokens=int(r[10]),
                output_tokens=int(r[11]),
                open_elsewhere=r[0] in busy,
            )
            for r in rows
        ]

    def rename(self, name: str, title: str) -> None:
        with self.transaction() as tx:
            cursor = tx.execute(
                "UPDATE sessions SET title = ?, updated_at = ? WHERE name = ?",
                (title, now(), name),
            )
            if cursor.rowcount != 1:
                raise NoSuchSession(f"There is no session named '{name}'.")

    def delete(self, name: str) -> None:
        """Remove a session and everything saved of it (the caller holds its lock)."""
        with self.transaction() as tx:
            for table in ("turn_keys", "usage", "entries"):
                tx.execute(f"DELETE FROM {table} WHERE session = ?", (name,))
            if tx.execute("DELETE FROM sessions WHERE name = ?", (name,)).rowcount != 1:
                raise NoSuchSession(f"There is no session named '{name}'.")

    def finished_turn(self, name: str, key: str) -> tuple[int, list[Any]] | None:
        """A turn already answered under idempotency `key`: its number and its entries."""
        with self.transaction() as tx:
            row = tx.execute(
                "SELECT turn, first_seq, end_seq FROM turn_keys WHERE session = ? AND key = ?",
                (name, key),
            ).fetchone()
            if row is None:
                return None
            entries = tx.execute(
                "SELECT entry FROM entries WHERE session = ? AND seq >= ? AND seq < ? ORDER BY seq",
                (name, row[1], row[2]),
            ).fetchall()
        return int(row[0]), [ENTRY_ADAPTER.validate_json(e[0]) for e in entries]


@contextmanager
def _within(store: SessionStore, tx: Tx | None) -> Iterator[Tx]:
    if tx is not None:
        yield tx
        return
    with store.transaction() as own:
        yield own


class SessionWriter:
    """Saves one session's new steps, over the version it last saw."""

    def __init__(
        self, store: SessionStore, name: str, saved_entries: int, saved_calls: int, version: int
    ) -> None:
        self.store = store
        self.name = name
        self.saved_entries = saved_entries
        self.saved_calls = saved_calls
        self.version = version
        self.last_error: str | None = None
        # The idempotency key of the turn being run, and where its entries start.
        self._turn_key: str | None = None
        self._turn_start = 0

    def begin_turn(self, key: str | None, session: Session) -> None:
        """The next turn answers the request sent with `key` (kept when it is answered)."""
        self._turn_key = key
        self._turn_start = len(session.transcript)

    def save(
        self,
        session: Session,
        ledger: UsageLedger,
        strategy: str,
        turn_complete: bool,
        strategy_state: dict[str, Any] | None = None,
    ) -> None:
        """Commit what happened since the last save in one transaction; StaleSession when the
        session's version moved on (someone else wrote it)."""
        entries = session.transcript.entries[self.saved_entries :]
        calls = ledger.calls[self.saved_calls :]
        with self.store.transaction() as tx:
            if turn_complete:
                undo = [json.loads(MESSAGES_ADAPTER.dump_json(u)) for u in session.undo_stack]
                cursor = tx.execute(
                    "UPDATE sessions SET working = ?, undo = ?, strategy = ?, updated_at = ?,"
                    " turns = ?, strategy_state = ?, version = version + 1"
                    " WHERE name = ? AND version = ?",
                    (
                        MESSAGES_ADAPTER.dump_json(session.working).decode(),
                        json.dumps(undo),
                        strategy,
                        now(),
                        ledger.turn,
                        json.dumps(strategy_state or {}),
                        self.name,
                        self.version,
                    ),
                )
            else:
                cursor = tx.execute(
                    "UPDATE sessions SET updated_at = ?, version = version + 1"
                    " WHERE name = ? AND version = ?",
                    (now(), self.name, self.version),
                )
            if cursor.rowcount != 1:
                raise StaleSession(
                    f"Session '{self.name}' was changed elsewhere since it was loaded; "
                    "reload it and send the message again."
                )
            tx.executemany(
                "INSERT INTO entries (session, seq, entry) VALUES (?, ?, ?)",
                [
                    (self.name, self.saved_entries + i, ENTRY_ADAPTER.dump_json(e).decode())
                    for i, e in enumerate(entries)
                ],
            )
            tx.executemany(
                "INSERT INTO usage (session, seq, function, input_tokens, output_tokens,"
                " duration_ms, turn) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        self.name,
                        self.saved_calls + i,
                        c.function,
                        c.input_tokens,
                        c.output_tokens,
                        c.duration_ms,
                        c.turn,
                    )
                    for i, c in enumerate(calls)
                ],
            )
            end = self.saved_entries + len(entries)
            turn = session.transcript.entries[self._turn_start :]
            answered = any(entry.kind == "assistant" for entry in turn)
            if turn_complete and self._turn_key is not None and answered:
                tx.execute(
                    "INSERT INTO turn_keys (session, key, turn, first_seq, end_seq)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (self.name, self._turn_key, ledger.turn, self._turn_start, end),
                )
        if turn_complete:
            self._turn_key = None
        self.saved_entries = end
        self.saved_calls += len(calls)
        self.version += 1

    def checkpoint(
        self,
        session: Session,
        ledger: UsageLedger,
        strategy: str,
        strategy_state: dict[str, Any],
        turn_complete: bool,
    ) -> None:
        """`save` for the agent's checkpoint hook: a failure is kept in `last_error` for the
        front to report, never raised into the chat."""
        try:
            self.save(session, ledger, strategy, turn_complete, strategy_state)
            self.last_error = None
        except StoreError as exc:
            self.last_error = str(exc)
        except Exception as exc:  # disk full, locked database, unserialisable entry
            detail = str(exc).rstrip(".") or type(exc).__name__
            self.last_error = f"Could not save the session to {self.store.location}: {detail}."


__all__ = ["ANY_OWNER", "LATEST", "OpenedSession", "SessionLock", "SessionStore", "SessionWriter"]
