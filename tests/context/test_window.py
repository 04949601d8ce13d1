"""`window`: the history is left alone (append-only, cache-friendly) until the prompt passes
its size, then folded like `structural`, through the same safety check."""

from __future__ import annotations

import pytest

from agent.accounting.prompt_meter import meter
from agent.context.base import CompactionInput
from agent.context.common import history_texts
from agent.context.math_facts import missing_facts
from agent.context.strategies.ledger import LedgerStrategy
from agent.context.strategies.structural import StructuralStrategy
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


@pytest.mark.parametrize("strategy", [LedgerStrategy, StructuralStrategy])
def test_keeping_the_latest_task_folds_every_one_before_it(strategy: type) -> None:
    latest = task(4)
    working = task(2) + task(3) + latest
    request = CompactionInput(working, "turn_end", InProcessModel(), keep_latest_task=True)
    decision = strategy().compact(request)
    assert decision.working is not None and not decision.failed
    summary, *rest = decision.working
    assert isinstance(summary, SummaryMessage) and len(summary.exchanges) == 2
    assert rest == latest
    # The ledger still numbers the raw task as the third: the view shows lines 1-2, then it.
    view = strategy().view(decision.working, UserMessage(text="add them up"))
    assert view[-len(rest) :] == rest


def test_keeping_the_latest_task_alone_is_no_fold_and_manual_folds_it_too() -> None:
    only = CompactionInput(task(2), "turn_end", InProcessModel(), keep_latest_task=True)
    decision = LedgerStrategy().compact(only)
    assert decision.working is None and not decision.failed
    manual = CompactionInput(task(2) + task(3), "manual", InProcessModel(), keep_latest_task=True)
    folded = LedgerStrategy().compact(manual).working
    assert folded is not None and split_history(folded).finished == []


def test_window_past_its_size_keeps_the_latest_task_when_asked() -> None:
    latest = task(8)
    working = [m for n in range(2, 8) for m in task(n)] + latest
    strategy = WindowStrategy(fold_at_tokens=meter().exact(working) - 1)
    decision = strategy.compact(
        CompactionInput(working, "turn_end", InProcessModel(), keep_latest_task=True)
    )
    assert decision.working is not None
    assert decision.working[1:] == latest


def test_the_size_is_the_prompt_shown_so_archived_lines_do_not_force_a_fold() -> None:
    strategy = WindowStrategy(fold_at_tokens=10_000)
    long_ledger = [m for n in range(2, 90) for m in task(n)]
    folded = compact(strategy, long_ledger, trigger="manual").working
    assert folded is not None
    working = [*folded, *task(91)]
    shown = meter().exact(strategy.view(working, None))
    assert shown < meter().exact(working)
    # Between what the prompt shows and the whole working history: no fold, the cache serves it.
    strategy.fold_at_tokens = shown + 1
    assert compact(strategy, working).working is None
