"""`budget`: compaction by size and the bounded view (what a request recalls)."""

from __future__ import annotations

from agent.accounting.prompt_meter import meter
from agent.accounting.tokenizer import count_messages
from agent.context.common import fold_task, history_texts
from agent.context.strategies.budget import BudgetConfig, BudgetStrategy, recalled
from agent.context.tasks import split_history, unpaired_tool_messages
from agent.messages import Message, SummaryExchangeRecord, SummaryMessage, UserMessage, to_chat_list
from tests.context.test_strategies import (
    ROOTS,
    SMALL,
    all_facts_kept,
    clarified_task,
    compact,
    derivative_task,
    many_tasks,
    open_task_with_tool,
    solve_task,
    tool_task,
)

# -- budget -----------------------------------------------------------------------------------


def view_tokens(strategy: BudgetStrategy, working: list[Message]) -> int:
    return meter().exact(strategy.view(working, None))


def test_prompt_meter_counts_the_real_request() -> None:
    measure = meter()
    for history in (
        [],
        many_tasks(3),
        [SummaryMessage(exchanges=(fold_task(ROOTS),), strategy="s"), *many_tasks(2)],
        clarified_task(),
    ):
        messages = measure._messages(to_chat_list(history))
        assert measure.exact(history) == count_messages(messages)
        assert measure.estimate(to_chat_list(history)) == measure.exact(history)
    assert measure.system_tokens == count_messages(measure._messages([]))


def test_budget_leaves_a_small_history_alone() -> None:
    strategy = BudgetStrategy(SMALL)
    working = many_tasks(2)
    decision = compact(strategy, working)
    assert decision.working is None and "within the limit" in decision.reason
    assert strategy.view(working, None) is working


def test_budget_compacts_the_oldest_tasks_under_the_target() -> None:
    strategy = BudgetStrategy(SMALL)
    working = many_tasks(10)
    assert view_tokens(strategy, working) > SMALL.limit_tokens
    decision = compact(strategy, working)
    new = decision.working
    assert new is not None and not decision.failed
    # The oldest tasks became lines; the most recent ones are verbatim, tool calls included.
    finished = split_history(working).finished
    assert isinstance(new[0], SummaryMessage)
    folded = len(new[0].exchanges)
    assert 1 <= folded <= len(finished) - SMALL.keep_recent_tasks
    assert new[0].exchanges == tuple(fold_task(t) for t in finished[:folded])
    assert new[1:] == [m for task in finished[folded:] for m in task]
    assert view_tokens(strategy, new) <= SMALL.target_tokens
    assert unpaired_tool_messages(new) == []
    assert all_facts_kept(working, new)


def test_budget_never_cuts_an_open_task_even_when_over_budget() -> None:
    strategy = BudgetStrategy(SMALL)
    working = many_tasks(10) + open_task_with_tool()
    assert compact(strategy, working).working is None
    manual = compact(strategy, working, "manual").working
    assert manual is not None
    assert manual[-4:] == working[-4:]
    assert unpaired_tool_messages(manual) == []


def test_budget_view_stays_flat_and_recalls_what_a_request_refers_to() -> None:
    strategy = BudgetStrategy()
    exchanges = [fold_task(solve_task(i + 1, -(i + 3))) for i in range(40)]
    exchanges[5] = fold_task(
        tool_task("solve x^2 - 7*x + 12 = 0", "solve", "x = 3, x = 4", "x = 3 and x = 4")
    )
    exchanges[30] = fold_task(derivative_task(9))
    summary_message = SummaryMessage(exchanges=tuple(exchanges), strategy="budget")
    recent = solve_task(50, 51)

    def shown(question: str) -> str:
        working = [summary_message, *recent, UserMessage(text=question)]
        view = strategy.view(working, working[-1])
        assert view[-1] == working[-1] and view[-5:-1] == recent
        assert unpaired_tool_messages(view) == []
        assert meter().exact(view) < 1356
        return " ".join(history_texts(view))

    explicit = shown("evaluate x^3 at the roots of x^2 - 7x + 12 = 0 from before")
    assert "x = 3 and x = 4" in explicit
    by_topic = shown("evaluate that derivative at x = 2")
    assert "18*x + 10" in by_topic
    plain = shown("solve x^2 - 1 = 0")
    assert "x = 3 and x = 4" not in plain and "18*x + 10" not in plain
    # The working context still has every exchange.
    assert len(summary_message.exchanges) == 40


def test_recall_prefers_a_repeated_fact_over_a_topic() -> None:
    lines = (
        SummaryExchangeRecord(question="solve x^2 - 9 = 0", answer="x = -3, x = 3"),
        SummaryExchangeRecord(question="solve x^2 - 16 = 0", answer="x = -4, x = 4"),
        SummaryExchangeRecord(question="what is x^2 at the roots?", answer="16 and 16"),
    )
    assert recalled(lines, ["square the roots of x^2 - 9 = 0"], 2) == [0]
    assert recalled(lines, ["what is x^3 at the roots"], 1) == [1]
    assert recalled(lines, ["what is x^3 at the roots"], 2) == [1, 0]  # "the roots" may be either
    assert recalled(lines, ["differentiate x^5"], 2) == []


def test_budget_keeps_safety_when_its_view_drops_everything() -> None:
    strategy = BudgetStrategy(BudgetConfig(target_tokens=0, recalled_exchanges=0))
    working = [SummaryMessage(exchanges=(fold_task(ROOTS),), strategy="budget"), *many_tasks(1)]
    view = strategy.view(working, None)
    assert view == working[1:]  # no empty summary is ever shown
