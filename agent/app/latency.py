"""`math-agent bench latency`: seconds per turn on the configured model, and against a commit.

Tokens are not what a person feels; seconds are. This plays one fixed chat through the real
runtime (the embedded model unless `--base-url` names another endpoint), as the REPL runs it
(answers streamed), once per strategy, and reports per turn and per call:

- prompt tokens the server read fresh versus took from its prompt cache, tokens decoded,
  and each call's seconds (extra calls show: a repair, a re-ask, a recall);
- the time outside the model (tools, the workspace, the loop);
- the time to the answer's first character, from the start of the step that produced it;
- whether the answer was right, by the eval's judge: a fast turn must not be a wrong one.

The chat is `agent/bench/data/ordinary-chat.json` (20 ordinary messages, not an eval set);
`--turns N` past its end continues with a generated homework session whose numbers change
every round. `--against COMMIT` plays the same chat with the code of COMMIT too, checked out
in a temporary worktree and run on the same environment in the same sitting, and reports
the ratio of the wall times. `--rounds N` plays every side N times, interleaved (this code,
the commit, this code, ...), and reports the median of the rounds' ratios with their range:
the same code played twice in one sitting differs by about a tenth, and where a run decides a
near tie the other way it takes another path. Each side runs in a process of its own through
`agent/app/chat_probe.py`, which only uses what every commit since 2026-11-24 has.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.eval.cases import Expected, load_file
from agent.eval.judge import judge

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("chat_probe.py")
ORDINARY_CHAT = ROOT / "agent" / "bench" / "data" / "ordinary-chat.json"
DEFAULT_STRATEGIES = ("window",)

# After the ordinary chat, a homework-like session: each polynomial is new, and most turns
# lean on an earlier result, as people chat.
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


@dataclass(frozen=True)
class ChatTurn:
    text: str
    expected: Expected | None = None


def ordinary_chat(path: Path = ORDINARY_CHAT) -> list[ChatTurn]:
    _name, cases = load_file(path)
    return [ChatTurn(t.text, t.expected) for case in cases for t in case.turns]


def session_turns(count: int, chat: list[ChatTurn] | None = None) -> list[ChatTurn]:
    """`count` turns: the chat, then the homework session again and again with every number
    but exponents and zeros raised by the round (round 1 solves x^2 - 4x - 11 = 0), so that
    each polynomial stays new. Repeated word for word, a request matched its own earlier copy,
    a cost no real chat has. Those turns are not judged."""
    chat = ordinary_chat() if chat is None else chat
    turns = list(chat[:count])
    for i in range(count - len(turns)):
        rounds, base = divmod(i, len(_BASE_TURNS))
        text = _BASE_TURNS[base]
        if rounds:
            text = _SHIFTED_NUMBER.sub(lambda m, r=rounds: str(int(m.group()) + r), text)
        turns.append(ChatTurn(text))
    return turns


@dataclass
class CallCost:
    function: str
    prompt_tokens: int
    cached_tokens: int
    output_tokens: int
    seconds: float
    # False: the server reported no tokens (a stream cut where the answer began), so what it
    # read fresh is unknown and left out of the fresh totals (the call's seconds still count).
    reported: bool = True

    @property
    def fresh_tokens(self) -> int:
        return self.prompt_tokens - self.cached_tokens if self.reported else 0


@dataclass
class TurnTiming:
    turn: int
    message: str
    ok: bool
    seconds: float
    model_seconds: float = 0.0
    tool_seconds: float = 0.0
    first_char_s: float | None = None  # from the start of the step that answered
    answer_step_s: float | None = None
    calls: list[CallCost] = field(default_factory=list)
    answer: str | None = None
    asked_back: bool = False
    error: str | None = None
    right: bool | None = None  # by the eval's judge; None when the turn is not judged
    why: str = ""

    @property
    def fresh_tokens(self) -> int:
        return sum(c.fresh_tokens for c in self.calls)

    @property
    def outside_seconds(self) -> float:
        """What the turn spent outside the model: tools, the workspace, the loop."""
        return max(0.0, self.seconds - self.model_seconds)


@dataclass
class Run:
    """One strategy played by one checkout (`label`: "this code" or a commit)."""

    label: str
    strategy: str
    startup_seconds: float = 0.0
    round: int = 1
    turns: list[TurnTiming] = field(default_factory=list)
    error: str | None = None

    @property
    def total_seconds(self) -> float:
        return sum(t.seconds for t in self.turns)

    def median_seconds(self) -> float:
        done = [t.seconds for t in self.turns if t.ok]
        return statistics.median(done) if done else float("nan")

    def fresh_tokens(self) -> int:
        return sum(t.fresh_tokens for t in self.turns)

    def right(self) -> tuple[int, int]:
        judged = [t for t in self.turns if t.right is not None]
        return sum(1 for t in judged if t.right), len(judged)

    def first_char_share(self) -> float | None:
        """Median of (time to the first answer character / that step's length)."""
        shares = [
            t.first_char_s / t.answer_step_s
            for t in self.turns
            if t.first_char_s is not None and t.answer_step_s
        ]
        return statistics.median(shares) if shares else None

    def first_char_seconds(self) -> float | None:
        times = [t.first_char_s for t in self.turns if t.first_char_s is not None]
        return statistics.median(times) if times else None


def judged(turns: list[TurnTiming], chat: list[ChatTurn]) -> list[TurnTiming]:
    """Each turn with an expectation, judged as `math-agent eval` judges it."""
    for timing, asked in zip(turns, chat, strict=False):
        if asked.expected is None:
            continue
        if not timing.ok or timing.answer is None:
            timing.right, timing.why = False, timing.error or "no answer"
            continue
        verdict = judge(timing.answer, timing.asked_back, asked.expected, asked.text)
        timing.right, timing.why = verdict.ok, verdict.why
    return turns


def from_probe(label: str, strategy: str, record: dict[str, Any]) -> Run:
    run = Run(label, strategy, float(record.get("startup_seconds", 0.0)))
    for raw in record.get("turns", []):
        calls = [CallCost(**c) for c in raw.get("calls", [])]
        run.turns.append(
            TurnTiming(
                turn=raw["turn"],
                message=raw["message"],
                ok=raw["ok"],
                seconds=raw["seconds"],
                model_seconds=raw.get("model_seconds", 0.0),
                tool_seconds=raw.get("tool_seconds", 0.0),
                first_char_s=raw.get("first_char_s"),
                answer_step_s=raw.get("answer_step_s"),
                calls=calls,
                answer=raw.get("answer"),
                asked_back=bool(raw.get("asked_back")),
                error=raw.get("error"),
            )
        )
    return run


def play(
    tree: Path,
    label: str,
    strategy: str,
    chat: list[ChatTurn],
    base_url: str | None = None,
    round_number: int = 1,
) -> Run:
    """The chat through `tree`'s code, in a process of its own (chat_probe.py)."""
    with tempfile.TemporaryDirectory(prefix="bench-latency-") as scratch:
        messages, out = Path(scratch, "messages.json"), Path(scratch, "out.json")
        messages.write_text(json.dumps([t.text for t in chat]))
        command = [sys.executable, str(PROBE), "--tree", str(tree), "--messages", str(messages)]
        command += ["--out", str(out), "--strategy", strategy]
        command += ["--base-url", base_url] if base_url else []
        print(f"{label} ({strategy}, round {round_number}):", file=sys.stderr, flush=True)
        done = subprocess.run(command, stderr=None, check=False)
        if done.returncode != 0 or not out.exists():
            error = f"the probe exited with {done.returncode}"
            return Run(label, strategy, round=round_number, error=error)
        run = from_probe(label, strategy, json.loads(out.read_text()))
    run.round = round_number
    run.turns = judged(run.turns, chat)
    return run


@contextlib.contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """COMMIT checked out beside this one (removed afterwards); git says why it cannot be."""
    path = Path(tempfile.mkdtemp(prefix="bench-latency-tree-")) / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(path), commit],
        check=True,
        capture_output=True,
        text=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
            check=False,
            capture_output=True,
        )


