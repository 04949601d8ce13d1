"""An id of roots given whole where a tool needs math in a variable stands for what they solve."""

from __future__ import annotations

import pytest

from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.calls.solved_math import solved_math
from agent.messages import Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.replies import as_step, tool_call
from agent.workspace.building import build
from tests.calls.test_desk import _facts


def _solved_chat() -> list[Message]:
    """m^2 - m - 2 = 0 (#1) solved: #2 holds m = -1, m = 2."""
    conversation: list[Message] = [UserMessage(text="solve m^2 - m - 2 = 0")]
    call = PendingCall(as_step(tool_call("solve", equation="#1")))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.item == "#2"
    return [*conversation, stored, ran, UserMessage(text="next")]


@pytest.mark.parametrize(
    ("tool", "fields", "expected"),
    [
        ("derivative", {"expression": "#2"}, "2*m - 1"),
        ("integral", {"expression": "#2"}, "m**3/3 - m**2/2 - 2*m"),
        ("factor", {"expression": "#2"}, "(m - 2)*(m + 1)"),
        ("solve", {"equation": "#2"}, "m = -1, m = 2"),
    ],
)
def test_the_roots_id_runs_as_the_equation_they_solve(
    tool: str, fields: dict[str, str], expected: str
) -> None:
    conversation = _solved_chat()
    call = PendingCall(as_step(tool_call(tool, **fields)))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok, ran.text
    assert expected in ran.text
    # stored as it ran: the result's line names the equation, not the roots
    field = "equation" if tool == "solve" else "expression"
    assert stored.arguments[field] == "#1"
    assert "use_the_math_roots_solve" in [c.guard for c in call.changes]


def test_each_value_tools_keep_the_roots() -> None:
    workspace = build(_solved_chat())
    for tool, fields in (
        ("evaluate", {"expression": "(#2)^2", "at": []}),
        ("evaluate", {"expression": "#2", "at": []}),
        ("extrema", {"expression": "#2", "kind": "max"}),
    ):
        assert solved_math(tool, fields, workspace) == fields


def test_other_ids_and_math_are_left_alone() -> None:
    workspace = build(_solved_chat())
    for fields in ({"expression": "#1"}, {"expression": "#2[1]"}, {"expression": "m^3"}):
        assert solved_math("derivative", fields, workspace) == fields
    # one root alone is a number, not a list: nothing to read back
    conversation: list[Message] = [UserMessage(text="solve 2k - 6 = 0")]
    call = PendingCall(as_step(tool_call("solve", equation="#1")))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    single = build([*conversation, stored, ran])
    assert solved_math("derivative", {"expression": "#2"}, single) == {"expression": "#2"}


def test_roots_whose_origin_is_unknown_are_left_alone() -> None:
    conversation: list[Message] = [
        UserMessage(text="the roots are 1 and 3"),
        ToolCall(call_id="a", tool="solve", arguments={"equation": "(x - 1)*(x - 3) = 0"}),
        ToolResultMessage(
            call_id="a", tool="solve", ok=True, text="x = 1, x = 3", item="#1",
            values=("1", "3"), subject="(x - 1)*(x - 3) = 0 for x",
        ),
    ]  # fmt: skip
    workspace = build(conversation)
    roots = workspace.get(1)
    assert roots is not None and roots.of is None and roots.source is None
    assert solved_math("derivative", {"expression": "#1"}, workspace) == {"expression": "#1"}
