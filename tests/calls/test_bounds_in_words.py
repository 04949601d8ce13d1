"""A bound a call writes as words for no bound (the whole line, `undefined`) is none: the call
runs without it instead of being refused for a word in a math field. A bound in the
integral's own letter (`0` to `t`) is an accumulation, a function of t."""

from __future__ import annotations

import pytest

from agent.calls.bounds import bounds_said_in_words, says_no_bound
from agent.messages import AssistantMessage, Message, UserMessage
from tests.calls.test_person_interval import _run


@pytest.mark.parametrize(
    "written", ["all real numbers", "real", "Reals", "the real line", "ℝ", "undefined", "None"]
)
def test_words_for_no_bound_are_read(written: str) -> None:
    assert says_no_bound(written)


@pytest.mark.parametrize("written", ["0", "-oo", "r", "a", "t", "pi", "#3", "x = 2"])
def test_a_bound_in_math_is_a_bound(written: str) -> None:
    assert not says_no_bound(written)


def test_an_extremum_keeps_its_other_end_and_an_integral_loses_both() -> None:
    extremum = {"expression": "f", "lower": "0", "upper": "all real numbers", "kind": "max"}
    assert bounds_said_in_words("extrema", extremum) == {**extremum, "upper": None}
    integral = {"expression": "Q", "lower": "0", "upper": "undefined"}
    assert bounds_said_in_words("integral", integral) == {**integral, "upper": None, "lower": None}
    assert bounds_said_in_words("integral", {"expression": "Q", "lower": "0", "upper": "1"}) is None


def test_a_minimum_over_all_real_numbers_runs_unbounded() -> None:
    said = [UserMessage(text="f(x) = x^2 - 2x - 8. what's the lowest point of the graph?")]
    fields = {"lower": "all real numbers", "upper": "all real numbers", "kind": "min"}
    arguments, text = _run(said, "extrema", expression="f(x)", variable="x", **fields)
    assert arguments["lower"] is None and arguments["upper"] is None
    assert text == "minimum -9 at x = 1"


def test_an_antiderivative_with_an_undefined_bound_is_an_antiderivative() -> None:
    said: list[Message] = [
        UserMessage(text="Q(t) = t^2 + 1"),
        AssistantMessage(text="Noted Q.", task_status="COMPLETED"),
        UserMessage(text="find an antiderivative of Q"),
    ]
    arguments, text = _run(said, "integral", expression="Q", lower="0", upper="undefined")
    assert arguments["lower"] is None and text.endswith("+ C")


def test_the_persons_interval_is_taken_where_the_bounds_said_none() -> None:
    said = [UserMessage(text="the largest value of f(x) = x^3 - 3x on [-2, 3]?")]
    _arguments, text = _run(said, "extrema", expression="f", lower="real", kind="max")
    assert text == "on [-2, 3]: maximum 18 at x = 3"


def test_a_position_as_the_integral_of_a_velocity_up_to_t_is_a_function_of_t() -> None:
    said = [UserMessage(text="let v(t) = 4t^3 - 2t. find the position s(t) from 0 to t")]
    arguments, text = _run(said, "integral", expression="v", variable="t", lower="0", upper="t")
    assert arguments["upper"] == "t" and text.endswith("= t**4 - t**2")
