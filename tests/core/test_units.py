"""A unit the person wrote after a number is not an unknown: the call in that letter is
refused, the call in a letter of the quantity's own runs."""

from __future__ import annotations

import pytest

from agent.core.units import unit_as_unknown, unit_written
from agent.testing.in_process import InProcessModel
from agent.testing.replies import done, evaluate, solve, tool_call
from tests.core.test_loop import make_agent

AREA = "The length of a rectangle is 9 metres more than its width. Its area is 52 m². Width?"


@pytest.mark.parametrize(
    ("letter", "message", "written"),
    [
        ("m", AREA, "52 m²"),
        ("m", "A round table top has a radius of 5 m. Its area?", "5 m"),
        ("m", "a 12m ladder leans on a wall", "12m"),
        ("m", "a field of 40 m^2, a fence of 30 m", "40 m^2"),
        ("s", "thrown up at 25 m/s from the ground", "25 m/s"),
        ("s", "what is the speed at t = 2 s", "2 s"),
        ("g", "a 250 g bag costs 3 dollars", "250 g"),
    ],
)
def test_a_letter_written_after_a_number_as_a_unit_is_a_unit(
    letter: str, message: str, written: str
) -> None:
    assert unit_written(letter, message) == written


@pytest.mark.parametrize(
    ("letter", "message"),
    [
        ("s", "solve 2s + 3 = 0"),  # an operator follows: a term
        ("m", "solve m^2 - 4 = 0"),
        ("m", "what is 3m + 2 when m = 1"),  # also math elsewhere
        ("h", "h(t) = -5t^2 + 20t + 3 metres, 3 m above the ground"),  # a function too
        ("x", "a 5 x 3 grid"),  # not a unit symbol
        ("m", "solve x^2 = 4"),  # absent
    ],
)
def test_a_letter_anywhere_in_math_is_no_unit(letter: str, message: str) -> None:
    assert unit_written(letter, message) is None


def test_a_call_in_a_unit_letter_is_refused_whatever_field_holds_it() -> None:
    for arguments in (
        {"equation": "52*m^2 = 52", "variable": "m"},
        {"equation": "52*m^2 = 52"},
        {"equations": ["m + w = 9", "w = 3"]},
        {"expression": "pi*r^2", "variable": "m"},
    ):
        refusal = unit_as_unknown(arguments, AREA)
        assert refusal is not None and refusal.startswith("Not run: m is the unit")
        assert "'52 m²'" in refusal
    assert unit_as_unknown({"equation": "w*(w + 9) = 52", "variable": "w"}, AREA) is None


def test_the_loop_refuses_the_unit_and_runs_the_quantity_s_own_letter() -> None:
    """No model aid needed: a unit is never the unknown, for any model."""
    model = InProcessModel(
        [
            solve("52*m^2 = 52", "m"),
            tool_call("solve", equation="w*(w + 9) = 52", variable="w", domain="w > 0"),
            done("The width is 4 m."),
        ]
    )
    turn = make_agent(model).run_turn(AREA)
    refused, ran = (r for _c, r in turn.tool_runs)
    assert not refused.ok and "m is the unit the person wrote in '52 m²'" in refused.text
    assert ran.ok and ran.values == ("4",)
    # the person's own letter m, written as math: the call stands
    model = InProcessModel([evaluate("3m + 2", "1", variable="m"), done("5")])
    ((_c, ran),) = make_agent(model).run_turn("what is 3m + 2 when m = 1?").tool_runs
    assert ran.ok and ran.values == ("5",)
