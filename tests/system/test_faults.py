"""LLM and network faults through the real agent loop, BAML client and retry policy.

Each test points a real `BamlMathModel` (with the MathAgentRetry policy unless said otherwise)
at the local OpenAI-compatible server and injects one kind of fault with `FaultyResponder`.
What must hold for every fault: retries only where a retry can help, and a bounded number of
them (counted at the server); otherwise one clear sentence for the user; the working context
exactly as before the failed turn, with no half-appended tool call; an ErrorRecord in the
transcript; and a next turn that works and does not show the model the failed one.

A module-level counter tallies the faults injected; the total is printed when the module ends.
"""

from __future__ import annotations

import itertools
import re
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

from agent import wire
from agent.app.repl import run_turn_cancellable
from agent.context.registry import make_strategy
from agent.context.tasks import unpaired_tool_messages
from agent.core.loop import Agent, TurnResult
from agent.core.transcript import ErrorRecord
from agent.llm.model import BamlMathModel
from agent.llm.providers import REQUEST_TIMEOUT_MS, Provider
from agent.llm.replay import Fault, FaultyResponder, ReplayServer, ScriptedResponder, serve
from agent.messages import Message, UserMessage
from agent.testing.replies import answer, tool_call
from agent.testing.scripted import ScriptedModel, ScriptedRequest
from baml_client.types import ChatMessage

# MathAgentRetry in baml_src/clients.baml: max_retries 2, so at most 3 requests per LLM call.
ATTEMPTS = 3
SOLVE = "solve x^2 - 4 = 0"
CHAIN = "solve x^2 - 4 = 0, then differentiate x^2 - 4"
SHORT_TIMEOUT_MS = 1_000
# Worst case by the policy is 3 s of backoff plus 3 request timeouts (6 s with 1 s timeouts);
# the bound is generous so a loaded machine does not fail the test, yet far below "forever".
BOUNDED_S = 15.0

FAULTS: Counter[str] = Counter()


# -- the scripted model --------------------------------------------------------------------


def stateless_model(
    replies: dict[str, str] | None = None, endless: bool = False, after_solve: str | None = None
) -> ScriptedModel:
    """The scripted model, stateless: the reply depends only on the request.

    Why stateless: a request the client abandoned (timeout, dropped connection) must not use
    up a canned reply, or every later answer would shift by one. `after_solve`: the reply to
    any solve result, when a test needs one.
    """
    canned = {
        SOLVE: tool_call("solve", equation="x^2 - 4 = 0"),
        CHAIN: tool_call("solve", equation="x^2 - 4 = 0"),
        "ping": answer("pong"),
        **(replies or {}),
    }

    def chat(request: ScriptedRequest) -> str:
        if after_solve is not None and (
            request.last.startswith("Tool result (solve)") or request.repairing
        ):
            return after_solve
        if wire.is_tool_outcome(request.last):
            if endless:  # a new call each time (a repeated one is not run twice)
                made = sum(wire.is_tool_outcome(str(m.get("content"))) for m in request.messages)
                return tool_call("derivative", expression=f"x^{made + 2}")
            if request.question == CHAIN and request.last.startswith("Tool result (solve)"):
                return tool_call("derivative", expression="x^2 - 4")
            return answer("Result: " + request.tool_text)
        # Stateless: asked again after a reply that did not parse, the same reply.
        asked = request.question if request.repairing else request.last
        return canned.get(asked or "", answer("pong"))

    return ScriptedModel(chat=chat)


# -- rig -----------------------------------------------------------------------------------


@dataclass
class Rig:
    """One agent and the server it talks to, kept together so a test can count requests."""

    agent: Agent
    server: ReplayServer
    responder: FaultyResponder


@contextmanager
def rig(
    kind: str,
    faults: list[Fault | None],
    script: ScriptedModel | None = None,
    *,
    timeout_ms: int = REQUEST_TIMEOUT_MS,
    retries: bool = True,
    max_tool_steps: int = 8,
) -> Iterator[Rig]:
    """The real agent and BAML client against a server that injects `faults` by request."""
    responder = FaultyResponder(ScriptedResponder(script or stateless_model()), faults)
    try:
        with serve(responder) as server:
            provider = Provider(
                "faulty",
                server.base_url,
                "scripted",
                None,
                "test",
                request_timeout_ms=timeout_ms,
                retries=retries,
            )
            model = BamlMathModel(provider.client_registry(), provider.base_url)
            agent = Agent(model, make_strategy("none"), max_tool_steps=max_tool_steps)
            yield Rig(agent, server, responder)
    finally:
        if responder.injected:
            FAULTS[kind] += responder.injected


