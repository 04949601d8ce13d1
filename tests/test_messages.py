"""Typed messages render with real chat roles and survive a JSON round trip."""

from __future__ import annotations

import json

from agent.core.transcript import ENTRIES_ADAPTER, CompactionRecord, ErrorRecord, Transcript
from agent.messages import (
    MESSAGES_ADAPTER,
    AssistantMessage,
    SummaryExchangeRecord,
    SummaryMessage,
    ToolCall,
    ToolResultMessage,
    UserMessage,
    to_chat,
)


def sample() -> list:
    return [
        UserMessage(text="solve x^2 + 5x + 6 = 0"),
        ToolCall(
            call_id="c1", tool="solve", arguments={"equation": "x^2 + 5x + 6 = 0", "variable": None}
        ),
        ToolResultMessage(call_id="c1", tool="solve", ok=True, text="x = -3, x = -2"),
        AssistantMessage(text="The roots are -3 and -2.", task_status="COMPLETED"),
        SummaryMessage(
            exchanges=(SummaryExchangeRecord(question="solve", answer="x = -3, x = -2"),),
            strategy="summarize",
        ),
    ]


def test_roles() -> None:
    roles = [to_chat(m).role for m in sample()]
    assert roles == ["user", "assistant", "user", "assistant", "system"]


def test_tool_call_renders_as_the_json_the_model_wrote_without_nulls() -> None:
    content = to_chat(sample()[1]).content
    assert json.loads(content) == {"tool": "solve", "equation": "x^2 + 5x + 6 = 0"}


def test_answer_renders_as_message_to_user_json() -> None:
    payload = json.loads(to_chat(sample()[3]).content)
    assert payload == {
        "tool": "message_to_user",
        "response": "The roots are -3 and -2.",
        "task_status": "COMPLETED",
    }


def test_tool_result_and_error_labels() -> None:
    ok = ToolResultMessage(call_id="c", tool="solve", ok=True, text="x = 1")
    bad = ToolResultMessage(call_id="c", tool="solve", ok=False, text="Could not read it.")
    assert to_chat(ok).content == "Tool result (solve): x = 1"
    assert to_chat(bad).content == "Tool error (solve): Could not read it."


def test_summary_text_keeps_exact_answers() -> None:
    text = to_chat(sample()[4]).content
    assert "solve -> x = -3, x = -2" in text


def test_messages_round_trip_through_json() -> None:
    messages = sample()
    restored = MESSAGES_ADAPTER.validate_json(MESSAGES_ADAPTER.dump_json(messages))
    assert restored == messages


def test_transcript_round_trip_with_records() -> None:
    transcript = Transcript(sample())
    transcript.append(
        CompactionRecord(
            strategy="summarize",
            applied=True,
            messages_before=4,
            messages_after=1,
            tokens_before=80,
            tokens_after=20,
        )
    )
    transcript.append(ErrorRecord(text="The model endpoint failed (HTTP 500); try again."))
    restored = ENTRIES_ADAPTER.validate_json(ENTRIES_ADAPTER.dump_json(list(transcript.entries)))
    assert tuple(restored) == transcript.entries


def test_a_persons_latex_is_read_plainly_and_kept_as_typed() -> None:
    typed = r"Let h(x) = \frac{x^2 - 1}{x + 1}"
    message = UserMessage.from_person(typed)
    assert message.text == "Let h(x) = (x^2 - 1)/(x + 1)"  # what capture and the model read
    assert message.as_typed == typed and message.terminal_row() == ("user", typed)
    assert typed in message.markdown("12:00")
    assert MESSAGES_ADAPTER.validate_json(MESSAGES_ADAPTER.dump_json([message])) == [message]
    plain = UserMessage.from_person("solve x^2 - 4 = 0 (cost: $5)")
    assert plain.typed is None and plain.as_typed == plain.text


def test_the_page_shows_the_persons_message_as_typed() -> None:
    from agent.service.views import entry_json

    typed = r"integrate \sqrt{x} from 0 to 4"
    assert entry_json(UserMessage.from_person(typed))["text"] == typed
