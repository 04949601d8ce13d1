"""The interval the person wrote is kept where the model dropped it; a name before an
expression's math, or an id after it as answers write one, is not math of its own."""

from __future__ import annotations

from typing import Any

import pytest

from agent.calls.bounds import dropped_bounds, persons_interval, persons_restriction
from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.messages import AssistantMessage, Message, UserMessage
from agent.testing.replies import as_step, tool_call
from agent.workspace.building import build
from tests.calls.test_desk import _facts
from tests.calls.test_roots_as_lists import _ran


def _run(conversation: list[Message], tool: str, **fields: Any) -> tuple[dict[str, Any], str]:
    call = PendingCall(as_step(tool_call(tool, **fields)))
    stored, ran = settle(call, _facts(conversation), guards(fit_variable=True))
    assert ran.ok, ran.text
    return stored.arguments, ran.text


@pytest.mark.parametrize(
    ("said", "interval"),
    [
        ("the area under y = x^2 + 1 from x = 0 to x = 3", ("0", "3")),
        ("integrate it between -1 and 2.5, please", ("-1", "2.5")),
        ("its greatest value on [0, 2pi]", ("0", "2pi")),
        ("for 1 <= q <= 67", ("1", "67")),
        ("for q between 1 and 67.", ("1", "67")),  # the sentence's full stop is no decimal
        ("from t = 1 until t = 4", ("1", "4")),
        ("from zero to two", ("0", "2")),
        ("what is x = 1 to x = π/2 of it", ("1", "π/2")),
        ("integrate x^2", None),
        ("from 0 to 1 and from 1 to 2", None),  # two intervals: which one is not for code
        ("between f and g", None),  # ends that are no numbers
    ],
)
def test_the_one_interval_a_person_writes_is_read(
    said: str, interval: tuple[str, str] | None
) -> None:
    assert persons_interval(said) == interval


@pytest.mark.parametrize(
    ("said", "math", "kept"),
    [
        ("the inverse of f(x) = x^2 + 1 for x >= 0", "x**2 + 1", "x >= 0"),
        ("f(x) = (x - 2)^2 with x ≥ 2. its inverse?", "(x - 2)**2", "x >= 2"),  # full stop
        ("range of sqrt(x) for x>4.5", "sqrt(x)", "x > 4.5"),
        ("range of x^2 for x > 0 and x < 5", "x**2", "x > 0 and x < 5"),
        ("range of g(t) = t^2 when 0 <= t <= 3", "t**2", "[0, 3]"),  # a chain is an interval
        ("range of x^2 for 0 < x < 5", "x**2", "x > 0 and x < 5"),  # its ends left out
        ("the inverse of t^2 with 0 < t ≤ 3", "t**2", "t > 0 and t <= 3"),
        ("what is the range of x^2 - 4", "x**2 - 4", None),
        ("inverse of x^2 for t > 0", "x**2", None),  # a condition on another letter
        ("range of x^2 + y for x > 0 and y < 2", "x**2 + y", None),  # on two letters
    ],
)
def test_the_part_of_the_line_a_person_keeps_a_function_to_is_read(
    said: str, math: str, kept: str | None
) -> None:
    assert persons_restriction(said, math) == kept


@pytest.mark.parametrize(
    ("said", "tool", "written", "stored", "answer"),
    [
        (
            "find the inverse of f(x) = x^2 + 1 for x >= 0",
            "inverse",
            "f",
            "f, x >= 0",
            "the inverse of x**2 + 1 on [0, oo) is sqrt(x - 1), defined for x in [1, oo)",
        ),
        (
            "what is the range of f(x) = x^2 on [-1, 3]?",
            "range",
            "f(x) = x^2",
            "f(x) = x^2, [-1, 3]",
            "the range of x**2 on [-1, 3] is [0, 9]",
        ),
        (
            "the range of f(x) = x^2 for 0 < x < 5",
            "range",
            "f",
            "f, x > 0 and x < 5",
            "the range of x**2 on (0, 5) is (0, 25)",
        ),
    ],
)
def test_a_range_or_inverse_that_dropped_the_persons_restriction_takes_it(
    said: str, tool: str, written: str, stored: str, answer: str
) -> None:
    arguments, text = _run([UserMessage(text=said)], tool, expression=written)
    assert arguments["expression"] == stored and text == answer


@pytest.mark.parametrize("written", ["f(x) = x^2 + 1 for x >= 0", "f where x >= 0", "f, x >= 0"])
def test_a_restriction_the_call_wrote_after_its_math_is_read_as_one(written: str) -> None:
    said = [UserMessage(text="find the inverse of f(x) = x^2 + 1 for x >= 0")]
    arguments, text = _run(said, "inverse", expression=written)
    assert arguments["expression"] == written and "on [0, oo) is sqrt(x - 1)" in text


