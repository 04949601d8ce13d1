"""What a process builds once, whatever its front: the provider (starting a replay, record or
embedded server when needed), the model client per conversation, the tool worker pool, the
embedded server's slots and the session store. Conversations are opened from it: one by the
REPL, many by the service; every turn of either runs through `turn`, so both get the same
slot handling and the same restart of a dead embedded server.
"""

from __future__ import annotations

import contextlib
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from agent.context.registry import make_strategy
from agent.core.loop import Agent, CancelToken, SmallModelAids, ToolObserver, TurnResult
from agent.errors import AgentError
from agent.llm import providers
from agent.llm.local.slots import SlotScheduler
from agent.llm.model import BamlMathModel, ProgressObserver
from agent.llm.providers import Provider, resolve_provider
from agent.runtime.options import RuntimeOptions, choose_strategy
from agent.storage.opening import open_store
from agent.storage.records import LoadedSession, StoreError
from agent.storage.sql_store import SessionStore, SessionWriter
from tools import worker

# Told a waiting turn's place in the embedded model's queue (1: next).
QueueObserver = Callable[[int], None]


def start_local(provider: Provider, slots: int = 1) -> tuple[Provider, Any]:
    """Start or reuse the embedded model's server; the provider then points at it."""
    from agent.llm.local.launch import start_server
    from agent.llm.local.server_manager import ServerError
    from agent.llm.local.settings import LOCAL_SETTINGS
    from agent.llm.local.weights import ModelError

    try:
        server = start_server(settings=replace(LOCAL_SETTINGS, slots=slots))
    except (ModelError, ServerError) as exc:
        raise AgentError(str(exc)) from exc
    how = (
        f"reusing server pid {server.pid}"
        if server.reused
        else f"server pid {server.pid}, loaded in {server.load_seconds:.1f} s"
    )
    return replace(provider, base_url=server.base_url, source=f"{provider.source}; {how}"), server


def warm_in_background(server: Any, provider: Provider, slots: int) -> threading.Thread:
    """A new embedded server reads MathChat's fixed prompt while the person types (or
    restores it from an earlier run's saved state), on every slot: the first answer does not
    wait for it. A failure only means the first request reads the prompt itself."""
    from agent.llm.local.start_state import ConversationStart, StartStateError

    model = BamlMathModel.for_provider(provider)
    start = ConversationStart(
        server.root_url, lambda: model.request_body([]), server.saved_states, server.key
    )

    def warm() -> None:
        with contextlib.suppress(StartStateError):
            start.warm()
            for slot in range(1, slots):
                start.on_slot(slot).restore()

    thread = threading.Thread(target=warm, name="warm-prompt", daemon=True)
    thread.start()
    return thread


def checkpoint_hook(writer: SessionWriter, agent: Agent) -> Callable[[bool], None]:
    """The agent's checkpoint hook: hand the writer what changed (it never sees the agent)."""

    def save(turn_complete: bool) -> None:
        writer.checkpoint(
            agent.session,
            agent.model.ledger,
            agent.strategy.name,
            agent.strategy.to_state(),
            turn_complete,
        )

    return save