def bad_reply(kind: str) -> None:
    """Count a fault that is the model's content rather than the transport's."""
    FAULTS[kind] += 1


class _FaultSummary:
    """A pytest plugin object: prints the tally in the terminal summary (visible with -q)."""

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if FAULTS:
            terminalreporter.write_line(
                f"test_faults: {sum(FAULTS.values())} faults injected: "
                + ", ".join(f"{kind} {n}" for kind, n in sorted(FAULTS.items()))
            )


@pytest.fixture(scope="module", autouse=True)
def fault_summary(request: pytest.FixtureRequest) -> None:
    """Warm BAML up and register the fault tally for the end-of-run summary.

    Why warm up: the first BAML call in a process spends about a second starting its runtime,
    and with a 1 s request timeout that start-up alone would time out.
    """
    with serve(ScriptedResponder(lambda _: answer("warm"))) as server:
        provider = Provider("warm", server.base_url, "scripted", None, "test", retries=False)
        model = BamlMathModel(provider.client_registry(), server.base_url)
        model.next_step([ChatMessage(role="user", content="warm up")])
    plugins = request.config.pluginmanager
    if not plugins.has_plugin("math-agent-fault-summary"):
        plugins.register(_FaultSummary(), "math-agent-fault-summary")


# -- assertions ----------------------------------------------------------------------------

NOT_FOR_USERS = re.compile(
    r"Traceback|Baml\w*Error|reqwest|hyper|LLMErrorResponse|\w+Error\(|<\w+ object|"
    r"object at 0x|Internal error|\\n"
)


def assert_one_sentence(message: str) -> None:
    """One line a person can read: no traceback, no exception repr, ends with a full stop."""
    assert "\n" not in message and "\r" not in message, message
    assert message.endswith("."), message
    assert not NOT_FOR_USERS.search(message), message
    assert 20 < len(message) < 400, message


def primed(r: Rig) -> tuple[list[Message], int, int]:
    """Run one good turn first, so 'as before the turn' is not just 'empty'."""
    first = r.agent.run_turn(SOLVE)
    assert first.ok, first.error
    return list(r.agent.session.working), len(r.agent.session.transcript), len(r.server.requests)


def assert_rolled_back(r: Rig, result: TurnResult, before: list[Message], entries: int) -> None:
    """The failed turn left the working context as it was and the transcript says why."""
    assert not result.ok and result.reply is None and result.tool_runs == []
    assert result.error is not None
    assert_one_sentence(result.error)
    working = r.agent.session.working
    assert working == before
    assert unpaired_tool_messages(working) == []
    recorded = r.agent.session.transcript.entries[entries:]
    assert isinstance(recorded[0], UserMessage)
    assert isinstance(recorded[-1], ErrorRecord) and recorded[-1].text == result.error


def assert_next_turn_works(r: Rig, failed_text: str | None = None) -> None:
    """A new message is answered, and the model never sees the failed turn's message."""
    sent_before = len(r.server.requests)
    result = r.agent.run_turn("ping")
    assert result.ok and result.reply is not None and result.reply.text == "pong", result.error
    prompt = r.server.requests[-1]["messages"]
    assert len(r.server.requests) > sent_before
    if failed_text is not None:
        assert not any(failed_text == m["content"] for m in prompt if m["role"] == "user")
    assert unpaired_tool_messages(r.agent.session.working) == []


def timed_turn(r: Rig, text: str) -> tuple[TurnResult, float, int]:
    """Run a turn; return it, its wall time and how many requests it sent."""
    sent = len(r.server.requests)
    started = time.monotonic()
    result = r.agent.run_turn(text)
    return result, time.monotonic() - started, len(r.server.requests) - sent


def retry_gaps(r: Rig) -> list[float]:
    """Seconds between consecutive requests the server received."""
    times = [t for t, _ in r.responder.arrivals]
    return [b - a for a, b in itertools.pairwise(times)]


