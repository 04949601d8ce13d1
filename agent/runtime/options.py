"""The choices a process is started with (command-line flags and their defaults)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from agent.context.registry import DEFAULT_STRATEGY
from agent.core.loop import DEFAULT_MAX_TOOL_STEPS
from agent.llm.providers import Provider


@dataclass
class RuntimeOptions:
    # None: the provider's default strategy (window for the local model), else the global.
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
    db: Path | None = None  # the SQLite file (MATH_AGENT_DATABASE_URL picks PostgreSQL)
    save: bool = True
    # Tool processes run side by side (the REPL needs one; a service one per busy turn).
    tool_workers: int = 1
    # Parallel slots of the embedded model's server (a service serving several sessions).
    local_slots: int = 1


def choose_strategy(options: RuntimeOptions, provider: Provider, saved: str | None = None) -> str:
    """--strategy, else the resumed session's, else the provider's default, else the global."""
    return options.strategy or saved or provider.default_strategy or DEFAULT_STRATEGY
