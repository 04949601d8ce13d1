"""Assemble an Agent from command-line choices: provider, replay/record server, strategy.

Kept apart from the REPL so that `chat`, `ask` and the tests build agents the same way, and
so that every server this starts (replay, record, the embedded local model) is stopped by
`close()`.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agent.context.registry import DEFAULT_STRATEGY, make_strategy
from agent.core.loop import DEFAULT_MAX_TOOL_STEPS, Agent, SmallModelAids
from agent.errors import AgentError
from agent.llm import providers
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider, resolve_provider
from agent.storage.session_store import (
    LoadedSession,
    SessionInUse,
    SessionStore,
    default_db_path,
    new_session_name,
)


@dataclass
class RuntimeOptions:
    # None: the provider's default strategy (structural for the local model), else the global.
    strategy: str | None = None
    compaction: bool = True
    base_url: str | None = None
    model: str | None = None
    record: Path | None = None
    replay: Path | None = None
    max_tool_steps: int = DEFAULT_MAX_TOOL_STEPS
    # --provider: auto (default), local, custom, openrouter, openai.
    provider: str | None = None
    session: str | None = None  # None: a new session named by the time
    db: Path | None = None
    save: bool = True


@dataclass
class Runtime:
    agent: Agent
    provider: Provider
    servers: list[Any] = field(default_factory=list)
    store: SessionStore | None = None
    resumed: bool = False
    # The embedded model's server when the agent talks to it directly (not via --record).
    local_server: Any | None = None

    def revive_local_server(self) -> str | None:
        """After a failed turn: if the embedded model's server has died (an out-of-memory
        killer, a stray kill), start a new one and point the model at it. Returns the line to
        show the user, or None when there is nothing to revive."""
        server = self.local_server
        if server is None or server.alive():
            return None
        from agent.llm.providers import resolve_provider

        started = time.perf_counter()
        server.stop()  # drop our lease and the dead instance's state
        self.servers.remove(server)
        self.local_server = None
        try:
            provider, fresh = start_local(resolve_provider(provider="local"))
        except AgentError as exc:
            return f"The embedded model's server stopped and could not be restarted: {exc.message}"
        self.servers.append(fresh)
        self.local_server = fresh
        self.provider = provider
        self.agent.model.use_provider(provider)
        seconds = time.perf_counter() - started
        return f"The embedded model's server had stopped; restarted it in {seconds:.1f} s."

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
        for server in self.servers:
            server.stop()
        self.servers.clear()


def choose_strategy(options: RuntimeOptions, provider: Provider, saved: str | None = None) -> str:
    """--strategy, else the resumed session's, else the provider's default, else the global."""
    return options.strategy or saved or provider.default_strategy or DEFAULT_STRATEGY


def start_local(provider: Provider) -> tuple[Provider, Any]:
    """Start or reuse the embedded model's server; the provider then points at it."""
    from agent.llm.local.launch import start_server
    from agent.llm.local.server_manager import ServerError
    from agent.llm.local.weights import ModelError

    try:
        server = start_server()
    except (ModelError, ServerError) as exc:
        raise AgentError(str(exc)) from exc
    how = (
        f"reusing server pid {server.pid}"
        if server.reused
        else f"server pid {server.pid}, loaded in {server.load_seconds:.1f} s"
    )
    return replace(provider, base_url=server.base_url, source=f"{provider.source}; {how}"), server