# -- HTTP errors -------------------------------------------------------------------------------


def test_http_500_once_is_retried_and_answered() -> None:
    with rig("http-500", [None, None, Fault(status=500)]) as r:
        primed(r)
        result, _, sent = timed_turn(r, SOLVE)
        assert result.ok and "x = -2, x = 2" in result.reply.text
        assert sent == 3  # the failed call, its retry, the final answer
        assert r.server.requests[2] == r.server.requests[3]  # the same request, retried
        assert_next_turn_works(r)


def test_persistent_500_is_one_sentence_after_bounded_retries() -> None:
    with rig("http-500", [None, None, *[Fault(status=500)] * ATTEMPTS]) as r:
        before, entries, _ = primed(r)
        result, elapsed, sent = timed_turn(r, "differentiate x^3")
        assert sent == ATTEMPTS and elapsed < BOUNDED_S
        assert_rolled_back(r, result, before, entries)
        assert "failed (HTTP 500)" in result.error and "try again" in result.error
        assert_next_turn_works(r, "differentiate x^3")


def test_429_once_with_retry_after_is_retried() -> None:
    with rig("http-429", [Fault(status=429, headers={"Retry-After": "1"})]) as r:
        result, elapsed, sent = timed_turn(r, SOLVE)
        assert result.ok and sent == 3 and elapsed < BOUNDED_S


def test_persistent_429_backs_off_and_is_bounded() -> None:
    """BAML does not honour Retry-After (30 s here): its own exponential backoff applies."""
    faults = [Fault(status=429, headers={"Retry-After": "30"})] * ATTEMPTS
    with rig("http-429", faults) as r:
        result, elapsed, sent = timed_turn(r, SOLVE)
        assert sent == ATTEMPTS and elapsed < BOUNDED_S
        first, second = retry_gaps(r)
        assert first >= 0.4 and second > first * 1.5  # exponential, not immediate hammering
        assert_rolled_back(r, result, [], 0)
        assert "rate-limiting" in result.error
        assert_next_turn_works(r, SOLVE)


def test_401_says_the_key_was_refused() -> None:
    """A refused key cannot be fixed by retrying; BAML's policy still retries it (bounded)."""
    with rig("http-401", [Fault(status=401)] * ATTEMPTS) as r:
        result, elapsed, sent = timed_turn(r, SOLVE)
        assert 1 <= sent <= ATTEMPTS and elapsed < BOUNDED_S
        assert_rolled_back(r, result, [], 0)
        assert "refused the API key" in result.error and "MATH_AGENT_API_KEY" in result.error


def test_400_quotes_the_server_and_does_not_say_try_again() -> None:
    body = {"error": {"message": "This model's maximum context length is 8192 tokens\nsorry"}}
    with rig("http-400", [Fault(status=400, body=body)], retries=False) as r:
        result, _, sent = timed_turn(r, SOLVE)
        assert sent == 1
        assert_rolled_back(r, result, [], 0)
        assert "rejected the request (HTTP 400" in result.error
        assert "maximum context length is 8192 tokens sorry" in result.error
        assert "try again" not in result.error
        assert_next_turn_works(r, SOLVE)


def test_a_body_that_is_not_a_chat_completion() -> None:
    with rig(
        "not-a-completion", [Fault(status=200, body="<html>login</html>")], retries=False
    ) as r:
        result, _, _ = timed_turn(r, SOLVE)
        assert_rolled_back(r, result, [], 0)
        assert "not with an OpenAI-style chat completion" in result.error
        assert "HTTP 200" not in result.error
        assert_next_turn_works(r, SOLVE)


# -- time and connection -------------------------------------------------------------------


def test_slow_response_once_is_retried_within_the_timeout() -> None:
    faults: list[Fault | None] = [Fault(delay_s=2.5)]
    with rig("slow", faults, timeout_ms=SHORT_TIMEOUT_MS) as r:
        result, elapsed, _ = timed_turn(r, SOLVE)
        assert result.ok, result.error
        assert elapsed < BOUNDED_S


