"""`math-agent doctor`: which provider would answer, whether it does, and how fast.

Uses the same resolution, runtime and ClientRegistry as `chat`, so what it reports is what a
session gets: for the embedded model it prepares the model and starts (or reuses) its
server, then stops it again. Exit status: 0 healthy, 1 the provider fails, 2 none configured.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from agent.errors import AgentError
from agent.llm.providers import PROVIDER_CHOICES, Provider

if TYPE_CHECKING:
    from agent.runtime.single import Runtime

PROBE = "what is 2 + 3?"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="math-agent doctor", description="Check the model endpoint a session would use."
    )
    parser.add_argument("--provider", choices=PROVIDER_CHOICES, help="force a provider kind")
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (overrides the environment)")
    parser.add_argument("--model", help="model name sent to the endpoint")
    return parser


def context_size(provider: Provider) -> str:
    """Known for the local model; asked of llama.cpp-style servers (/v1/models meta.n_ctx)."""
    if provider.context_size is not None:
        served = _served_context(provider.base_url)
        return f"{served or provider.context_size} tokens"
    if provider.name == "custom":
        served = _served_context(provider.base_url)
        if served:
            return f"{served} tokens (reported by the server)"
    return "unknown (not reported by this provider)"


def _served_context(base_url: str) -> int | None:
    from agent.llm.local.server_manager import http_json

    models = http_json(f"{base_url.rstrip('/')}/models", timeout=3.0)
    if not isinstance(models, dict):
        return None
    for entry in models.get("data", []):
        meta = entry.get("meta") if isinstance(entry, dict) else None
        if isinstance(meta, dict) and isinstance(meta.get("n_ctx"), int):
            return int(meta["n_ctx"])
    return None


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("BAML_LOG", "error")
    args = build_parser().parse_args(argv)
    from agent.runtime.single import RuntimeOptions, build_runtime

    def line(label: str, value: str) -> None:
        print(f"{label:<10} {value}", flush=True)

    options = RuntimeOptions(
        base_url=args.base_url, model=args.model, provider=args.provider, save=False
    )
    started = time.perf_counter()
    try:
        runtime = build_runtime(options)
    except AgentError as exc:
        line("provider", "none")
        print(exc.message, file=sys.stderr)
        return 2
    try:
        provider = runtime.provider
        line("provider", provider.describe())
        line("startup", f"{time.perf_counter() - started:.1f} s")
        line("model", provider.model)
        if provider.is_local:
            from agent.llm.local.weights import model_path

            line("file", f"{model_path()} (sha256 verified)")
        line("context", context_size(provider))
        line("strategy", runtime.agent.strategy.name)
        return _probe(runtime, line)
    finally:
        runtime.close()


def _probe(runtime: Runtime, line: Callable[[str, str], None]) -> int:
    """One tiny MathChat call through the session's registry; its latency and result."""
    from baml_client.types import ChatMessage

    model = runtime.agent.model
    started = time.perf_counter()
    try:
        step = model.next_step([ChatMessage(role="user", content=PROBE)])
    except AgentError as exc:
        line("answers", f"no: {exc.message}")
        return 1
    except Exception as exc:  # a doctor reports, it does not crash
        line("answers", f"no: {type(exc).__name__}: {exc}")
        return 1
    seconds = time.perf_counter() - started
    kind = getattr(step, "tool", None) or type(step).__name__
    line("answers", f"yes: MathChat({PROBE!r}) -> {kind}")
    line("latency", f"{seconds:.1f} s for one MathChat call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
