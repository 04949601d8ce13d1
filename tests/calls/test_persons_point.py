"""A derivative that dropped the point the person wrote for its letter is taken there; an
interval, a point in another letter, or a call with its own point is left as written."""

from __future__ import annotations

from typing import Any

import pytest

from agent.calls.points import persons_points
from agent.messages import AssistantMessage, UserMessage
from tests.calls.test_person_interval import _run
from tests.calls.test_roots_as_lists import _ran

_HEIGHT = [
    UserMessage(text="a stone's height in metres is h(t) = 1 + 20t - 5t^2. when is it highest?"),
    AssistantMessage(text="maximum 21 at t = 2", task_status="COMPLETED"),
]


@pytest.mark.parametrize(
    ("message", "letter", "points"),
    [
        ("what's its velocity at t = 1 s?", "t", ["t = 1"]),
        ("the marginal profit at q=15", "q", ["q = 15"]),
        ("its slope at x = -1/2 and at x = 2.5, please.", "x", ["x = -1/2", "x = 2.5"]),
        ("the rate at x = 3 (and x = 3 again)", "x", ["x = 3"]),
        ("what is its slope at x = 3.", "x", ["x = 3"]),  # a full stop is no decimal
        ("its velocity at t = 1", "x", []),  # another letter
        ("where does f(x) = 3?", "x", []),  # a function's value, no point
        ("solve x = 2y + 1 for y", "x", []),  # math, no number
        ("the area from x = 0 to x = 3", "x", []),  # an interval's ends
        ("x = 3*k", "x", []),
    ],
)
def test_the_points_a_person_writes_for_a_letter_are_read(
    message: str, letter: str, points: list[str]
) -> None:
    assert persons_points(message, letter) == points


def test_a_derivative_that_dropped_the_persons_point_takes_it() -> None:
    said = [*_HEIGHT, UserMessage(text="what's its velocity at t = 1 s?")]
    arguments, text = _run(said, "derivative", expression="h", variable="t", order=1)
    assert arguments["at"] == ["t = 1"]  # stored as it ran
    assert text == "d/dt (-5*t**2 + 20*t + 1) = 20 - 10*t, which at t = 1 is 10"


def test_the_letter_is_read_from_the_math_when_the_call_names_none() -> None:
    said = [*_HEIGHT, UserMessage(text="and how fast is it going at t = 3?")]
    arguments, text = _run(said, "derivative", expression="h")
    assert arguments["at"] == ["t = 3"] and text.endswith("which at t = 3 is -10")


@pytest.mark.parametrize(
    ("message", "fields"),
    [
        ("differentiate h", {"expression": "h", "variable": "t"}),
        ("its velocity at x = 1", {"expression": "h", "variable": "t"}),
        ("its velocity at t = 1", {"expression": "h", "variable": "t", "at": ["2"]}),
    ],
)
def test_a_derivative_without_a_point_for_its_letter_is_left_as_written(
    message: str, fields: dict[str, Any]
) -> None:
    said = [*_HEIGHT, UserMessage(text=message)]
    arguments, _text = _run(said, "derivative", **fields)
    assert arguments.get("at") == fields.get("at")


def test_roots_that_name_an_earlier_equation_are_no_points() -> None:
    solved = [
        UserMessage(text="solve x^2 + 3x - 54 = 0"),
        *_ran("solve", {"equation": "#1"}, "#2", ("-9", "6"), "#1"),
        AssistantMessage(text="x = -9, x = 6 (#2)", task_status="COMPLETED"),
        UserMessage(text="take the equation that came out as x = -9 or x = 6 and differentiate it"),
    ]
    arguments, text = _run(solved, "derivative", expression="#1", variable="x")
    assert arguments.get("at") is None and text == "d/dx (x**2 + 3*x - 54) = 2*x + 3"


_CUBIC = [
    UserMessage(text="Let g(t) = t^3 - 6t^2 + 9t. Determine the critical points of g."),
    AssistantMessage(text="t = 1, t = 3", task_status="COMPLETED"),
]


@pytest.mark.parametrize(
    ("message", "order", "at"),
    [
        ("Finally, what is g''(2)?", 2, ["t = 2"]),
        ("and g'(-1/2)?", None, ["t = -1/2"]),
        ("g′(4), please", 1, ["t = 4"]),  # the prime sign a phone or a PDF writes
        ("g''(1) and g''(3)", 2, ["t = 1", "t = 3"]),
    ],
)
def test_a_derivative_takes_the_point_the_persons_primes_are_written_at(
    message: str, order: int | None, at: list[str]
) -> None:
    said = [*_CUBIC, UserMessage(text=message)]
    arguments, text = _run(said, "derivative", expression="g", variable="t", order=order)
    assert arguments["at"] == at
    assert "which at t =" in text


def test_the_value_of_g_second_derivative_at_two_is_stated() -> None:
    said = [*_CUBIC, UserMessage(text="Finally, what is g''(2)?")]
    _arguments, text = _run(said, "derivative", expression="g", variable="t", order=2)
    assert text.endswith("which at t = 2 is 0")


@pytest.mark.parametrize(
    ("message", "order"),
    [
        ("what is g'(2)?", 2),  # one prime: the call's second derivative is not it
        ("write g''(t) out", 2),  # at a letter: the function, no point
        ("f''(2)?", 2),  # another function's primes
        ("g''(2)", None),  # primes of the second derivative, a call of the first
    ],
)
def test_primes_of_another_order_or_at_a_letter_give_no_point(
    message: str, order: int | None
) -> None:
    said = [*_CUBIC, UserMessage(text=message)]
    arguments, _text = _run(said, "derivative", expression="g", variable="t", order=order)
    assert arguments.get("at") is None
