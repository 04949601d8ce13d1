"""Assemble an Agent from command-line choices: provider, replay/record server, strategy.

Kept apart from the REPL so that `chat`, `ask` and the tests build agents the same way, and
so that every server this starts is stopped by `close()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.loop import DEFAULT_MAX_TOOL_STEPS, Agent
from agent.model import BamlMathModel
from agent.providers import Provider, load_env, resolve_provider
from agent.strategies import DEFAULT_STRATEGY, make_strategy


@dataclass
class RuntimeOptions:
    strategy: str = DEFAULT_STRATEGY
    compaction: bool = True
    base_url: str | None = None
    model: str | None = None
    record: Path | None = None
    replay: Path | None = None
    max_tool_steps: int = DEFAULT_MAX_TOOL_STEPS


@dataclass
class Runtime:
    agent: Agent
    provider: Provider
    servers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        for server in self.servers:
            server.stop()
        self.servers.clear()


def build_runtime(options: RuntimeOptions) -> Runtime:
    """Resolve the provider (starting a replay/record server if asked) and build the agent.

    Raises AgentError with one actionable sentence when nothing usable is configured.
    """
    load_env()
    servers: list[Any] = []
    if options.replay is not None:
        from agent.replay import Cassette, ReplayResponder, start

        server = start(ReplayResponder(Cassette.load(options.replay)))
        servers.append(server)
        provider = Provider(
            "replay", server.base_url, "replay", None, f"--replay {options.replay}", retries=False
        )
    else:
        provider = resolve_provider(base_url=options.base_url, model=options.model)
        if options.record is not None:
            from agent.replay import Cassette, RecordResponder, start

            responder = RecordResponder(
                Cassette.load(options.record),
                provider.base_url,
                provider.api_key or "no-key",
                provider.model,
            )
            server = start(responder)
            servers.append(server)
            provider = Provider(
                f"record via {provider.name}",
                server.base_url,
                provider.model,
                None,
                f"--record {options.record}",
            )
    model = BamlMathModel(provider.client_registry(), provider.base_url)
    agent = Agent(
        model,
        make_strategy(options.strategy),
        max_tool_steps=options.max_tool_steps,
        compaction_enabled=options.compaction,
    )
    return Runtime(agent=agent, provider=provider, servers=servers)
