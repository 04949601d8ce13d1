"""Every LLM-side failure becomes one sentence that says what to do."""

from __future__ import annotations

from baml_py.errors import BamlAbortError, BamlError

from agent.errors import AgentError, TurnCancelled, explain_llm_error
from agent.llm.model import BamlMathModel
from agent.llm.providers import Provider
from agent.llm.replay import Fault, FaultyResponder, ScriptedResponder, serve
from agent.testing.replies import answer
from agent.testing.scripted import ScriptedModel, scripted_agent
from baml_client.types import ChatMessage


def one_sentence(message: str) -> bool:
    return "\n" not in message and message.endswith(".")


def test_http_statuses_through_the_real_client() -> None:
    cases = {
        401: "refused the API key",
        429: "rate-limiting",
        500: "failed (HTTP 500)",
    }
    for status, expected in cases.items():
        responder = FaultyResponder(
            ScriptedResponder(lambda m: answer("x")), [Fault(status=status)]
        )
        with serve(responder) as server:
            provider = Provider("t", server.base_url, "m", None, "test", retries=False)
            model = BamlMathModel(provider.client_registry(), provider.base_url)
            try:
                model.next_step([ChatMessage(role="user", content="hi")])
            except AgentError as exc:
                assert expected in exc.message, exc.message
                assert one_sentence(exc.message)
            else:
                raise AssertionError(f"HTTP {status} did not raise")


def test_unparseable_reply_quotes_it_briefly() -> None:
    queue = ScriptedModel(["Sorry, I cannot help with that." * 20] * 2)  # and the repair round
    with scripted_agent(queue) as (agent, _):
        result = agent.run_turn("solve x = 1")
    assert result.error and "not a valid tool call" in result.error
    assert len(result.error) < 300


def test_abort_is_a_cancellation() -> None:
    assert isinstance(explain_llm_error(BamlAbortError("aborted"), "u"), TurnCancelled)


def test_missing_environment_variable() -> None:
    error = explain_llm_error(BamlError("environment variable OPENAI_API_KEY not set"), "u")
    assert "MATH_AGENT_API_KEY" in error.message and one_sentence(error.message)
