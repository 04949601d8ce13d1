"""One process, one conversation: what the REPL, `ask`, `eval` and `doctor` hold.

A thin view over `ProcessRuntime` (which builds everything) and the session it opened, so
these fronts keep one object to pass around while the wiring exists once.
"""

from __future__ import annotations

from typing import Any

from agent.core.loop import Agent
from agent.errors import AgentError
from agent.llm.providers import Provider
from agent.runtime.options import RuntimeOptions, choose_strategy
from agent.runtime.process import ProcessRuntime, checkpoint_hook
from agent.storage.records import SessionBusy, StoreError, new_session_name
from agent.storage.sql_store import OpenedSession, SessionStore

__all__ = ["Runtime", "RuntimeOptions", "build_runtime", "checkpoint_hook", "choose_strategy"]


class Runtime:
    """A process runtime and the one conversation it serves (saved, or not with --no-save)."""

    def __init__(
        self,
        agent: Agent,
        provider: Provider | None = None,
        process: ProcessRuntime | None = None,
        opened: OpenedSession | None = None,
        name: str | None = None,
    ) -> None:
        self.agent = agent
        self._provider = provider
        self.process = process
        self.opened = opened
        self.name = name

    @property
    def provider(self) -> Provider:
        if self.process is not None:
            return self.process.provider
        assert self._provider is not None
        return self._provider

    @property
    def store(self) -> SessionStore | None:
        return self.process.store if self.process is not None and self.opened else None

    @property
    def resumed(self) -> bool:
        return self.opened is not None and self.opened.loaded.resumed

    @property
    def last_save_error(self) -> str | None:
        return self.opened.writer.last_error if self.opened is not None else None

    @property
    def local_server(self) -> Any | None:
        return self.process.local_server if self.process is not None else None

    @property
    def servers(self) -> list[Any]:
        return self.process.servers if self.process is not None else []

    def revive_local_server(self) -> str | None:
        if self.process is None:
            return None
        note = self.process.revive_local_server()
        self.process.point(self.agent)
        return note

    def close(self) -> None:
        if self.opened is not None:
            self.opened.close()
            self.opened = None
        if self.process is not None:
            self.process.close()


def build_runtime(options: RuntimeOptions) -> Runtime:
    """Start the process runtime and open (or create) the session `options` name; AgentError
    with one sentence when it cannot be used (nothing configured, the session open in another
    REPL, an unusable database). Everything started before a failure is stopped again."""
    process = ProcessRuntime.start(options)
    opened = None
    try:
        if process.store is not None:
            name = options.session or new_session_name()
            try:
                opened = process.store.open(name, process.default_strategy())
            except SessionBusy as exc:
                raise AgentError(str(exc)) from None
            except StoreError as exc:
                raise AgentError(str(exc)) from None
            agent = process.new_agent(opened.loaded)
            agent.on_checkpoint = checkpoint_hook(opened.writer, agent)
        else:
            agent = process.new_agent()
    except BaseException:
        if opened is not None:
            opened.close()
        process.close()
        raise
    return Runtime(agent, process=process, opened=opened, name=opened and opened.writer.name)
