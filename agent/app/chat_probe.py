"""Play a chat through one checkout's own runtime and write what each turn cost, as JSON.

Run as a script (`python chat_probe.py --tree DIR ...`), never imported by the app: it puts
DIR first on the import path, so the same file measures today's code and the code of an
older commit checked out in a worktree (`math-agent bench latency --against COMMIT`). It
therefore uses only what every commit since 2026-11-24 has: `build_runtime` (in
`agent.runtime.single`, earlier in `agent.app.runtime`),
`RuntimeOptions`, `Agent.run_turn` (with `on_progress`, which streams answers as the REPL
does), `Agent.tool_runner`, the model's `next_step` and its usage ledger.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


class StepTimer:
    """Stands in for the agent's model: times each MathChat step and the moment its answer's
    first character was decoded (or, for an answer the loop writes itself, was written)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.steps: list[tuple[float, float | None, float]] = []

    def next_step(
        self, messages: Any, abort: Any = None, on_progress: Any = None, *args: Any, **kwargs: Any
    ) -> Any:
        started = time.perf_counter()
        first: list[float] = []

        def progress(step: Any) -> None:
            if not first and getattr(step, "answering", False):
                first.append(time.perf_counter())
            if on_progress is not None:
                on_progress(step)

        try:
            step = self.model.next_step(messages, abort, progress, *args, **kwargs)
            if type(step).__name__ == "AnswerBegun":  # the loop writes the answer now
                first[:] = [time.perf_counter()]
            return step
        finally:
            self.steps.append((started, first[0] if first else None, time.perf_counter()))

    def __getattr__(self, name: str) -> Any:  # ledger, summarize, request_body, ...
        return getattr(self.model, name)


def _calls(ledger: Any, start: int) -> list[dict[str, Any]]:
    return [
        {
            "function": c.function,
            "prompt_tokens": c.input_tokens,
            "cached_tokens": getattr(c, "cached_input_tokens", 0),
            "output_tokens": c.output_tokens,
            "seconds": round(c.duration_ms / 1000, 3),
            "reported": getattr(c, "reported", True),
        }
        for c in ledger.calls[start:]
    ]


def play(messages: list[str], strategy: str | None, base_url: str | None) -> dict[str, Any]:
    """Each message through this checkout's runtime (the embedded model unless `base_url`)."""
    try:  # where the runtime lives since the service came (agent/runtime/)
        from agent.runtime.single import RuntimeOptions, build_runtime
    except ImportError:  # before it
        from agent.app.runtime import RuntimeOptions, build_runtime  # type: ignore[no-redef]

    started = time.perf_counter()
    options = (
        RuntimeOptions(base_url=base_url, strategy=strategy, save=False)
        if base_url
        else RuntimeOptions(provider="local", strategy=strategy, save=False)
    )
    runtime = build_runtime(options)
    startup = time.perf_counter() - started
    agent = runtime.agent
    timer = StepTimer(agent.model)
    agent.model = timer
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
            before, tools_before, steps_before = (
                len(timer.ledger.calls),
                len(tool_seconds),
                len(timer.steps),
            )
            begun = time.perf_counter()
            result = agent.run_turn(text, on_progress=lambda _step: None)
            seconds = time.perf_counter() - begun
            calls = _calls(timer.ledger, before)
            steps = timer.steps[steps_before:]
            last = steps[-1] if steps else None
            reply = result.reply
            turns.append(
                {
                    "turn": number,
                    "message": text,
                    "ok": result.ok,
                    "error": result.error,
                    "answer": reply.text if reply is not None else None,
                    "asked_back": reply is not None and reply.task_status == "PROCESSING",
                    "seconds": round(seconds, 3),
                    "model_seconds": round(sum(c["seconds"] for c in calls), 3),
                    "tool_seconds": round(sum(tool_seconds[tools_before:]), 3),
                    "first_char_s": round(last[1] - last[0], 3) if last and last[1] else None,
                    "answer_step_s": round(last[2] - last[0], 3) if last else None,
                    "calls": calls,
                    "tools": [
                        {"tool": call.tool, "arguments": call.arguments, "result": ran.text}
                        for call, ran in result.tool_runs
                    ],
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
    return {"startup_seconds": round(startup, 3), "turns": turns}


def main() -> int:
    parser = argparse.ArgumentParser(prog="chat_probe.py")
    parser.add_argument("--tree", type=Path, required=True, help="the checkout to measure")
    parser.add_argument("--messages", type=Path, required=True, help="a JSON list of messages")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--strategy", default=None)
    parser.add_argument(
        "--base-url", default=None, help="an endpoint instead of the embedded model"
    )
    args = parser.parse_args()
    tree = args.tree.resolve()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [str(tree)] + [p for p in sys.path if p not in ("", here)]
    os.chdir(tree)
    messages = json.loads(args.messages.read_text())
    args.out.write_text(json.dumps(play(messages, args.strategy, args.base_url), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
