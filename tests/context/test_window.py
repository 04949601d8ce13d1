"""`window`: the history is left alone (append-only, cache-friendly) until the prompt passes
its size, then folded like `structural`, through the same safety check."""

from __future__ import annotations

import pytest

from agent.accounting.prompt_meter import meter
from agent.context.base import CompactionInput
from agent.context.common import history_texts
from agent.context.math_facts import missing_facts
from agent.context.strategies.window import WindowStrategy
from agent.context.tasks import split_history
from agent.messages import (
    AssistantMessage,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.testing.in_process import InProcessModel


def task(n: int) -> list:
    call = f"c{n}"
    return [
        UserMessage(text=f"solve x^2 - {n * n} = 0"),
        ToolCall(call_id=call, tool="solve", arguments={"equation": f"x^2 - {n * n} = 0"}),
        ToolResultMessage(call_id=call, tool="solve", ok=True, text=f"x = -{n}, x = {n}"),
        AssistantMessage(text=f"The roots are x = -{n} and x = {n}.", task_status="COMPLETED"),
    ]


def compact(strategy: WindowStrategy, working: list, trigger: str = "turn_end"):
    return strategy.compact(CompactionInput(working, trigger, InProcessModel()))


def test_under_the_size_the_history_is_kept_verbatim() -> None:
    working = task(2) + task(3)
    size = meter().exact(working)
    decision = compact(WindowStrategy(fold_at_tokens=size + 1), working)
    assert decision.working is None and "prompt cache" in decision.reason


def test_past_the_size_every_finished_task_is_folded_and_nothing_lost() -> None:
    working = [m for n in range(2, 9) for m in task(n)]
    decision = compact(WindowStrategy(fold_at_tokens=meter().exact(working) - 1), working)
    assert decision.working is not None and not decision.failed
    (summary,) = decision.working
    assert isinstance(summary, SummaryMessage) and len(summary.exchanges) == 7
    needed = [f"{sign}{n}" for n in range(2, 9) for sign in ("-", "")]
    assert missing_facts(needed, history_texts(decision.working)) == []
    assert meter().exact(decision.working) < meter().exact(working)


def test_never_inside_an_open_task_and_manual_folds_at_any_size() -> None:
    open_task = [*task(2), UserMessage(text="integrate this")]
    assert compact(WindowStrategy(fold_at_tokens=1), open_task).working is None
    manual = compact(WindowStrategy(), task(2) + task(3), trigger="manual")
    assert manual.working is not None and split_history(manual.working).finished == []


def test_the_size_must_be_positive() -> None:
    with pytest.raises(ValueError):
        WindowStrategy(fold_at_tokens=0)
