"""A derivative's order as the person's primes count it, where the model miscounted them."""

from __future__ import annotations

import pytest

from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.calls.person_primes import counted_order
from agent.messages import Message, UserMessage
from agent.testing.replies import as_step, tool_call
from agent.workspace.building import build
from tests.calls.test_desk import _facts

ASKED = "f(x) = -4x^3 - 6, find f'''"


def test_an_order_that_miscounts_the_persons_primes_runs_as_they_count() -> None:
    conversation: list[Message] = [UserMessage(text=ASKED)]
    call = PendingCall(as_step(tool_call("derivative", expression="f(x)", order=2)))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.values == ("-24",)
    assert stored.arguments["order"] == 3  # stored as it ran: the model reads back order 3


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        (ASKED, {"expression": "f", "order": 3}),  # counted right
        (ASKED, {"expression": "f"}),  # no order written: maybe one more derivative
        (ASKED, {"expression": "g", "order": 2}),  # another function
        ("f(x) = x^5; compare f'' and f'''", {"expression": "f", "order": 2}),  # two forms
        ("f(x) = x^5; find the second derivative", {"expression": "f", "order": 2}),
    ],
)
def test_an_order_stands_unless_one_primed_form_of_its_function_says_otherwise(
    message: str, fields: dict[str, object]
) -> None:
    workspace = build([UserMessage(text=message), UserMessage(text="g(x) = x^4")])
    assert counted_order("derivative", fields, message, workspace) is None


def test_the_function_may_be_named_by_its_id() -> None:
    workspace = build([UserMessage(text=ASKED)])
    (function,) = [i for i in workspace.items if i.name == "f"]
    fields = {"expression": function.id, "order": 2}
    assert counted_order("derivative", fields, ASKED, workspace) == {**fields, "order": 3}
