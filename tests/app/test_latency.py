"""The latency benchmark's bookkeeping and its probe (its timed runs need a real model:
`math-agent bench latency`, which the test suite never times)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agent.app.chat_probe import StepTimer
from agent.app.latency import (
    _BASE_TURNS,
    PROBE,
    ROOT,
    CallCost,
    ChatTurn,
    Run,
    TurnTiming,
    judged,
    main,
    ordinary_chat,
    report,
    session_turns,
)
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.eval.cases import Expected
from agent.llm.model import AnswerBegun, StepProgress
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done, solve
from agent.testing.scripted import ScriptedModel, scripted_server


def test_the_ordinary_chat_is_twenty_judged_messages_then_the_homework_session() -> None:
    chat = ordinary_chat()
    assert len(chat) == 20 and chat[0].text == "solve x^2 - 4x + 1 = 0"
    assert sum(t.expected is not None for t in chat) == 19  # "let f(x) = ..." is not judged
    long = session_turns(65)
    assert [t.text for t in long[:20]] == [t.text for t in chat]
    rest = [t.text for t in long[20:]]
    assert rest[: len(_BASE_TURNS)] == list(_BASE_TURNS)
    # Later rounds ask about new polynomials: a request that writes a number is never repeated.
    written = [text for text in rest if re.search(r"[1-9]", text)]
    assert len(set(written)) == len(written)
    assert rest[len(_BASE_TURNS)] == "Solve the quadratic equation: x^2 - 4x - 11 = 0"
    assert session_turns(3) == chat[:3]


def _turn(n: int, seconds: float, fresh: int, cached: int, ok: bool = True) -> TurnTiming:
    call = CallCost("MathChat", fresh + cached, cached, 20, seconds - 0.5)
    return TurnTiming(n, f"m{n}", ok, seconds, seconds - 0.5, 0.1, 0.5, 2.0, [call], "x = 1")


def test_a_fast_turn_is_judged_like_an_eval_turn() -> None:
    roots = Expected(kind="roots", answers=("-3", "-2"), variable="x")
    turns = [_turn(1, 5, 100, 0), _turn(2, 5, 50, 100)]
    turns[0].answer = "x = -3, x = -2 (#2)"
    turns[1].answer = "x = 3 (#4)"
    chat = [ChatTurn("solve x^2 + 5x + 6 = 0", roots), ChatTurn("solve it again", roots)]
    assert [t.right for t in judged(turns, chat)] == [True, False]


def test_the_report_gives_fresh_tokens_time_outside_the_model_and_the_ratio() -> None:
    mine = Run("abc1234", "window", turns=[_turn(1, 6, 100, 900), _turn(2, 4, 50, 1000)])
    other = Run("79f2db5", "window", turns=[_turn(1, 10, 800, 200), _turn(2, 10, 300, 900)])
    other.turns.append(_turn(3, 99, 5, 0, ok=False))
    out = report([mine, other])
    first, second = out["runs"]
    assert first["fresh_prompt_tokens"] == 150 and first["total_seconds"] == 10
    assert first["outside_model_seconds"] == 1.0
    assert first["first_char_share_of_answer_step"] == 0.25
    assert second["median_seconds_per_turn"] == 10  # the failed turn is left out
    assert second["failed_turns"] == 1
    assert out["wall_time_ratios"] == [
        {"of": "abc1234", "to": "79f2db5", "by_strategy": {"window": round(10 / 119, 3)}}
    ]


def test_rounds_give_the_median_ratio_and_its_range() -> None:
    """`--rounds N`: each round's ratio pairs the runs of that round only."""
    runs = [
        Run("abc1234", "window", round=1, turns=[_turn(1, 9, 10, 90)]),
        Run("79f2db5", "window", round=1, turns=[_turn(1, 10, 10, 90)]),
        Run("abc1234", "window", round=2, turns=[_turn(1, 12, 10, 90)]),
        Run("79f2db5", "window", round=2, turns=[_turn(1, 10, 10, 90)]),
        Run("abc1234", "window", round=3, turns=[_turn(1, 10, 10, 90)]),
        Run("79f2db5", "window", round=3, error="the probe exited with 1"),
    ]
    out = report(runs)
    assert [r["round"] for r in out["runs"]] == [1, 1, 2, 2, 3, 3]
    (ratio,) = out["wall_time_ratios"]
    assert ratio["rounds"] == 3
    assert ratio["by_strategy"] == {"window": round((0.9 + 1.2) / 2, 3)}  # round 3 failed
    assert ratio["spread"] == {"window": [0.9, 1.2]}