def test_slow_response_past_the_timeout_is_one_sentence_about_time() -> None:
    faults: list[Fault | None] = [None, None, *[Fault(delay_s=2.5)] * ATTEMPTS]
    with rig("slow", faults, timeout_ms=SHORT_TIMEOUT_MS) as r:
        before, entries, _ = primed(r)
        result, elapsed, sent = timed_turn(r, "differentiate x^3")
        # three 1 s timeouts and 1 s + 2 s of backoff; never the full 2.5 s delays
        assert sent == ATTEMPTS and 3 <= elapsed < BOUNDED_S
        assert_rolled_back(r, result, before, entries)
        assert "did not answer in time" in result.error
        assert "MATH_AGENT_TIMEOUT_MS" in result.error
        assert_next_turn_works(r, "differentiate x^3")


def test_dropped_connection_once_is_retried() -> None:
    with rig("dropped", [Fault(drop_connection=True)]) as r:
        result, elapsed, sent = timed_turn(r, SOLVE)
        assert result.ok and sent == 3 and elapsed < BOUNDED_S


def test_dropped_connection_every_time_is_one_sentence() -> None:
    with rig("dropped", [None, None, *[Fault(drop_connection=True)] * ATTEMPTS]) as r:
        before, entries, _ = primed(r)
        result, elapsed, sent = timed_turn(r, "differentiate x^3")
        assert sent == ATTEMPTS and elapsed < BOUNDED_S
        assert_rolled_back(r, result, before, entries)
        assert "connection to the model endpoint" in result.error
        assert "HTTP 2" not in result.error  # BAML's internal code is not an HTTP status
        assert_next_turn_works(r, "differentiate x^3")


def test_unreachable_endpoint_is_one_sentence() -> None:
    with rig("refused", []) as r:
        before, entries, _ = primed(r)
        r.server.stop()  # nothing listens on that port any more
        FAULTS["refused"] += 1
        started = time.monotonic()
        result = r.agent.run_turn("differentiate x^3")
        assert time.monotonic() - started < BOUNDED_S
        assert_rolled_back(r, result, before, entries)
        assert result.error.startswith("Could not reach the model endpoint")


# -- bad replies: one repair round (the model sees its reply), then one sentence ------------


@pytest.mark.parametrize(
    ("kind", "content", "expected"),
    [
        ("empty-reply", "", "empty reply"),
        ("whitespace-reply", " \n\t ", "empty reply"),
        ("malformed-json", '{"tool": "solve", "equation": ', "not a valid tool call"),
        ("unknown-tool", '{"tool": "plot", "expression": "x^2 - 1"}', "not a valid tool call"),
        ("missing-arguments", '{"tool": "derivative"}', "not a valid tool call"),
        ("null-argument", '{"tool": "derivative", "expression": null}', "not a valid tool call"),
        (
            "bad-status",
            '{"tool": "message_to_user", "response": "hi", "task_status": "DONE"}',
            "not a valid tool call",
        ),
        (
            "prose-reply",
            "I think the answer is probably five.\nIs that right?",
            "not a valid tool call",
        ),
    ],
)
def test_bad_reply_gets_one_repair_round_then_one_sentence(
    kind: str, content: str, expected: str
) -> None:
    with rig(kind, [], stateless_model({"do it": content})) as r:
        before, entries, _ = primed(r)
        bad_reply(kind)
        result, _, sent = timed_turn(r, "do it")
        assert sent == 2  # the bad reply went back to the model once, not to the user
        assert_rolled_back(r, result, before, entries)
        assert expected in result.error
        assert_next_turn_works(r, "do it")


def test_wrong_typed_argument_is_dropped_by_baml_and_the_default_used() -> None:
    """BAML's lenient parser turns `"order": "lots"` into no order: the first derivative."""
    wrong = '{"tool": "derivative", "expression": "x^2", "order": "lots"}'
    with rig("wrong-type", [], stateless_model({"differentiate x^2 lots of times": wrong})) as r:
        bad_reply("wrong-type")
        result = r.agent.run_turn("differentiate x^2 lots of times")
        assert result.ok, result.error
        ((call, outcome),) = result.tool_runs
        assert call.arguments["order"] is None and outcome.ok
        assert outcome.text.replace(" ", "").endswith("=2*x")
        assert unpaired_tool_messages(r.agent.session.working) == []


SLIPPED = '{"response": "12 + (5 - 2) - -6", "tool": "evaluate", "at": []}'


