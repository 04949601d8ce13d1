"""The prompt wire format is defined once (`agent.wire`); these check it against the real
prompts, so a prompt edit cannot silently blind the scripted model or the benchmark."""

from __future__ import annotations

import pytest
from baml_py import ClientRegistry

from agent import wire
from agent.testing.scripted import ScriptedRequest
from baml_client import b
from baml_client.inlinedbaml import get_baml_files
from baml_client.types import ChatMessage

HISTORY = [ChatMessage(role="user", content="solve x^2 = 4")]


def renderer():  # type: ignore[no-untyped-def]
    """The generated client, pointed at an address it never contacts (requests are only built)."""
    registry = ClientRegistry()
    registry.add_llm_client(
        "MathAgentLLM", "openai-generic", {"base_url": "http://127.0.0.1:9/v1", "model": "m"}
    )
    registry.set_primary("MathAgentLLM")
    return b.with_options(client_registry=registry)


def test_the_markers_are_sentences_of_the_generated_prompts() -> None:
    sources = "\n".join(get_baml_files().values())
    for marker in (wire.SUMMARIZER_MARK, wire.FACTS_MARK, wire.COMPACT_INSTRUCTION):
        assert marker in sources


@pytest.mark.parametrize(
    ("build", "function"),
    [
        (lambda: renderer().request.MathChat(HISTORY), "MathChat"),
        (lambda: renderer().request.SummarizeContext(HISTORY), "SummarizeContext"),
        (
            lambda: renderer().request.ExtractUserFacts(["Likes graphs"], "I'm Dana"),
            "ExtractUserFacts",
        ),
    ],
)
def test_requests_built_by_the_real_client_are_told_apart(build, function: str) -> None:
    messages = build().body.json()["messages"]
    request = ScriptedRequest(messages)
    assert request.function == function


def test_tool_outcomes_and_summary_lines_round_trip() -> None:
    assert wire.is_tool_outcome(wire.tool_outcome_text("solve", True, "x = 2"))
    assert wire.is_tool_outcome(wire.tool_outcome_text("solve", False, "bad input"))
    assert not wire.is_tool_outcome("Tool results are great")
    text = wire.summary_text([("solve x^2 = 4", "x = -2, x = 2")])
    assert text.splitlines() == [wire.SUMMARY_HEADER, "- solve x^2 = 4 -> x = -2, x = 2"]


def test_a_scripted_request_knows_where_in_its_task_it_is() -> None:
    request = ScriptedRequest(
        [
            {"role": "system", "content": "You are a careful math assistant"},
            {"role": "user", "content": "solve x^2 = 4"},
            {"role": "assistant", "content": '{"tool": "solve", "equation": "x^2 = 4"}'},
            {"role": "user", "content": wire.tool_outcome_text("solve", True, "x = -2, x = 2")},
        ]
    )
    assert request.question == "solve x^2 = 4"
    assert request.tool_outcomes == 1 and request.after_tool_call
    assert request.tool_text == "x = -2, x = 2"
    typed = ScriptedRequest([{"role": "user", "content": "Tool result (solve): typed by a user"}])
    assert not typed.after_tool_call and typed.question is None


def test_an_answer_never_shows_the_loops_requests_to_the_model() -> None:
    copied = "A system needs 2 or 3 equations (got 1). " + wire.ANSWER_NOW
    assert wire.without_requests(copied) == "A system needs 2 or 3 equations (got 1)."
    cut = "x = 2 (#3). That tool call was already made above; its result is there. (#10)"
    assert wire.without_requests(cut) == "x = 2 (#3). (#10)"
    assert wire.without_requests("x = -3, x = -2 (#2)") == "x = -3, x = -2 (#2)"
