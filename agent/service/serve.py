"""`math-agent serve`: start the HTTP service (the API and the chat page) on one process.

Run several of these on one PostgreSQL (MATH_AGENT_DATABASE_URL) behind a load balancer to
serve more people; each prints one start-up line saying where it listens, which model
answers and which session store it uses (docs/service.md).
"""

from __future__ import annotations

import argparse
import os
import sys

DEFAULT_PORT = 8000


def build_parser() -> argparse.ArgumentParser:
    from agent.context.registry import STRATEGIES
    from agent.llm.providers import PROVIDER_CHOICES

    parser = argparse.ArgumentParser(
        prog="math-agent serve",
        description="The math assistant as an HTTP service with a chat page (docs/service.md).",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: loopback)"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default=None,
                        help="context strategy of new sessions (default: the provider's)")  # fmt: skip
    parser.add_argument("--provider", choices=PROVIDER_CHOICES, default=None)
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (overrides the environment)")
    parser.add_argument("--model", help="model name sent to the endpoint")
    parser.add_argument("--db", help="SQLite file when MATH_AGENT_DATABASE_URL is not set")
    parser.add_argument("--max-turns", type=int, default=16,
                        help="turns this process runs at once (default 16)")  # fmt: skip
    parser.add_argument("--tool-workers", type=int, default=4,
                        help="SymPy worker processes (default 4)")  # fmt: skip
    parser.add_argument("--slots", type=int, default=4,
                        help="parallel slots of the embedded model (default 4)")  # fmt: skip
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # BAML logs whole prompts at INFO and WARN: a service log must not hold what people wrote.
    os.environ["BAML_LOG"] = "off"
    try:
        import uvicorn

        from agent.service.app import create_app
    except ImportError:
        print(
            "The service needs its extra: pip install -e '.[service]' (and '.[postgres]' for "
            "PostgreSQL).",
            file=sys.stderr,
        )
        return 2
    from pathlib import Path

    from agent.errors import AgentError
    from agent.runtime.options import RuntimeOptions
    from agent.runtime.process import ProcessRuntime
    from agent.service import logs
    from agent.service.auth import ConfigError, Users, is_loopback
    from agent.service.hub import SessionHub

    try:
        users = Users.from_environment()
        if users.open and not is_loopback(args.host):
            raise ConfigError(
                f"Listening on {args.host} needs tokens: set MATH_AGENT_TOKENS (or "
                "MATH_AGENT_TOKENS_FILE), or keep the default --host 127.0.0.1."
            )
        rate = os.environ.get("MATH_AGENT_RATE_LIMIT", "").strip() or "120/minute"
        body = int(os.environ.get("MATH_AGENT_MAX_BODY_BYTES", "") or 64 * 1024)
        origins = tuple(
            o.strip() for o in os.environ.get("MATH_AGENT_CORS_ORIGINS", "").split(",") if o.strip()
        )
    except (ConfigError, ValueError) as exc:
        print(str(exc), file=sys.stderr)
        return 2
    options = RuntimeOptions(
        strategy=args.strategy,
        base_url=args.base_url,
        model=args.model,
        provider=args.provider,
        db=Path(args.db) if args.db else None,
        tool_workers=max(1, args.tool_workers),
        local_slots=max(1, args.slots),
    )
    try:
        runtime = ProcessRuntime.start(options)
    except AgentError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    assert runtime.store is not None
    logs.setup()
    try:
        hub = SessionHub(runtime, max_turns=max(1, args.max_turns))
        app = create_app(hub, users, rate, body, origins)
        count = len(runtime.store.sessions())
        who = "no tokens (this machine only)" if users.open else f"{len(users)} users"
        print(
            f"math-agent serve · http://{args.host}:{args.port}/ · model: {runtime.provider.name} "
            f"{runtime.provider.model} · sessions: {runtime.store.describe()} ({count}) · "
            f"auth: {who}",
            file=sys.stderr,
            flush=True,
        )
        logs.event(
            "start",
            host=args.host,
            port=args.port,
            store=runtime.store.kind,
            provider=runtime.provider.name,
            users=len(users),
            workers=options.tool_workers,
            slots=options.local_slots if runtime.slots else 1,
        )
        config = uvicorn.Config(
            app,
            host=args.host,
            port=args.port,
            log_config=None,
            access_log=False,
            timeout_graceful_shutdown=30,
            timeout_keep_alive=30,
            backlog=512,
        )
        uvicorn.Server(config).run()
    finally:
        hub.close()
        runtime.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