class ProcessRuntime:
    """Built once per process; `close()` stops every server it started."""

    def __init__(
        self,
        options: RuntimeOptions,
        provider: Provider,
        servers: list[Any],
        local_server: Any | None,
        store: SessionStore | None,
    ) -> None:
        self.options = options
        self.provider = provider
        self.servers = servers
        self.local_server = local_server
        self.store = store
        self.slots = (
            SlotScheduler(options.local_slots)
            if local_server is not None and options.local_slots > 1
            else None
        )
        # Each model's endpoint and slot as last pointed, to re-point it when either changed.
        self._pointed: weakref.WeakKeyDictionary[Any, tuple[str, int | None]] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def start(cls, options: RuntimeOptions) -> ProcessRuntime:
        """Resolve the provider (starting a replay/record/local server if needed) and open the
        store; AgentError with one sentence when nothing usable is configured. Any server
        started before a failure is stopped again."""
        providers.load_env()
        worker.set_pool_size(options.tool_workers)
        servers: list[Any] = []
        try:
            provider, local = _provider(options, servers)
            store = None
            if options.save:
                try:
                    store = open_store(options.db)
                except StoreError as exc:
                    raise AgentError(str(exc)) from None
        except BaseException:
            for server in servers:
                server.stop()
            raise
        if local is not None and not local.reused:
            warm_in_background(local, provider, options.local_slots)
        return cls(options, provider, servers, local, store)

    # -- conversations ----------------------------------------------------------------------

    def new_agent(self, loaded: LoadedSession | None = None, strategy: str | None = None) -> Agent:
        """An agent for a new conversation, or for one loaded from the store."""
        chosen = strategy or choose_strategy(
            self.options, self.provider, loaded.strategy if loaded else None
        )
        model = BamlMathModel.for_provider(self.provider, loaded.ledger if loaded else None)
        agent = Agent(
            model,
            make_strategy(chosen),
            session=loaded.session if loaded else None,
            max_tool_steps=self.options.max_tool_steps,
            compaction_enabled=self.options.compaction,
            aids=SmallModelAids.every() if self.provider.small_model else SmallModelAids(),
        )
        if loaded is not None and loaded.strategy_state:
            agent.strategy.from_state(loaded.strategy_state)
        self._pointed[model] = (self.provider.base_url, None)
        return agent

    def default_strategy(self, saved: str | None = None) -> str:
        return choose_strategy(self.options, self.provider, saved)

    # -- turns ------------------------------------------------------------------------------

    def turn(
        self,
        agent: Agent,
        text: str,
        cancel: CancelToken | None = None,
        on_tool: ToolObserver | None = None,
        on_progress: ProgressObserver | None = None,
        session: str = "",
        on_queue: QueueObserver | None = None,
        notify: Callable[[str], None] | None = None,
    ) -> TurnResult:
        """One turn of `agent` on this process's model: on its session's slot of the embedded
        server when it has several; a turn that failed because that server died is retried
        once on a restarted one, said in one line (`notify`)."""
        result = self._turn_on_slot(agent, text, cancel, on_tool, on_progress, session, on_queue)
        if result.error is None:
            return result
        note = self.revive_local_server()
        if note is None:
            return result
        if notify is not None:
            notify(note)
        if self.local_server is None:  # could not restart: the first failure stands
            return result
        return self._turn_on_slot(agent, text, cancel, on_tool, on_progress, session, on_queue)

    def _turn_on_slot(
        self,
        agent: Agent,
        text: str,
        cancel: CancelToken | None,
        on_tool: ToolObserver | None,
        on_progress: ProgressObserver | None,
        session: str,
        on_queue: QueueObserver | None,
    ) -> TurnResult:
        if self.slots is None:
            self.point(agent)
            return agent.run_turn(text, cancel, on_tool, on_progress)
        with self.slots.slot(session, on_queue) as slot:
            self.point(agent, slot)
            return agent.run_turn(text, cancel, on_tool, on_progress)

    def point(self, agent: Agent, slot: int | None = None) -> None:
        """Point the agent's model at the current endpoint (and slot), if it moved."""
        model = agent.model
        if not isinstance(model, BamlMathModel):
            return  # a test's in-process model has no endpoint
        wanted = (self.provider.base_url, slot)
        if self._pointed.get(model) == wanted:
            return
        provider = self.provider
        if slot is not None:  # llama.cpp's `id_slot`: this request runs on that slot
            provider = replace(
                provider, request_fields={**provider.request_fields, "id_slot": slot}
            )
        model.use_provider(provider)
        self._pointed[model] = wanted

    # -- the embedded server ----------------------------------------------------------------

    def revive_local_server(self) -> str | None:
        """After a failed turn: if the embedded model's server has died (an out-of-memory
        killer, a stray kill), start a new one; models are re-pointed at their next turn.
        Returns the line to show the user, or None when there is nothing to revive."""
        server = self.local_server
        if server is None or server.alive():
            return None
        started = time.perf_counter()
        server.stop()  # drop our lease and the dead instance's state
        self.servers.remove(server)
        self.local_server = None
        try:
            provider, fresh = start_local(
                resolve_provider(provider="local"), self.options.local_slots
            )
        except AgentError as exc:
            return f"The embedded model's server stopped and could not be restarted: {exc.message}"
        self.servers.append(fresh)
        self.local_server = fresh
        self.provider = provider
        seconds = time.perf_counter() - started
        return f"The embedded model's server had stopped; restarted it in {seconds:.1f} s."

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None
        for server in self.servers:
            server.stop()
        self.servers.clear()


def _provider(options: RuntimeOptions, servers: list[Any]) -> tuple[Provider, Any | None]:
    """The provider to talk to, and the embedded model's server when it is talked to directly
    (the runtime supervises it); every server started is appended to `servers`."""
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
        provider, local = start_local(provider, options.local_slots)
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