def test_a_call_cut_before_the_server_reported_tokens_is_not_counted_fresh() -> None:
    """A stream cut where the answer began gets no usage from the server: its tokens were
    counted offline, so what the server read fresh is unknown (not the whole prompt)."""
    turn = _turn(1, 6, 100, 900)
    turn.calls.append(CallCost("MathChat", 1200, 0, 1, 2.0, reported=False))
    out = report([Run("abc1234", "window", turns=[turn])])["runs"][0]
    assert out["fresh_prompt_tokens"] == 100
    assert out["calls_without_reported_tokens"] == 1 and out["llm_calls"] == 2


class _Model:
    ledger = "the ledger"

    def next_step(self, messages, abort=None, on_progress=None, wanted="any", decide_only=False):  # type: ignore[no-untyped-def]
        on_progress(StepProgress(tool="solve", arguments={"equation": "x = 1"}))
        on_progress(StepProgress(tool="message_to_user", response="The"))
        on_progress(StepProgress(tool="message_to_user", response="The answer"))
        return AnswerBegun("The") if decide_only else "step"


def test_the_step_timer_times_the_first_answer_character_and_delegates() -> None:
    timer = StepTimer(_Model())
    seen: list[StepProgress] = []
    assert timer.next_step([], None, seen.append) == "step"
    assert len(seen) == 3 and timer.ledger == "the ledger"
    ((started, first, ended),) = timer.steps
    assert first is not None and started <= first <= ended
    # an answer the loop writes itself appears when the step ends, not when "The" streamed
    progress_seen: list[float] = []
    timer.next_step([], None, lambda _s: progress_seen.append(time.perf_counter()), "any", True)
    started, first, ended = timer.steps[-1]
    assert first is not None and progress_seen[-1] <= first <= ended


def test_the_step_timer_drives_the_real_loop_including_its_answer_now_step() -> None:
    # A repeated call makes the loop ask for the answer (`wanted` "answer"): the timer is the
    # model the loop sees, so it must take every argument the loop passes.
    model = InProcessModel([derivative("x^2"), derivative("x^2"), done("It is 2*x.")])
    timer = StepTimer(model)
    agent = Agent(timer, make_strategy("none"))  # type: ignore[arg-type]
    result = agent.run_turn("differentiate x^2")
    assert result.ok and result.reply.text == "It is 2*x."
    assert len(timer.steps) == 3


def test_the_probe_plays_a_chat_through_a_checkouts_runtime(tmp_path: Path) -> None:
    """The probe as `--against` runs it: its own process, the checkout's code first on the
    path, an endpoint given (here the scripted model on 127.0.0.1)."""
    model = ScriptedModel([solve("#1"), done("x = -3, x = -2 (#2)")])
    messages, out = tmp_path / "m.json", tmp_path / "out.json"
    messages.write_text(json.dumps(["solve x^2 + 5x + 6 = 0"]))
    with scripted_server(model) as server:
        command = [sys.executable, str(PROBE), "--tree", str(ROOT), "--messages", str(messages)]
        command += ["--out", str(out), "--strategy", "none", "--base-url", server.base_url]
        subprocess.run(command, check=True, capture_output=True, timeout=120)
    record = json.loads(out.read_text())
    (turn,) = record["turns"]
    assert turn["ok"] and turn["answer"] == "x = -3, x = -2 (#2)"
    assert [c["function"] for c in turn["calls"]] == ["MathChat", "MathChat"]
    assert turn["tools"][0]["tool"] == "solve" and turn["seconds"] >= turn["model_seconds"]


def test_rounds_play_every_side_again_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    """`--rounds 2` plays the chat twice through the probe, one round after the other."""
    replies = [solve("#1"), done("x = 2 - sqrt(3), x = 2 + sqrt(3) (#2)")] * 2
    with scripted_server(ScriptedModel(replies)) as server:
        argv = ["--rounds", "2", "--turns", "1", "--strategy", "none", "--json"]
        assert main([*argv, "--base-url", server.base_url]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(r["round"], r["right"]) for r in out["runs"]] == [(1, "1/1"), (2, "1/1")]
