"""`math-agent bench latency`: seconds per turn on the configured model, per strategy.

Tokens are not what a person feels; seconds are. This plays one fixed multi-turn session
(later turns lean on earlier results) through the real runtime — the embedded model unless
another provider is configured — once per strategy, and reports per turn:

- prompt tokens the server read versus took from its prompt cache (llama.cpp reports both;
  a strategy that rewrites the start of the prompt forces a re-read of everything after it),
- the time to the first visible character of the answer, measured from the start of the
  step that produced it (the answer is streamed, as in the REPL), and that step's length,
- the turn's wall time.

`--turns N` plays a longer session: past the model's context window `none` fails (the
prompt no longer fits) while a compacting strategy keeps answering. `--plot FILE.png`
draws seconds per turn per strategy.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baml_py import AbortController

    from agent.llm.model import ProgressObserver, Step, StepProgress
    from agent.llm.step_schema import Wanted
    from baml_client.types import ChatMessage

DEFAULT_STRATEGIES = ("none", "window", "ledger")

# A homework-like session: each polynomial is new, and most turns after the first lean on
# an earlier result, as people chat.
_BASE_TURNS = (
    "Solve the quadratic equation: x^2 - 3x - 10 = 0",
    "Find the derivative of 4x^3 - 2x^2 + 7x - 5",
    "Evaluate that derivative at x = 2",
    "Integrate 6t^2 + 4t from 0 to 2",
    "What is the square of each root from the first question?",
    "Solve 2y^2 + 3y - 2 = 0",
    "Differentiate the left-hand side of that equation",
    "Evaluate 3k^2 - 4k + 1 at k = -3",
    "Find the second derivative of w^4 - 5w^3 + w",
    "What is that second derivative at w = 1?",
    "Integrate 5z^4 - 3 with respect to z",
    "Solve m^2 - 49 = 0",
    "Add the two roots you just found and multiply by 3",
    "Find the derivative of (2x + 1)^3",
    "Evaluate the derivative from the previous answer at x = 0",
    "Integrate 8u^3 from 1 to 2",
    "Solve 3p^2 - 12p = 0",
    "Differentiate p^3 - 6p^2 + 9p",
    "Where is that derivative zero? Solve it",
    "Evaluate p^3 - 6p^2 + 9p at each of those points",
)


# A number a request writes (not an exponent, not zero): shifted in each later round.
_SHIFTED_NUMBER = re.compile(r"(?<![\^\d])[1-9]\d*")


def session_turns(count: int) -> list[str]:
    """`count` turns: the base session, then again with every number but exponents and zeros
    raised by the round (round 1 solves x^2 - 4x - 11 = 0), so that each polynomial stays new.
    Repeated word for word, a request matched its own earlier copy, and a strategy that shows
    earlier tasks a request refers to showed those copies on every turn: a cost no real chat
    has."""
    turns = []
    for i in range(count):
        rounds, base = divmod(i, len(_BASE_TURNS))
        text = _BASE_TURNS[base]
        if rounds:
            text = _SHIFTED_NUMBER.sub(lambda m, r=rounds: str(int(m.group()) + r), text)
        turns.append(text)
    return turns


@dataclass
class TurnTiming:
    turn: int
    ok: bool
    seconds: float
    llm_calls: int
    prompt_tokens: int
    cached_tokens: int
    first_char_s: float | None  # from the start of the answering step
    answer_step_s: float | None
    error: str | None = None
    answer: str | None = None  # what the user read, to check a fast turn was not a wrong one
    output_tokens: int = 0  # decoded by the model in all the turn's calls

    @property
    def read_tokens(self) -> int:
        return self.prompt_tokens - self.cached_tokens


@dataclass
class StrategyTiming:
    strategy: str
    turns: list[TurnTiming] = field(default_factory=list)

    def median_seconds(self) -> float:
        done = [t.seconds for t in self.turns if t.ok]
        return statistics.median(done) if done else float("nan")

    def read_tokens(self) -> int:
        return sum(t.read_tokens for t in self.turns)

    def first_char_share(self) -> float | None:
        """Median of (time to first character / answering step), over turns that streamed."""
        shares = [
            t.first_char_s / t.answer_step_s
            for t in self.turns
            if t.first_char_s is not None and t.answer_step_s
        ]
        return statistics.median(shares) if shares else None


class _StepClock:
    """Wraps the model's MathChat calls: when each started, when its first answer character
    was decoded, when it ended (the REPL's streaming path, measured)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.steps: list[tuple[float, float | None, float]] = []

    def next_step(
        self,
        messages: list[ChatMessage],
        abort: AbortController | None = None,
        on_progress: ProgressObserver | None = None,
        wanted: Wanted = "any",
    ) -> Step:
        """`MathModel.next_step`, timed (same signature: the loop calls it as it calls any
        model)."""
        started = time.perf_counter()
        first: list[float] = []

        def progress(step: StepProgress) -> None:
            if not first and step.answering:
                first.append(time.perf_counter())
            if on_progress is not None:
                on_progress(step)

        try:
            return self.model.next_step(messages, abort, progress, wanted)
        finally:
            self.steps.append((started, first[0] if first else None, time.perf_counter()))

    def __getattr__(self, name: str) -> Any:  # ledger, summarize, extract_user_facts, ...
        return getattr(self.model, name)


def play(strategy: str, turns: list[str], echo: bool) -> StrategyTiming:
    from agent.runtime.single import RuntimeOptions, build_runtime

    runtime = build_runtime(RuntimeOptions(strategy=strategy, save=False))
    timing = StrategyTiming(strategy)
    clock = _StepClock(runtime.agent.model)
    runtime.agent.model = clock
    try:
        for number, text in enumerate(turns, 1):
            ledger = clock.ledger
            calls_before, steps_before = len(ledger.calls), len(clock.steps)
            started = time.perf_counter()
            result = runtime.agent.run_turn(text)
            seconds = time.perf_counter() - started
            calls = ledger.calls[calls_before:]
            steps = clock.steps[steps_before:]
            answer = steps[-1] if steps else None
            timing.turns.append(
                TurnTiming(
                    turn=number,
                    ok=result.ok,
                    seconds=seconds,
                    llm_calls=len(calls),
                    prompt_tokens=sum(c.input_tokens for c in calls),
                    cached_tokens=sum(c.cached_input_tokens for c in calls),
                    first_char_s=(answer[1] - answer[0]) if answer and answer[1] else None,
                    answer_step_s=(answer[2] - answer[0]) if answer else None,
                    error=result.error,
                    answer=result.reply.text if result.reply is not None else None,
                    output_tokens=sum(c.output_tokens for c in calls),
                )
            )
            if echo:
                last = timing.turns[-1]
                print(
                    f"  {strategy} turn {number}: {seconds:.1f} s, read {last.read_tokens} "
                    f"of {last.prompt_tokens} prompt tokens"
                    + ("" if result.ok else f" — {result.error}"),
                    file=sys.stderr,
                )
    finally:
        runtime.close()
    return timing


def report(results: list[StrategyTiming]) -> dict[str, Any]:
    base = next((r for r in results if r.strategy == "none"), None)
    out: dict[str, Any] = {}
    for result in results:
        out[result.strategy] = {
            "median_seconds_per_turn": result.median_seconds(),
            "read_prompt_tokens": result.read_tokens(),
            "read_vs_none": (
                result.read_tokens() / base.read_tokens()
                if base is not None and base.read_tokens()
                else None
            ),
            "first_char_share_of_answer_step": result.first_char_share(),
            "failed_turns": sum(1 for t in result.turns if not t.ok),
            "turns": [asdict(t) for t in result.turns],
        }
    return out


def plot(results: list[StrategyTiming], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(9, 4.5))
    for result in results:
        xs = [t.turn for t in result.turns]
        ys = [t.seconds if t.ok else float("nan") for t in result.turns]
        axis.plot(xs, ys, marker="o", markersize=3, label=result.strategy)
        failed = [t.turn for t in result.turns if not t.ok]
        if failed:
            axis.scatter(failed, [0] * len(failed), marker="x", label=f"{result.strategy} failed")
    axis.set_xlabel("turn")
    axis.set_ylabel("seconds")
    axis.set_title("seconds per turn on the configured model")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="math-agent bench latency",
        description="Seconds per turn, prompt tokens read vs cached and time to the first "
        "answer character, per strategy, on the configured model (default: embedded).",
    )
    parser.add_argument(
        "--strategy", action="append", help="repeatable; default: " + ", ".join(DEFAULT_STRATEGIES)
    )
    parser.add_argument("--turns", type=int, default=20, help="turns in the session (20)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=Path, metavar="FILE.png")
    args = parser.parse_args(argv)
    turns = session_turns(args.turns)
    results = [play(s, turns, echo=True) for s in (args.strategy or DEFAULT_STRATEGIES)]
    summary = report(results)
    if args.plot is not None:
        plot(results, args.plot)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    for name, row in summary.items():
        share = row["first_char_share_of_answer_step"]
        vs = row["read_vs_none"]
        print(
            f"{name:>12}: median {row['median_seconds_per_turn']:.1f} s/turn · read "
            f"{row['read_prompt_tokens']} prompt tokens"
            + (f" ({vs:.2f}x none)" if vs is not None else "")
            + (f" · first char at {share:.0%} of the answer step" if share is not None else "")
            + f" · {row['failed_turns']} failed turn(s)"
        )
    return 0
