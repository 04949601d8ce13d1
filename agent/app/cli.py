"""`math-agent` command line: chat, ask, doctor, eval, bench.

BAML's log level is set before baml_client is first imported: at INFO it prints every
prompt, and even WARN prints the whole prompt of a failed call, which would bury the one
sentence the REPL shows. `BAML_LOG=warn math-agent chat` brings those back for debugging.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def _add_runtime_flags(parser: argparse.ArgumentParser) -> None:
    from agent.context.registry import DEFAULT_STRATEGY, STRATEGIES
    from agent.llm.providers import PROVIDER_CHOICES

    parser.add_argument(
        "--strategy",
        choices=sorted(STRATEGIES),
        default=None,
        help="context strategy (default: the resumed session's, else the provider's: "
        f"window for the local model, {DEFAULT_STRATEGY} otherwise)",
    )
    parser.add_argument(
        "--provider",
        choices=PROVIDER_CHOICES,
        default=None,
        help="endpoint kind (default: auto = flags, environment/.env, then the local model)",
    )
    parser.add_argument(
        "--facts",
        action="store_true",
        help="remember durable user facts and preferences (one extra LLM call per message)",
    )
    parser.add_argument(
        "--no-compact", action="store_true", help="never compact the working context"
    )
    parser.add_argument("--base-url", help="OpenAI-compatible endpoint (overrides the environment)")
    parser.add_argument("--model", help="model name sent to the endpoint")
    parser.add_argument("--max-steps", type=int, default=8, help="tool calls allowed per message")
    parser.add_argument(
        "--session", metavar="NAME", help="resume (or start) the saved session NAME"
    )
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="session database (default: $MATH_AGENT_DB or "
        "~/.local/share/math-agent/sessions.sqlite3)",
    )
    parser.add_argument("--no-save", action="store_true", help="do not save this conversation")
    parser.add_argument(
        "--raw",
        action="store_true",
        help="show answers as stored (x**2, sqrt(2)) instead of readable math (x², √2); "
        "piped output is always as stored",
    )
    replay = parser.add_mutually_exclusive_group()
    replay.add_argument("--record", type=Path, metavar="FILE", help="record LLM calls to FILE")
    replay.add_argument(
        "--replay", type=Path, metavar="FILE", help="answer from recorded FILE, offline"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="math-agent", description="A conversational math assistant (BAML + SymPy)."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    chat = commands.add_parser("chat", help="interactive chat (reads lines when piped)")
    _add_runtime_flags(chat)
    ask = commands.add_parser("ask", help="answer one message and exit (status 1 on failure)")
    ask.add_argument("message")
    _add_runtime_flags(ask)
    # `doctor` parses its own options (agent.app.doctor), like `bench`.
    commands.add_parser(
        "doctor",
        help="which provider answers, its model, context size and one-call latency",
        add_help=False,
    )
    commands.add_parser(
        "eval",
        help="question sets through the real agent on the configured model, judged by SymPy "
        "('eval [--set S] [--part dev|test] [--seed N | --seeds 1,2,3] [--subset ci] [--json]'; --help after it)",
        add_help=False,
    )
    # `serve` parses its own options (agent.service.serve).
    commands.add_parser(
        "serve",
        help="the HTTP service and chat page ('serve [--host H] [--port P] ...'; --help after it)",
        add_help=False,
    )
    # `bench` passes everything after it to the benchmark's own parser (see run_bench).
    commands.add_parser(
        "bench",
        help="benchmarks: 'bench [context] [--json] [--plot F.png] ...' (context strategies, "
        "the default), 'bench tools [--json]' (SymPy latency), 'bench latency' (seconds per "
        "turn on the configured model, per strategy) or 'bench serve' (the HTTP service under "
        "load and faults); --help after any",
        add_help=False,
    )
    return parser


def run_bench(rest: list[str]) -> int:
    """`bench tools ...` -> agent.bench.tools_latency; `bench latency ...` ->
    agent.app.latency; `bench [context] ...` -> agent.bench."""
    if rest[:1] == ["latency"]:
        from agent.app import latency

        return latency.main(rest[1:])
    if rest[:1] == ["serve"]:
        from agent.bench import serve_load

        return serve_load.main(rest[1:])
    if rest[:1] == ["tools"]:
        from agent.bench import tools_latency as tools_bench

        return tools_bench.main(rest[1:])
    from agent import bench as context_bench

    return context_bench.main(rest[1:] if rest[:1] == ["context"] else rest)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("BAML_LOG", "error")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:
        return run_bench(argv[1:])
    if argv[:1] == ["serve"]:
        from agent.service import serve

        return serve.main(argv[1:])
    if argv[:1] == ["eval"]:
        from agent.app import evaluate

        return evaluate.main(argv[1:])
    if argv[:1] == ["doctor"]:
        from agent.app import doctor

        return doctor.main(argv[1:])
    args = build_parser().parse_args(argv)
    from agent.app.repl import ask, chat
    from agent.context.registry import DEFAULT_STRATEGY
    from agent.errors import AgentError
    from agent.runtime.single import RuntimeOptions, build_runtime

    options = RuntimeOptions(
        strategy=(f"{args.strategy or DEFAULT_STRATEGY}+facts" if args.facts else args.strategy),
        compaction=not args.no_compact,
        base_url=args.base_url,
        model=args.model,
        record=args.record,
        replay=args.replay,
        max_tool_steps=args.max_steps,
        provider=args.provider,
        session=args.session,
        db=args.db,
        # `ask` is one-shot: saved only when a session is named.
        save=not args.no_save and (args.command == "chat" or args.session is not None),
    )
    try:
        runtime = build_runtime(options)
    except AgentError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    try:
        if args.command == "ask":
            return ask(runtime, args.message, raw=args.raw)
        return chat(runtime, raw=args.raw)
    finally:
        runtime.close()


if __name__ == "__main__":
    sys.exit(main())
