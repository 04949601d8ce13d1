"""The eval's readable-math check (issue 29): answers are judged as the terminal shows them."""

from __future__ import annotations

import pytest

from agent.app import evaluate
from agent.eval.runner import TurnOutcome
from tests.support.outcomes import turn_outcome


def outcome(reply: str, turn: int = 1) -> TurnOutcome:
    return turn_outcome(set="single", case="single-test-1-00", turn=turn, reply=reply)


def test_answers_the_renderer_makes_readable_pass() -> None:
    replies = [
        "The roots are x = -sqrt(2) and x = sqrt(2).",
        "The integral is \\(\\frac{1}{3}\\) [#4].",  # LaTeX the renderer rewrites
        "d/dx (x**2 + 5*x) = 2*x + 5",
        "**Answer:** 3",  # Markdown bold, not a power
    ]
    outcomes = [outcome(reply, turn) for turn, reply in enumerate(replies, 1)]
    assert evaluate.raw_math_shown(outcomes) == []
    assert evaluate.readable_math_check([]).met


def test_a_rendered_power_or_latex_left_over_is_counted_and_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The renderer leaves none on any text (tests/app/test_pretty.py); should it regress, here
    # standing in as one that renders nothing, the run names the turns.
    monkeypatch.setattr(evaluate, "readable", lambda text: text)
    bad = outcome("x = \\frac{1}{3}", turn=2)
    assert evaluate.raw_math_shown([outcome("x = 3"), bad]) == [bad]
    check = evaluate.readable_math_check([bad])
    assert not check.met
    assert "1 shown" in check.detail and "single/single-test-1-00#2" in check.detail
