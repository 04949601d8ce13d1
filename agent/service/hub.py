"""The service's sessions: who may see which, and one turn at a time per session, anywhere.

A turn takes the session's lock in the database (any worker, or a REPL, holding it means
409), checks the session's version against the copy this worker keeps in memory (reloading
it when another worker wrote since), then runs on a thread of its own through the process
runtime, exactly as a REPL turn runs. Its events go to whoever listens; a client that leaves
stops listening, not the turn, which finishes and is saved. A final save that fails (the
database restarting) is retried for a while; the answer is sent only once it is saved, so an
answer a client saw is never lost. An `Idempotency-Key` makes a retried message safe: a turn
already answered under that key is replayed from the transcript, not run again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from agent.context.registry import make_strategy
from agent.core.loop import MAX_MESSAGE_CHARS, Agent, CancelToken
from agent.display import plot_drawing, plotting
from agent.llm.model import StepProgress
from agent.messages import ToolCall, ToolResultMessage
from agent.runtime.process import ProcessRuntime, checkpoint_hook
from agent.service import logs
from agent.service.auth import User
from agent.service.errors import ServiceError, busy, not_found, store_down
from agent.service.views import entry_json, math_segments
from agent.storage.records import (
    LoadedSession,
    NoSuchSession,
    SessionBusy,
    SessionInfo,
    StaleSession,
    StoreUnavailable,
    new_session_name,
)
from agent.storage.sql_store import SessionLock, SessionStore, SessionWriter

Emit = Callable[[str, dict[str, Any]], None]
CACHED_SESSIONS = 256


@dataclass
class Loaded:
    """A session this worker holds in memory between turns."""

    agent: Agent
    writer: SessionWriter


class SessionHub:
    def __init__(
        self,
        runtime: ProcessRuntime,
        max_turns: int = 16,
        save_retry_seconds: float = 30.0,
    ) -> None:
        if runtime.store is None:
            raise ValueError("the service needs a session store")
        self.runtime = runtime
        self.store: SessionStore = runtime.store
        self.max_turns = max_turns
        self.save_retry_seconds = save_retry_seconds
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._guard = threading.Lock()
        self._running = 0
        self._turns = ThreadPoolExecutor(max_turns, thread_name_prefix="math-agent-turn")
        self._cancels: dict[str, CancelToken] = {}

    # -- who sees what ----------------------------------------------------------------------

    def visible(self, name: str, user: User) -> SessionInfo:
        """The session if `user` owns it; 404 alike for another's and for none."""
        try:
            info = self.store.info(name)
        except StoreUnavailable:
            raise store_down() from None
        if info is None or info.owner != user.owner:
            raise not_found()
        return info

    def sessions(self, user: User) -> list[SessionInfo]:
        try:
            return self.store.sessions(owner=user.owner)
        except StoreUnavailable:
            raise store_down() from None

    def create(self, user: User, title: str | None, strategy: str | None) -> SessionInfo:
        chosen = self._strategy(strategy) if strategy else self.runtime.default_strategy()
        name = new_session_name(unique=True)
        try:
            self.store.create(name, chosen, owner=user.owner, title=title)
        except StoreUnavailable:
            raise store_down() from None
        return self.visible(name, user)

    def rename(self, name: str, user: User, title: str) -> None:
        self.visible(name, user)
        try:
            self.store.rename(name, title)
        except StoreUnavailable:
            raise store_down() from None

    def delete(self, name: str, user: User) -> None:
        self.visible(name, user)
        with self._locked(name):
            try:
                self.store.delete(name)
            except StoreUnavailable:
                raise store_down() from None
            except NoSuchSession:
                raise not_found() from None
            self._forget(name)

    def set_strategy(self, name: str, user: User, strategy: str) -> None:
        self.visible(name, user)
        chosen = make_strategy(self._strategy(strategy))
        with self._locked(name):
            loaded = self._conversation(name)
            loaded.agent.strategy = chosen
            loaded.agent.checkpoint(turn_complete=True)
            if loaded.writer.last_error is not None:
                self._forget(name)
                raise store_down()

    def load(self, name: str, user: User) -> LoadedSession:
        """The session as saved (a read: no lock, never this worker's unsaved copy)."""
        self.visible(name, user)
        try:
            return self.store.load(name)
        except StoreUnavailable:
            raise store_down() from None
        except NoSuchSession:
            raise not_found() from None

    def plot(self, name: str, user: User, request: str) -> tuple[bytes, list[str]]:
        """A PNG of the functions `request` names, with the lines that summarise its marks."""
        loaded = self.load(name, user)
        try:
            parsed = plotting.parse_request(request)
            drawn = plotting.make_plot(parsed, _workspace(loaded))
            return plot_drawing.png_bytes(drawn), plot_drawing.marks_summary(drawn, raw=True)
        except plotting.PlotError as exc:
            raise ServiceError(422, "plot_error", exc.message) from None

    @staticmethod
    def _strategy(name: str) -> str:
        try:
            make_strategy(name)
        except ValueError as exc:
            raise ServiceError(422, "unknown_strategy", str(exc)) from None
        return name

    # -- locks and the worker's copies ------------------------------------------------------

    def _locked(self, name: str) -> SessionLock:
        try:
            return self.store.lock(name)
        except SessionBusy:
            raise busy() from None
        except StoreUnavailable:
            raise store_down() from None

    def _conversation(self, name: str) -> Loaded:
        """This worker's copy of the session, reloaded when another wrote since (caller holds
        the session's lock)."""
        saved = self.store.version(name)
        if saved is None:
            raise not_found()
        with self._guard:
            cached = self._cache.get(name)
            if cached is not None and cached.writer.version == saved:
                self._cache.move_to_end(name)
                return cached
        loaded = self.store.load(name)
        agent = self.runtime.new_agent(loaded)
        writer = self.store.writer(name, loaded)
        agent.on_checkpoint = checkpoint_hook(writer, agent)
        fresh = Loaded(agent, writer)
        with self._guard:
            self._cache[name] = fresh
            while len(self._cache) > CACHED_SESSIONS:
                self._cache.popitem(last=False)
        return fresh

    def _forget(self, name: str) -> None:
        with self._guard:
            self._cache.pop(name, None)

    # -- turns ------------------------------------------------------------------------------

    def begin_turn(
        self, name: str, user: User, text: str, key: str | None
    ) -> tuple[SessionLock | None, list[tuple[str, dict[str, Any]]]]:
        """Take the session's lock for a turn (409 if busy, 503 at capacity or with the
        database down). With `key` already answered: no lock, and the events to replay."""
        if len(text) > MAX_MESSAGE_CHARS:
            raise ServiceError(
                413,
                "message_too_long",
                f"That message is {len(text):,} characters long; the limit is "
                f"{MAX_MESSAGE_CHARS:,}: send only the math.",
            )
        self.visible(name, user)
        if key is not None:
            try:
                finished = self.store.finished_turn(name, key)
            except StoreUnavailable:
                raise store_down() from None
            if finished is not None:
                return None, _replay(*finished)
        with self._guard:
            if self._running >= self.max_turns * 2:
                raise ServiceError(
                    503,
                    "at_capacity",
                    "This worker is answering as many messages as it can; try again shortly.",
                    {"Retry-After": "2"},
                )
            self._running += 1
        try:
            return self._locked(name), []
        except BaseException:
            with self._guard:
                self._running -= 1
            raise

    def run_turn(
        self, name: str, user: User, lock: SessionLock, text: str, key: str | None, emit: Emit
    ) -> None:
        """Run the turn on a thread of its own; events go to `emit`, then `emit("end", {})`."""
        self._turns.submit(self._turn, name, user, lock, text, key, emit)

    def cancel(self, name: str, user: User) -> bool:
        """Cancel the turn of `name` running in this worker; False when none runs here."""
        self.visible(name, user)
        with self._guard:
            token = self._cancels.get(name)
        if token is None:
            return False
        token.cancel()
        return True

    def _turn(
        self, name: str, user: User, lock: SessionLock, text: str, key: str | None, emit: Emit
    ) -> None:
        started = time.perf_counter()
        cancel = CancelToken()
        fields: dict[str, Any] = {"session": name, "user": user.name}
        with self._guard:
            self._cancels[name] = cancel
        try:
            loaded = self._conversation(name)
            agent, writer = loaded.agent, loaded.writer
            writer.begin_turn(key, agent.session)
            streamed = _AnswerStream(emit)
            result = self.runtime.turn(
                agent,
                text,
                cancel,
                on_tool=lambda call, ran: _tool_events(emit, call, ran),
                on_progress=streamed.progress,
                session=name,
                on_queue=lambda place: emit("queued", {"position": place}),
            )
            saved = self._saved(loaded)
            ledger = agent.model.ledger
            calls = [c for c in ledger.calls if c.turn == ledger.turn]
            done = {
                "ok": result.ok and saved,
                "turn": ledger.turn,
                "input_tokens": result.input_tokens,
                "output_tokens": result.output_tokens,
                "llm_calls": result.llm_calls,
                "seconds": round(time.perf_counter() - started, 3),
                "model_seconds": round(sum(c.duration_ms for c in calls) / 1000, 3),
                "saved": saved,
            }
            if not saved:
                self._forget(name)
                emit("error", {"code": "not_saved", "message": _NOT_SAVED, "retry": True})
            elif result.reply is not None:
                emit("answer", _answer(result.reply.shown, result.reply.task_status))
            else:
                emit("error", {"code": result.error_kind or "model_error", "message": result.error})
            emit("done", done)
            fields.update(
                ok=done["ok"],
                error_kind=None if saved else "not_saved",
                turn=ledger.turn,
                tool_calls=len(result.tool_runs),
                input_tokens=result.input_tokens,
                output_tokens=result.output_tokens,
                llm_calls=result.llm_calls,
            )
            if saved and result.error_kind:
                fields["error_kind"] = result.error_kind
        except ServiceError as exc:
            emit("error", {"code": exc.code, "message": exc.message, "retry": exc.status == 503})
            fields.update(ok=False, error_kind=exc.code)
        except StoreUnavailable:
            self._forget(name)
            emit("error", {"code": "store_unavailable", "message": _NOT_SAVED, "retry": True})
            fields.update(ok=False, error_kind="store_unavailable")
        except Exception as exc:  # a bug of ours: the client hears of it, the log says what
            self._forget(name)
            emit("error", {"code": "internal", "message": "Internal error; try again."})
            fields.update(ok=False, error_kind="internal", error_type=type(exc).__name__)
        finally:
            lock.release()
            with self._guard:
                self._running -= 1
                self._cancels.pop(name, None)
            fields["seconds"] = round(time.perf_counter() - started, 3)
            logs.event("turn", logging.INFO, **fields)
            emit("end", {})

    def _saved(self, loaded: Loaded) -> bool:
        """Retry the final save while the database is away (bounded); a version another
        worker moved on is not retried: that turn cannot be saved."""
        deadline = time.monotonic() + self.save_retry_seconds
        wait = 0.2
        while loaded.writer.last_error is not None:
            if time.monotonic() > deadline:
                return False
            time.sleep(wait)
            wait = min(wait * 2, 2.0)
            try:
                loaded.writer.save(
                    loaded.agent.session,
                    loaded.agent.model.ledger,
                    loaded.agent.strategy.name,
                    turn_complete=True,
                    strategy_state=loaded.agent.strategy.to_state(),
                )
                loaded.writer.last_error = None
            except StaleSession:
                return False
            except Exception:  # still away
                continue
        return True

    def close(self) -> None:
        """Let running turns finish and save (a SIGTERM's graceful stop)."""
        self._turns.shutdown(wait=True)


