"""Bring the embedded model up for a REPL: verify or assemble it, then start or reuse its
server, with progress shown on stderr (nothing when stderr is not a terminal)."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TransferSpeedColumn,
)

from agent.llm.local.server_manager import CommandFactory, LocalServer, ServerError, serve_command
from agent.llm.local.settings import LOCAL_MODEL, LOCAL_SETTINGS, GenerationSettings, ModelSpec
from agent.llm.local.weights import ModelError, ensure_model, model_available, model_dir

INSTALL_HINT = "run `make chat` (which installs it) or `pip install -e '.[local]'`"


def local_disabled() -> bool:
    """MATH_AGENT_LOCAL=0 turns the embedded fallback off (CI, people who want an error)."""
    return os.environ.get("MATH_AGENT_LOCAL", "").strip().lower() in ("0", "off", "no", "false")


def xllamacpp_installed() -> bool:
    return importlib.util.find_spec("xllamacpp") is not None


def unavailable_reason(spec: ModelSpec = LOCAL_MODEL) -> str | None:
    """Why the embedded model cannot run, or None when it can (cheap: nothing is loaded)."""
    if local_disabled():
        return "the embedded model is turned off by MATH_AGENT_LOCAL=0"
    if not xllamacpp_installed():
        return "the `local` extra (xllamacpp) is not installed"
    if not model_available(spec):
        return f"the model {spec.name} is neither in {model_dir()} nor installed as parts"
    return None


def _console() -> Console:
    return Console(stderr=True, highlight=False)


def prepare_model(spec: ModelSpec = LOCAL_MODEL, console: Console | None = None) -> Path:
    """The verified model file; assembles it (once, with a progress bar) when needed."""
    console = console or _console()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("checking the local model", total=spec.size)

        def assembling() -> None:
            bar.update(task, description=f"assembling {spec.name}", completed=0)

        path = ensure_model(
            spec,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            on_assemble=assembling,
        )
    return path


def start_server(
    spec: ModelSpec = LOCAL_MODEL,
    settings: GenerationSettings = LOCAL_SETTINGS,
    console: Console | None = None,
    command: CommandFactory | None = None,
) -> LocalServer:
    """Assemble if needed, then reuse or start the server; raises ModelError/ServerError."""
    console = console or _console()
    path = prepare_model(spec, console)
    with Progress(
        SpinnerColumn(),
        TextColumn("[bold]{task.description}"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task(f"loading {spec.name} ({settings.threads} threads)", total=None)
        server = LocalServer(
            path,
            spec,
            settings,
            command=command or serve_command,  # looked up now, so tests can swap in a stub
            on_wait=lambda _elapsed: bar.update(task, advance=0),
        )
        server.start()
    return server


__all__ = [
    "INSTALL_HINT",
    "ModelError",
    "ServerError",
    "local_disabled",
    "prepare_model",
    "start_server",
    "unavailable_reason",
]
