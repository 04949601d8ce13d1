"""One record for a pending call, one ordered list of named guards, one place that runs them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import tools
from agent.calls.desk import settle, task_text
from agent.calls.guards import AFTER_RUN, Facts, guards
from agent.calls.pending import PendingCall
from agent.core.tool_calls import run_tool
from agent.messages import AssistantMessage, Message, ToolCall, ToolResultMessage, UserMessage
from agent.testing.replies import as_step, evaluate, integral, solve, tool_call
from agent.workspace.building import build
from agent.workspace.record import ItemRef, Workspace


def _facts(conversation: list[Message], runner: Any = run_tool) -> Facts:
    workspace = build(conversation)
    return Facts(
        workspace=workspace,
        conversation=conversation,
        message=next(m.text for m in reversed(conversation) if isinstance(m, UserMessage)),
        said=task_text(conversation),
        earlier=[],
        run_tool=runner,
        look_up=lambda query: f"looked up {query}",
    )


def test_the_guards_run_in_one_written_order() -> None:
    assert [g.__name__ for g in guards(fit_variable=True)] == [
        "take_the_inverse_written",
        "evaluate_closed_math",
        "say_once",
        "keep_the_persons_degrees",
        "differentiate_along_the_curve",
        "count_the_persons_primes",
        "use_the_math_roots_solve",
        "drop_bounds_that_say_none",
        "keep_the_persons_interval",
        "leave_out_unsaid_bounds",
        "refuse_a_unit_or_no_unknown",
        "take_the_roots_named_by_values",
        "resolve_references",
        "keep_the_persons_restriction",
        "keep_the_persons_point",
        "fit_the_variable",
        "refuse_another_letter",
        "refuse_invented_math",
    ]
    # the letter guards are a small model's aid; the rest hold for every model
    assert [g.__name__ for g in guards(fit_variable=False)] == [
        "take_the_inverse_written",
        "evaluate_closed_math",
        "say_once",
        "keep_the_persons_degrees",
        "differentiate_along_the_curve",
        "count_the_persons_primes",
        "use_the_math_roots_solve",
        "drop_bounds_that_say_none",
        "keep_the_persons_interval",
        "leave_out_unsaid_bounds",
        "refuse_a_unit_or_no_unknown",
        "take_the_roots_named_by_values",
        "resolve_references",
        "keep_the_persons_restriction",
        "keep_the_persons_point",
        "refuse_invented_math",
    ]
    assert [g.__name__ for g in AFTER_RUN] == ["solve_together", "point_back"]
    # each guard says why it exists
    assert all(g.__doc__ and len(g.__doc__) > 40 for g in (*guards(True), *AFTER_RUN))


def test_the_record_keeps_one_typed_call_and_what_each_guard_did() -> None:
    conversation: list[Message] = [UserMessage(text="Let h(t) = 3t^2. Integrate h from 0 to 1")]
    call = PendingCall(as_step(integral("integrate h from t = 0 to 1")))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    # said once: the math alone in expression, the bounds in their fields, stored so
    assert stored.arguments == {"expression": "h", "variable": "t", "lower": "0", "upper": "1"}
    assert call.step.expression == "h" and call.step.lower == "0"  # the typed call agrees
    assert call.written.expression == "integrate h from t = 0 to 1"  # as the model wrote it
    assert call.resolved is not None and call.resolved["expression"] == "(3*t**2)"
    assert [c.guard for c in call.changes] == ["say_once", "resolve_references"]
    assert ran.ok and ran.values == ("1",) and ran.item == "#2" and call.item == ItemRef(2)


def test_a_refused_call_is_not_run_and_is_still_shown_back_by_id() -> None:
    ran_tools: list[Any] = []

    def runner(step: Any) -> tools.ToolResult:
        ran_tools.append(step)
        return run_tool(step)

    conversation: list[Message] = [UserMessage(text="The area is 52 m². Find x^2 - 4 = 0 too")]
    call = PendingCall(as_step(solve("52*m^2 = 52", "m")))
    stored, ran = settle(call, _facts(conversation, runner), guards(fit_variable=True))
    assert not ran.ok and ran.text.startswith("Not run: m is the unit")
    assert ran_tools == [] and call.result is None
    assert [c.guard for c in call.changes] == ["refuse_a_unit_or_no_unknown"]
    # copied math is shown back as the id it restates, refused or not
    conversation = [UserMessage(text="solve x^2 - 4 = 0")]
    call = PendingCall(as_step(tool_call("solve", equation="x^2 - 4 = 0", variable="q")))
    call.refuse("a test", "no")
    stored, ran = settle(call, _facts(conversation, runner), guards(fit_variable=True))
    assert stored.pointed == {"equation": "#1", "variable": "q", "domain": None}
    assert stored.arguments["equation"] == "x^2 - 4 = 0" and ran.text == "no"
    assert ran_tools == [] and [c.guard for c in call.changes] == ["a test"]


def test_a_recall_is_answered_by_the_look_up_and_meets_no_guard() -> None:
    conversation: list[Message] = [UserMessage(text="what was #1?")]
    call = PendingCall(as_step(tool_call("recall", query="#1")))
    _stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.text == "looked up #1" and call.changes == []


def test_a_note_said_only_when_the_tool_ran() -> None:
    conversation: list[Message] = [UserMessage(text="integrate x^2")]
    facts = _facts(conversation)
    call = PendingCall(as_step(integral("x^2", "0", "1")))
    _stored, ran = settle(call, facts, guards(fit_variable=True))
    assert ran.ok and ran.text.endswith(
        "(the bounds 0, 1 were not given in this request, so this is the antiderivative; say "
        "the bounds for a definite integral)"
    )
    call = PendingCall(as_step(integral("x^+", "0", "1")))
    _stored, ran = settle(call, facts, guards(fit_variable=True))
    assert not ran.ok and "bounds" not in ran.text


def test_roots_of_a_result_belong_to_it_by_id_not_by_its_label() -> None:
    """`solve #2 = 0` on a derivative (no person's item): its roots are #2's, read from the
    record's data (`Item.of`), so `mean(#2)` means those roots."""
    conversation: list[Message] = [
        UserMessage(text="differentiate x^3 - 3x"),
        ToolCall(call_id="a", tool="derivative", arguments={"expression": "#1"}),
        ToolResultMessage(
            call_id="a", tool="derivative", ok=True, text="3*x**2 - 3", item="#2",
            values=("3*x**2 - 3",), subject="x**3 - 3*x",
        ),
        AssistantMessage(text="3x^2 - 3 (#2)", task_status="COMPLETED"),
        UserMessage(text="where is it zero?"),
        ToolCall(call_id="b", tool="solve", arguments={"equation": "#2 = 0"}),
        ToolResultMessage(
            call_id="b", tool="solve", ok=True, text="x = -1, x = 1", item="#3",
            values=("-1", "1"), subject="3*x**2 - 3 = 0 for x",
        ),
    ]  # fmt: skip
    workspace: Workspace = build(conversation)
    derivative, roots = workspace.get(2), workspace.get(3)
    assert derivative is not None and roots is not None
    assert roots.origin == "roots of #2" and roots.source is None and roots.of == 2
    assert workspace.roots_of(derivative) is roots
    call = PendingCall(as_step(evaluate("mean(#2)")))
    _stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok and ran.values == ("0",)


def test_an_item_reference_is_data_and_writes_itself_as_an_id() -> None:
    assert ItemRef.parse("#12") == ItemRef(12) and str(ItemRef(12)) == "#12"
    assert ItemRef.parse("#12[1]") is None and ItemRef.parse("x") is None


def test_the_architecture_table_lists_every_guard_in_its_order() -> None:
    """docs/architecture.md says the guards run in the order its table lists them."""
    text = (Path(__file__).parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([a-z_]+)`", text, re.MULTILINE)
    names = [g.__name__ for g in (*guards(fit_variable=True), *AFTER_RUN)]
    assert [n for n in listed if n in names] == names