_NOT_SAVED = (
    "The answer could not be saved (the session database is unreachable or another worker "
    "wrote the session); send the message again."
)


def _workspace(loaded: LoadedSession) -> Any:
    from agent.workspace.building import build

    return build(loaded.session.conversation())


def _answer(text: str, status: str) -> dict[str, Any]:
    return {"text": text, "status": status, "segments": math_segments(text)}


def _tool_events(emit: Emit, call: ToolCall, ran: ToolResultMessage) -> None:
    emit("tool_call", entry_json(call))
    emit("tool_result", entry_json(ran))


class _AnswerStream:
    """The answer's text as it streams: `answer_delta` with what was added (or the whole
    text again, `reset`, when the model's reply was replaced)."""

    def __init__(self, emit: Emit) -> None:
        self.emit = emit
        self.sent = ""

    def progress(self, progress: StepProgress) -> None:
        if not progress.answering:
            return
        text = progress.response
        if text.startswith(self.sent):
            if len(text) > len(self.sent):
                self.emit("answer_delta", {"text": text[len(self.sent) :]})
        else:
            self.emit("answer_delta", {"text": text, "reset": True})
        self.sent = text


def _replay(turn: int, entries: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """The events of a turn already answered, from its transcript entries."""
    events: list[tuple[str, dict[str, Any]]] = []
    for entry in entries:
        if entry.kind in ("tool_call", "tool_result"):
            events.append((entry.kind, entry_json(entry)))
        elif entry.kind == "assistant":
            events.append(("answer", _answer(entry.text, entry.task_status)))
    events.append(("done", {"ok": True, "turn": turn, "replayed": True, "saved": True}))
    return events