def build_runtime(options: RuntimeOptions) -> Runtime:
    """Resolve the provider (starting a replay/record/local server if needed), build the agent.

    Raises AgentError with one actionable sentence when nothing usable is configured; any
    server started before a failure is stopped again.
    """
    providers.load_env()
    servers: list[Any] = []
    store: SessionStore | None = None
    try:
        provider, local = _provider(options, servers)
        store, loaded = _open_session(options, choose_strategy(options, provider))
        model = BamlMathModel.for_provider(provider, loaded.ledger if loaded else None)
        agent = Agent(
            model,
            make_strategy(choose_strategy(options, provider, loaded and loaded.strategy)),
            session=loaded.session if loaded else None,
            max_tool_steps=options.max_tool_steps,
            compaction_enabled=options.compaction,
            aids=SmallModelAids.every() if provider.small_model else SmallModelAids(),
        )
        if loaded is not None and loaded.strategy_state:
            agent.strategy.from_state(loaded.strategy_state)
        if store is not None:
            agent.on_checkpoint = checkpoint_hook(store, agent)
        if local is not None and not local.reused:
            warm_in_background(local, model)
    except BaseException:
        if store is not None:
            store.close()
        for server in servers:
            server.stop()
        raise
    resumed = bool(loaded and loaded.resumed)
    return Runtime(
        agent=agent,
        provider=provider,
        servers=servers,
        store=store,
        resumed=resumed,
        local_server=local,
    )


def warm_in_background(server: Any, model: BamlMathModel) -> threading.Thread:
    """A new embedded server reads MathChat's fixed prompt while the person types (or
    restores it from an earlier run's saved state): the first answer does not wait for it.
    A failure only means the first request reads the prompt itself."""
    from agent.llm.local.start_state import ConversationStart, StartStateError

    start = ConversationStart(
        server.root_url, lambda: model.request_body([]), server.slots, server.key
    )

    def warm() -> None:
        with contextlib.suppress(StartStateError):
            start.warm()

    thread = threading.Thread(target=warm, name="warm-prompt", daemon=True)
    thread.start()
    return thread


def checkpoint_hook(store: SessionStore, agent: Agent) -> Callable[[bool], None]:
    """The agent's checkpoint hook: hand the store what changed (the store never sees the agent)."""

    def save(turn_complete: bool) -> None:
        store.checkpoint(
            agent.session,
            agent.model.ledger,
            agent.strategy.name,
            agent.strategy.to_state(),
            turn_complete,
        )

    return save


def _open_session(
    options: RuntimeOptions, strategy: str
) -> tuple[SessionStore | None, LoadedSession | None]:
    """Open or create the saved session; a session open in another process is refused."""
    if not options.save:
        return None, None
    try:
        store = SessionStore(options.db)
    except sqlite3.Error as exc:
        raise AgentError(_unusable_db(options.db, exc)) from None
    try:
        return store, store.open(options.session or new_session_name(), strategy)
    except SessionInUse as exc:
        store.close()
        raise AgentError(str(exc)) from None
    except sqlite3.Error as exc:
        store.close()
        raise AgentError(_unusable_db(store.path, exc)) from None


def _unusable_db(path: Path | None, exc: sqlite3.Error) -> str:
    where = path or default_db_path()
    return (
        f"Could not use the session database {where} ({str(exc).rstrip('.')}); "
        "point --db or MATH_AGENT_DB elsewhere, or run with --no-save."
    )


def _provider(options: RuntimeOptions, servers: list[Any]) -> tuple[Provider, Any | None]:
    """The provider to talk to, and the embedded model's server when it is talked to directly
    (the app supervises it); every server started is appended to `servers`."""
    if options.replay is not None:
        from agent.llm.replay import Cassette, ReplayResponder, start

        server = start(ReplayResponder(Cassette.load(options.replay)))
        servers.append(server)
        replay = Provider(
            "replay", server.base_url, "replay", None, f"--replay {options.replay}", retries=False
        )
        return replay, None
    provider = resolve_provider(
        base_url=options.base_url, model=options.model, provider=options.provider
    )
    local = None
    if provider.is_local:
        provider, local = start_local(provider)
        servers.append(local)
    if options.record is not None:
        from agent.llm.replay import Cassette, RecordResponder, start

        responder = RecordResponder(
            Cassette.load(options.record),
            provider.base_url,
            provider.api_key or "no-key",
            provider.model,
        )
        server = start(responder)
        servers.append(server)
        provider = replace(
            provider,
            name=f"record via {provider.name}",
            base_url=server.base_url,
            upstream_url=provider.base_url,
            api_key=None,
            source=f"--record {options.record}",
        )
        local = None  # the recorder holds its URL; a restarted server would not be seen
    return provider, local
