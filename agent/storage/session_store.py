"""Sessions saved in SQLite, so a conversation survives a crash, a kill -9 or a reboot.

One transaction per completed step: after every tool step the new transcript entries and
usage records are committed; at the end of every turn the working context, undo stack and
strategy are committed too. A kill at any moment therefore loses at most the step in flight,
and because entries are keyed by (session, seq) nothing can be written twice. WAL mode keeps
readers (`/sessions` in another terminal) from blocking the writer.

A session is open in one process at a time: the owner's pid is stored with the session and a
second process is refused with a clear message; a lock left by a dead process is taken over.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agent.accounting.ledger import CallUsage, UsageLedger
from agent.core.session import Session
from agent.core.transcript import ENTRY_ADAPTER, ErrorRecord, Transcript
from agent.messages import MESSAGES_ADAPTER
from agent.processes import pid_alive

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
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
);
CREATE TABLE IF NOT EXISTS entries (
    session TEXT NOT NULL REFERENCES sessions(name),
    seq INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (session, seq)
);
CREATE TABLE IF NOT EXISTS usage (
    session TEXT NOT NULL REFERENCES sessions(name),
    seq INTEGER NOT NULL,
    function TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    turn INTEGER NOT NULL,
    PRIMARY KEY (session, seq)
);
"""


# Columns added to `sessions` after the first release, with their declarations.
ADDED_COLUMNS = (("strategy_state", "TEXT NOT NULL DEFAULT '{}'"),)


def default_db_path() -> Path:
    if named := os.environ.get("MATH_AGENT_DB", "").strip():
        return Path(named).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "math-agent" / "sessions.sqlite3"


def new_session_name() -> str:
    return datetime.now().strftime("%Y-%m-%d-%H%M%S")


class SessionInUse(Exception):
    """Another live process has this session open."""


@dataclass(frozen=True)
class SessionInfo:
    name: str
    updated_at: str
    turns: int
    entries: int
    input_tokens: int
    output_tokens: int
    open_elsewhere: bool


@dataclass
class LoadedSession:
    session: Session
    ledger: UsageLedger
    strategy: str
    resumed: bool
    interrupted: bool
    # What a stateful strategy keeps beyond the history (remembered user facts, pins).
    strategy_state: dict[str, Any] = field(default_factory=dict)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


