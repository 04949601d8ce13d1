"""A word problem's call needs an unknown of its own: a call in a unit the person wrote after a
number, or a solve on made-up arithmetic, is refused; the call in the quantity's letter, or
with the quantity's name declared as its unknown, runs."""

from __future__ import annotations

import pytest

from agent.calls.desk import settle
from agent.calls.guards import guards
from agent.calls.pending import PendingCall
from agent.calls.unknowns import no_unknown, unit_as_unknown
from agent.messages import UserMessage
from agent.testing.in_process import InProcessModel
from agent.testing.replies import as_step, done, evaluate, solve, tool_call
from agent.workspace.units import unit_written
from tests.calls.test_desk import _facts
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


TICKETS = (
    "A school play took in $380 from 26 adults and 24 children on the first night and $385 "
    "from 12 adults and 53 children on the second. What does each ticket cost?"
)


def test_a_solve_on_arithmetic_nobody_wrote_is_refused() -> None:
    for arguments in ({"equation": "26 + 24 + 12 + 53 = 115"}, {"equation": "26 + 24"}):
        refusal = no_unknown("solve", arguments, TICKETS)
        assert refusal is not None and refusal.startswith(
            f"Not run: {arguments['equation']} has no unknown."
        )
    system = {"equations": ["26 + 24 = 50", "12 + 53 = 65"]}
    assert no_unknown("solve_system", system, TICKETS) is not None
    # an unknown, an id, a name, another tool, or the person's own arithmetic: the call stands
    for tool, arguments, said in (
        ("solve_system", {"equations": ["26a + 24c = 380", "12a + 53c = 385"]}, TICKETS),
        ("solve", {"equation": "#2 = 4"}, TICKETS),
        ("solve", {"equation": "f(2) = 5"}, TICKETS),
        ("evaluate", {"expression": "26 + 24"}, TICKETS),
        ("solve", {"equation": "2^10 = 1024"}, "is 2^10 = 1024 true?"),
    ):
        assert no_unknown(tool, arguments, said) is None


def test_the_loop_refuses_made_up_arithmetic_and_runs_the_system() -> None:
    model = InProcessModel(
        [
            solve("26 + 24 + 12 + 53 = 115"),
            tool_call(
                "solve_system", equations=["26a + 24c = 380", "12a + 53c = 385"], variables=None
            ),
            done("An adult ticket costs 10 dollars and a child ticket 5 dollars."),
        ]
    )
    turn = make_agent(model).run_turn(TICKETS)
    refused, ran = (r for _c, r in turn.tool_runs)
    assert not refused.ok and "has no unknown" in refused.text
    assert ran.ok and "a = 10" in ran.text and "c = 5" in ran.text


def test_a_long_hostile_message_gives_a_short_refusal() -> None:
    said = "1" * 20_000 + " m, then " + "5 m/s, " * 3_000
    written = unit_written("m", said)
    assert written is not None and written.endswith("11 m") and len(written) < 30
    assert unit_as_unknown({"equation": "m = 1"}, said) is not None


def test_a_squared_unit_of_several_letters_is_no_pair_of_unknowns() -> None:
    said = "A rectangle is 5 cm longer than it is wide; its area is 52 cm². How wide is it?"
    for arguments in ({"equation": "52*c*m^2 = 52"}, {"equation": "52 cm^2 = w*(w + 5)"}):
        refusal = unit_as_unknown(arguments, said)
        assert refusal is not None and refusal.startswith(
            "Not run: cm is the unit the person wrote in '5 cm', not an unknown."
        )
    # its letters one by one are the model's own letters (t for a time, m for a mass)
    assert unit_as_unknown({"equation": "m*t = 5", "variable": "t"}, said) is None
    assert unit_as_unknown({"equation": "f(t) = 5t"}, "from a 6 ft tower") is None
    assert unit_as_unknown({"equation": "w*(w + 5) = 52", "variable": "w"}, said) is None


def _settled(message: str, tool: str, **fields: object) -> str:
    call = PendingCall(as_step(tool_call(tool, **fields)))
    _stored, ran = settle(call, _facts([UserMessage(text=message)]), guards(fit_variable=True))
    return ran.text


def test_a_quantity_the_solve_declares_by_name_is_its_unknown() -> None:
    """A word problem's quantity named as the call's unknown (`side`, `adults`) is one
    unknown, as the tools read it, not English refused."""
    square = "A square garden has an area of 144 m^2. How long is each side?"
    text = _settled(square, "solve", equation="side^2 = 144", variable="side")
    assert text == "side = -12, side = 12"
    tickets = "Adult tickets cost $12, kids' $7; 100 sold for $1000. How many adult tickets?"
    equations = ["adults + kids = 100", "12*adults + 7*kids = 1000"]
    text = _settled(tickets, "solve_system", equations=equations, variables=["adults", "kids"])
    assert text == "adults = 60, kids = 40"


@pytest.mark.parametrize(
    ("equation", "variable"),
    [("height = 0", "height"), ("width*(width + 3) = 40", "w"), ("area = 3*side", "side")],
)
def test_a_word_the_call_does_not_declare_or_only_names_is_still_refused(
    equation: str, variable: str
) -> None:
    message = "a rectangle's width w and length w + 3 have area 40; a ball's height h(t)"
    text = _settled(message, "solve", equation=equation, variable=variable)
    assert "is a word, not math" in text
