"""An equation to solve whose numbers nobody gave is refused once; numbers the person wrote
(in digits or words), a tool gave, one operation on the newest message makes, or a common
constant runs."""

from __future__ import annotations

from typing import Any

import pytest

from agent.calls.desk import settle
from agent.calls.grounding import invented_numbers_reason
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.context.registry import make_strategy
from agent.core.loop import Agent
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import as_step, done, solve, tool_call
from tests.calls.test_desk import _facts

_COST = "A firm's total cost is C(q) = 3q^2 + 20q + 2523. Find the smallest average cost C(q)/q."


def _reason(said: list[Message], tool: str, **fields: Any) -> str | None:
    message = next(m.text for m in reversed(said) if isinstance(m, UserMessage))
    return invented_numbers_reason(as_step(tool_call(tool, **fields)), said, message)


@pytest.mark.parametrize(
    ("said", "equation", "nobody"),
    [
        (_COST, "C(q)/q = 100", "100"),
        ("15 adults and 58 children paid 410 dollars", "15*10 + 58*5 = 410", "5"),
        ("a box of volume 200 has a square base", "x^2*h = 250", "250"),
    ],
)
def test_a_number_nobody_gave_is_named_in_the_refusal(
    said: str, equation: str, nobody: str
) -> None:
    reason = _reason([UserMessage(text=said)], "solve", equation=equation, variable="q")
    assert reason is not None
    assert reason.startswith(f"Not run: {nobody} in '{equation}'") and "extrema" in reason


@pytest.mark.parametrize(
    ("said", "equation"),
    [
        # the person's digits, thousands written with a comma, and number words
        ("two hundred and forty metres of fence enclose 7,200 square metres", "x*(240-2x) = 7200"),
        ("deux cent quarante mètres de clôture, 7200 m²", "x*(240 - 2*x) = 7200"),
        # one operation on the newest message's numbers: half the perimeter, a doubling
        ("a rectangle has perimeter 36 cm and area 80 cm^2", "x*(18 - x) = 80"),
        ("1000 dollars grow by 5% a year: when have they doubled?", "1000*(1 + 5/100)^t = 2000"),
        # constants people expect a model to know: g, minutes, a square, a cube
        ("thrown up at 20 m/s from 5 m high: when does it land?", "-4.9t^2 + 20t + 5 = 0"),
        ("a 90 minute film at 2 frames: how many hours", "60*h = 90"),
        ("a cube of side s holds 27 litres", "s^3 = 27"),
        # ids are items, names with digits are names
        ("solve the last one", "#3 = 0"),
        ("where is log10(x) equal to 5", "log10(x) = 5"),
    ],
)
def test_numbers_someone_gave_run(said: str, equation: str) -> None:
    assert _reason([UserMessage(text=said)], "solve", equation=equation, variable="x") is None


def test_a_number_a_tool_gave_is_given() -> None:
    said: list[Message] = [
        UserMessage(text="solve 2x - 14 = 0"),
        ToolResultMessage(call_id="a", tool="solve", ok=True, text="x = 7"),
        UserMessage(text="now where does y squared reach that plus 42?"),
    ]
    assert _reason(said, "solve", equation="y^2 = 7 + 42", variable="y") is None
    # a refusal quotes the call: it gives nothing
    refused = ToolResultMessage(call_id="b", tool="solve", ok=False, text="Not run: 49 ...")
    assert _reason([*said[:2], refused, said[2]], "solve", equation="y^2 = 49") is not None


def test_the_same_call_again_runs_and_the_first_is_refused_with_the_reason() -> None:
    said: list[Message] = [UserMessage(text=_COST)]
    fields = {"equation": "C(q)/q = 100", "variable": "q"}
    stored, ran = settle(
        PendingCall(as_step(tool_call("solve", **fields))), _facts(said), guards(True)
    )
    assert not ran.ok and ran.text.startswith("Not run: 100 in 'C(q)/q = 100'")
    again = [*said, stored, ran]
    assert isinstance(stored, ToolCall)
    _, ran_again = settle(
        PendingCall(as_step(tool_call("solve", **fields))), _facts(again), guards(True)
    )
    assert ran_again.ok, ran_again.text
    # a new message starts over
    later = [*again, UserMessage(text="and for C(q) = 5q^2 + 2523?")]
    assert _reason(later, "solve", **fields) is not None


def test_the_refusal_names_the_math_set_to_the_made_up_number() -> None:
    reason = _reason([UserMessage(text=_COST)], "solve", equation="C(q)/q = 100")
    assert reason is not None and "call extrema on C(q)/q" in reason
    both = _reason([UserMessage(text=_COST)], "solve", equation="C(q) = 5*q + 700")
    assert both is not None and "largest or smallest value of the function" in both


def test_in_the_loop_the_model_that_insists_gets_its_call_run() -> None:
    model = InProcessModel(
        [solve("C(q)/q = 100", "q"), solve("C(q)/q = 100", "q"), done("q = 47, q = 18")]
    )
    result = Agent(model, make_strategy("none")).run_turn(_COST)
    (_, refused), (_, ran) = result.tool_runs
    assert not refused.ok and "nobody gave" in refused.text
    assert ran.ok and result.reply.task_status == "COMPLETED"