class SessionStore:
    """One SQLite file holding every session; one open session per store object."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_db_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Turns run in a worker thread (so Ctrl-C can cancel them); calls are never concurrent.
        self._db = sqlite3.connect(
            self.path, timeout=10, isolation_level=None, check_same_thread=False
        )
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        self._migrate()
        self.name: str | None = None
        self._saved_entries = 0
        self._saved_calls = 0
        self.last_error: str | None = None

    def _migrate(self) -> None:
        """Bring a database written by an earlier version up to SCHEMA (columns added since)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(sessions)")}
        for name, declaration in ADDED_COLUMNS:
            if name not in columns:
                self._db.execute(f"ALTER TABLE sessions ADD COLUMN {name} {declaration}")

    # -- opening and closing ------------------------------------------------------------------

    def open(self, name: str, strategy: str) -> LoadedSession:
        """Create or resume `name` and take ownership of it; SessionInUse if another has it."""
        host = socket.gethostname()
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute(
                "SELECT strategy, working, undo, owner_pid, owner_host, strategy_state"
                " FROM sessions WHERE name = ?",
                (name,),
            ).fetchone()
            if row is None:
                db.execute(
                    "INSERT INTO sessions (name, created_at, updated_at, strategy, owner_pid,"
                    " owner_host) VALUES (?, ?, ?, ?, ?, ?)",
                    (name, _now(), _now(), strategy, os.getpid(), host),
                )
                db.execute("COMMIT")
                self.name = name
                return LoadedSession(Session(), UsageLedger(), strategy, False, False)
            saved_strategy, working_json, undo_json, owner_pid, owner_host, state_json = row
            if (
                owner_pid is not None
                and owner_pid != os.getpid()
                and owner_host == host
                and pid_alive(owner_pid)
            ):
                raise SessionInUse(
                    f"Session '{name}' is open in another math-agent process (pid {owner_pid}); "
                    "close it there, or pick another name with --session."
                )
            db.execute(
                "UPDATE sessions SET owner_pid = ?, owner_host = ? WHERE name = ?",
                (os.getpid(), host, name),
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self.name = name
        loaded = self._load(name, saved_strategy, working_json, undo_json)
        loaded.strategy_state = json.loads(state_json)
        return loaded

    def _load(self, name: str, strategy: str, working_json: str, undo_json: str) -> LoadedSession:
        entries = [
            ENTRY_ADAPTER.validate_json(row[0])
            for row in self._db.execute(
                "SELECT entry FROM entries WHERE session = ? ORDER BY seq", (name,)
            )
        ]
        calls = [
            CallUsage(*row)
            for row in self._db.execute(
                "SELECT function, input_tokens, output_tokens, duration_ms, turn FROM usage"
                " WHERE session = ? ORDER BY seq",
                (name,),
            )
        ]
        working = MESSAGES_ADAPTER.validate_json(working_json)
        undo = [MESSAGES_ADAPTER.validate_python(item) for item in json.loads(undo_json)]
        session = Session(working=list(working), transcript=Transcript(entries), undo_stack=undo)
        ledger = UsageLedger(calls=calls, turn=max((c.turn for c in calls), default=0))
        self._saved_entries = len(entries)
        self._saved_calls = len(calls)
        interrupted = self._interrupted(session)
        if interrupted:
            session.record(
                ErrorRecord(
                    text="The last turn was interrupted before it finished; its steps are in "
                    "the transcript, the working context is as of the turn before."
                )
            )
        return LoadedSession(session, ledger, strategy, True, interrupted)

    @staticmethod
    def _interrupted(session: Session) -> bool:
        """Entries after the last saved working context mean a turn did not finish."""
        entries = session.transcript.entries
        if not entries:
            return False
        last = entries[-1]
        return last.kind in ("user", "tool_call", "tool_result")

    def close(self) -> None:
        if self.name is not None:
            self._db.execute(
                "UPDATE sessions SET owner_pid = NULL, owner_host = NULL"
                " WHERE name = ? AND owner_pid = ?",
                (self.name, os.getpid()),
            )
        self._db.close()

    # -- saving -------------------------------------------------------------------------------

    def save(
        self,
        session: Session,
        ledger: UsageLedger,
        strategy: str,
        turn_complete: bool,
        strategy_state: dict[str, Any] | None = None,
    ) -> None:
        """Commit what happened since the last save in one transaction."""
        if self.name is None:
            raise RuntimeError("no session is open")
        entries = session.transcript.entries[self._saved_entries :]
        calls = ledger.calls[self._saved_calls :]
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.executemany(
                "INSERT INTO entries (session, seq, entry) VALUES (?, ?, ?)",
                [
                    (self.name, self._saved_entries + i, ENTRY_ADAPTER.dump_json(e).decode())
                    for i, e in enumerate(entries)
                ],
            )
            db.executemany(
                "INSERT INTO usage (session, seq, function, input_tokens, output_tokens,"
                " duration_ms, turn) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        self.name,
                        self._saved_calls + i,
                        c.function,
                        c.input_tokens,
                        c.output_tokens,
                        c.duration_ms,
                        c.turn,
                    )
                    for i, c in enumerate(calls)
                ],
            )
            if turn_complete:
                undo = [json.loads(MESSAGES_ADAPTER.dump_json(u)) for u in session.undo_stack]
                db.execute(
                    "UPDATE sessions SET working = ?, undo = ?, strategy = ?, updated_at = ?,"
                    " turns = ?, strategy_state = ? WHERE name = ?",
                    (
                        MESSAGES_ADAPTER.dump_json(session.working).decode(),
                        json.dumps(undo),
                        strategy,
                        _now(),
                        ledger.turn,
                        json.dumps(strategy_state or {}),
                        self.name,
                    ),
                )
            else:
                db.execute("UPDATE sessions SET updated_at = ? WHERE name = ?", (_now(), self.name))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._saved_entries += len(entries)
        self._saved_calls += len(calls)

    # -- listing ------------------------------------------------------------------------------

    def sessions(self) -> list[SessionInfo]:
        rows = self._db.execute(
            """
            SELECT s.name, s.updated_at, s.turns, s.owner_pid, s.owner_host,
                   (SELECT COUNT(*) FROM entries e WHERE e.session = s.name),
                   (SELECT COALESCE(SUM(input_tokens), 0) FROM usage u WHERE u.session = s.name),
                   (SELECT COALESCE(SUM(output_tokens), 0) FROM usage u WHERE u.session = s.name)
            FROM sessions s ORDER BY s.updated_at DESC
            """
        ).fetchall()
        host = socket.gethostname()
        return [
            SessionInfo(
                name=name,
                updated_at=updated,
                turns=turns,
                entries=entries,
                input_tokens=tokens_in,
                output_tokens=tokens_out,
                open_elsewhere=bool(
                    pid and pid != os.getpid() and owner_host == host and pid_alive(pid)
                ),
            )
            for name, updated, turns, pid, owner_host, entries, tokens_in, tokens_out in rows
        ]

    def checkpoint(
        self,
        session: Session,
        ledger: UsageLedger,
        strategy: str,
        strategy_state: dict[str, Any],
        turn_complete: bool,
    ) -> None:
        """`save` for the agent's checkpoint hook: a failure is kept in `last_error` for the
        REPL to report, never raised into the chat."""
        try:
            self.save(session, ledger, strategy, turn_complete, strategy_state)
            self.last_error = None
        except Exception as exc:  # disk full, locked database, unserialisable entry
            self.last_error = f"Could not save the session to {self.path}: {str(exc).rstrip('.')}."

    def integrity_check(self) -> str:
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]
