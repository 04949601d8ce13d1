"""Play a chat through one checkout's own runtime and write what each turn cost, as JSON.

Run as a script (`python chat_probe.py --tree DIR ...`), never imported by the app: it puts
DIR first on the import path, so the same file measures today's code and the code of an
older commit checked out in a worktree (`math-agent bench latency --against COMMIT`). It
therefore uses only what every commit since 2026-11-24 has: `build_runtime`,
`RuntimeOptions`, `Agent.run_turn`, `Agent.tool_runner` and the usage ledger's calls.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def _calls_of(ledger: Any, start: int) -> list[dict[str, Any]]:
    return [
        {
            "function": c.function,
            "prompt_tokens": c.input_tokens,
            "cached_tokens": getattr(c, "cached_input_tokens", 0),
            "output_tokens": c.output_tokens,
            "seconds": round(c.duration_ms / 1000, 3),
        }
        for c in ledger.calls[start:]
    ]


def play(tree: Path, messages: list[str], strategy: str | None) -> dict[str, Any]:
    """Each message through `tree`'s runtime on the embedded model, timed."""
    from agent.app.runtime import RuntimeOptions, build_runtime

    started = time.perf_counter()
    runtime = build_runtime(RuntimeOptions(provider="local", strategy=strategy, save=False))
    startup = time.perf_counter() - started
    agent = runtime.agent
    tool_seconds: list[float] = []
    run_tool = agent.tool_runner

    def timed_tool(step: Any) -> Any:
        begun = time.perf_counter()
        try:
            return run_tool(step)
        finally:
            tool_seconds.append(time.perf_counter() - begun)

    agent.tool_runner = timed_tool
    turns = []
    try:
        for number, text in enumerate(messages, 1):
            ledger = agent.model.ledger
            before, tools_before = len(ledger.calls), len(tool_seconds)
            begun = time.perf_counter()
            result = agent.run_turn(text, on_progress=lambda _step: None)
            seconds = time.perf_counter() - begun
            calls = _calls_of(ledger, before)
            tools = [
                {"tool": call.tool, "arguments": call.arguments, "result": ran.text}
                for call, ran in result.tool_runs
            ]
            reply = result.reply.text if result.reply is not None else None
            turns.append(
                {
                    "turn": number,
                    "message": text,
                    "ok": result.ok,
                    "error": result.error,
                    "answer": reply,
                    "seconds": round(seconds, 3),
                    "model_seconds": round(sum(c["seconds"] for c in calls), 3),
                    "tool_seconds": round(sum(tool_seconds[tools_before:]), 3),
                    "calls": calls,
                    "tools": tools,
                }
            )
            print(
                f"  turn {number}: {seconds:.1f} s, {len(calls)} calls"
                + ("" if result.ok else f" ({result.error})"),
                file=sys.stderr,
                flush=True,
            )
    finally:
        runtime.close()
    return {"startup_seconds": round(startup, 3), "strategy": strategy, "turns": turns}


def main() -> int:
    parser = argparse.ArgumentParser(prog="chat_probe.py")
    parser.add_argument("--tree", type=Path, required=True, help="the checkout to measure")
    parser.add_argument("--chat", type=Path, required=True, help="one message per line")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--strategy", default=None)
    args = parser.parse_args()
    tree = args.tree.resolve()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [str(tree)] + [p for p in sys.path if p not in ("", here)]
    os.chdir(tree)
    messages = [line.strip() for line in args.chat.read_text().splitlines() if line.strip()]
    record = play(tree, messages, args.strategy)
    args.out.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