def test_a_domain_and_a_call_that_kept_the_restriction_are_left_as_written() -> None:
    said = [UserMessage(text="f(x) = x^2 + 1 for x >= 0: its domain, and its inverse")]
    arguments, _text = _run(said, "domain", expression="f")
    assert arguments["expression"] == "f"
    arguments, text = _run(said, "inverse", expression="f, x > 1")
    assert arguments["expression"] == "f, x > 1" and "on (1, oo) is sqrt(x - 1)" in text


def test_an_integral_that_dropped_the_persons_bounds_takes_them() -> None:
    said = [UserMessage(text="the area under y = x^2 + 1 from x = 0 to x = 3")]
    arguments, text = _run(said, "integral", expression="x^2 + 1", variable="x")
    assert (arguments["lower"], arguments["upper"]) == ("0", "3")  # stored as it ran
    assert text.endswith("= 12")


def test_an_extremum_that_dropped_the_persons_range_takes_it() -> None:
    said = [UserMessage(text="the largest value of f(x) = x^3 - 3x on [-2, 3]?")]
    _arguments, text = _run(said, "extrema", expression="f", kind="max")
    assert text == "on [-2, 3]: maximum 18 at x = 3"


def test_an_antiderivative_nobody_bounded_stays_one() -> None:
    conversation: list[Message] = [
        UserMessage(text="integrate x^2 from 0 to 1"),
        AssistantMessage(text="1/3", task_status="COMPLETED"),
        UserMessage(text="now an antiderivative of x^3"),  # a new task: no interval in it
    ]
    arguments, text = _run(conversation, "integral", expression="x^3")
    assert arguments["lower"] is None and text.endswith("+ C")


def test_the_largest_of_several_roots_is_not_bounded_by_the_interval() -> None:
    said = "solve x^2 - 5x + 6 = 0 on [0, 10] and give the larger root"
    solved = _ran("solve", {"equation": "#1"}, "#2", ("2", "3"), "x**2 - 5*x + 6 = 0 for x")
    workspace = build([UserMessage(text=said), *solved])
    assert dropped_bounds("extrema", {"expression": "#2", "kind": "max"}, said, workspace) is None
    bounded = dropped_bounds("extrema", {"expression": "#1", "kind": "max"}, said, workspace)
    assert bounded is not None and (bounded["lower"], bounded["upper"]) == ("0", "10")


@pytest.mark.parametrize("label", ["area", "total area", "velocity"])
def test_a_word_before_an_expressions_math_is_a_name_not_math(label: str) -> None:
    said = [UserMessage(text="the area under y = x^2 + 1 from x = 0 to x = 3")]
    arguments, text = _run(said, "integral", expression=f"{label} = ∫ (x^2 + 1) dx")
    assert "=" not in arguments["expression"] and text.endswith("= 12")


@pytest.mark.parametrize("written", ["v = 3t^2", "integrate h from t = 0 to 1"])
def test_letters_before_an_equals_sign_are_math(written: str) -> None:
    said = [UserMessage(text="Let h(t) = 3t^2 and v = 3t^2; integrate from 0 to 1")]
    call = PendingCall(as_step(tool_call("integral", expression=written)))
    stored, _ran = settle(call, _facts(said), guards(fit_variable=True))
    assert "=" in stored.arguments["expression"] or stored.arguments["variable"] == "t"


@pytest.mark.parametrize(
    ("tool", "field", "written"),
    [
        ("simplify", "expression", "(x - 4)(x - 6)/3 (#1)"),  # a factor form made up
        ("simplify", "expression", "(x**2 - 10*x + 24)/(x - 6)  ( #1 )"),  # copied right
        ("solve", "equation", "x^2 - 10x + 24 = 0 (#1)"),
    ],
)
def test_math_labelled_by_an_id_as_answers_write_it_is_that_id(
    tool: str, field: str, written: str
) -> None:
    said = [UserMessage(text="Write (x^2 - 10x + 24)/(x - 6) in its simplest form.")]
    call = PendingCall(as_step(tool_call(tool, **{field: written})))
    stored, ran = settle(call, _facts(said), guards(fit_variable=True))
    assert stored.arguments[field] == "#1" and ran.ok


@pytest.mark.parametrize("written", ["max (#1)", "x^2 (#7)"])
def test_a_function_of_an_id_or_an_unknown_id_is_no_label(written: str) -> None:
    said = [UserMessage(text="the roots of x^2 - 5x + 6 = 0")]
    call = PendingCall(as_step(tool_call("evaluate", expression=written)))
    stored, _ran = settle(call, _facts(said), guards(fit_variable=True))
    assert stored.arguments["expression"] == written
