"""The latency benchmark's bookkeeping (its live runs need a real model: `math-agent bench
latency`)."""

from __future__ import annotations

import math
import re

from agent import wire
from agent.app.latency import (
    _BASE_TURNS,
    StrategyTiming,
    TurnTiming,
    _StepClock,
    report,
    session_turns,
)
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.llm.model import StepProgress
from agent.testing.in_process import InProcessModel
from agent.testing.replies import derivative, done


def timing(turn: int, seconds: float, prompt: int, cached: int, ok: bool = True) -> TurnTiming:
    return TurnTiming(turn, ok, seconds, 2, prompt, cached, 0.5, 2.0, None if ok else "x")


def test_session_is_fixed_and_as_long_as_asked() -> None:
    assert session_turns(5) == list(_BASE_TURNS[:5])
    long = session_turns(45)
    assert len(long) == 45
    # Later rounds ask about new polynomials: a request that writes a number is never repeated.
    written = [text for text in long if re.search(r"[1-9]", text)]
    assert len(written) > 30 and len(set(written)) == len(written)
    assert long[len(_BASE_TURNS)] == "Solve the quadratic equation: x^2 - 4x - 11 = 0"
    assert long[2 * len(_BASE_TURNS) + 3] == "Integrate 8t^2 + 6t from 0 to 4"


def test_report_compares_re_read_tokens_with_none_and_skips_failed_turns() -> None:
    none = StrategyTiming("none", [timing(1, 10, 1000, 0), timing(2, 14, 2000, 900)])
    ledger = StrategyTiming(
        "ledger", [timing(1, 9, 900, 0), timing(2, 8, 950, 800), timing(3, 99, 5, 0, ok=False)]
    )
    out = report([none, ledger])
    assert out["none"]["read_prompt_tokens"] == 1000 + 1100
    assert out["ledger"]["read_prompt_tokens"] == 900 + 150 + 5
    assert math.isclose(out["ledger"]["read_vs_none"], 1055 / 2100)
    assert out["ledger"]["median_seconds_per_turn"] == 8.5  # the failed turn is left out
    assert out["ledger"]["failed_turns"] == 1
    assert out["ledger"]["first_char_share_of_answer_step"] == 0.25


class _Model:
    ledger = "the ledger"

    def next_step(self, messages, abort=None, on_progress=None, wanted="any", decide_only=False):  # type: ignore[no-untyped-def]
        on_progress(StepProgress(tool="solve", arguments={"equation": "x = 1"}))
        on_progress(StepProgress(tool="message_to_user", response="The"))
        on_progress(StepProgress(tool="message_to_user", response="The answer"))
        return "step"


def test_the_step_clock_times_the_first_answer_character_and_delegates() -> None:
    clock = _StepClock(_Model())
    seen: list[StepProgress] = []
    assert clock.next_step([], None, seen.append) == "step"
    assert len(seen) == 3 and clock.ledger == "the ledger"
    ((started, first, ended),) = clock.steps
    assert first is not None and started <= first <= ended


def test_the_step_clock_drives_the_real_loop_including_its_answer_now_step() -> None:
    # A repeated call makes the loop ask for the answer (`wanted` "answer"): the clock is the
    # model the loop sees, so it must take every argument the loop passes.
    model = InProcessModel([derivative("x^2"), derivative("x^2"), done("It is 2*x.")])
    clock = _StepClock(model)
    agent = Agent(clock, make_strategy("none"))  # type: ignore[arg-type]
    result = agent.run_turn("differentiate x^2")
    assert result.ok and result.reply.text == "It is 2*x."
    assert len(clock.steps) == 3
    assert model.seen[2][-1].content.endswith(wire.ANSWER_NOW)
