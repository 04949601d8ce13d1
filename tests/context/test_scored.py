"""`scored`: weighted selection under a token budget, archive line, key events and pins."""

from __future__ import annotations

import itertools

import pytest

from agent.accounting.prompt_meter import meter
from agent.context.base import CompactionInput
from agent.context.common import history_texts
from agent.context.embeddings import CachedEmbedder, HashingEmbedder
from agent.context.math_facts import facts_of
from agent.context.strategies.scored import (
    ARCHIVE_QUESTION,
    ScoredConfig,
    ScoredStrategy,
    ScoreWeights,
    is_confirmation,
    states_value,
)
from agent.context.tasks import split_history, unpaired_tool_messages
from agent.messages import (
    AssistantMessage,
    Message,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat_list,
)
from agent.testing.in_process import InProcessModel

_ids = itertools.count()


def tool_task(question: str, tool: str, result: str, reply: str) -> list[Message]:
    call_id = f"k{next(_ids)}"
    return [
        UserMessage(text=question),
        ToolCall(call_id=call_id, tool=tool, arguments={"expression": question}),
        ToolResultMessage(call_id=call_id, tool=tool, ok=True, text=result),
        AssistantMessage(text=reply, task_status="COMPLETED"),
    ]


def chat(question: str, reply: str) -> list[Message]:
    return [UserMessage(text=question), AssistantMessage(text=reply, task_status="COMPLETED")]


def filler(count: int, start: int = 2) -> list[Message]:
    out: list[Message] = []
    for n in range(start, start + count):
        out += tool_task(
            f"solve x^2 - {n * n} = 0", "solve", f"x = -{n}, x = {n}", f"The roots are ±{n}."
        )
    return out


def scored(window: int = 2000, **kwargs: object) -> ScoredStrategy:
    config = ScoredConfig(window_tokens=window, **kwargs)  # type: ignore[arg-type]
    return ScoredStrategy(config, embedder=CachedEmbedder(HashingEmbedder()))


def compact(strategy: ScoredStrategy, working: list[Message]) -> list[Message]:
    decision = strategy.compact(CompactionInput(working, "turn_end", InProcessModel([])))
    assert not decision.failed, decision.reason
    return decision.working if decision.working is not None else working


def test_config_reserves_20_to_30_percent_and_the_measured_template() -> None:
    with pytest.raises(ValueError):
        ScoredConfig(reserve_fraction=0.1)
    assert ScoredConfig(window_tokens=10_000).history_budget(500) == 7_500
    # A template bigger than the fraction is reserved in full.
    assert ScoredConfig(window_tokens=2000).history_budget(900) == 2000 - 900 - 256
    assert ScoreWeights().relevance > ScoreWeights().role


def test_short_history_passes_through() -> None:
    incoming = UserMessage(text="differentiate x^3")
    working = [*filler(2), incoming]
    assert scored().view(working, incoming) is working
    assert (
        scored().compact(CompactionInput(working, "turn_end", InProcessModel([]))).working is None
    )


def test_budget_respected_with_reserve_and_order_restored() -> None:
    # The template, the reserve and a few units (545 tokens of history), whatever the template.
    config = ScoredConfig(window_tokens=meter().system_tokens + 256 + 545)
    incoming = UserMessage(text="solve x^2 - 49 = 0 again")
    working = [*filler(20), incoming]
    view = ScoredStrategy(config, CachedEmbedder(HashingEmbedder())).view(working, incoming)
    assert meter().estimate(to_chat_list(view)) <= config.window_tokens - config.output_tokens
    kept = [m for m in view if not isinstance(m, SummaryMessage)]
    assert kept == sorted(kept, key=working.index)  # chronological
    assert kept[-1] is incoming
    texts = [m.text for m in kept if isinstance(m, UserMessage)]
    assert "solve x^2 - 49 = 0" in texts  # the relevant old unit beat newer ones
    assert unpaired_tool_messages(view) == []


def test_dropped_units_go_to_a_growing_archive_not_nowhere() -> None:
    strategy = scored(window=1500)
    working: list[Message] = []
    sizes: list[int] = []
    for n in range(2, 22):
        working = compact(strategy, [*working, *filler(1, start=n)])
        split = split_history(working)
        sizes.append(sum(len(s.exchanges) for s in split.summaries))
        assert unpaired_tool_messages(working) == []
    assert sizes[-1] > sizes[len(sizes) // 2] > 0  # the archive grows
    assert sizes == sorted(sizes)
    # every root is still stated in the working history (the shared safety check)
    assert {str(n) for n in range(2, 22)} <= facts_of(history_texts(working))
    incoming = UserMessage(text="differentiate x^5")
    view = strategy.view([*working, incoming], incoming)
    summary = view[0]
    assert isinstance(summary, SummaryMessage)
    assert summary.exchanges[-1].question == ARCHIVE_QUESTION
    assert "older in the transcript" in summary.exchanges[-1].answer or "->" in (
        summary.exchanges[-1].answer
    )


def test_key_events_and_pins_stay_verbatim() -> None:
    given = chat("my fleet has 9 vans and each route is 42 km", "Noted: 9 vans, 42 km routes.")
    confirmed = tool_task("integrate 2*x from 0 to 3", "integral", "9", "The integral is 9.")
    confirm = chat("yes, that's right", "Great.")
    pinned = tool_task("differentiate x^4", "derivative", "4*x**3", "It is 4*x**3.")
    strategy = scored(window=1400)
    working: list[Message] = [*given, *confirmed, *confirm, *pinned]
    assert strategy.pin(working).startswith("Pinned: differentiate x^4")
    working = [*working, *filler(14)]
    for _ in range(3):
        working = compact(strategy, working)
    incoming = UserMessage(text="solve x^2 - 1 = 0")
    view = strategy.view([*working, incoming], incoming)
    for message in [*given, *confirmed, *pinned]:
        assert message in working and message in view
    restored = scored(window=1400)
    restored.from_state(strategy.to_state())
    assert restored.pins == strategy.pins


def test_key_event_detection() -> None:
    assert states_value("my fleet has 9 vans")
    assert states_value("let a = 3")
    assert not states_value("solve x^2 - 4 = 0")
    assert not states_value("my fleet is large")  # no value
    assert is_confirmation("Yes, that's right")
    assert not is_confirmation("yesterday I solved x^2")


def test_pin_without_finished_task_says_so() -> None:
    assert "Nothing to pin" in scored().pin([UserMessage(text="hi")])
    assert "No task 5" in scored().pin(filler(2), 5)


def test_open_task_untouched_and_no_compaction_mid_task() -> None:
    strategy = scored(window=1400)
    open_task = [
        UserMessage(text="integrate x^2"),
        AssistantMessage(text="Definite or indefinite?", task_status="PROCESSING"),
        UserMessage(text="from 0 to 1"),
    ]
    working = [*filler(14), *open_task]
    decision = strategy.compact(CompactionInput(working, "turn_end", InProcessModel([])))
    assert decision.working is None
    view = strategy.view(working, open_task[-1])
    assert view[-3:] == open_task
