"""What the session stores hand out and raise, whichever database holds the sessions.

The stores take data (a session, a ledger, a strategy's state), never the agent; these
records are that data and the failures a front shows as one sentence.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agent.accounting.ledger import UsageLedger
from agent.core.session import Session


def default_db_path() -> Path:
    """The SQLite file: MATH_AGENT_DB, else the XDG data folder."""
    if named := os.environ.get("MATH_AGENT_DB", "").strip():
        return Path(named).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "math-agent" / "sessions.sqlite3"


def new_session_name(unique: bool = False) -> str:
    """A name from the clock (the REPL's); `unique` adds random letters, for a service where
    many sessions start in the same second."""
    name = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    return f"{name}-{secrets.token_hex(3)}" if unique else name


def now() -> str:
    return datetime.now(timezone.utc).isoformat()


class StoreError(Exception):
    """A session store failure, said in one sentence a person can act on."""


class StoreUnavailable(StoreError):
    """The database cannot be reached or used right now (a restart, a full disk)."""


class SessionBusy(StoreError):
    """Another process or request holds this session's lock (a turn is running)."""


class SessionInUse(SessionBusy):
    """Another live REPL has this session open."""


class SessionExists(StoreError):
    """A session of that name exists already."""


class NoSuchSession(StoreError):
    """No session has that name."""


class StaleSession(StoreError):
    """The session was written by someone else since it was loaded (a versioned write lost)."""


@dataclass(frozen=True)
class SessionInfo:
    name: str
    updated_at: str
    turns: int
    entries: int
    input_tokens: int
    output_tokens: int
    open_elsewhere: bool
    title: str | None = None
    owner: str | None = None
    strategy: str = ""
    created_at: str = ""


@dataclass
class LoadedSession:
    session: Session
    ledger: UsageLedger
    strategy: str
    resumed: bool
    interrupted: bool
    # What a stateful strategy keeps beyond the history (remembered user facts, pins).
    strategy_state: dict[str, Any] = field(default_factory=dict)
    # The session row's version when it was read: a save succeeds only on that version.
    version: int = 0
    owner: str | None = None
    title: str | None = None
    # Transcript entries in the database (the loaded transcript may add an interruption note).
    saved_entries: int = 0


def interrupted(session: Session) -> bool:
    """Entries after the last saved working context mean a turn did not finish."""
    entries = session.transcript.entries
    return bool(entries) and entries[-1].kind in ("user", "tool_call", "tool_result")