def commit_of(tree: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    dirty = subprocess.run(
        ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True,
        text=True,
        check=False,
    )
    return (done.stdout.strip() or "unknown") + ("+changes" if dirty.stdout.strip() else "")


def summary(run: Run) -> dict[str, Any]:
    right, judged_turns = run.right()
    calls = [c for t in run.turns for c in t.calls]
    return {
        "code": run.label,
        "strategy": run.strategy,
        "round": run.round,
        "error": run.error,
        "total_seconds": round(run.total_seconds, 1),
        "median_seconds_per_turn": run.median_seconds(),
        "failed_turns": sum(1 for t in run.turns if not t.ok),
        "right": f"{right}/{judged_turns}",
        "llm_calls": len(calls),
        "prompt_tokens": sum(c.prompt_tokens for c in calls),
        "fresh_prompt_tokens": run.fresh_tokens(),
        "calls_without_reported_tokens": sum(1 for c in calls if not c.reported),
        "decoded_tokens": sum(c.output_tokens for c in calls),
        "model_seconds": round(sum(t.model_seconds for t in run.turns), 1),
        "outside_model_seconds": round(sum(t.outside_seconds for t in run.turns), 2),
        "tool_seconds": round(sum(t.tool_seconds for t in run.turns), 2),
        "first_char_share_of_answer_step": run.first_char_share(),
        "first_char_seconds": run.first_char_seconds(),
        "startup_seconds": run.startup_seconds,
        "turns": [_turn_json(t) for t in run.turns],
    }


def _turn_json(turn: TurnTiming) -> dict[str, Any]:
    return {
        "turn": turn.turn,
        "message": turn.message,
        "ok": turn.ok,
        "seconds": turn.seconds,
        "outside_model_seconds": round(turn.outside_seconds, 3),
        "first_char_s": turn.first_char_s,
        "answer_step_s": turn.answer_step_s,
        "right": turn.right,
        "answer": turn.answer,
        "calls": [c.__dict__ for c in turn.calls],
    }


def report(runs: list[Run]) -> dict[str, Any]:
    """Every run; with other checkouts, each strategy's wall-time ratio (this code / each):
    the median over the rounds, and with more than one round their range (`spread`)."""
    out: dict[str, Any] = {"runs": [summary(r) for r in runs]}
    labels = list(dict.fromkeys(r.label for r in runs))
    rounds = sorted({r.round for r in runs})
    ratios = []
    for other_label in labels[1:]:
        by_strategy: dict[str, float] = {}
        spread: dict[str, list[float]] = {}
        for strategy in dict.fromkeys(r.strategy for r in runs):
            per_round = [
                ratio
                for number in rounds
                if (ratio := _ratio(runs, labels[0], other_label, strategy, number)) is not None
            ]
            if per_round:
                by_strategy[strategy] = round(statistics.median(per_round), 3)
                spread[strategy] = [min(per_round), max(per_round)]
        entry: dict[str, Any] = {"of": labels[0], "to": other_label, "by_strategy": by_strategy}
        if len(rounds) > 1:
            entry["rounds"] = len(rounds)
            entry["spread"] = spread
        ratios.append(entry)
    if ratios:
        out["wall_time_ratios"] = ratios
    return out


def _ratio(runs: list[Run], mine: str, other: str, strategy: str, number: int) -> float | None:
    """This code's wall time over the other's, for one strategy in one round; None when
    either run is missing or failed."""
    first, second = (
        next((r for r in runs if (r.label, r.strategy, r.round) == (label, strategy, number)), None)
        for label in (mine, other)
    )
    if first is None or second is None or first.error or second.error:
        return None
    if not second.total_seconds:
        return None
    return round(first.total_seconds / second.total_seconds, 3)


def print_report(out: dict[str, Any]) -> None:
    for run in out["runs"]:
        if run["error"]:
            print(f"{run['code']} {run['strategy']}: {run['error']}")
            continue
        share = run["first_char_share_of_answer_step"]
        print(
            f"{run['code']} {run['strategy']}: {run['total_seconds']:.0f} s in all, median "
            f"{run['median_seconds_per_turn']:.1f} s/turn, right {run['right']}, "
            f"{run['llm_calls']} calls, {run['fresh_prompt_tokens']} prompt tokens read fresh "
            f"of {run['prompt_tokens']}, {run['decoded_tokens']} decoded, "
            f"{run['outside_model_seconds']:.1f} s outside the model"
            + (f", first answer character at {share:.0%} of its step" if share else "")
            + f", {run['failed_turns']} failed turn(s)"
        )
        if unreported := run.get("calls_without_reported_tokens"):
            print(
                f"  {unreported} call(s) cut where the answer began reported no tokens: "
                "their fresh prompt tokens are not in the count, their seconds are"
            )
    for ratio in out.get("wall_time_ratios", []):
        for strategy, value in ratio["by_strategy"].items():
            low, high = ratio.get("spread", {}).get(strategy, (value, value))
            rounds = ratio.get("rounds", 1)
            over = f" (median of {rounds} rounds, {low:.2f}-{high:.2f})" if rounds > 1 else ""
            print(
                f"{strategy}: {ratio['of']} takes {value:.2f}x the wall time of {ratio['to']}{over}"
            )


def plot(runs: list[Run], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(9, 4.5))
    several = len({r.round for r in runs}) > 1
    for run in runs:
        xs = [t.turn for t in run.turns]
        ys = [t.seconds if t.ok else float("nan") for t in run.turns]
        label = f"{run.label} {run.strategy}" + (f" round {run.round}" if several else "")
        axis.plot(xs, ys, marker="o", markersize=3, label=label)
    axis.set_xlabel("turn")
    axis.set_ylabel("seconds")
    axis.set_title("seconds per turn on the configured model")
    axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="math-agent bench latency",
        description="Seconds per turn of an ordinary chat on the configured model (default: "
        "the embedded one): prompt tokens read fresh and cached, calls, time outside the "
        "model, the first answer character, answers judged; --against COMMIT (repeatable) plays "
        "the same chat with that commit's code too and reports the ratio.",
    )
    parser.add_argument(
        "--strategy", action="append", help="repeatable; default: " + ", ".join(DEFAULT_STRATEGIES)
    )
    parser.add_argument(
        "--turns", type=int, default=None, help="turns (default: the chat's 20; more continue it)"
    )
    parser.add_argument("--chat", type=Path, default=ORDINARY_CHAT, help="a case file to play")
    parser.add_argument(
        "--against",
        metavar="COMMIT",
        action="append",
        default=[],
        help="also play it with COMMIT's code (repeatable)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="play every side this many times, interleaved; the ratio is their median",
    )
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint instead")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=Path, metavar="FILE.png")
    args = parser.parse_args(argv)
    chat = ordinary_chat(args.chat)
    turns = session_turns(args.turns if args.turns is not None else len(chat), chat)
    strategies = args.strategy or list(DEFAULT_STRATEGIES)
    runs: list[Run] = []
    with contextlib.ExitStack() as stack:
        trees = [(ROOT, commit_of(ROOT))]
        for commit in args.against:
            try:
                other = stack.enter_context(worktree(commit))
            except subprocess.CalledProcessError as exc:
                print(f"Could not check out {commit}: {exc.stderr.strip()}", file=sys.stderr)
                return 2
            trees.append((other, commit_of(other)))
        for number in range(1, max(1, args.rounds) + 1):
            for strategy in strategies:
                for tree, label in trees:
                    runs.append(play(tree, label, strategy, turns, args.base_url, number))
    out = report(runs)
    if args.plot is not None:
        plot(runs, args.plot)
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print_report(out)
    return 1 if any(r.error for r in runs) else 0