@pytest.mark.parametrize("in_repair", [False, True])
def test_a_tool_call_with_its_math_under_response_runs(in_repair: bool) -> None:
    """Seen on the embedded model: a call written like a message, its math under `response`;
    on the full `single` set, also as the repair round's reply after prose."""
    model = ScriptedModel(
        chat=lambda request: (
            answer("It is 21.")
            if wire.is_tool_outcome(request.last)
            else (SLIPPED if request.repairing or not in_repair else "It is twenty-one.")
        )
    )
    with rig("slipped-field", [], model) as r:
        bad_reply("slipped-field")
        result, _, sent = timed_turn(r, "Calculate 12 + (5 - 2) - -6.")
        assert sent == 2 + in_repair  # the call (after one repair round), the answer
        ((call, outcome),) = result.tool_runs
        assert call.arguments["expression"] == "12 + (5 - 2) - -6" and "21" in outcome.text


def test_wrong_typed_order_out_of_range_is_a_clear_tool_error() -> None:
    wrong = '{"tool": "derivative", "expression": "x^2", "order": 1e400}'
    with rig("wrong-type", [], stateless_model({"differentiate x^2 forever": wrong})) as r:
        bad_reply("wrong-type")
        result = r.agent.run_turn("differentiate x^2 forever")
        assert result.ok, result.error
        ((_, outcome),) = result.tool_runs
        assert not outcome.ok and "between 1 and 100" in outcome.text
        assert_next_turn_works(r)


# -- the loop itself ---------------------------------------------------------------------------


def test_endless_tool_calls_stop_at_the_step_cap() -> None:
    script = stateless_model(endless=True)
    with rig("endless-tools", [], script, max_tool_steps=3) as r:
        bad_reply("endless-tools")
        result, _, sent = timed_turn(r, SOLVE)
        assert sent == 3 and result.llm_calls == 3 and len(result.tool_runs) == 3
        assert result.ok and result.reply.task_status == "PROCESSING"
        assert "stopped after 3 tool steps" in result.reply.text
        assert unpaired_tool_messages(r.agent.session.working) == []
        script.endless = False
        follow = r.agent.run_turn("continue")
        assert follow.ok and follow.reply.text == "pong"


def test_fault_after_a_successful_tool_step_rolls_the_whole_turn_back() -> None:
    # requests: primed turn (0, 1), then the chain: solve call (2) ok, next step (3..5) fail
    faults: list[Fault | None] = [None, None, None, *[Fault(status=503)] * ATTEMPTS]
    with rig("mid-turn", faults) as r:
        before, entries, _ = primed(r)
        result, _, sent = timed_turn(r, CHAIN)
        assert sent == 1 + ATTEMPTS
        assert_rolled_back(r, result, before, entries)
        assert "failed (HTTP 503)" in result.error
        # The transcript keeps the step that did run, in order, before the error.
        kinds = [e.kind for e in r.agent.session.transcript.entries[entries:]]
        assert kinds == ["user", "tool_call", "tool_result", "error"]
        assert_next_turn_works(r, CHAIN)


def test_malformed_reply_after_a_tool_step_rolls_back_too() -> None:
    script = stateless_model(after_solve='{"tool": "derivative", "expression": ')
    with rig("mid-turn", [], script) as r:
        bad_reply("mid-turn")
        result = r.agent.run_turn(CHAIN)
        assert_rolled_back(r, result, [], 0)
        assert "not a valid tool call" in result.error
        assert_next_turn_works(r, CHAIN)


# -- a fault in our own code after the model answered -------------------------------------------


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_failing_checkpoint_hook_does_not_end_the_session() -> None:
    def broken_save(turn_complete: bool) -> None:
        raise OSError("disk full")

    with rig("checkpoint", []) as r:
        r.agent.on_checkpoint = broken_save
        FAULTS["checkpoint"] += 1
        result = run_turn_cancellable(r.agent, SOLVE)  # must return, whatever happened
        assert result.reply is not None or result.error is not None
        assert "\n" not in (result.error or "")
        assert unpaired_tool_messages(r.agent.session.working) == []
        r.agent.on_checkpoint = None
        assert run_turn_cancellable(r.agent, "ping").ok
