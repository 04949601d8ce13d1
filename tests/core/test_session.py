"""Working context vs transcript, compaction records, undo, task splitting."""

from __future__ import annotations

from agent.context.tasks import final_answer, split_history, unpaired_tool_messages
from agent.core.session import Session, context_tokens
from agent.core.transcript import CompactionRecord
from agent.messages import (
    AssistantMessage,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)


def task(question: str, answer: str, status: str = "COMPLETED") -> list:
    call_id = f"id-{question}"
    return [
        UserMessage(text=question),
        ToolCall(call_id=call_id, tool="solve", arguments={"equation": question}),
        ToolResultMessage(call_id=call_id, tool="solve", ok=True, text=answer),
        AssistantMessage(text=answer, task_status=status),
    ]


def summary_of(*pairs: tuple[str, str]) -> SummaryMessage:
    return SummaryMessage(
        exchanges=tuple(SummaryExchangeRecord(question=q, answer=a) for q, a in pairs),
        strategy="summarize",
    )


def test_split_history() -> None:
    open_task = [
        UserMessage(text="integrate this"),
        AssistantMessage(text="What?", task_status="PROCESSING"),
    ]
    working = [summary_of(("q0", "a0")), *task("q1", "a1"), *task("q2", "a2"), *open_task]
    split = split_history(working)
    assert len(split.summaries) == 1
    assert [final_answer(t).text for t in split.finished] == ["a1", "a2"]
    assert split.open_tail == open_task


def test_unpaired_tool_messages() -> None:
    messages = task("q", "a")
    assert unpaired_tool_messages(messages) == []
    assert unpaired_tool_messages(messages[:2]) == [messages[1]]
    assert unpaired_tool_messages([messages[2]]) == [messages[2]]


def test_compaction_changes_only_the_working_context() -> None:
    session = Session()
    for message in task("q1", "a1"):
        session.append(message)
    summary = summary_of(("q1", "a1"))
    record = session.apply_compaction([summary], "summarize", "test")
    assert session.working == [summary]
    assert record.messages_before == 4 and record.messages_after == 1
    assert record.tokens_after == context_tokens([summary]) < record.tokens_before
    kinds = [e.kind for e in session.transcript.entries]
    assert kinds == ["user", "tool_call", "tool_result", "assistant", "summary", "compaction"]


def test_undo_restores_and_is_recorded() -> None:
    session = Session()
    for message in task("q1", "a1"):
        session.append(message)
    original = list(session.working)
    session.apply_compaction([summary_of(("q1", "a1"))], "summarize", "test")
    assert session.undo_compaction()
    assert session.working == original
    last = session.transcript.entries[-1]
    assert isinstance(last, CompactionRecord) and last.strategy == "undo"


def test_rollback_keeps_the_transcript() -> None:
    session = Session()
    session.append(UserMessage(text="hi"))
    session.rollback(0)
    assert session.working == [] and len(session.transcript) == 1
